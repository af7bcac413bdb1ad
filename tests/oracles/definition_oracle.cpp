// The definitions the oracle of definition_oracle.hpp evaluates: Definition 4.4
// of the RDMA^TSO paper with a model's tables, and Definition 20 of the RMW paper
// with its own tables and event classes.
#include "definition_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>

namespace rdmacheck::oracles::definition {

namespace {

bool sqp(const Event& a, const Event& b) { return a.thread >= 0 && a.thread == b.thread && a.remote && a.remote == b.remote; }

// Definition 20 (RMW paper, App. D.2), written out here instead of taken from
// events.hpp and the model files, so that both are checked too.
namespace def20 {

// R, W and Inst of Definition 18's preamble.
bool isRead(EventKind k) {
    return k == EventKind::LR || k == EventKind::CAS || k == EventKind::NLR || k == EventKind::NRR ||
           k == EventKind::NAR;
}
bool isWrite(EventKind k) {
    return k == EventKind::LW || k == EventKind::CAS || k == EventKind::NLW || k == EventKind::NRW ||
           k == EventKind::NAW;
}
bool isInst(EventKind k) {
    return !(k == EventKind::LW || k == EventKind::NLW || k == EventKind::NRW || k == EventKind::NAW);
}

// The row and column of Fig. 22: lR lW CAS F P nlR nrW narR narW nrR nlW nF.
int column(EventKind k) {
    switch (k) {
        case EventKind::LR: return 0;
        case EventKind::LW: return 1;
        case EventKind::CAS: return 2;
        case EventKind::F: return 3;
        case EventKind::P: return 4;
        case EventKind::NLR: return 5;
        case EventKind::NRW: return 6;
        case EventKind::NAR: return 7;
        case EventKind::NAW: return 8;
        case EventKind::NRR: return 9;
        case EventKind::NLW: return 10;
        case EventKind::NF: return 11;
        case EventKind::WT:
        case EventKind::GF:
        default: break;  // MOWGLI only, with the libraries' kinds
    }
    return -1;
}

// oppo, typed in from the RMW paper's Fig. 22 (the one table the text extraction
// kept): Y ✓, N ✗, Q sqp. Rows earlier in po, columns later.
const char* const kOppo[12] = {
    // lR lW CAS F P nlR nrW narR narW nrR nlW nF
    "YYYYYYYYYYYY",  // A lR
    "NYYYNYYYYYYY",  // B lW
    "YYYYYYYYYYYY",  // C CAS
    "YYYYYYYYYYYY",  // D F
    "YYYYYYYYYYYY",  // E P
    "NNNNNQQQQQQQ",  // F nlR
    "NNNNNNQQQQQN",  // G nrW
    "NNNNNNQQQQQQ",  // H narR
    "NNNNNNQQQQNN",  // I narW
    "NNNNNNNNNNQQ",  // J nrR
    "NNNNNNNNNNQN",  // K nlW
    "NNNNNQQQQQQQ",  // L nF
};

// ippo: the paper's prose, "ippo and oppo differ in only six cells": B1, B5 ✓ and
// G12, I11, I12, K12 sqp.
char ippo(int row, int col) {
    if (row == 1 && (col == 0 || col == 4)) return 'Y';
    if ((row == 6 && col == 11) || (row == 8 && (col == 10 || col == 11)) || (row == 10 && col == 11)) return 'Q';
    return kOppo[row][col];
}

bool ordered(bool issue, const Event& a, const Event& b) {
    const int row = column(a.kind), col = column(b.kind);
    const char c = issue ? ippo(row, col) : kOppo[row][col];
    return c == 'Y' || (c == 'Q' && sqp(a, b));
}

// The pairs whose direction nfo chooses (Def. 18): same queue pair, (nlR, nlW) or
// (nrR or narR, nrW or narW), either way round.
bool nfoPair(const Event& a, const Event& b) {
    auto local = [](EventKind r, EventKind w) { return r == EventKind::NLR && w == EventKind::NLW; };
    auto remote = [](EventKind r, EventKind w) {
        return (r == EventKind::NRR || r == EventKind::NAR) && (w == EventKind::NRW || w == EventKind::NAW);
    };
    return sqp(a, b) && (local(a.kind, b.kind) || local(b.kind, a.kind) || remote(a.kind, b.kind) ||
                         remote(b.kind, a.kind));
}

}  // namespace def20

}  // namespace

double Oracle::candidates() const {
    double total = 0;
    forEachSkeleton(program_, /*bindReceived=*/true, [&](const ExecutionGraph& sk) {
        double product = 1;
        std::vector<int> writes(program_.locations.size(), 0);
        for (const Event& e : sk.events)
            if (isW(e.kind) && e.thread >= 0) product *= ++writes[e.location];  // mo: n! orders of n writes
        for (const Event& e : sk.events)
            if (isR(e.kind)) product *= writes[e.location] + (isW(e.kind) ? 0 : 1);  // rf: init or another write
        total += product;
    });
    return total;
}

// Whether po ∪ rf ∪ mo ∪ rb of the current execution is acyclic (sequentially consistent).
bool Oracle::scAcyclic() const {
    Relation sc = po_;
    for (size_t r : reads_) {
        const int w = c_.rf[r];
        sc.add(static_cast<size_t>(w), r);
        for (int x : c_.mo[sk_.events[r].location])
            if (x != static_cast<int>(r) && moBefore(sk_, c_, w, x)) sc.add(r, static_cast<size_t>(x));  // rb
    }
    for (const std::vector<int>& order : c_.mo) addTotalOrder(sc, order);
    return sc.closure().irreflexive();
}

bool Oracle::isR(EventKind k) const { return rmw() ? def20::isRead(k) : isRead(k); }

bool Oracle::isW(EventKind k) const { return rmw() ? def20::isWrite(k) : isWrite(k); }

bool Oracle::isInst(EventKind k) const { return rmw() ? def20::isInst(k) : isInstantaneous(k); }

void Oracle::skeleton() {
    n_ = sk_.events.size();
    if (n_ > kMaxEvents) {
        ADD_FAILURE() << "oracle: " << n_ << " events, more than " << kMaxEvents;
        return;
    }
    po_ = Relation(n_);
    for (const auto& evs : sk_.threadEvents) addTotalOrder(po_, evs);
    for (size_t e = 0; e < n_; ++e)
        if (sk_.events[e].thread < 0)
            for (size_t f = 0; f < n_; ++f)
                if (sk_.events[f].thread >= 0) po_.add(e, f);  // E0 x (E \ E0) ⊆ po
    reads_.clear();
    for (size_t e = 0; e < n_; ++e)
        if (isR(sk_.events[e].kind)) reads_.push_back(e);
    if (!pollsFrom()) return;
    // ar = [narW];(po|imm)^-1: arOf_[r] is the narW whose po-immediate predecessor is r.
    arOf_.assign(n_, -1);
    raoGroups_.clear();
    if (rmw()) {
        for (const auto& evs : sk_.threadEvents)
            for (size_t i = 1; i < evs.size(); ++i)
                if (sk_.events[evs[i]].kind == EventKind::NAW) arOf_[evs[i - 1]] = evs[i];
        std::map<int, std::vector<int>> byNode;
        for (size_t e = 0; e < n_; ++e)
            if (sk_.events[e].kind == EventKind::NAR) byNode[sk_.events[e].remote].push_back(static_cast<int>(e));
        for (auto& [node, reads] : byNode) raoGroups_.push_back(reads);
    }
    // rf: each read from a write to its location (the initial one too); mo:
    // every order of each location's writes.
    std::vector<std::vector<int>> writesTo(program_.locations.size());
    for (size_t e = 0; e < n_; ++e)
        if (isW(sk_.events[e].kind) && sk_.events[e].thread >= 0)
            writesTo[sk_.events[e].location].push_back(static_cast<int>(e));
    auto isSource = [&](size_t w, size_t r) {
        return isW(sk_.events[w].kind) && sk_.events[w].location == sk_.events[r].location;
    };
    forEachCandidate(c_, n_, reads_, isSource, writesTo, [&] { evaluate(); });
}

// pf from po alone: the k-th poll of a thread towards n polls the k-th remote
// operation of that thread towards n (its nrW or nlW). Checked against the
// unfolder's pairs, which must be the same.
bool Oracle::pollsFrom() {
    pf_.clear();
    for (const auto& evs : sk_.threadEvents) {
        std::map<int, std::deque<int>> unpolled;
        for (int e : evs) {
            const Event& ev = sk_.events[e];
            if (ev.kind == EventKind::NRW || ev.kind == EventKind::NLW) unpolled[ev.remote].push_back(e);
            if (ev.kind != EventKind::P) continue;
            if (unpolled[ev.remote].empty()) return false;  // blocks forever: no execution
            pf_.emplace_back(unpolled[ev.remote].front(), e);
            unpolled[ev.remote].pop_front();
        }
    }
    auto fromSkeleton = sk_.pollsFrom;
    std::sort(fromSkeleton.begin(), fromSkeleton.end());
    std::vector<std::pair<int, int>> mine = pf_;
    std::sort(mine.begin(), mine.end());
    EXPECT_EQ(mine, fromSkeleton);
    return true;
}

void Oracle::evaluate() {
    std::vector<long long> readValues;  // a cyclic value dependency is not an execution
    if (!values(sk_, c_, reads_, readValues) || !constraintsHold(sk_, readValues)) return;
    Relation ib, ob;
    baseEdges(ib, ob);
    // Every condition is monotone in the edges, so a cycle without nfo and rao
    // rules out every choice of them.
    if (!consistent(ib, ob)) return;
    std::vector<std::pair<int, int>> nfoPairs;
    for (size_t a = 0; a < n_; ++a)
        for (size_t b = a + 1; b < n_; ++b) {
            const Event& x = sk_.events[a];
            const Event& y = sk_.events[b];
            auto is = [&](EventKind p, EventKind q) { return (x.kind == p && y.kind == q) || (x.kind == q && y.kind == p); };
            const bool pair = rmw() ? def20::nfoPair(x, y)
                                    : model_->uses("nfo") && sqp(x, y) &&
                                          (is(EventKind::NLR, EventKind::NLW) || is(EventKind::NRR, EventKind::NRW));
            if (pair) nfoPairs.emplace_back(a, b);
        }
    // nfo and rao are witnesses: one execution per (rf, mo)
    if (someOrientation(nfoPairs, [&](const Relation& nfo) { return withRao(ib | nfo, ob | nfo); }, n_))
        record(readValues);
}

// Tries every rao: per target node, each order of its narR events, with rao
// and ar;rao in ob.
bool Oracle::withRao(const Relation& ib, const Relation& ob) const {
    return someTotalOrders(raoGroups_, [&](const std::vector<std::vector<int>>& orders) {
        Relation obRao = ob;
        for (const std::vector<int>& order : orders)
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) {
                    obRao.add(order[i], order[j]);
                    if (arOf_[order[i]] >= 0) obRao.add(arOf_[order[i]], order[j]);
                }
        return consistent(ib, obRao);
    });
}

