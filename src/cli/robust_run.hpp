// The robust command: robustness against SC per test (doc/model-notes.md §N21, §N25),
// as a herd7-style block or a JSON record, its witness drawn, and repairs.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "check_run.hpp"

namespace rdmacheck::cli {

struct RobustRunOptions {
    std::string modelName;  // empty: rdma-sc for RDMA tests, tso for X86 tests
    ModelSearchPath modelPath;
    CheckOptions check;
    std::string dotDir, renderFormat;  // --dot DIR, --render svg|png
    bool json = false, noTime = false;
    bool repair = false;
    int repairMax = 4;         // insertions tried at most
    std::string repairDir = ".";  // --repair-dir: the repaired programs' folder
};

// Exit 0 when every test is robust (or repaired, with --repair), 1 when one is
// not, 2 on bad input or a limit; `jobs` files at a time, reports in order.
int runRobust(const std::vector<std::string>& files, const RobustRunOptions& options, int jobs);

struct RobustFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    RobustRunOptions options;
    int jobs = 1;

    void add(CLI::App& app, CheckFlags& check, ResourceLimits& limits);
    int run(const CheckFlags& check);
};

}  // namespace rdmacheck::cli
