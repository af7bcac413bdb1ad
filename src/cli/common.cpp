#include "common.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <sstream>

#include "rdmacheck/encode.hpp"
#include "rdmacheck/limits.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck::cli {

std::string fileStem(const std::string& testName) {
    std::string stem;
    for (char c : testName) stem += std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.' ? c : '_';
    constexpr size_t kMaxStem = 100;
    if (stem.size() > kMaxStem) {
        std::ostringstream hash;
        hash << std::hex << std::hash<std::string>{}(testName);
        stem = stem.substr(0, kMaxStem) + "-" + hash.str();
    }
    return stem;
}

bool makeDirectory(const char* option, const std::string& dir) {
    std::error_code ec;
    if (dir.empty() || std::filesystem::create_directories(dir, ec) || std::filesystem::is_directory(dir, ec))
        return true;
    std::cerr << "rdmacheck: error: " << option << ": cannot make directory " << dir
              << (ec ? ": " + ec.message() : "") << "\n";
    return false;
}

void printOptionError(const char* option, const InputError& e) {
    if (e.where().line == 0) {
        std::cerr << "rdmacheck: error: " << option << ": " << e.detail() << "\n";
    } else {
        std::cerr << e.what() << "\n";
    }
}

TestError describeError(const std::string& file) {
    const SourceLoc whole{file, 0, 0};
    try {
        throw;
    } catch (const TimeoutError& e) {
        return {e.where(), e.detail(), 2, true};
    } catch (const InputError& e) {  // one without a place is about the whole test
        return {e.where().file.empty() ? whole : e.where(), e.detail()};
    } catch (const std::bad_alloc&) {
        return {whole, "out of memory (lower --max-memory to stop earlier, or simplify the test)"};
    } catch (const std::filesystem::filesystem_error& e) {
        return {whole, e.what()};
    } catch (const SolverFailure& e) {
        if (std::string(e.what()).find("memory") != std::string::npos)  // Z3 out of memory (ulimit -v)
            return {whole, "the solver ran out of memory (--max-memory)"};
        return {whole, std::string("solver failure: ") + e.what(), 3};
    } catch (const std::exception& e) {
        return {whole, e.what(), 3};
    } catch (...) {
        return {whole, "", 3};
    }
}

std::string TestError::text() const {
    if (exitCode == 3) return printable("rdmacheck: internal error in " + where.file + (message.empty() ? "" : ": " + message));
    return where.str() + ": error: " + printable(message);
}

nlohmann::json TestError::record() const {
    return errorRecord(where, exitCode == 3 ? text() : message, exitCode, timeout);
}

int reportError(std::ostream& err, const std::string& file) {
    const TestError e = describeError(file);
    err << e.text() << "\n";
    return e.exitCode;
}

#if defined(__SANITIZE_ADDRESS__)
#define RDMACHECK_TEARDOWN_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RDMACHECK_TEARDOWN_CHECKED 1
#endif
#endif

// The Z3 contexts, models and caches are the process's to its end: freeing
// them term by term took 6% of the 487 x86 tests' user time
// (doc/performance.md), as compilers skip it too. Under AddressSanitizer the
// teardown runs, so that LeakSanitizer still sees what a command forgot.
// Output that could not be written (a full disk, a closed pipe) is an error,
// not a success with a report cut short.
int finish(int code) {
    std::cout.flush();
    if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
        std::cerr << "rdmacheck: error: the output could not be written: " << std::strerror(errno) << "\n";
        if (code == 0 || code == 1) code = 2;
    }
    std::cerr.flush();
#ifndef RDMACHECK_TEARDOWN_CHECKED
    std::fflush(nullptr);
    std::_Exit(code);
#endif
    return code;
}

}  // namespace rdmacheck::cli
