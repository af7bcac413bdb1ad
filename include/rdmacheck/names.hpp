// How every output names what it shows: herd7's spelling of locations,
// conditions and final states, herd7-style event names and labels, and a
// cycle of relation edges with its text. Below both the reports (report/) and
// what they report on (explain/, robust/, picture/), so neither includes the other.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/result.hpp"

namespace rdmacheck {

// herd7's spelling: `[x]` for memory, `0:EAX` for registers.
std::string shownName(const ObservedName& n);
// herd7's normal form, e.g. `exists ([x]=1 /\ 0:EAX=0)`; `addresses`: the test's (LitmusTest::addresses);
// `hexBits`: valueText's.
std::string conditionText(Quantifier q, const Cond& c, const std::vector<std::string>& addresses, int hexBits = 0);
// `[x]=1; 0:EAX=0;`, `0:EBX=x;` where the value is x's address.
std::string stateLine(const std::vector<ObservedName>& shown, const FinalState& s,
                      const std::vector<std::string>& addresses, int hexBits = 0);

// herd7-style event names: a, b, c, ... over the threads' events in order;
// "init" for initial writes.
std::string eventName(const ExecutionGraph& ex, int event);
// e.g. "c: nrW y=1 →2", "init x=0".
std::string eventLabel(const ExecutionGraph& ex, const std::vector<Location>& locations,
                       const std::vector<std::string>& addresses, int event);

// A cycle of clock edges; `axiom` names what it breaks: a clock's axiom (ib, ob
// for RDMA^TSO; uniproc, ghb for tso; sc), the tied clocks' inst-ib-ob, or an
// irreflexive or empty axiom the general encoding checks.
// An empty axiom's witness is one edge, not a cycle (closed is false).
struct Cycle {
    std::string axiom;
    std::vector<RelationEdge> edges;  // edges[i].to == edges[i+1].from, last.to == first.from; none for a
                                      // negated check (herd7's ~empty r) that fails
    bool closed = true;
};

// The execution's choices an explanation depends on: "nfo a→b, rao c→e" ("" if none).
std::string choiceText(const ExecutionGraph& ex);

// herd7's X86 notation: `b: R[y]=0 (EAX)`, `a: W[x]=1`, `c: MFENCE`, an
// XCHG's `RMW[x]=0→1`; a read names the register that keeps its value.
std::string x86Label(const ExecutionGraph& ex, const std::vector<Location>& locations,
                     const std::vector<std::string>& addresses, int event);
// herd7's names of mo and rb, as X86 tests show them: co and fr.
std::string herdRelationName(const std::string& relation);
// An axiom's or a clock member's text as the model writes it: in a model
// whose `with co from` binds herd7's co to the base mo, mo is co ("co;rfe",
// not "mo;rfe"); a model that writes mo (or rb) keeps it.
std::string relationText(const ModelExpr& e, const Model& model);

// "a:nrW x →oppo b:nrR z →rb a"; with an X86 test's addresses, in herd7's
// notation: "a: W[x]=1 →po b: R[y]=0 (EAX) →fr ...".
std::string cycleText(const ExecutionGraph& ex, const std::vector<Location>& locations, const Cycle& cycle,
                      const std::vector<std::string>* x86Addresses = nullptr);

}  // namespace rdmacheck
