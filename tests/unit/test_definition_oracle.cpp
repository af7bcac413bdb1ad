// An independent oracle for the Z3 encoding: the papers' consistency definitions
// transcribed literally. For each skeleton it enumerates every rf and mo, and for
// each of those every nfo (and rao) as a witness, builds the relations as Boolean
// matrices, closes them transitively and checks irreflexivity:
//  - RDMA^TSO (Definition 4.4 of the RDMA^TSO paper; rdma-tso, rdma-tso-nopcie) with
//    the model's ippo/oppo tables: ib, ob and ([Inst];ib;ob)+ irreflexive;
//  - RDMA^TSO_RMW (Definition 20 of the RMW paper; rdma-tso-rmw) with its own tables
//    and event classes written out below: ib and ob, which contain each other through
//    [Inst], computed as a mutual fixpoint, both irreflexive.
// The checker's states and execution counts must equal the oracle's on hand-written
// and random tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <random>

#include "../test_support.hpp"
#include "../../src/libraries/bal/bal.hpp"
#include "../../src/libraries/locks/locks.hpp"
#include "../../src/libraries/rbl/rbl.hpp"
#include "../../src/libraries/sc/sc.hpp"
#include "rdmacheck/robust.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// A relation on a skeleton's events: bit b of row a says (a, b) is in it. The
// programs here stay well under 64 events.
using Matrix = std::vector<uint64_t>;
constexpr size_t kMaxEvents = 64;

bool has(const Matrix& m, size_t a, size_t b) { return (m[a] >> b) & 1; }
void add(Matrix& m, size_t a, size_t b) { m[a] |= uint64_t(1) << b; }

Matrix closure(Matrix m) {
    for (size_t k = 0; k < m.size(); ++k)
        for (size_t i = 0; i < m.size(); ++i)
            if (has(m, i, k)) m[i] |= m[k];
    return m;
}

bool irreflexive(const Matrix& m) {
    for (size_t i = 0; i < m.size(); ++i)
        if (has(m, i, i)) return false;
    return true;
}

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

struct OracleResult {
    std::map<FinalState, bool> states;
    uint64_t positive = 0, negative = 0;
    bool robust = true;  // no consistent execution has a cycle in po ∪ rf ∪ mo ∪ rb (ROBUSTNESS.md §4.1)
};

class Oracle {
public:
    // RDMA^TSO (Def. 4.4) with the tables and nfo / same-buffer flags of `model`.
    // With `prefixes`, also every path cut before a test (robustness, ROBUSTNESS.md §4.1).
    Oracle(const LitmusTest& test, const Model& model, const std::vector<ObservedName>& shown, bool prefixes = false)
        : test_(test), model_(&model), shown_(shown), program_(unfold(test, withPrefixes(prefixes))) {}
    // RDMA^TSO_RMW (Def. 20): no model, everything is written out in def20.
    Oracle(const LitmusTest& test, const std::vector<ObservedName>& shown)
        : test_(test), model_(nullptr), shown_(shown), program_(unfold(test, UnfoldOptions{})) {}

    OracleResult run() {
        std::vector<size_t> choice(program_.paths.size(), 0);
        for (bool more = program_.skeletonCount() > 0; more; more = program_.nextChoice(choice)) {
            sk_ = program_.skeleton(choice);
            if (sk_.cutAt.empty()) skeleton();
        }
        return result_;
    }

    // How many rf and mo candidates run() enumerates, over all skeletons.
    double candidates() const {
        double total = 0;
        std::vector<size_t> choice(program_.paths.size(), 0);
        for (bool more = program_.skeletonCount() > 0; more; more = program_.nextChoice(choice)) {
            const ExecutionGraph sk = program_.skeleton(choice);
            double product = 1;
            std::vector<int> writes(program_.locations.size(), 0);
            for (const Event& e : sk.events)
                if (isW(e.kind) && e.thread >= 0) product *= ++writes[e.location];  // mo: n! orders of n writes
            for (const Event& e : sk.events)
                if (isR(e.kind)) product *= writes[e.location] + (isW(e.kind) ? 0 : 1);  // rf: init or another write
            total += product;
        }
        return total;
    }

private:
    static UnfoldOptions withPrefixes(bool prefixes) {
        UnfoldOptions options;
        options.prefixes = prefixes;
        return options;
    }

