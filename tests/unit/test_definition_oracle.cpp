// An independent oracle for the Z3 encoding: Definition 4.4 of the RDMA^TSO paper
// transcribed literally. For each skeleton it enumerates every rf, mo and nfo,
// builds ippo/oppo/rf/pf/nfo/rb/mo as Boolean matrices, closes them transitively
// and checks that ib, ob and ([Inst];ib;ob)+ are irreflexive. The checker's states
// and execution counts must equal the oracle's on hand-written and random tests.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "../test_support.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

using Matrix = std::vector<std::vector<bool>>;

Matrix closure(Matrix m) {
    const size_t n = m.size();
    for (size_t k = 0; k < n; ++k)
        for (size_t i = 0; i < n; ++i)
            if (m[i][k])
                for (size_t j = 0; j < n; ++j)
                    if (m[k][j]) m[i][j] = true;
    return m;
}

bool irreflexive(const Matrix& m) {
    for (size_t i = 0; i < m.size(); ++i)
        if (m[i][i]) return false;
    return true;
}

bool sqp(const Event& a, const Event& b) { return a.thread >= 0 && a.thread == b.thread && a.remote && a.remote == b.remote; }

struct OracleResult {
    std::map<FinalState, bool> states;
    uint64_t positive = 0, negative = 0;
};

class Oracle {
public:
    Oracle(const LitmusTest& test, const Model& model, const std::vector<ObservedName>& shown)
        : test_(test), model_(model), shown_(shown), program_(unfold(test, UnfoldOptions{})) {}

    OracleResult run() {
        std::vector<size_t> choice(program_.paths.size(), 0);
        for (bool more = program_.skeletonCount() > 0; more; more = program_.nextChoice(choice)) {
            sk_ = program_.skeleton(choice);
            if (sk_.cutAt.empty()) skeleton();
        }
        return result_;
    }

private:
    void skeleton() {
        n_ = sk_.events.size();
        po_.assign(n_, std::vector<bool>(n_, false));
        for (const auto& evs : sk_.threadEvents)
            for (size_t i = 0; i < evs.size(); ++i)
                for (size_t j = i + 1; j < evs.size(); ++j) po_[evs[i]][evs[j]] = true;
        for (size_t e = 0; e < n_; ++e)
            if (sk_.events[e].thread < 0)
                for (size_t f = 0; f < n_; ++f)
                    if (sk_.events[f].thread >= 0) po_[e][f] = true;  // E0 x (E \ E0) ⊆ po
        reads_.clear();
        for (size_t e = 0; e < n_; ++e)
            if (isRead(sk_.events[e].kind)) reads_.push_back(e);
        rf_.assign(n_, -1);
        chooseRf(0);
    }

