// The diy command: tests from cycles of edges, in diy7's conventions.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rdmacheck::cli {

struct DiyFlags {
    CLI::App* command = nullptr;
    std::string arch = "X86";
    std::vector<std::string> cycles;  // --cycle "E E ...", each one test
    int size = 0;                     // --size N: every cycle of at most N edges
    std::vector<std::string> safe, relax;
    std::string outDir;

    void add(CLI::App& app);
    int run();
};

}  // namespace rdmacheck::cli
