// Which pairs of events a model's base relations relate. The Z3 encoding turns
// these into clock constraints; the explanations and graphs list them for one
// concrete execution. Both use these predicates, so they cannot drift apart.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rdmacheck/encode.hpp"
#include "rdmacheck/events.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

inline bool isInitEvent(const Event& e) { return e.thread < 0; }

// NIC events of one thread towards one remote node.
inline bool sameQueuePair(const Event& a, const Event& b) {
    return a.thread == b.thread && a.thread >= 0 && a.remote != 0 && a.remote == b.remote;
}

// rf_i: a read from its own thread's store buffer (and, without PCIe, from its
// queue pair's own write-back buffer).
bool isInternalRf(const Model& model, const Event& w, const Event& r);
// rb_i: the same buffers, read before write.
bool isInternalRb(const Model& model, const Event& r, const Event& w);
// A po-ordered pair (a before b) that edge keeps (po, po-loc, an order table).
bool keepsProgramOrder(const ClockEdge& edge, const Event& a, const Event& b);
// An rf pair (w, r) that edge contains (rf, rf-i, rf-e, rfe).
bool containsRf(const Model& model, const ClockEdge& edge, const Event& w, const Event& r);
// A same-queue-pair pair whose direction nfo chooses: (nlR, nlW) and
// (nrR or narR, nrW or narW), in either order.
bool isNfoPair(const Event& a, const Event& b);
// ar: the narW of the RMW whose narR is `read`, or -1 (a failed RCAS writes nothing).
int atomicWriteOf(const Skeleton& sk, int read);
// The narR events per target node, in event order.
std::map<int, std::vector<int>> atomicReadsByNode(const Skeleton& sk);

// One edge of a concrete execution, between skeleton event indices.
struct RelationEdge {
    int from = -1, to = -1;
    std::string relation;  // po, rf, mo, rb, pf, nfo; or a clock edge as the model file writes it
    int clock = -1;        // for clock edges: the model clock it constrains
};

// The execution's relations as herd7 draws them: po (immediate), rf, mo
// (immediate, from the first non-initial write on), rb (to the mo-successor of
// the source), pf, nfo, rao (immediate). Initial writes take part in rf and rb.
std::vector<RelationEdge> executionEdges(const Skeleton& sk, const Execution& ex);

// Every base edge of every clock of the model (table edges in full), without
// initial writes (they precede everything, so no cycle passes through them).
// mo edges always constrain the mo clock, which mo is read off.
std::vector<RelationEdge> clockEdges(const Skeleton& sk, const Execution& ex, const Model& model);

}  // namespace rdmacheck
