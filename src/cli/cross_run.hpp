// The cross command: several engine:model configurations on the same tests
// (files and random ones), their differences reported with a shrunk reproducer.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "rdmacheck/crosscheck.hpp"
#include "generate_run.hpp"
#include "options.hpp"

namespace rdmacheck::cli {

struct CrossFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    std::string configs =
        "declarative:rdma-tso,concrete:rdma-tso,simplified:rdma-tso,"
        "declarative:rdma-tso-nopcie,concrete:rdma-tso-nopcie,simplified:rdma-tso-nopcie";
    CrossOptions options;
    int randomCount = 0, jobs = defaultJobs();
    uint64_t seed = 1;
    bool noShrink = false, json = false;
    std::string reproDir;
    GeneratorFlags generator;

    void add(CLI::App& app, std::vector<std::string>& modelsDirs, ResourceLimits& limits);
    int run(const ModelSearchPath& modelPath, const ResourceLimits& limits);
};

}  // namespace rdmacheck::cli
