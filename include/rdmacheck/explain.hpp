// Why an outcome is forbidden: the candidate executions that reach it (rf, mo
// and values agree, the axioms left out), each with the shortest cycle that
// breaks one of the model's axioms.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/limits.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/names.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

// The shortest cycle among the clock constraints of ex under model (I <= O and
// I = O on instantaneous events included), or none if ex is consistent.
std::optional<Cycle> shortestViolation(const ExecutionGraph& ex, const Model& model);

struct Explanation {
    FinalState state;
    // One (execution, cycle) when a cycle avoids nfo and rao (the execution then
    // has neither: the cycle holds for every choice); otherwise one per choice of
    // nfo directions and rao orders.
    std::vector<ExecutionGraph> executions;
    std::vector<Cycle> cycles;
};

struct ExplainResult {
    bool applicable = false;   // no consistent execution reaches the outcome
    std::string outcome;       // the condition explained, herd7 style
    uint64_t candidates = 0;   // candidate executions that reach it
    bool truncated = false;    // stopped at the candidate limit
    std::vector<Location> locations;
    std::vector<Explanation> shown;
};

struct ExplainOptions {
    int unroll = 2;
    size_t maxShown = 3;
    uint64_t maxCandidates = 100'000;
    size_t maxEvents = CheckOptions().maxEvents;  // --max-events, as the check it explains
    ResourceLimits limits;  // --timeout, --max-memory: for the whole explanation
};

// The outcome is the condition (exists, ~exists) or its negation (forall).
ExplainResult explain(const LitmusTest& test, const Model& model, const ExplainOptions& options);

}  // namespace rdmacheck
