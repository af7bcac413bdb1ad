// What the commands of the rdmacheck executable share: running files in
// parallel with output in input order, and reporting a test's error.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <nlohmann/json.hpp>
#include <mutex>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck::cli {

// Runs work(i) for i in [0, n) on `jobs` threads, this one among them;
// output(i, result) then runs on this thread in order of i. A worker wakes
// this thread only when it waits for that very result: a wake-up per test
// cost 8% of the 487 x86 tests' time (on one job there is no other thread).
template <class Result, class Work, class Output>
void forEachInOrder(size_t n, int jobs, const Work& work, const Output& output) {
    std::vector<Result> results(n);
    std::vector<bool> done(n, false);
    std::atomic<size_t> next{0};
    std::mutex mutex;  // guards results, done and awaited
    std::condition_variable ready;
    size_t awaited = n;  // the result this thread waits for; n: none
    auto takeOne = [&]() {
        const size_t i = next++;
        if (i >= n) return false;
        Result r = work(i);
        std::lock_guard<std::mutex> lock(mutex);
        results[i] = std::move(r);
        done[i] = true;
        if (i == awaited) ready.notify_one();
        return true;
    };
    std::vector<std::thread> pool;
    try {
        for (int j = 1; j < jobs; ++j) pool.emplace_back([&] {
            while (takeOne()) {
            }
        });
    } catch (const std::system_error&) {
        // No more threads to be had (ulimit -v, -u): the ones made and this one do the work.
    }
    for (size_t i = 0; i < n; ++i) {
        std::unique_lock<std::mutex> lock(mutex);
        while (!done[i]) {
            lock.unlock();
            const bool took = takeOne();
            lock.lock();
            if (took) continue;
            awaited = i;
            ready.wait(lock, [&] { return done[i]; });
            awaited = n;
        }
        Result r = std::move(results[i]);
        lock.unlock();
        output(i, r);
    }
    for (std::thread& t : pool) t.join();
}

// A file name made from a test name: other characters become '_', and a long
// name is cut (file systems take 255 bytes), with a hash of the whole to keep it apart.
std::string fileStem(const std::string& testName);

// Makes the directory an option names (nothing to do for ""); false after an error.
bool makeDirectory(const char* option, const std::string& dir);

// An option's value is wrong (an unknown model), or the file it names is (a
// model file's line and column).
void printOptionError(const char* option, const InputError& e);

// What checking `file` threw, for the user: where, what, and the exit code
// (2 for the input, an option or a limit, 3 for a bug in rdmacheck).
struct TestError {
    SourceLoc where;
    std::string message;
    int exitCode = 2;
    bool timeout = false;  // --timeout stopped the test

    std::string text() const;         // the line on stderr
    nlohmann::json record() const;    // the same as a JSON record
};

// The command boundary: classifies the exception being handled (call it in a
// catch block).
TestError describeError(const std::string& file);
// describeError, printed on `err`; returns the exit code.
int reportError(std::ostream& err, const std::string& file);

// Ends the process with `code` once its output is flushed (2 if it could not
// be written), without destroying what it built (under AddressSanitizer it
// returns that code instead).
int finish(int code);

}  // namespace rdmacheck::cli
