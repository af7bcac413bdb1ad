// What the always-present edges of an encoding fix: atoms every execution
// agrees on, folded out of the terms the solver would otherwise decide.
#pragma once

#include <vector>

#include <z3++.h>

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

}  // namespace rdmacheck
