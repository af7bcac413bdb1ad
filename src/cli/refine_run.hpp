// The refine command: an implementation's outcomes against its specification's.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "check_run.hpp"

namespace rdmacheck::cli {

struct RefineFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    std::string implementations = "sv", implModelName;
    bool printImplementation = false;

    void add(CLI::App& app, CheckFlags& check, ResourceLimits& limits);
    int run(const CheckFlags& check) const;
};

}  // namespace rdmacheck::cli
