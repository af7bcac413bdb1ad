#include "common.hpp"

#include <cctype>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <sstream>
#include <z3++.h>

#include "rdmacheck/encode.hpp"
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

int reportError(std::ostream& err, const std::string& file) {
    try {
        throw;
    } catch (const InputError& e) {
        err << e.what() << "\n";
    } catch (const SolverGaveUp& e) {
        err << file << ": error: the solver gave up (" << e.what() << ")\n";
    } catch (const std::bad_alloc&) {
        err << file << ": error: out of memory (lower --max-memory to stop earlier, or simplify the test)\n";
    } catch (const std::filesystem::filesystem_error& e) {
        err << file << ": error: " << e.what() << "\n";
    } catch (const z3::exception& e) {
        if (std::string(e.msg()).find("memory") != std::string::npos) {  // Z3's memory_max_size
            err << file << ": error: the solver ran out of memory (--max-memory)\n";
            return 2;
        }
        err << "rdmacheck: internal error in " << file << ": solver failure: " << e.msg() << "\n";
        return 3;
    } catch (const std::exception& e) {
        err << "rdmacheck: internal error in " << file << ": " << e.what() << "\n";
        return 3;
    } catch (...) {
        err << "rdmacheck: internal error in " << file << "\n";
        return 3;
    }
    return 2;
}

nlohmann::json errorRecord(const std::exception_ptr& thrown, const std::string& file, const std::string& text,
                           int exitCode) {
    try {
        std::rethrow_exception(thrown);
    } catch (const InputError& e) {
        return rdmacheck::errorRecord(e.where(), e.detail(), exitCode);
    } catch (...) {
        std::string message = text.substr(0, text.find_last_not_of('\n') + 1);
        const std::string prefix = file + ": error: ";
        if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
        return rdmacheck::errorRecord(SourceLoc{file, 0, 0}, message, exitCode);
    }
}

}  // namespace rdmacheck::cli