    // Whether po ∪ rf ∪ mo ∪ rb of the current execution is acyclic (sequentially consistent).
    bool scAcyclic() const {
        Matrix sc = po_;
        for (size_t r = 0; r < n_; ++r) {
            if (rf_[r] < 0) continue;
            add(sc, static_cast<size_t>(rf_[r]), r);
            const std::vector<int>& order = mo_[sk_.events[r].location];
            const auto source = std::find(order.begin(), order.end(), rf_[r]);
            for (auto w = source == order.end() ? order.begin() : source + 1; w != order.end(); ++w)
                if (*w != static_cast<int>(r)) add(sc, r, static_cast<size_t>(*w));  // rb
        }
        for (const std::vector<int>& order : mo_)
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) add(sc, order[i], order[j]);
        return irreflexive(closure(sc));
    }

    bool rmw() const { return model_ == nullptr; }
    bool isR(EventKind k) const { return rmw() ? def20::isRead(k) : isRead(k); }
    bool isW(EventKind k) const { return rmw() ? def20::isWrite(k) : isWrite(k); }
    bool isInst(EventKind k) const { return rmw() ? def20::isInst(k) : isInstantaneous(k); }

    void skeleton() {
        n_ = sk_.events.size();
        if (n_ > kMaxEvents) {
            ADD_FAILURE() << "oracle: " << n_ << " events, more than " << kMaxEvents;
            return;
        }
        po_.assign(n_, 0);
        for (const auto& evs : sk_.threadEvents)
            for (size_t i = 0; i < evs.size(); ++i)
                for (size_t j = i + 1; j < evs.size(); ++j) add(po_, evs[i], evs[j]);
        for (size_t e = 0; e < n_; ++e)
            if (sk_.events[e].thread < 0)
                for (size_t f = 0; f < n_; ++f)
                    if (sk_.events[f].thread >= 0) add(po_, e, f);  // E0 x (E \ E0) ⊆ po
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
        rf_.assign(n_, -1);
        chooseRf(0);
    }

    // pf from po alone: the k-th poll of a thread towards n polls the k-th remote
    // operation of that thread towards n (its nrW or nlW). Checked against the
    // unfolder's pairs, which must be the same.
    bool pollsFrom() {
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

    void chooseRf(size_t i) {
        if (i == reads_.size()) {
            mo_.assign(program_.locations.size(), {});
            chooseMo(0);
            return;
        }
        const Event& r = sk_.events[reads_[i]];
        for (size_t w = 0; w < n_; ++w) {
            if (w == reads_[i] || !isW(sk_.events[w].kind) || sk_.events[w].location != r.location) continue;
            rf_[reads_[i]] = static_cast<int>(w);
            chooseRf(i + 1);
        }
    }

    void chooseMo(size_t l) {
        if (l == program_.locations.size()) {
            evaluate();
            return;
        }
        std::vector<int> writes;
        for (size_t e = 0; e < n_; ++e)
            if (isW(sk_.events[e].kind) && sk_.events[e].thread >= 0 && sk_.events[e].location == static_cast<int>(l))
                writes.push_back(static_cast<int>(e));
        std::sort(writes.begin(), writes.end());
        do {
            mo_[l] = {static_cast<int>(l)};  // initial write first
            mo_[l].insert(mo_[l].end(), writes.begin(), writes.end());
            chooseMo(l + 1);
        } while (std::next_permutation(writes.begin(), writes.end()));
    }

    // Values follow rf; a cyclic value dependency is not an execution.
    bool values(std::vector<long long>& readValues) {
        readValues.assign(n_, 0);
        std::vector<int> state(n_, 0);
        std::function<bool(int)> valueOf = [&](int r) {
            if (state[r] == 2) return true;
            if (state[r] == 1) return false;
            state[r] = 1;
            std::vector<int> deps;
            std::function<void(const Value&)> collect = [&](const Value& v) {
                if (v.kind == Value::Kind::Read) deps.push_back(v.event);
                for (const Value& a : v.args) collect(a);
            };
            collect(sk_.events[rf_[r]].written);
            for (int d : deps)
                if (!valueOf(d)) return false;
            readValues[r] = sk_.events[rf_[r]].written.eval(readValues);
            state[r] = 2;
            return true;
        };
        for (int r : reads_)
            if (!valueOf(r)) return false;
        return true;
    }

    void evaluate() {
        std::vector<long long> readValues;
        if (!values(readValues)) return;
        for (const ValueConstraint& c : sk_.constraints)
            if (!holds(c.op, c.lhs.eval(readValues), c.rhs.eval(readValues))) return;
        Matrix ib, ob;
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
        for (uint64_t bits = 0; bits < (uint64_t(1) << nfoPairs.size()); ++bits) {
            Matrix ibNfo = ib, obNfo = ob;
            for (size_t i = 0; i < nfoPairs.size(); ++i) {
                auto [a, b] = nfoPairs[i];
                if (!((bits >> i) & 1)) std::swap(a, b);
                add(ibNfo, a, b);
                add(obNfo, a, b);
            }
            if (withRao(ibNfo, obNfo, 0)) {
                record(readValues);
                return;  // nfo and rao are witnesses: one execution per (rf, mo)
            }
        }
    }

    // Tries every rao from group g on: per target node, each order of its narR
    // events, with rao and ar;rao in ob.
    bool withRao(const Matrix& ib, const Matrix& ob, size_t g) const {
        if (g == raoGroups_.size()) return consistent(ib, ob);
        std::vector<int> order = raoGroups_[g];
        do {
            Matrix obRao = ob;
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) {
                    add(obRao, order[i], order[j]);
                    if (arOf_[order[i]] >= 0) add(obRao, arOf_[order[i]], order[j]);
                }
            if (withRao(ib, obRao, g + 1)) return true;
        } while (std::next_permutation(order.begin(), order.end()));
        return false;
    }

    bool moBefore(int a, int b) const {
        const auto& order = mo_[sk_.events[a].location];
        return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
    }

    // The model without PCIe (RDMA-TSO.md): its NIC buffers serve their own queue pair.
    bool nicBuffersInternal() const { return model_->name == "rdma-tso-nopcie"; }

    // rf_i: [lW];(rf ∩ sthd);[lR], and without PCIe the same-buffer NIC pairs.
    bool rfInternal(int w, int r) const {
        const Event& we = sk_.events[w];
        const Event& re = sk_.events[r];
        if (we.kind == EventKind::LW && re.kind == EventKind::LR && we.thread >= 0 && we.thread == re.thread) return true;
        return model_ && nicBuffersInternal() && sqp(we, re) &&
               ((we.kind == EventKind::NRW && re.kind == EventKind::NRR) ||
                (we.kind == EventKind::NLW && re.kind == EventKind::NLR));
    }

    // rb_i: [lR];(rb ∩ sthd);[lW], and without PCIe the same-buffer NIC pairs.
    bool rbInternal(int r, int w) const {
        const Event& re = sk_.events[r];
        const Event& we = sk_.events[w];
        if (re.kind == EventKind::LR && we.kind == EventKind::LW && re.thread == we.thread) return true;
        return model_ && nicBuffersInternal() && sqp(re, we) &&
               ((re.kind == EventKind::NRR && we.kind == EventKind::NRW) ||
                (re.kind == EventKind::NLR && we.kind == EventKind::NLW));
    }

    bool ordered(bool issue, int a, int b) const {
        if (rmw()) return def20::ordered(issue, sk_.events[a], sk_.events[b]);
        Cell c = model_->tables.at(issue ? "ippo" : "oppo").at(sk_.events[a].kind, sk_.events[b].kind);
        return c == Cell::Ordered || (c == Cell::SameQueuePair && sqp(sk_.events[a], sk_.events[b]));
    }

    // The edges of ib and ob that nfo and rao do not choose: ippo/oppo, rf/rf_e,
    // pf/[nlW];pf, rb_i/rb, mo.
    void baseEdges(Matrix& ib, Matrix& ob) const {
        ib.assign(n_, 0);
        ob.assign(n_, 0);
        for (size_t a = 0; a < n_; ++a)
            for (size_t b = 0; b < n_; ++b)
                if (has(po_, a, b)) {
                    if (ordered(true, a, b)) add(ib, a, b);
                    if (ordered(false, a, b)) add(ob, a, b);
                }
        for (int r : reads_) {
            int w = rf_[r];
            add(ib, w, r);
            if (!rfInternal(w, r)) add(ob, w, r);
            // rb = rf^-1; mo \ id
            for (int x : mo_[sk_.events[r].location])
                if (x != r && x != w && moBefore(w, x)) {
                    add(ob, r, x);
                    if (rbInternal(r, x)) add(ib, r, x);
                }
        }
        for (auto [w, p] : pf_) {
            add(ib, w, p);
            if (sk_.events[w].kind == EventKind::NLW) add(ob, w, p);
        }
        for (const auto& order : mo_)
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) add(ob, order[i], order[j]);
    }

    bool consistent(Matrix ib, Matrix ob) const {
        uint64_t inst = 0;
        for (size_t a = 0; a < n_; ++a)
            if (isInst(sk_.events[a].kind)) inst |= uint64_t(1) << a;
        if (rmw()) {
            // Def. 20: ib ∋ ob;[Inst] and ob ∋ [Inst];ib. Close both and add each to
            // the other until neither grows: the least relations the definition names.
            for (bool grew = true; grew;) {
                ib = closure(ib);
                ob = closure(ob);
                if (!irreflexive(ib) || !irreflexive(ob)) return false;
                grew = false;
                for (size_t a = 0; a < n_; ++a) {
                    if (ob[a] & inst & ~ib[a]) {
                        ib[a] |= ob[a] & inst;
                        grew = true;
                    }
                    if (((inst >> a) & 1) && (ib[a] & ~ob[a])) {
                        ob[a] |= ib[a];
                        grew = true;
                    }
                }
            }
            return true;
        }
        ib = closure(ib);
        ob = closure(ob);
        if (!irreflexive(ib) || !irreflexive(ob)) return false;
        Matrix mixed(n_, 0);  // [Inst];ib;ob
        for (size_t a = 0; a < n_; ++a)
            if ((inst >> a) & 1)
                for (size_t c = 0; c < n_; ++c)
                    if (has(ib, a, c)) mixed[a] |= ob[c];
        return irreflexive(closure(mixed));
    }

    void record(const std::vector<long long>& readValues) {
        if (!scAcyclic()) result_.robust = false;
        auto of = [&](const std::string& name, int thread) -> long long {
            if (thread >= 0) {
                auto it = sk_.registers[thread].find(name);
                return it == sk_.registers[thread].end() ? 0 : it->second.eval(readValues);
            }
            int l = program_.locationIndex(name);
            return sk_.events[mo_[l].back()].written.eval(readValues);
        };
        auto lookup = [&](const Cond& c) { return of(c.loc, c.thread); };
        if (test_.filter && !evalCondition(*test_.filter, lookup)) return;
        FinalState s;
        for (const ObservedName& o : shown_) s.push_back(of(o.name, o.thread));
        bool sat = evalCondition(test_.condition, lookup);
        result_.states[s] = sat;
        ++(sat ? result_.positive : result_.negative);
    }

    const LitmusTest& test_;
    const Model* model_;  // null: Definition 20
    std::vector<ObservedName> shown_;
    UnfoldedProgram program_;
    ExecutionGraph sk_;
    size_t n_ = 0;
    Matrix po_;
    std::vector<size_t> reads_;
    std::vector<std::pair<int, int>> pf_;
    std::vector<int> arOf_;
    std::vector<std::vector<int>> raoGroups_;  // per target node, its narR events
    std::vector<int> rf_;
    std::vector<std::vector<int>> mo_;
    OracleResult result_;
};

