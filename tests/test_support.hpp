// Helpers shared by the test programs.
#pragma once

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

#include "rdmacheck/check.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck::testing {

inline std::string sourceDir() { return RDMACHECK_SOURCE_DIR; }
inline std::string sharedDir() { return RDMACHECK_SHARED_DIR; }
inline std::string modelsDir() { return sourceDir() + "/models"; }

// The .litmus files below dir, sorted so that failures name them in a stable order.
inline std::vector<std::string> litmusFiles(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".litmus") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline CheckResult run(const std::string& text, const std::string& model, int unroll = 2) {
    LitmusTest test = parseLitmus(text, "test.litmus");
    CheckOptions options;
    options.unroll = unroll;
    return check(test, loadModel(modelsDir(), model), options);
}

// Statements of a block or test, counting those inside if, choice and loops.
inline size_t statementCount(const Block& block) {
    size_t n = 0;
    for (const Stmt& st : block) {
        n += 1 + statementCount(st.body) + statementCount(st.orelse);
        for (const Block& branch : st.branches) n += statementCount(branch);
    }
    return n;
}

inline size_t statementCount(const LitmusTest& test) {
    size_t n = 0;
    for (const ThreadDecl& thread : test.threads) n += statementCount(thread.body);
    return n;
}

// A fresh, empty directory of its own under the temporary directory ($TMPDIR),
// removed with everything in it when the guard goes out of scope, also when an
// assertion fails or an exception leaves the test.
class TempDir {
public:
    explicit TempDir(const std::string& tag) {
        std::string pattern = (std::filesystem::temp_directory_path() / ("rdmacheck-" + tag + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    // A path inside the directory.
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

struct ToolRun {
    int status = -1;
    std::string out, err;
};

// Runs the rdmacheck executable with `args` (shell words); `env` (shell words
// NAME=VALUE) is put before the command.
inline ToolRun runTool(const std::string& args, const std::string& env = "") {
    const TempDir dir("err");
    const std::string errFile = dir / "stderr";
    const std::string cmd = env + " " + std::string(RDMACHECK_BINARY) + " " + args + " 2>" + errFile;
    ToolRun r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) throw std::runtime_error("popen " + cmd + ": " + std::strerror(errno));
    std::array<char, 4096> buf{};
    for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    int status = ::pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = readFile(errFile);
    return r;
}

}  // namespace rdmacheck::testing
