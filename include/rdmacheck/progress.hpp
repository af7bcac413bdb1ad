// Progress on stderr for long runs: silent for the first interval (a second
// unless --progress-interval says otherwise; most runs end before), then at
// most a line an interval. Only on a terminal unless --progress: in a log
// (mapply7's, CI's) the lines are clutter.
#pragma once
#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <unistd.h>

namespace rdmacheck {

class ProgressLine {
public:
    ProgressLine(std::string what, bool enabled) : what_(std::move(what)), enabled_(enabled) {}

    // The process's interval in seconds, 1 by default. 0 prints a line at
    // every tick: a test can then see a progress line whatever its machine's speed.
    static double& interval() {
        static double seconds = 1;
        return seconds;
    }

    // --progress: lines also when stderr is not a terminal.
    static bool& always() {
        static bool on = false;
        return on;
    }
    static bool shown() {
        static const bool terminal = ::isatty(2) != 0;
        return always() || terminal;
    }

    // Prints "rdmacheck: WHAT: describe(seconds)" when a line is due.
    template <class Describe>
    void tick(const Describe& describe) {
        if (!enabled_ || !shown()) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::duration<double>(interval())) return;
        last_ = now;
        std::cerr << "rdmacheck: " << what_ << ": " << describe(std::chrono::duration<double>(now - start_).count())
                  << "\n" << std::flush;
    }

    // count / seconds, for a rate in a line: 0 at 0 s (a line at the first tick).
    static uint64_t perSecond(uint64_t count, double seconds) {
        return seconds > 0 ? static_cast<uint64_t>(static_cast<double>(count) / seconds) : 0;
    }

private:
    std::string what_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_ = start_;
};

}  // namespace rdmacheck
