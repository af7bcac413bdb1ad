#include "rdmacheck/relations.hpp"

#include <algorithm>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

bool isInternalRf(const Model& model, const Event& w, const Event& r) {
    // Store forwarding reaches only po-later reads (calls are numbered in po order).
    if (w.kind == EventKind::LW && r.kind == EventKind::LR && w.thread == r.thread && !isInitEvent(w) && w.call < r.call)
        return true;
    if (!model.nicBuffersInternal || !sameQueuePair(w, r)) return false;
    return (w.kind == EventKind::NRW && r.kind == EventKind::NRR) || (w.kind == EventKind::NLW && r.kind == EventKind::NLR);
}

bool isInternalRb(const Model& model, const Event& r, const Event& w) {
    if (r.kind == EventKind::LR && w.kind == EventKind::LW && r.thread == w.thread) return true;
    if (!model.nicBuffersInternal || !sameQueuePair(r, w)) return false;
    return (r.kind == EventKind::NRR && w.kind == EventKind::NRW) || (r.kind == EventKind::NLR && w.kind == EventKind::NLW);
}

namespace {

// iso (MOWGLI.md §4.5, §5.1): within one call, a read before the write it
// feeds on the same queue pair, and a failed CAS's fence before its read.
bool isIsoPair(EventKind a, EventKind b) {
    return (a == EventKind::NLR && b == EventKind::NRW) || (a == EventKind::NRR && b == EventKind::NLW) ||
           (a == EventKind::NAR && (b == EventKind::NAW || b == EventKind::NLW)) ||
           (a == EventKind::F && b == EventKind::LR);
}

// A wait(d) after an operation with the same work identifier d.
bool waitsFor(const Event& op, const Event& wait) {
    return wait.kind == EventKind::WT && op.workId >= 0 && op.workId == wait.workId && op.call != wait.call;
}

}  // namespace

bool keepsProgramOrder(const ClockEdge& edge, const Event& a, const Event& b) {
    if (!edge.inScope(a, b)) return false;
    switch (edge.relation) {
        case Relation::Po: return true;
        case Relation::PoLoc: return a.location >= 0 && a.location == b.location;
        case Relation::Table: {
            if (edge.table->betweenCallsOnly && a.call == b.call) return false;
            const Cell cell = edge.table->at(a.kind, b.kind);
            return cell == Cell::Ordered || (cell == Cell::SameQueuePair && sameQueuePair(a, b));
        }
        case Relation::Iso: return a.call == b.call && a.remote == b.remote && isIsoPair(a.kind, b.kind);
        case Relation::Pfg: return a.kind == EventKind::NLW && waitsFor(a, b);
        case Relation::Pfp: return (a.kind == EventKind::NRW || a.kind == EventKind::NAW) && waitsFor(a, b);
        case Relation::Pfr: return a.kind == EventKind::NLR && waitsFor(a, b);
        case Relation::ArResult: return a.call == b.call && a.kind == EventKind::NAW && b.kind == EventKind::NLW;
        default: return false;
    }
}

bool containsRf(const Model& model, const ClockEdge& edge, const Event& w, const Event& r) {
    if (!edge.inScope(w, r)) return false;
    switch (edge.relation) {
        case Relation::Rf: return true;
        case Relation::RfInternal: return isInternalRf(model, w, r);
        case Relation::RfExternal: return !isInternalRf(model, w, r);
        case Relation::RfOtherThread: return w.thread != r.thread;
        default: return false;
    }
}

bool isNfoPair(const Event& a, const Event& b) {
    if (!sameQueuePair(a, b) || a.library != b.library) return false;
    auto localPair = [](EventKind r, EventKind w) { return r == EventKind::NLR && w == EventKind::NLW; };
    auto remotePair = [](EventKind r, EventKind w) {
        return (r == EventKind::NRR || r == EventKind::NAR) && (w == EventKind::NRW || w == EventKind::NAW);
    };
    return localPair(a.kind, b.kind) || localPair(b.kind, a.kind) || remotePair(a.kind, b.kind) ||
           remotePair(b.kind, a.kind);
}

int atomicWriteOf(const Skeleton& sk, int read) {
    // An RMW's events are po-adjacent, and a thread's events are contiguous.
    const int next = read + 1;
    if (next < static_cast<int>(sk.events.size()) && sk.events[next].kind == EventKind::NAW &&
        sk.events[next].thread == sk.events[read].thread)
        return next;
    return -1;
}

std::map<int, std::vector<int>> atomicReadsByNode(const Skeleton& sk) {
    std::map<int, std::vector<int>> reads;
    for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
        if (sk.events[e].kind == EventKind::NAR) reads[sk.events[e].remote].push_back(e);
    return reads;
}

namespace {

// The write that follows w in its location's mo, or -1.
int moSuccessor(const Execution& ex, const Event& ev, int w) {
    const auto& order = ex.mo[ev.location];
    auto it = std::find(order.begin(), order.end(), w);
    return it == order.end() || it + 1 == order.end() ? -1 : *(it + 1);
}

int moPosition(const Execution& ex, int location, int w) {
    const auto& order = ex.mo[location];
    return static_cast<int>(std::find(order.begin(), order.end(), w) - order.begin());
}

}  // namespace

