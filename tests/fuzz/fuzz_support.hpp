// What the libFuzzer targets share: a finding aborts, so that libFuzzer records
// the input as a crash, and the entry point's handling of an input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace rdmacheck::fuzz {

[[noreturn]] inline void fail(const char* target, const std::string& stage, const std::string& what,
                              const std::string& text = "") {
    std::fprintf(stderr, "%s: %s: %s\n", target, stage.c_str(), what.c_str());
    if (!text.empty()) std::fprintf(stderr, "----- text -----\n%s\n----------------\n", text.c_str());
    std::abort();
}

// An input of at most `maxInput` bytes (a larger one is not added to the
// corpus) through `run`, which returns libFuzzer's answer; any exception
// escaping it is a finding.
template <class Run>
int runInput(const char* target, const uint8_t* data, size_t size, size_t maxInput, const Run& run) {
    if (size > maxInput) return -1;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        return run(text);
    } catch (const std::exception& e) {
        fail(target, "uncaught exception", e.what());
    } catch (...) {
        fail(target, "uncaught exception", "not a std::exception");
    }
}

}  // namespace rdmacheck::fuzz
