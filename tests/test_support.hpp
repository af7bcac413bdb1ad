// Helpers shared by the test programs.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
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

struct ToolRun {
    int status = -1;
    std::string out, err;
};

// Runs the rdmacheck executable with `args` (shell words).
inline ToolRun runTool(const std::string& args) {
    const std::string errFile = std::filesystem::temp_directory_path() / ("rdmacheck-err-" + std::to_string(::getpid()));
    std::string cmd = std::string(RDMACHECK_BINARY) + " " + args + " 2>" + errFile;
    ToolRun r;
    FILE* p = ::popen(cmd.c_str(), "r");
    std::array<char, 4096> buf{};
    for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    int status = ::pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = readFile(errFile);
    std::filesystem::remove(errFile);
    return r;
}

}  // namespace rdmacheck::testing