void expectAgreement(const std::string& text, const std::string& modelName) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, "oracle.litmus");
    Model model = loadModel(modelsDir(), modelName);
    CheckResult r = check(test, model, CheckOptions{});
    OracleResult o = Oracle(test, model, r.shown).run();
    EXPECT_EQ(r.states, o.states) << modelName;
    EXPECT_EQ(r.positive, o.positive) << modelName;
    EXPECT_EQ(r.negative, o.negative) << modelName;
}

// Small random RDMA programs: 2 nodes, a thread per node (sometimes two on node 1),
// statements drawn from puts, gets, polls, rfences, mfences, CPU reads and writes.
std::string randomTest(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    const char* shared[3] = {"x", "y", "z"};  // x@1, y@2, z@2
    const int homes[3] = {1, 2, 2};
    std::string text = "RDMA random\n{ x@1; y@2; z@2; a@1; b@2; c@1; }\n";
    int threads = pick(4) == 0 ? 3 : 2;
    for (int t = 0; t < threads; ++t) {
        int node = t == 1 ? 2 : 1;
        int other = 3 - node;
        std::string local = node == 1 ? (t == 0 ? "a" : "c") : "b";
        text += "P" + std::to_string(t) + "@" + std::to_string(node) + " {";
        int length = 2 + pick(2);
        int remoteOps = 0, polls = 0;
        for (int i = 0; i < length; ++i) {
            int s = pick(8);
            int k = pick(3);
            std::string own = homes[k] == node ? shared[k] : (node == 1 ? "x" : "y");
            std::string far = homes[k] == other ? shared[k] : (other == 1 ? "x" : "z");
            std::string o = std::to_string(other);
            switch (s) {
                case 0: text += " " + far + "^" + o + " := " + std::to_string(1 + pick(2)) + ";"; ++remoteOps; break;
                case 1: text += " " + far + "^" + o + " := " + own + ";"; ++remoteOps; break;
                case 2: text += " " + own + " := " + far + "^" + o + ";"; ++remoteOps; break;
                case 3:
                    if (polls < remoteOps) {
                        text += " poll(" + o + ");";
                        ++polls;
                    }
                    break;
                case 4: text += " rfence(" + o + ");"; break;
                case 5: text += " mfence;"; break;
                case 6: text += " " + own + " := " + std::to_string(1 + pick(2)) + ";"; break;
                default: text += " " + local + " := " + own + ";"; break;
            }
        }
        text += " }\n";
    }
    text += "exists (x = 1 /\\ a = 0)\n";
    return text;
}

