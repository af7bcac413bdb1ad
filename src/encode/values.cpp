#include "values.hpp"

#include <algorithm>

namespace rdmacheck {

namespace {

// How many reads v adds up if it is r + k or k, else -1: the terms Z3's
// difference-logic solver takes (a read's value equals its source's written value).
int offsetReads(const Value& v) {
    auto sum = [&](int a, int b) { return a < 0 || b < 0 || a + b > 1 ? -1 : a + b; };
    switch (v.kind) {
        case Value::Kind::Const: return 0;
        case Value::Kind::Read: return 1;
        case Value::Kind::Add: return sum(offsetReads(v.args[0]), offsetReads(v.args[1]));
        case Value::Kind::Sub: return offsetReads(v.args[1]) == 0 ? offsetReads(v.args[0]) : -1;
        case Value::Kind::Mul:
        case Value::Kind::Mod:
        case Value::Kind::Neg:
        case Value::Kind::Xor:
        case Value::Kind::Or: break;
    }
    for (const Value& a : v.args)
        if (offsetReads(a) != 0) return -1;
    return 0;
}

// The reads whose value something computes with: a written value, a
// message, a constraint, a register's expression.
std::vector<bool> readsComputedWith(const ExecutionGraph& sk) {
    std::vector<bool> used(sk.events.size(), false);
    auto mark = [&](const Value& v) { v.forEachRead([&](int r) { used[r] = true; }); };
    for (const Event& e : sk.events) {
        mark(e.written);
        for (const Value& m : e.message) mark(m);
    }
    for (const ValueConstraint& c : sk.constraints) {
        mark(c.lhs);
        mark(c.rhs);
    }
    for (const auto& registers : sk.registers)
        for (const auto& [name, v] : registers)
            if (v.kind != Value::Kind::Read) mark(v);
    return used;
}

// A read's value is an integer variable, equal to its source's value, unless
// nothing computes with it and every candidate writes a constant: then its
// source tells it (valueIsTerm asks the rf Booleans), which spares Z3 two
// arithmetic atoms per candidate; its term is then an if-then-else over the
// sources, which only the model's decoder evaluates.
void nameValue(Choices& c, int r, bool computedWith) {
    const auto& candidates = c.rfCandidates[r];
    auto written = [&](size_t i) -> const Value& { return c.sk.events[candidates[i]].written; };
    const bool constants = std::all_of(candidates.begin(), candidates.end(), [&](int w) {
        return c.sk.events[w].written.kind == Value::Kind::Const;
    });
    if (computedWith || !constants) {
        c.readValue[r] = c.ctx.int_const(("v" + std::to_string(r)).c_str());
        return;
    }
    c.valueFromSource[r] = true;
    z3::expr v = valueTerm(c, written(candidates.size() - 1));
    for (size_t i = candidates.size() - 1; i-- > 0;) v = z3::ite(c.rfChosen[r][i], valueTerm(c, written(i)), v);
    c.readValue[r] = v;
}

}  // namespace

bool isDifferenceLogic(const ExecutionGraph& sk) {
    auto offset = [](const Value& v) { return offsetReads(v) >= 0; };
    auto offsets = [&](const std::map<std::string, Value>& registers) {
        return std::all_of(registers.begin(), registers.end(), [&](const auto& r) { return offset(r.second); });
    };
    return std::all_of(sk.events.begin(), sk.events.end(), [&](const Event& e) { return offset(e.written); }) &&
           std::all_of(sk.constraints.begin(), sk.constraints.end(),
                       [&](const ValueConstraint& c) { return offset(c.lhs) && offset(c.rhs); }) &&
           std::all_of(sk.registers.begin(), sk.registers.end(), offsets);
}

z3::expr compareValues(Comparison op, const z3::expr& a, const z3::expr& b) {
    if (op == Comparison::Eq) return equal(a, b);
    if (op == Comparison::Ne) return !equal(a, b);
    return compare(op, a, b);
}

z3::expr valueTerm(const Choices& c, const Value& v) {
    auto term = [&](size_t i) { return valueTerm(c, v.args[i]); };
    switch (v.kind) {
        case Value::Kind::Const: return c.ctx.int_val(static_cast<int64_t>(v.constant));
        case Value::Kind::Read: return c.readValue[v.event];
        case Value::Kind::Add: return term(0) + term(1);
        case Value::Kind::Sub: return term(0) - term(1);
        case Value::Kind::Mul: return term(0) * term(1);
        case Value::Kind::Mod: return z3::mod(term(0), term(1));  // Euclidean, as arith::mod
        case Value::Kind::Neg: return -term(0);
        // Through 64-bit vectors and back as signed: the value is in range (Value::eval checks every other step).
        case Value::Kind::Xor: return z3::bv2int(z3::int2bv(64, term(0)) ^ z3::int2bv(64, term(1)), true);
        case Value::Kind::Or: return z3::bv2int(z3::int2bv(64, term(0)) | z3::int2bv(64, term(1)), true);
    }
    return c.ctx.int_val(0);
}

void nameReadValues(Choices& c, z3::solver& solver) {
    const int n = static_cast<int>(c.sk.events.size());
    c.readValue.assign(n, c.ctx.int_val(0));
    c.valueFromSource.assign(n, false);
    const std::vector<bool> computedWith = readsComputedWith(c.sk);
    for (int r = 0; r < n; ++r)
        if (!c.rfCandidates[r].empty()) nameValue(c, r, computedWith[r]);
    for (int r = 0; r < n; ++r) {
        if (c.rfCandidates[r].empty() || c.valueFromSource[r]) continue;
        const auto& candidates = c.rfCandidates[r];
        for (size_t i = 0; i < candidates.size(); ++i)
            solver.add(z3::implies(c.rfChosen[r][i],
                                   equal(c.readValue[r], valueTerm(c, c.sk.events[candidates[i]].written))));
    }
}

z3::expr valueIsTerm(const Choices& c, const Value& v, long long k) {
    if (v.kind != Value::Kind::Read || !c.valueFromSource[v.event])
        return equal(valueTerm(c, v), c.ctx.int_val(static_cast<int64_t>(k)));
    z3::expr_vector sources(c.ctx);
    const auto& candidates = c.rfCandidates[v.event];
    for (size_t i = 0; i < candidates.size(); ++i)
        if (c.sk.events[candidates[i]].written.constant == k) sources.push_back(c.rfChosen[v.event][i]);
    return sources.size() == 1 ? sources[0] : z3::mk_or(sources);
}

}  // namespace rdmacheck
