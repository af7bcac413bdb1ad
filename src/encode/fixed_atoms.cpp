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

void FixedAtoms::fold(const std::vector<z3::expr*>& terms) const {
    if (atoms_.empty() || terms.empty()) return;
    // One substitution and one simplification for all: each call of Z3's pays
    // its own set-up, which for a term at a time was most of the folding.
    z3::context& ctx = atoms_.ctx();
    z3::sort_vector domain(ctx);
    z3::expr_vector args(ctx);
    for (const z3::expr* t : terms) {
        domain.push_back(t->get_sort());
        args.push_back(*t);
    }
    z3::expr all = ctx.function("folded", domain, ctx.bool_sort())(args);
    all = all.substitute(atoms_, values_).simplify();
    for (size_t i = 0; i < terms.size(); ++i) *terms[i] = all.arg(static_cast<unsigned>(i));
}

}  // namespace rdmacheck
