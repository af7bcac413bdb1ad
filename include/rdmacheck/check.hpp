// Stage 4: enumerate every consistent execution of every skeleton, and collect
// the final states, the condition's verdict and herd7's execution counts.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

struct CheckOptions {
    int unroll = 2;
    uint64_t maxExecutions = 10'000'000;  // stop with an error past this many
};

// A final state: the values of the shown names, in CheckResult::shown order.
using FinalState = std::vector<long long>;

struct CheckResult {
    std::string test;
    std::string model;
    Quantifier quantifier = Quantifier::Exists;
    std::vector<ObservedName> shown;      // registers (by thread) first, then locations by name
    std::map<FinalState, bool> states;    // state -> satisfies the condition
    uint64_t positive = 0;                // consistent executions satisfying the condition
    uint64_t negative = 0;
    bool ok = false;
    std::vector<SourceLoc> cutLoops;      // loops whose unroll bound cut consistent executions
    double seconds = 0;

    const char* observation() const;  // Never / Sometimes / Always
};

// Called for each consistent execution kept by the filter (for graphs and tests).
using ExecutionVisitor =
    std::function<void(const Skeleton&, const Execution&, const FinalState&, bool satisfies)>;

CheckResult check(const LitmusTest& test, const Model& model, const CheckOptions& options,
                  const ExecutionVisitor& visit = nullptr);

// Evaluates a condition on a final state; `lookup` gives an atom's value.
bool evalCondition(const Cond& c, const std::function<long long(const Cond& atom)>& lookup);

}  // namespace rdmacheck