// check() under rdma-tso-rmw against Definition 20, on every location and register
// (not only the condition's). Returns the oracle's result for verdict checks.
OracleResult expectRmwAgreement(const std::string& text) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, "oracle.litmus");
    test.shown = everyName(test);
    CheckResult r = check(test, loadModel(modelsDir(), "rdma-tso-rmw"), CheckOptions{});
    OracleResult o = Oracle(test, r.shown).run();
    EXPECT_EQ(r.states, o.states);
    EXPECT_EQ(r.positive, o.positive);
    EXPECT_EQ(r.negative, o.negative);
    return o;
}

// Small random programs with remote RMWs: P0@1, P1@2 (sometimes P2@1), 1-3
// statements each, half of them RCAS or RFAA. An RMW targets the other node, node
// 3 (w, as in Fig. 6b/6c) or its own node through loopback, so RMWs of different
// threads often share a target node and rao has to order them; puts, gets, polls
// (also of RMWs), fences and CPU accesses mix in.
std::string randomRmwTest(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    auto value = [&](int from) { return std::to_string(from + pick(2)); };
    std::string text = "RDMA random-rmw\n{ x@1; y@2; w@3; a@1; b@2; c@1; }\n";
    const int threads = pick(4) == 0 ? 3 : 2;
    for (int t = 0; t < threads; ++t) {
        const int node = t == 1 ? 2 : 1, other = 3 - node;
        const std::string own = node == 1 ? "x" : "y", far = node == 1 ? "y" : "x";
        const std::string local = node == 1 ? (t == 0 ? "a" : "c") : "b";
        text += "P" + std::to_string(t) + "@" + std::to_string(node) + " {";
        const int length = 1 + pick(threads == 3 ? 2 : 3);
        std::map<int, int> remoteOps, polls;  // per target node
        for (int i = 0; i < length; ++i) {
            const int where = pick(3);
            const int target = where == 0 ? other : where == 1 ? 3 : node;
            const std::string loc = (where == 0 ? far : where == 1 ? "w" : own) + "^" + std::to_string(target);
            const std::string result = pick(3) == 0 ? "_" : local;
            const int s = pick(2) ? pick(2) : 2 + pick(8);
            if (s <= 4) ++remoteOps[target];
            switch (s) {
                case 0: text += " RCAS(" + result + ", " + loc + ", " + value(0) + ", " + value(1) + ");"; break;
                case 1: text += " RFAA(" + result + ", " + loc + ", " + value(1) + ");"; break;
                case 2: text += " " + loc + " := " + value(1) + ";"; break;
                case 3: text += " " + loc + " := " + own + ";"; break;
                case 4: text += " " + local + " := " + loc + ";"; break;
                case 5: {
                    // A poll where some operation is still unpolled, else a fence.
                    auto it = std::find_if(remoteOps.begin(), remoteOps.end(),
                                           [&](const auto& ops) { return polls[ops.first] < ops.second; });
                    if (it != remoteOps.end()) {
                        text += " poll(" + std::to_string(it->first) + ");";
                        ++polls[it->first];
                    } else {
                        text += pick(2) ? " rfence(" + std::to_string(target) + ");" : " mfence;";
                    }
                    break;
                }
                case 6: text += " " + own + " := " + value(1) + ";"; break;
                case 7: text += " " + local + " := CAS(" + own + ", " + value(0) + ", " + value(1) + ");"; break;
                default: text += " " + local + " := " + own + ";"; break;
            }
        }
        text += " }\n";
    }
    text += "exists (w = 2)\n";
    return text;
}

}  // namespace

