#include "wrap32.hpp"

#include <algorithm>
#include <cstdint>

namespace rdmacheck {

namespace {

constexpr long long kMin = INT32_MIN, kMax = INT32_MAX;
constexpr long long kFar = 1LL << 40;  // past the 32-bit range: every bound is clamped here

struct Interval {
    long long lo, hi;
    bool in32() const { return lo >= kMin && hi <= kMax; }
};

long long clamp(long long v) { return std::max(-kFar, std::min(kFar, v)); }

Interval hull(const Interval& a, const Interval& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// The values v takes when each read takes a value of its location's interval.
Interval intervalOf(const Value& v, const ThreadPath& path, const std::vector<Interval>& locations) {
    const Interval far{-kFar, kFar};
    if (v.kind == Value::Kind::Const) return {clamp(v.constant), clamp(v.constant)};
    if (v.kind == Value::Kind::Read) {
        const int l = path.events.at(v.event).location;
        return l < 0 ? far : locations.at(l);
    }
    std::vector<Interval> args;  // each operand once: a chain of n sums is n steps, not 2^n
    for (const Value& a : v.args) args.push_back(intervalOf(a, path, locations));
    const Interval& a = args[0];
    switch (v.op) {
        case Operator::Add: return {clamp(a.lo + args[1].lo), clamp(a.hi + args[1].hi)};
        case Operator::Sub: return {clamp(a.lo - args[1].hi), clamp(a.hi - args[1].lo)};
        case Operator::Neg: return {-a.hi, -a.lo};
        case Operator::Mod: return {0, std::max(0LL, args[1].hi - 1)};  // by a constant > 0
        case Operator::Mul: {
            const Interval& b = args[1];
            if (!a.in32() || !b.in32()) return far;  // products of 32-bit bounds fit in 64 bits
            const long long p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
        }
        case Operator::Xor:
        case Operator::Or: return a.in32() && args[1].in32() ? Interval{kMin, kMax} : far;
        case Operator::Eq:
        case Operator::Gt: return {0, 1};
    }
    return far;
}

template <class Path, class F>
void forEachValue(Path& path, const F& f) {
    for (auto& e : path.events) {
        f(e.written);
        for (auto& m : e.message) f(m);
    }
    for (auto& c : path.constraints) {
        f(c.lhs);
        f(c.rhs);
    }
    for (auto& [name, v] : path.registers) f(v);
    for (auto& v : path.computations) f(v);
}

// Each sum, difference, product and negation of v wrapped into 32 bits.
Value wrapped(Value v) {
    for (Value& a : v.args) a = wrapped(std::move(a));
    if (v.kind != Value::Kind::Operation || !arith::wrapsTo32Bits(v.op)) return v;
    return arith::wrapped32(std::move(v), Value::of);
}

}  // namespace

bool mayLeave32Bits(const UnfoldedProgram& program) {
    std::vector<Interval> locations;
    for (const Location& l : program.locations) locations.push_back({clamp(l.init), clamp(l.init)});
    size_t events = 0;
    for (const auto& paths : program.paths)
        for (const ThreadPath& p : paths) events += p.events.size();
    for (size_t round = 0, grew = 1; grew && round <= events; ++round) {
        grew = 0;
        for (const auto& paths : program.paths)
            for (const ThreadPath& p : paths)
                for (const Event& e : p.events) {
                    if (!isWrite(e.kind) || e.location < 0) continue;
                    const Interval w = intervalOf(e.written, p, locations);
                    if (!w.in32()) return true;
                    const Interval before = locations[e.location];
                    locations[e.location] = hull(before, w);
                    grew += before.lo != locations[e.location].lo || before.hi != locations[e.location].hi;
                }
    }
    bool leaves = false;
    for (const auto& paths : program.paths)
        for (const ThreadPath& p : paths)
            forEachValue(p, [&](const Value& v) { leaves = leaves || !intervalOf(v, p, locations).in32(); });
    return leaves;
}

void wrapTo32Bits(UnfoldedProgram& program) {
    for (auto& paths : program.paths)
        for (ThreadPath& p : paths) forEachValue(p, [](Value& v) { v = wrapped(std::move(v)); });
}

}  // namespace rdmacheck