// The model without PCIe (the RDMA^TSO paper §4): its NIC buffers serve their own queue pair.
bool Oracle::nicBuffersInternal() const { return model_->name == "rdma-tso-nopcie"; }

// rf_i: [lW];(rf ∩ sthd);[lR], and without PCIe the same-buffer NIC pairs.
bool Oracle::rfInternal(int w, int r) const {
    const Event& we = sk_.events[w];
    const Event& re = sk_.events[r];
    if (we.kind == EventKind::LW && re.kind == EventKind::LR && we.thread >= 0 && we.thread == re.thread) return true;
    return model_ && nicBuffersInternal() && sqp(we, re) &&
           ((we.kind == EventKind::NRW && re.kind == EventKind::NRR) ||
            (we.kind == EventKind::NLW && re.kind == EventKind::NLR));
}

// rb_i: [lR];(rb ∩ sthd);[lW], and without PCIe the same-buffer NIC pairs.
bool Oracle::rbInternal(int r, int w) const {
    const Event& re = sk_.events[r];
    const Event& we = sk_.events[w];
    if (re.kind == EventKind::LR && we.kind == EventKind::LW && re.thread == we.thread) return true;
    return model_ && nicBuffersInternal() && sqp(re, we) &&
           ((re.kind == EventKind::NRR && we.kind == EventKind::NRW) ||
            (re.kind == EventKind::NLR && we.kind == EventKind::NLW));
}