// A cycle that only ([Inst];ib;ob)+ forbids (in Def. 20: [Inst];ib in ob): z = 1,
// a = 0 needs nlR x →ib nrW z →pf P, then P →ob lR w →rb w's put →ob x's put →rf
// nlR x, and no ob edge reaches P.
const char* const kMixedCycle =
    "RDMA mixed-cycle\n{ x@1; w@1; z@2; a@1; }\nP0@1 { z^2 := x; poll(2); a := w }\nP1@2 { w^1 := 1; x^1 := 1 }\n"
    "exists (z = 1 /\\ a = 0)\n";

// Hand-written RDMA^TSO tests: the TSO paper's figures, a CPU CAS, loopback.
const char* const kTsoTests[] = {
    "RDMA 2b\n{ x@1; z@2; }\nP0@1 { z^2 := x; x := 1 }\nexists (z = 1)\n",
    "RDMA 2i\n{ x@1 = 1; y@2; z@2; }\nP0@1 { x := y^2; rfence(2); z^2 := x }\nexists (z = 1)\n",
    "RDMA 3d\n{ y@1; a@1; x@2; b@2; }\nP0@1 { x^2 := 1; poll(2); a := y }\nP1@2 { y^1 := 1; poll(1); b := x }\n"
    "exists (a = 0 /\\ b = 0)\n",
    "RDMA 3e\n{ y@1; w@1; a@1; c@1; x@2; z@2; b@2; d@2; }\n"
    "P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y }\n"
    "P1@2 { y^1 := 1; d := w^1; poll(1); poll(1); b := x }\nexists (a = 0 /\\ b = 0)\n",
    "RDMA cas\n{ x@1; }\nP0@1 { a := CAS(x, 0, 1) }\nP1@1 { x := 2; b := x }\nexists (a = 0)\n",
    "RDMA loopback\n{ x@1; z@1; }\nP0@1 { z^1 := x; x := 1; a := z^1; poll(1) }\nexists (z = 1)\n",
    kMixedCycle,
};

