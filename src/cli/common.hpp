// What the commands of the rdmacheck executable share: running files in
// parallel with output in input order, and reporting a test's error.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <nlohmann/json.hpp>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck::cli {

// Runs work(i) for i in [0, n) on `jobs` threads; output(i, result) then runs in order of i.
template <class Result, class Work, class Output>
void forEachInOrder(size_t n, int jobs, const Work& work, const Output& output) {
    std::vector<Result> results(n);
    std::vector<bool> done(n, false);
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable ready;
    auto worker = [&]() {
        for (size_t i; (i = next++) < n;) {
            Result r = work(i);
            std::lock_guard<std::mutex> lock(mutex);
            results[i] = std::move(r);
            done[i] = true;
            ready.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (int j = 0; j < std::max(1, jobs); ++j) pool.emplace_back(worker);
    for (size_t i = 0; i < n; ++i) {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [&] { return done[i]; });
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

// The command boundary: what checking `file` threw, as a message on `err` and
// an exit code: 2 for the input, an option or a limit, 3 for a bug in rdmacheck.
int reportError(std::ostream& err, const std::string& file);

// The same error as a JSON record: an InputError's position and message, or
// the file and `text` (what reportError printed) for anything else.
nlohmann::json errorRecord(const std::exception_ptr& thrown, const std::string& file, const std::string& text,
                           int exitCode);

}  // namespace rdmacheck::cli
