// Limits. The input limits are checked where the input is read and reported as
// positioned InputErrors, so no input can overflow the stack, wrap a number or
// grow without bound before a check; the resource limits (time, memory) stop a
// test's run in either engine (doc/user-guide.md, "Limits", lists them all).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

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
// A model file (and each file it includes) in bytes, and the definitions and
// axioms of a model with its includes: far above any cat file, and low enough
// that reading a model takes a bounded time and memory.
constexpr size_t kMaxModelBytes = 4 * 1024 * 1024;
constexpr size_t kMaxModelItems = 100'000;
// Axioms of a model: each is a clock or a constraint over every execution's
// events in the solver, so they bound the work of each test (herd7's own cat
// files have fewer than 20).
constexpr size_t kMaxModelAxioms = 1000;
// A definition or axiom: operators nested, counting through the definitions it
// uses (`let d1 = d0 | d0` is one deeper than d0); every stage after reading
// walks the model recursively, so this is its recursion depth.
constexpr size_t kMaxModelDepth = 1000;
// Operators the model's definitions and axioms expand to once its functions
// are applied (a function applied twice in its own body doubles its text),
// each with the operands copied into it, and the functions applied.
constexpr size_t kMaxModelOperators = 1'000'000;

// What one test may use: wall-clock seconds and resident memory (0: no limit).
// Both engines check them as they go and stop with a LimitError at the test.
struct ResourceLimits {
    double seconds = 0;
    size_t megabytes = 4096;
};
// The largest --max-memory: 1 TiB (a larger number is a usage error).
constexpr size_t kMaxMegabytes = size_t(1) << 20;

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

// The memory bound, watched for the whole process: one thread reads the resident
// size every few milliseconds and, past the bound (or near the address-space
// limit, ulimit -v, where allocation would fail), counts a trip and interrupts
// every registered solver, so that no single solver call or allocation-heavy
// step can run past it. Each test's ResourceGuard compares the count with its
// own start, so a trip ends the tests under way and leaves later ones alone.
// Z3's own memory_max_size is not used: past it Z3 cannot make a context and
// may abort.
namespace memory_watch {
// Sets the bound (0: none) and starts the watching thread once; after a trip,
// first gives the allocator's free memory back to the system, so that a test
// after one stopped at the bound starts under it.
void watch(size_t megabytes);
// Trips so far.
uint64_t trips();
// Calls `stop` on every later trip until forget(id); thread-safe.
size_t onTrip(std::function<void()> stop);
void forget(size_t id);
// Which bound the last trip passed, for the error: --max-memory's `megabytes`
// (resident size), or 90% of the address-space limit (ulimit -v; virtual size).
std::string boundText(size_t megabytes);
// Resident size of this process, MiB (/proc; 0 where unknown).
size_t residentMegabytes();
// Gives the allocator's free memory back to the system (after dropping what a
// stopped test held).
void release();
}  // namespace memory_watch

class ResourceGuard {
public:
    // `unfinished` says what a timeout stops ("no answer" for a test).
    ResourceGuard(const std::string& file, const ResourceLimits& limits, std::string unfinished = "no answer")
        : file_(file), limits_(limits), unfinished_(std::move(unfinished)), start_(std::chrono::steady_clock::now()) {
        memory_watch::watch(limits.megabytes);
        trips_ = memory_watch::trips();
    }

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    bool expired() const { return limits_.seconds > 0 && elapsed() >= limits_.seconds; }
    // Whether the memory bound was passed since this test started; the first
    // call also measures, for a test shorter than the watch's period.
    bool memoryTripped() const {
        if (memory_watch::trips() != trips_) return true;
        if (measured_ || limits_.megabytes == 0) return false;
        measured_ = true;
        return memory_watch::residentMegabytes() > limits_.megabytes;
    }
    // Milliseconds left for one solver call; 0 means no limit.
    unsigned remainingMilliseconds() const {
        if (limits_.seconds <= 0) return 0;
        const double left = limits_.seconds - elapsed();
        return left <= 0.001 ? 1 : static_cast<unsigned>(left * 1000);
    }

    [[noreturn]] void timeout() const { timeout(SourceLoc{file_, 1, 1}); }
    [[noreturn]] void timeout(const SourceLoc& at) const {
        throw TimeoutError(at, "timeout: " + unfinished_ + " within " + seconds() + " s (--timeout)");
    }
    [[noreturn]] void outOfMemory() const { outOfMemory(SourceLoc{file_, 1, 1}); }
    [[noreturn]] void outOfMemory(const SourceLoc& at) const {
        throw LimitError(at, memory_watch::boundText(limits_.megabytes));
    }

    // Throws past either limit, at the file's start or at `at`.
    void check() const { check(SourceLoc{file_, 1, 1}); }
    void check(const SourceLoc& at) const {
        if (expired()) timeout(at);
        if (memoryTripped()) outOfMemory(at);
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
    std::string unfinished_;
    std::chrono::steady_clock::time_point start_;
    uint64_t trips_ = 0;
    mutable bool measured_ = false;
};

}  // namespace rdmacheck
