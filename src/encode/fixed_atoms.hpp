// What the always-present edges of an encoding fix: atoms every execution
// agrees on, folded out of the terms the solver would otherwise decide, and
// edges that others imply.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <z3++.h>

#include "rdmacheck/relations.hpp"

namespace rdmacheck {

// The events a path of `next` edges leads to from `from` (not `from` itself, unless on a cycle).
std::vector<bool> reachable(const std::vector<std::vector<int>>& next, int from);

// Atoms whose truth every execution shares, and terms with them folded.
class FixedAtoms {
public:
    explicit FixedAtoms(z3::context& ctx) : atoms_(ctx), values_(ctx) {}
    // An atom that holds in every execution, and its converse, which fails in every one.
    void fix(const z3::expr& holds, const z3::expr& fails) {
        atoms_.push_back(holds);
        values_.push_back(holds.ctx().bool_val(true));
        atoms_.push_back(fails);
        values_.push_back(holds.ctx().bool_val(false));
    }
    // Each of `terms` with the fixed atoms replaced by their truth, simplified.
    void fold(const std::vector<z3::expr*>& terms) const;

private:
    mutable z3::expr_vector atoms_, values_;  // substitute takes them by non-const reference
};

// The static (always present) edges a -> b implied by static edges a -> m -> b,
// taken out one at a time so that each stays implied by the edges left: the
// numbering constraints keep their solutions with fewer of them.
template <class Kept>
std::set<std::pair<int, int>> impliedStaticEdges(const PairMap<z3::expr>& edges, const Kept& kept) {
    std::map<int, std::set<int>> next;
    for (const auto& [key, v] : edges)
        if (v.is_true() && kept(key.first, key.second)) next[key.first].insert(key.second);
    std::set<std::pair<int, int>> implied;
    for (const auto& [key, v] : edges) {
        if (!v.is_true() || !kept(key.first, key.second)) continue;
        const int a = key.first, b = key.second;  // not a structured binding: the lambda uses b (C++17)
        std::set<int>& fromA = next[a];
        const bool viaOther = std::any_of(fromA.begin(), fromA.end(), [&](int m) {
            auto fromM = next.find(m);
            return m != b && fromM != next.end() && fromM->second.count(b);
        });
        if (!viaOther) continue;
        fromA.erase(b);
        implied.insert(key);
    }
    return implied;
}

}  // namespace rdmacheck