bool Oracle::ordered(bool issue, int a, int b) const {
    if (rmw()) return def20::ordered(issue, sk_.events[a], sk_.events[b]);
    Cell c = model_->tables.at(issue ? "ippo" : "oppo").at(sk_.events[a].kind, sk_.events[b].kind);
    return c == Cell::Ordered || (c == Cell::SameQueuePair && sqp(sk_.events[a], sk_.events[b]));
}

// The edges of ib and ob that nfo and rao do not choose: ippo/oppo, rf/rf_e,
// pf/[nlW];pf, rb_i/rb, mo.
void Oracle::baseEdges(Relation& ib, Relation& ob) const {
    ib = Relation(n_);
    ob = Relation(n_);
    for (size_t a = 0; a < n_; ++a)
        for (size_t b = 0; b < n_; ++b)
            if (po_.has(a, b)) {
                if (ordered(true, a, b)) ib.add(a, b);
                if (ordered(false, a, b)) ob.add(a, b);
            }
    for (int r : reads_) {
        int w = c_.rf[r];
        ib.add(w, r);
        if (!rfInternal(w, r)) ob.add(w, r);
        // rb = rf^-1; mo \ id
        for (int x : c_.mo[sk_.events[r].location])
            if (x != r && x != w && moBefore(sk_, c_, w, x)) {
                ob.add(r, x);
                if (rbInternal(r, x)) ib.add(r, x);
            }
    }
    for (auto [w, p] : pf_) {
        ib.add(w, p);
        if (sk_.events[w].kind == EventKind::NLW) ob.add(w, p);
    }
    // mo (the initial write, before every write, is on no cycle: nothing reaches it)
    for (const auto& order : c_.mo) addTotalOrder(ob, order);
}

