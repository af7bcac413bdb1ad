// Why an outcome is forbidden: the candidate executions that reach it (rf, mo
// and values agree, the axioms left out), each with the shortest cycle that
// breaks one of the model's axioms.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/limits.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

// herd7-style event names: a, b, c, ... over the threads' events in order;
// "init" for initial writes.
std::string eventName(const ExecutionGraph& ex, int event);
// e.g. "c: nrW y=1 →2", "init x=0".
std::string eventLabel(const ExecutionGraph& ex, const std::vector<Location>& locations, int event);

// A cycle of clock edges; `axiom` names what it breaks: a clock's axiom (ib, ob
// for RDMA^TSO; uniproc, ghb for tso; sc), the tied clocks' inst-ib-ob, or an
// irreflexive or empty axiom the general encoding checks.
// An empty axiom's witness is one edge, not a cycle (closed is false).
struct Cycle {
    std::string axiom;
    std::vector<RelationEdge> edges;  // edges[i].to == edges[i+1].from, last.to == first.from
    bool closed = true;
};

// The shortest cycle among the clock constraints of ex under model (I <= O and
// I = O on instantaneous events included), or none if ex is consistent.
std::optional<Cycle> shortestViolation(const ExecutionGraph& ex, const Model& model);

// The execution's choices an explanation depends on: "nfo a→b, rao c→e" ("" if none).
std::string choiceText(const ExecutionGraph& ex);

// "a:nrW x →oppo b:nrR z →rb a".
std::string cycleText(const ExecutionGraph& ex, const std::vector<Location>& locations, const Cycle& cycle);

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
    ResourceLimits limits;  // --timeout, --max-memory: for the whole explanation
};

// The outcome is the condition (exists, ~exists) or its negation (forall).
ExplainResult explain(const LitmusTest& test, const Model& model, const ExplainOptions& options);

}  // namespace rdmacheck
