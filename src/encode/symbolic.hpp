// The relation walker's symbolic domain (relations.hpp): the execution's
// choices as Z3 terms, and truth values as Z3 formulas over them. Internal to
// the encoder.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <z3++.h>

#include "rdmacheck/relations.hpp"
#include "solver_context.hpp"

namespace rdmacheck {

// A term's value in the model (a choice variable's interpretation read directly).
z3::expr modelValue(const z3::model& m, const z3::expr& e);

// An integer of the model as a key that sorts as the integer does, exactly.
using OrderKey = std::tuple<int, long, std::string>;
OrderKey orderKey(const z3::model& m, const z3::expr& e);

// a = b as two inequalities: inside a solver scope (SolverContext), Z3's
// difference-logic solver refuses an equality such as v1 = v2 + 1 ("non-diff
// logic expression"), which its preprocessing rewrites only at the base level.
inline z3::expr equal(const z3::expr& a, const z3::expr& b) { return a <= b && a >= b; }

// A chosen strict total order on each group of events (ChoiceKind::GroupOrder,
// choices.hpp): a rank per event, distinct within its group.
struct RankedOrder {
    std::map<int, std::vector<int>> groups;
    std::vector<z3::expr> rank;  // per event; 0 outside the groups

    PairMap<z3::expr> pairs() const {
        PairMap<z3::expr> out;
        for (const auto& [group, events] : groups)
            for (int a : events)
                for (int b : events)
                    if (a != b) out.emplace(std::make_pair(a, b), rank[a] < rank[b]);
        return out;
    }

    // Each group's events sorted by `before`, a strict total order on it.
    template <class Before>
    std::map<int, std::vector<int>> decode(const Before& before) const {
        std::map<int, std::vector<int>> out;
        for (const auto& [group, events] : groups) {
            out[group] = events;
            std::sort(out[group].begin(), out[group].end(), before);
        }
        return out;
    }
};

// The execution's choices as Z3 terms: rf (a source per read), mo (a key per
// write, distinct per location: a clock that contains mo when there is one,
// since then mo can be read off it), nfo (a direction per pair) and each
// group order the model uses (a rank per event of its groups). These are the
// dynamic base relations the walker asks for.
struct Choices {
    z3::context& ctx;
    const ExecutionGraph& sk;
    std::vector<z3::expr> readValue;             // per event (reads), else 0
    // Per read whose value is its source's constant (no variable), that
    // constant per candidate; else empty.
    std::vector<std::vector<long long>> sourceValues;
    std::vector<std::vector<int>> rfCandidates;  // per read
    // Per read, per candidate: "the read takes this source", a Boolean (true
    // for a read of one candidate). Booleans, not an index compared with
    // numerals: the arithmetic solver internalises each comparison at every
    // encoding's first check, which cost a third of it.
    std::vector<std::vector<z3::expr>> rfChosen;
    std::vector<std::vector<int>> writesOf;      // per location, non-initial writes
    std::vector<z3::expr> moKey;                 // per event (non-initial writes)
    EventPairs nfoPairs;
    std::vector<z3::expr> nfoForward;
    std::map<std::string, RankedOrder> orders;  // by chosen relation's name
    // Per read, the few values it can take (values.cpp), when an XOR or OR
    // computes with values; none where unknown or too many.
    std::vector<std::optional<std::set<long long>>> fewValues;
    // Per read, the least and greatest value it can take (values.cpp), when an
    // XOR or OR computes with values: how many bits its bit-vectors need. None
    // where unknown.
    std::vector<std::optional<std::pair<long long, long long>>> valueRange;

    Choices(z3::context& c, const ExecutionGraph& s) : ctx(c), sk(s) {}

    bool valueFromSource(int r) const { return !sourceValues[r].empty(); }

    // a before b in mo (same location).
    z3::expr moBefore(int a, int b) const {
        if (isInitEvent(sk.events[a])) return ctx.bool_val(true);
        return moKey[a] < moKey[b];
    }
};

// Truth values as Z3 formulas, folded where a constant decides them.
class SymbolicDomain {
public:
    using Value = z3::expr;
    // `interrupted`: the context's flag, which the memory watch sets.
    SymbolicDomain(const Choices& c, const std::atomic<bool>& interrupted, z3::solver& solver)
        : c_(c), interrupted_(interrupted), solver_(solver) {}

    z3::expr truth() const { return c_.ctx.bool_val(true); }
    bool isFalse(const z3::expr& v) const { return v.is_false(); }
    bool isTrue(const z3::expr& v) const { return v.is_true(); }
    z3::expr conj(const z3::expr& a, const z3::expr& b) const {
        stopIfInterrupted();
        if (a.is_true() || eq(a, b)) return b;
        if (b.is_true()) return a;
        if (a.is_false() || b.is_false()) return c_.ctx.bool_val(false);
        return a && b;
    }
    z3::expr disj(const z3::expr& a, const z3::expr& b) const {
        stopIfInterrupted();
        if (a.is_false() || eq(a, b)) return b;
        if (b.is_false()) return a;
        if (a.is_true() || b.is_true()) return truth();
        return a || b;
    }
    z3::expr negate(const z3::expr& a) const {
        if (a.is_true()) return c_.ctx.bool_val(false);
        if (a.is_false()) return truth();
        return !a;
    }

    // R+ as a fresh variable per pair that R's paths reach, forced true by an
    // R edge and by an R step from a pair already reached (Horn clauses, linear
    // in the pairs times R's edges): R+ or more in every model, and exactly R+
    // in some, which is all a negative use needs (RelationWalker).
    std::optional<PairMap<z3::expr>> upperClosure(const PairMap<z3::expr>& r, int n) const;
    // A fresh Boolean per pair of `pairs`, for a least fixed point kept above
    // (RelationWalker::upperFixedPoint), and its Horn clauses.
    static constexpr bool boundsAbove = true;
    PairMap<z3::expr> upperVariables(const PairMap<z3::expr>& pairs) const;
    void atLeast(const z3::expr& v, const z3::expr& because) const { solver_.add(z3::implies(because, v)); }
    bool same(const z3::expr& a, const z3::expr& b) const { return z3::eq(a, b); }
    // A chosen relation (choices.hpp) over the choices.
    PairMap<z3::expr> dynamic(const std::string& name) const;
    z3::expr lastInMo(int w) const;

private:
    z3::expr readsBefore(int r, int w) const;
    // Building a large model's relations can take longer than any solver call:
    // the memory watch's interrupt stops it here too.
    void stopIfInterrupted() const {
        if (interrupted_) throw SolverGaveUp("interrupted");
    }

    const Choices& c_;
    const std::atomic<bool>& interrupted_;
    z3::solver& solver_;  // takes the clauses of upper closures
    mutable int closures_ = 0;
    mutable int fixedPoints_ = 0;
};

}  // namespace rdmacheck