TEST(DefinitionOracle, PaperFigures) {
    for (const char* t : kTsoTests)
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
}

// Enough to exercise every statement kind together; the brute force is exponential.
constexpr int kRandomPrograms = 250;

// Slow tier (suite name ending in Slow, tests/CMakeLists.txt), as is the next.
TEST(DefinitionOracleSlow, RandomPrograms) {
    std::mt19937 rng(20261122);
    for (int i = 0; i < kRandomPrograms; ++i) {
        std::string t = randomTest(rng);
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
        if (::testing::Test::HasFailure()) break;
    }
}

// randomTest with an assume in most threads: the thread's own location against 0
// or 1, at a random place, so that some violations show only in a prefix.
std::string withAssumes(const std::string& text, std::mt19937& rng) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" {"), close = line.rfind(" }");
        if (line.rfind("P", 0) != 0 || open == std::string::npos || rng() % 4 == 0) {
            out += line + "\n";
            continue;
        }
        const int thread = line[1] - '0';
        const std::string local = thread == 0 ? "a" : thread == 1 ? "b" : "c";
        std::vector<std::string> statements;
        std::istringstream body(line.substr(open + 2, close - open - 2));
        for (std::string st; std::getline(body, st, ';');)
            if (st.find_first_not_of(' ') != std::string::npos) statements.push_back(st + ";");
        const std::string assume = " assume(" + local + " = " + std::to_string(rng() % 2) + ");";
        statements.insert(statements.begin() + static_cast<long>(rng() % (statements.size() + 1)), assume);
        out += line.substr(0, open + 2);
        for (const std::string& st : statements) out += st;
        out += " }\n";
    }
    return out;
}