    void chooseRf(size_t i) {
        if (i == reads_.size()) {
            mo_.assign(program_.locations.size(), {});
            chooseMo(0);
            return;
        }
        const Event& r = sk_.events[reads_[i]];
        for (size_t w = 0; w < n_; ++w) {
            if (w == reads_[i] || !isWrite(sk_.events[w].kind) || sk_.events[w].location != r.location) continue;
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
            if (isWrite(sk_.events[e].kind) && sk_.events[e].thread >= 0 && sk_.events[e].location == static_cast<int>(l))
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
            if ((c.lhs.eval(readValues) == c.rhs.eval(readValues)) != c.equal) return;
        std::vector<std::pair<int, int>> nfoPairs;
        if (model_.nfo)
            for (size_t a = 0; a < n_; ++a)
                for (size_t b = a + 1; b < n_; ++b) {
                    EventKind x = sk_.events[a].kind, y = sk_.events[b].kind;
                    auto is = [&](EventKind p, EventKind q) { return (x == p && y == q) || (x == q && y == p); };
                    if (sqp(sk_.events[a], sk_.events[b]) &&
                        (is(EventKind::NLR, EventKind::NLW) || is(EventKind::NRR, EventKind::NRW)))
                        nfoPairs.emplace_back(a, b);
                }
        for (uint64_t bits = 0; bits < (uint64_t(1) << nfoPairs.size()); ++bits) {
            if (consistent(nfoPairs, bits)) {
                record(readValues);
                return;  // nfo is a witness: one execution per (rf, mo)
            }
        }
    }

    bool moBefore(int a, int b) const {
        const auto& order = mo_[sk_.events[a].location];
        return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
    }

    bool rfInternal(int w, int r) const {
        const Event& we = sk_.events[w];
        const Event& re = sk_.events[r];
        if (we.kind == EventKind::LW && re.kind == EventKind::LR && we.thread >= 0 && we.thread == re.thread) return true;
        return model_.nicBuffersInternal && sqp(we, re) &&
               ((we.kind == EventKind::NRW && re.kind == EventKind::NRR) ||
                (we.kind == EventKind::NLW && re.kind == EventKind::NLR));
    }

    bool rbInternal(int r, int w) const {
        const Event& re = sk_.events[r];
        const Event& we = sk_.events[w];
        if (re.kind == EventKind::LR && we.kind == EventKind::LW && re.thread == we.thread) return true;
        return model_.nicBuffersInternal && sqp(re, we) &&
               ((re.kind == EventKind::NRR && we.kind == EventKind::NRW) ||
                (re.kind == EventKind::NLR && we.kind == EventKind::NLW));
    }

    bool ordered(const OrderTable& t, int a, int b) const {
        Cell c = t.at(sk_.events[a].kind, sk_.events[b].kind);
        return c == Cell::Ordered || (c == Cell::SameQueuePair && sqp(sk_.events[a], sk_.events[b]));
    }

    bool consistent(const std::vector<std::pair<int, int>>& nfoPairs, uint64_t bits) const {
        const OrderTable& ippo = model_.tables.at("ippo");
        const OrderTable& oppo = model_.tables.at("oppo");
        Matrix ib(n_, std::vector<bool>(n_, false)), ob = ib;
        for (size_t a = 0; a < n_; ++a)
            for (size_t b = 0; b < n_; ++b)
                if (po_[a][b]) {
                    ib[a][b] = ib[a][b] || ordered(ippo, a, b);
                    ob[a][b] = ob[a][b] || ordered(oppo, a, b);
                }
        for (int r : reads_) {
            int w = rf_[r];
            ib[w][r] = true;
            if (!rfInternal(w, r)) ob[w][r] = true;
            // rb = rf^-1; mo \ id
            for (int x : mo_[sk_.events[r].location])
                if (x != r && x != w && moBefore(w, x)) {
                    ob[r][x] = true;
                    if (rbInternal(r, x)) ib[r][x] = true;
                }
        }
        for (auto [w, p] : sk_.pollsFrom) {
            ib[w][p] = true;
            if (sk_.events[w].kind == EventKind::NLW) ob[w][p] = true;
        }
        for (size_t i = 0; i < nfoPairs.size(); ++i) {
            auto [a, b] = nfoPairs[i];
            if (!((bits >> i) & 1)) std::swap(a, b);
            ib[a][b] = ob[a][b] = true;
        }
        for (const auto& order : mo_)
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) ob[order[i]][order[j]] = true;
        ib = closure(ib);
        ob = closure(ob);
        if (!irreflexive(ib) || !irreflexive(ob)) return false;
        Matrix inst(n_, std::vector<bool>(n_, false));
        for (size_t a = 0; a < n_; ++a)
            if (isInstantaneous(sk_.events[a].kind))
                for (size_t c = 0; c < n_; ++c)
                    if (ib[a][c])
                        for (size_t b = 0; b < n_; ++b)
                            if (ob[c][b]) inst[a][b] = true;
        return irreflexive(closure(inst));
    }

    void record(const std::vector<long long>& readValues) {
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
    const Model& model_;
    std::vector<ObservedName> shown_;
    UnfoldedProgram program_;
    Skeleton sk_;
    size_t n_ = 0;
    Matrix po_;
    std::vector<size_t> reads_;
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

}  // namespace

TEST(DefinitionOracle, PaperFigures) {
    const char* tests[] = {
        "RDMA 2b\n{ x@1; z@2; }\nP0@1 { z^2 := x; x := 1 }\nexists (z = 1)\n",
        "RDMA 2i\n{ x@1 = 1; y@2; z@2; }\nP0@1 { x := y^2; rfence(2); z^2 := x }\nexists (z = 1)\n",
        "RDMA 3d\n{ y@1; a@1; x@2; b@2; }\nP0@1 { x^2 := 1; poll(2); a := y }\nP1@2 { y^1 := 1; poll(1); b := x }\n"
        "exists (a = 0 /\\ b = 0)\n",
        "RDMA 3e\n{ y@1; w@1; a@1; c@1; x@2; z@2; b@2; d@2; }\n"
        "P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y }\n"
        "P1@2 { y^1 := 1; d := w^1; poll(1); poll(1); b := x }\nexists (a = 0 /\\ b = 0)\n",
        "RDMA cas\n{ x@1; }\nP0@1 { a := CAS(x, 0, 1) }\nP1@1 { x := 2; b := x }\nexists (a = 0)\n",
        "RDMA loopback\n{ x@1; z@1; }\nP0@1 { z^1 := x; x := 1; a := z^1; poll(1) }\nexists (z = 1)\n",
    };
    for (const char* t : tests)
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
}

// Enough to exercise every statement kind together; the brute force is exponential.
constexpr int kRandomPrograms = 250;

TEST(DefinitionOracle, RandomPrograms) {
    std::mt19937 rng(20261122);
    for (int i = 0; i < kRandomPrograms; ++i) {
        std::string t = randomTest(rng);
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
        if (::testing::Test::HasFailure()) break;
    }
}
