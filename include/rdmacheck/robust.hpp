// Robustness against SC (shared/spec/ROBUSTNESS.md §4): is every M-consistent
// trace, each thread possibly cut before a test, acyclic in po ∪ rf ∪ mo ∪ rb?
// Method (A) of §4.3: every consistent execution of every skeleton (prefixes
// included) is searched for such a cycle.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/check.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

struct RobustnessWitness {
    ExecutionGraph execution;
    std::vector<Location> locations;
    std::vector<RelationEdge> cycle;  // po, rf, mo, rb edges, the last ending where the first starts
};

struct RobustnessResult {
    std::string test, model;
    int unroll = 0;
    uint64_t executions = 0;  // consistent executions searched (up to the witness)
    std::optional<RobustnessWitness> witness;  // none: robust (up to the bound if a loop was cut)
    std::vector<SourceLoc> cutLoops;  // loops the bound cut (searched only when robust)
    double seconds = 0;
    bool robust() const { return !witness; }
};

// InputError for tests outside the robustness paper's programs (work
// identifiers, library calls: ROBUSTNESS.md §4.5).
RobustnessResult checkRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options);

// The witness's cycle as text: "P0:a lR y=0 -rb-> P1:b nrW y=1 -po-> ...".
std::string cycleText(const RobustnessWitness& w);

}  // namespace rdmacheck
