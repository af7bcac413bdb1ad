// Progress on stderr for long runs: silent for the first second (most runs
// end before), then at most a line a second.
#pragma once
#include <chrono>
#include <iostream>
#include <string>

namespace rdmacheck {

class ProgressLine {
public:
    ProgressLine(std::string what, bool enabled) : what_(std::move(what)), enabled_(enabled) {}

    // Prints "rdmacheck: WHAT: describe(seconds)" when a line is due.
    template <class Describe>
    void tick(const Describe& describe) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::seconds(1)) return;
        last_ = now;
        std::cerr << "rdmacheck: " << what_ << ": " << describe(std::chrono::duration<double>(now - start_).count())
                  << "\n" << std::flush;
    }

private:
    std::string what_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_ = start_;
};

}  // namespace rdmacheck