std::vector<RelationEdge> executionEdges(const Skeleton& sk, const Execution& ex) {
    std::vector<RelationEdge> edges;
    for (const auto& events : sk.threadEvents)
        for (size_t i = 1; i < events.size(); ++i) edges.push_back({events[i - 1], events[i], "po"});
    for (size_t r = 0; r < ex.rf.size(); ++r) {
        if (ex.rf[r] < 0) continue;
        edges.push_back({ex.rf[r], static_cast<int>(r), "rf"});
        const int next = moSuccessor(ex, sk.events[r], ex.rf[r]);
        if (next >= 0 && next != static_cast<int>(r)) edges.push_back({static_cast<int>(r), next, "rb"});
    }
    // mo from an initial write is implied (it precedes everything), as in herd7's pictures.
    for (const auto& order : ex.mo)
        for (size_t i = 2; i < order.size(); ++i) edges.push_back({order[i - 1], order[i], "mo"});
    for (auto [w, p] : sk.pollsFrom) edges.push_back({w, p, "pf"});
    for (auto [a, b] : ex.nfo) edges.push_back({a, b, "nfo"});
    for (const auto& [node, order] : ex.rao)
        for (size_t i = 1; i < order.size(); ++i) edges.push_back({order[i - 1], order[i], "rao"});
    return edges;
}

std::vector<RelationEdge> clockEdges(const Skeleton& sk, const Execution& ex, const Model& model) {
    std::vector<RelationEdge> edges;
    const int n = static_cast<int>(sk.events.size());
    for (int c = 0; c < static_cast<int>(model.clocks.size()); ++c) {
        const Clock& clock = model.clocks[c];
        auto add = [&](int a, int b, const std::string& relation) {
            if (!isInitEvent(sk.events[a]) && !isInitEvent(sk.events[b])) edges.push_back({a, b, relation, c});
        };
        for (const ClockEdge& edge : clock.edges) {
            switch (edge.relation) {
                case Relation::Table:
                case Relation::Po:
                case Relation::PoLoc:
                case Relation::Iso:
                case Relation::Pfg:
                case Relation::Pfp:
                case Relation::Pfr:
                case Relation::ArResult:
                    for (const auto& events : sk.threadEvents)
                        for (size_t i = 0; i < events.size(); ++i)
                            for (size_t j = i + 1; j < events.size(); ++j)
                                if (keepsProgramOrder(edge, sk.events[events[i]], sk.events[events[j]]))
                                    add(events[i], events[j], edge.text);
                    break;
                case Relation::Rf:
                case Relation::RfInternal:
                case Relation::RfExternal:
                case Relation::RfOtherThread:
                    for (int r = 0; r < n; ++r)
                        if (ex.rf[r] >= 0 && containsRf(model, edge, sk.events[ex.rf[r]], sk.events[r]))
                            add(ex.rf[r], r, edge.text);
                    break;
                case Relation::Pf:
                case Relation::PfFromNlW:
                    for (auto [w, p] : sk.pollsFrom)
                        if (edge.relation == Relation::Pf || sk.events[w].kind == EventKind::NLW) add(w, p, edge.text);
                    break;
                case Relation::Nfo:
                    for (auto [a, b] : ex.nfo)
                        if (edge.inScope(sk.events[a], sk.events[b])) add(a, b, edge.text);
                    break;
                case Relation::Rao:
                case Relation::ArRao:
                    for (const auto& [node, order] : ex.rao)
                        for (size_t i = 0; i < order.size(); ++i)
                            for (size_t j = i + 1; j < order.size(); ++j) {
                                const int from = edge.relation == Relation::Rao ? order[i] : atomicWriteOf(sk, order[i]);
                                if (from >= 0 && edge.inScope(sk.events[from], sk.events[order[j]]))
                                    add(from, order[j], edge.text);
                            }
                    break;
                case Relation::Round:  // BAL's, from the library registry
                    for (auto [a, b] : findLibraryRelation("round")->pairs(sk))
                        if (edge.inScope(sk.events[a], sk.events[b])) add(a, b, edge.text);
                    break;
                case Relation::Mo: break;  // below, with the mo clock
                case Relation::Rb:
                case Relation::RbInternal:
                    for (int r = 0; r < n; ++r) {
                        if (ex.rf[r] < 0) continue;
                        const Event& rev = sk.events[r];
                        const int source = moPosition(ex, rev.location, ex.rf[r]);
                        const auto& order = ex.mo[rev.location];
                        for (size_t k = source + 1; k < order.size(); ++k)
                            if (order[k] != r && edge.inScope(rev, sk.events[order[k]]) &&
                                (edge.relation == Relation::Rb || isInternalRb(model, rev, sk.events[order[k]])))
                                add(r, order[k], edge.text);
                    }
                    break;
            }
        }
        const bool hasMo = std::any_of(clock.edges.begin(), clock.edges.end(),
                                       [](const ClockEdge& e) { return e.relation == Relation::Mo; });
        if (hasMo || c == model.moClock)
            for (const auto& order : ex.mo)
                for (size_t i = 1; i < order.size(); ++i) add(order[i - 1], order[i], "mo");
    }
    return edges;
}

}  // namespace rdmacheck
