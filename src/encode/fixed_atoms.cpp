#include "fixed_atoms.hpp"

namespace rdmacheck {

std::vector<bool> reachable(const std::vector<std::vector<int>>& next, int from) {
    std::vector<bool> reached(next.size(), false);
    std::vector<int> stack{from};
    while (!stack.empty()) {
        const int e = stack.back();
        stack.pop_back();
        for (int to : next[e])
            if (!reached[to]) {
                reached[to] = true;
                stack.push_back(to);
            }
    }
    return reached;
}

z3::expr FixedAtoms::folded(const z3::expr& term) const {
    if (atoms_.empty() || term.is_true() || term.is_false()) return term;
    z3::expr copy = term;  // substitute is not const
    return copy.substitute(atoms_, values_).simplify();
}

}  // namespace rdmacheck
