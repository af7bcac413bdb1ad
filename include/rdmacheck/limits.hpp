// Limits. The input limits are checked where the input is read and reported as
// positioned InputErrors, so no input can overflow the stack, wrap a number or
// grow without bound before a check; the resource limits (time, memory) stop a
// test's run in either engine (README "Limits" lists them all).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

// Nested blocks, parentheses and `~` in one test: every later stage walks the
// tree recursively, so its depth is the recursion depth.
constexpr int kMaxNesting = 100;
// Binary and unary operators in one expression: a chain `1+1+...` builds a tree
// as deep as it is long.
constexpr int kMaxExpressionOperators = 1000;
// Node numbers are 1..kMaxNode; thread numbers (X86 `P<n>`, `<n>:REG`) 0..kMaxThread.
constexpr long long kMaxNode = 4096;
constexpr long long kMaxThread = 4096;

// What one test may use: wall-clock seconds and resident memory (0: no limit).
// Both engines check them as they go and stop with an InputError at the test.
struct ResourceLimits {
    double seconds = 0;
    size_t megabytes = 4096;
};

// A test stopped by a resource limit, --timeout or --max-memory (an
// InputError: exit 2, at the test): the answer is unknown, not wrong.
class LimitError : public InputError {
public:
    using InputError::InputError;
};

// A test stopped by --timeout.
class TimeoutError : public LimitError {
public:
    using LimitError::LimitError;
};

class ResourceGuard {
public:
    ResourceGuard(const std::string& file, const ResourceLimits& limits)
        : file_(file), limits_(limits), start_(std::chrono::steady_clock::now()) {}

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    bool expired() const { return limits_.seconds > 0 && elapsed() >= limits_.seconds; }
    // Milliseconds left for one solver call; 0 means no limit.
    unsigned remainingMilliseconds() const {
        if (limits_.seconds <= 0) return 0;
        const double left = limits_.seconds - elapsed();
        return left <= 0.001 ? 1 : static_cast<unsigned>(left * 1000);
    }

    [[noreturn]] void timeout() const {
        throw TimeoutError(SourceLoc{file_, 1, 1}, "timeout: no answer within " + seconds() + " s (--timeout)");
    }

    // Throws past either limit. Memory is read at most every 20 ms: it costs a read of /proc.
    void check() const {
        if (expired()) timeout();
        const auto now = std::chrono::steady_clock::now();
        if (limits_.megabytes == 0 || now - lastMemoryCheck_ < std::chrono::milliseconds(20)) return;
        lastMemoryCheck_ = now;
        if (residentMegabytes() > limits_.megabytes)
            throw LimitError(SourceLoc{file_, 1, 1}, "memory limit of " + std::to_string(limits_.megabytes) +
                                                         " MiB reached (--max-memory)");
    }

    // Resident memory of this process (Linux /proc; 0 where unknown).
    static size_t residentMegabytes() {
        std::ifstream statm("/proc/self/statm");
        size_t pages = 0, resident = 0;
        if (!(statm >> pages >> resident)) return 0;
        return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
    }

    // The time limit as written: "0.5", "8".
    std::string seconds() const {
        std::string s = std::to_string(limits_.seconds);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    }

private:
    std::string file_;
    ResourceLimits limits_;
    std::chrono::steady_clock::time_point start_;
    mutable std::chrono::steady_clock::time_point lastMemoryCheck_{};
};

}  // namespace rdmacheck