bool Oracle::consistent(Relation ib, Relation ob) const {
    EventSet inst = 0;
    for (size_t a = 0; a < n_; ++a)
        if (isInst(sk_.events[a].kind)) inst |= single(a);
    if (rmw()) {
        // Def. 20: ib ∋ ob;[Inst] and ob ∋ [Inst];ib. Close both and add each to
        // the other until neither grows: the least relations the definition names.
        for (bool grew = true; grew;) {
            ib = ib.closure();
            ob = ob.closure();
            if (!ib.irreflexive() || !ob.irreflexive()) return false;
            grew = false;
            for (size_t a = 0; a < n_; ++a) {
                if (ob.row(a) & inst & ~ib.row(a)) {
                    ib.row(a) |= ob.row(a) & inst;
                    grew = true;
                }
                if (contains(inst, a) && (ib.row(a) & ~ob.row(a))) {
                    ob.row(a) |= ib.row(a);
                    grew = true;
                }
            }
        }
        return true;
    }
    ib = ib.closure();
    ob = ob.closure();
    if (!ib.irreflexive() || !ob.irreflexive()) return false;
    const Relation mixed = Relation::identity(n_, inst).then(ib).then(ob);  // [Inst];ib;ob
    return mixed.closure().irreflexive();
}

void Oracle::record(const std::vector<long long>& readValues) {
    if (!scAcyclic()) result_.robust = false;
    result_.record(test_, program_, sk_, c_, shown_, readValues);
}

}  // namespace rdmacheck::oracles::definition
