// Robustness against SC (doc/model-notes.md §N21): is every M-consistent
// trace, each thread possibly cut before a test, acyclic in po ∪ rf ∪ mo ∪ rb?
// Encoding (B) of §4.3: one satisfiability query per skeleton (prefixes
// included), asking for a consistent execution with such a cycle.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/check.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

// How much of its path a thread of the witness ran (doc/model-notes.md §N25, Witness).
struct ThreadCut {
    std::string thread;  // its name in the test
    size_t kept = 0;    // events of the cut path
    size_t length = 0;  // events of the longest path of the thread it is a prefix of
};

// A thread visit of the cycle whose po segment the model does not order (§5, Relaxed).
struct RelaxedSegment {
    int entry = -1, exit = -1;  // events; exit is po-after entry
    std::string cell;           // the model's table cell of (entry, exit), e.g. "G1 ✗"; "" without a table
};

struct RobustnessWitness {
    ExecutionGraph execution;
    std::vector<Location> locations;
    std::vector<ThreadCut> cuts;  // per thread
    std::vector<ObservedName> names;
    FinalState state;  // over names (shownNames of the test), at the cut
    std::vector<std::string> addresses;  // the test's (LitmusTest::addresses), to print the state
    // po, rf, mo, rb edges, the last ending where the first starts; each thread
    // visited once, po edges immediate.
    std::vector<RelationEdge> cycle;
    std::vector<RelaxedSegment> relaxed;

    bool cut() const;  // some thread stopped before its path's end
};

struct RobustnessResult {
    std::string test, model;
    int unroll = 0;
    std::optional<RobustnessWitness> witness;  // none: robust (up to the bound if a loop was cut)
    std::vector<SourceLoc> cutLoops;  // loops the bound cut (searched only when robust)
    double seconds = 0;
    bool robust() const { return !witness; }
};

// InputError for tests outside the robustness paper's programs (work
// identifiers, library calls: doc/model-notes.md §N23).
RobustnessResult checkRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options);

// A shortest cycle of po ∪ rf ∪ mo ∪ rb in ex, as RobustnessWitness::cycle
// says, starting at the entry of its first thread's visit; empty if none.
std::vector<RelationEdge> shortestScCycle(const ExecutionGraph& ex);

// Whether `sc` reaches the witness's state (over the test's shown names), at
// any cut when the witness is a cut trace: if not, the violation is also
// observable in the final state (doc/model-notes.md §N25, Observable).
bool scReachesState(const LitmusTest& test, const RobustnessWitness& w, const Model& sc, const CheckOptions& options);

}  // namespace rdmacheck