// robust's verdict equals this oracle's (every consistent execution of every
// prefix searched for a cycle of po ∪ rf ∪ mo ∪ rb with the oracle's own
// matrices) on 300 random programs with assumes, under rdma-sc and rdma-tso
// (ROBUSTNESS.md §4.6); some are non-robust only through a prefix.
TEST(DefinitionOracleSlow, RobustnessOfRandomPrograms) {
    std::mt19937 rng(20261125);
    int notRobust = 0, prefixOnly = 0;
    for (int i = 0; i < 300 && !::testing::Test::HasFailure(); ++i) {
        const std::string text = withAssumes(randomTest(rng), rng);
        SCOPED_TRACE(text);
        const LitmusTest test = parseLitmus(text, "random.litmus");
        for (const char* m : {"rdma-sc", "rdma-tso"}) {
            const Model model = loadModel(modelsDir(), m);
            const bool robust = checkRobustness(test, model, CheckOptions{}).robust();
            EXPECT_EQ(robust, Oracle(test, model, {}, true).run().robust) << m;
            notRobust += !robust;
            prefixOnly += !robust && Oracle(test, model, {}, false).run().robust;
        }
    }
    std::cout << "[robustness] 300 programs x 2 models: " << notRobust << " not robust, " << prefixOnly
              << " of them only through a prefix\n";
    EXPECT_GT(notRobust, 0);
    EXPECT_GT(prefixOnly, 0);
}

