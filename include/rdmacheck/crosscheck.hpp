// Engines checking each other: run several (engine, model) configurations on a
// test and report where their sets of final states differ, with a shrunk
// reproducer. Final states are compared over every location and register, not
// only the condition's.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/limits.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/result.hpp"

namespace rdmacheck {

struct EngineConfig {
    std::string engine;  // declarative, concrete, simplified; concrete-full, simplified-full: without reduction
    std::string model;

    std::string label() const { return engine + ":" + model; }
};

// "declarative:rdma-tso,concrete:rdma-tso"; InputError (no location) when malformed.
std::vector<EngineConfig> parseEngineConfigs(const std::string& spec);

struct CrossOptions {
    std::vector<EngineConfig> configs;
    bool againstFirst = false;  // compare every config with the first, not only with the first of its model
    int unroll = 2;
    uint64_t maxStates = 20'000'000;
    bool shrink = true;
    ResourceLimits limits;  // each run of each configuration
};

struct Difference {
    EngineConfig first, second;
    std::vector<ObservedName> names;
    std::vector<std::string> addresses;  // the test's (LitmusTest::addresses), to print the states
    std::vector<FinalState> onlyFirst, onlySecond;
    std::string reproducer;  // litmus text of a shrunk test that still shows a difference
};

// Loads the models the configs name (InputError for unknown ones), within `limits`.
std::map<std::string, Model> loadConfigModels(const std::vector<EngineConfig>& configs, const ModelSearchPath& modelPath,
                                              const ResourceLimits& limits);

// Runs one configuration with every location and register shown.
CheckResult runConfig(const LitmusTest& test, const EngineConfig& config, const Model& model,
                      const CrossOptions& options);

// The first difference between configurations on this test, if any. InputError
// propagates (a bad test is not a difference).
std::optional<Difference> crossCheck(const LitmusTest& test, const std::map<std::string, Model>& models,
                                     const CrossOptions& options);

}  // namespace rdmacheck
