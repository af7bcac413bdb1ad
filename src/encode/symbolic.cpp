#include "symbolic.hpp"

#include "rdmacheck/choices.hpp"

namespace rdmacheck {

// A term's value in the model. A choice variable's interpretation is read
// directly: eval's rewriting cost as much as the solver call on small tests.
z3::expr modelValue(const z3::model& m, const z3::expr& e) {
    if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED && m.has_interp(e.decl()))
        return m.get_const_interp(e.decl());
    return m.eval(e, true);
}

// An integer of the model as a key that sorts as the integer does, exactly:
// the solver may place clocks and ranks beyond 64 bits when a test's values are
// large. Longer magnitudes are larger; a negative one sorts by its digits' complements.
OrderKey orderKey(const z3::model& m, const z3::expr& e) {
    std::string digits = Z3_get_numeral_string(m.ctx(), modelValue(m, e));
    const bool negative = !digits.empty() && digits[0] == '-';
    if (!negative) return {1, static_cast<long>(digits.size()), digits};
    digits.erase(0, 1);
    for (char& d : digits) d = static_cast<char>('9' - (d - '0'));
    return {-1, -static_cast<long>(digits.size()), digits};
}

std::optional<PairMap<z3::expr>> SymbolicDomain::upperClosure(const PairMap<z3::expr>& r, int n) const {
    std::vector<std::vector<std::pair<int, z3::expr>>> successors(static_cast<size_t>(n));
    for (const auto& [key, v] : r) successors[key.first].emplace_back(key.second, v);
    PairMap<z3::expr> reach;
    // Named by the closure's place in the encoding: the next skeleton's
    // encoding reuses the same constants rather than making new ones.
    const std::string prefix = "reach" + std::to_string(closures_++) + "_";
    auto reached = [&](int a, int b) {
        auto it = reach.find({a, b});
        if (it == reach.end()) {
            const std::string name = prefix + std::to_string(a) + "_" + std::to_string(b);
            it = reach.emplace(std::make_pair(a, b), c_.ctx.bool_const(name.c_str())).first;
        }
        return it->second;
    };
    for (int a = 0; a < n; ++a) {
        std::vector<int> frontier;
        std::vector<bool> seen(static_cast<size_t>(n), false);
        auto visit = [&](int b, const z3::expr& because) {
            solver_.add(z3::implies(because, reached(a, b)));
            if (!seen[b]) seen[b] = true, frontier.push_back(b);
        };
        for (const auto& [b, v] : successors[a]) visit(b, v);
        while (!frontier.empty()) {
            const int b = frontier.back();
            frontier.pop_back();
            for (const auto& [c, v] : successors[b]) visit(c, conj(reached(a, b), v));
        }
    }
    stopIfInterrupted();
    return reach;
}

PairMap<z3::expr> SymbolicDomain::upperVariables(const PairMap<z3::expr>& pairs) const {
    // Named by place, as upperClosure's are.
    const std::string prefix = "fix" + std::to_string(fixedPoints_++) + "_";
    PairMap<z3::expr> out;
    for (const auto& [key, v] : pairs) {
        const std::string name = prefix + std::to_string(key.first) + "_" + std::to_string(key.second);
        out.emplace(key, c_.ctx.bool_const(name.c_str()));
    }
    return out;
}

z3::expr SymbolicDomain::lastInMo(int w) const {
    const Event& e = c_.sk.events[w];
    const std::vector<int>& writes = c_.writesOf[e.location];
    if (isInitEvent(e)) return c_.ctx.bool_val(writes.empty());
    z3::expr_vector before(c_.ctx);
    for (int other : writes)
        if (other != w) before.push_back(c_.moBefore(other, w));
    return before.empty() ? truth() : z3::mk_and(before);
}

// r's source is mo-before w: a disjunction over r's candidates, of the atoms
// mo already has, rather than an integer for the source's mo key (each
// equality with a key cost Z3 as much to internalise as the rest of a read).
z3::expr SymbolicDomain::readsBefore(int r, int w) const {
    z3::expr_vector cases(c_.ctx);
    const auto& candidates = c_.rfCandidates[r];
    for (size_t i = 0; i < candidates.size(); ++i)
        if (candidates[i] != w) cases.push_back(conj(c_.rfChosen[r][i], c_.moBefore(candidates[i], w)));
    return cases.size() == 1 ? cases[0] : z3::mk_or(cases);
}

PairMap<z3::expr> SymbolicDomain::dynamic(const std::string& name) const {
    PairMap<z3::expr> out;
    switch (findChosenRelation(name)->kind) {
        case ChoiceKind::ReadsFrom:
            for (size_t r = 0; r < c_.rfCandidates.size(); ++r)
                for (size_t i = 0; i < c_.rfCandidates[r].size(); ++i)
                    out.emplace(std::make_pair(c_.rfCandidates[r][i], static_cast<int>(r)), c_.rfChosen[r][i]);
            break;
        case ChoiceKind::ModificationOrder:
            for (size_t l = 0; l < c_.writesOf.size(); ++l)
                for (int a : c_.writesOf[l]) {
                    out.emplace(std::make_pair(c_.sk.initWriteOf(static_cast<int>(l)), a), truth());
                    for (int b : c_.writesOf[l])
                        if (a != b) out.emplace(std::make_pair(a, b), c_.moBefore(a, b));
                }
            break;
        case ChoiceKind::ReadsBefore:
            for (size_t r = 0; r < c_.rfCandidates.size(); ++r) {
                if (c_.rfCandidates[r].empty()) continue;
                for (int w : c_.writesOf[c_.sk.events[r].location])
                    if (w != static_cast<int>(r))
                        out.emplace(std::make_pair(static_cast<int>(r), w), readsBefore(static_cast<int>(r), w));
            }
            break;
        case ChoiceKind::FlushDirection:
            for (size_t i = 0; i < c_.nfoPairs.size(); ++i) {
                auto [a, b] = c_.nfoPairs[i];
                out.emplace(std::make_pair(a, b), c_.nfoForward[i]);
                out.emplace(std::make_pair(b, a), !c_.nfoForward[i]);
            }
            break;
        case ChoiceKind::GroupOrder:
            if (auto order = c_.orders.find(name); order != c_.orders.end()) out = order->second.pairs();
            break;
    }
    return out;
}

}  // namespace rdmacheck