// The RMW paper's Fig. 6 and 7 (OPERATIONAL.md T6/T7; litmus/rdma-tso-rmw), each
// with the paper's verdict, plus two atomicity shapes of our corpus and the mixed
// cycle above.
TEST(DefinitionOracle, RmwPaperFigures) {
    const std::pair<const char*, bool> tests[] = {
        {"RDMA 6a\n{ x@2 = 0; a@1; }\nP0@1 { RCAS(a, x^2, 0, 2) }\nP1@2 { x := 1 }\nexists (x = 2)\n", true},
        {"RDMA 6b\n{ x@3 = 0; a@1; }\nP0@1 { RCAS(a, x^3, 0, 2) }\nP1@2 { x^3 := 1 }\nexists (x = 2)\n", true},
        {"RDMA 6c\n{ x@3 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^3, 0, 2) }\nP1@2 { RFAA(b, x^3, 1) }\nexists (x = 2)\n",
         false},
        {"RDMA 7a\n{ x@2 = 0; y@2 = 0; a@1; b@2; }\nP0@1 { a := x^2; y^2 := 1 }\nP1@2 { b := y; x := 1 }\n"
         "exists (a = 1 /\\ b = 1)\n",
         true},
        {"RDMA 7b\n{ x@2 = 0; y@2 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^2, 8, 9); y^2 := 1 }\nP1@2 { b := y; x := 1 }\n"
         "exists (a = 1 /\\ b = 1)\n",
         false},
        {"RDMA 7c\n{ y@1 = 0; x@2 = 0; a@1; b@2; }\nP0@1 { RFAA(_, x^2, 1); poll(2); a := y }\n"
         "P1@2 { RFAA(_, y^1, 1); poll(1); b := x }\nexists (a = 0 /\\ b = 0)\n",
         true},
        {"RDMA rcas-rcas-loopback\n{ x@1 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^1, 0, 1) }\nP1@2 { RCAS(b, x^1, 0, 2) }\n"
         "exists (a = 0 /\\ b = 0)\n",
         false},
        {"RDMA rfaa-rfaa\n{ x@3 = 0; a@1; b@2; }\nP0@1 { RFAA(a, x^3, 1) }\nP1@2 { RFAA(b, x^3, 1) }\n"
         "exists (x = 1)\n",
         false},
        {kMixedCycle, false},
    };
    for (const auto& [text, allowed] : tests) {
        OracleResult o = expectRmwAgreement(text);
        EXPECT_EQ(o.positive > 0, allowed) << text;
    }
}

// Every test of the RMW corpus, whatever its condition.
TEST(DefinitionOracle, RmwCorpus) {
    size_t compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso-rmw"))
        if (entry.path().extension() == ".litmus") {
            expectRmwAgreement(readFile(entry.path().string()));
            ++compared;
        }
    EXPECT_GT(compared, 0u);
}

constexpr int kRandomRmwPrograms = 150;

TEST(DefinitionOracleSlow, RmwRandomPrograms) {
    std::mt19937 rng(20261123);
    for (int i = 0; i < kRandomRmwPrograms; ++i) {
        expectRmwAgreement(randomRmwTest(rng));
        if (::testing::Test::HasFailure()) break;
    }
}

// "Without RMW events this equals the three conditions above" (RDMA-TSO.md): on
// RMW-free programs Definition 20, with its own 12-column tables, gives the states
// and counts of Definition 4.4 with rdma-tso's tables. Oracle against oracle, so
// cheap enough for many programs, except the rare one with six writes to a
// location (720 mo orders each): those are skipped.
constexpr int kRmwFreePrograms = 500;
constexpr double kMaxCandidates = 1e5;

TEST(DefinitionOracle, RmwDefinitionWithoutRmwsIsRdmaTso) {
    std::mt19937 rng(20261124);
    const Model tso = loadModel(modelsDir(), "rdma-tso");
    std::vector<std::string> texts(std::begin(kTsoTests), std::end(kTsoTests));
    for (int i = 0; i < kRmwFreePrograms; ++i) texts.push_back(randomTest(rng));
    size_t skipped = 0;
    for (const std::string& text : texts) {
        SCOPED_TRACE(text);
        LitmusTest test = parseLitmus(text, "oracle.litmus");
        test.shown = everyName(test);
        const std::vector<ObservedName> shown = shownNames(test);
        Oracle definition44(test, tso, shown);
        if (definition44.candidates() > kMaxCandidates) {
            ++skipped;
            continue;
        }
        OracleResult old = definition44.run();
        OracleResult def20 = Oracle(test, shown).run();
        EXPECT_EQ(old.states, def20.states);
        EXPECT_EQ(old.positive, def20.positive);
        EXPECT_EQ(old.negative, def20.negative);
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_LE(skipped, texts.size() / 50);
}
