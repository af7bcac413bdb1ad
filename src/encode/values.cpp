#include "values.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "rdmacheck/arith.hpp"

namespace rdmacheck {

std::vector<std::vector<int>> writesByLocation(const ExecutionGraph& sk, size_t locationCount) {
    std::vector<std::vector<int>> writesOf(locationCount);
    for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
        if (isWrite(sk.events[e].kind) && !isInitEvent(sk.events[e])) writesOf[sk.events[e].location].push_back(e);
    return writesOf;
}

namespace {

// Whether a test of read r's own path (`assume(imm >= 5)` on a read of imm)
// refuses a source that writes `written`.
bool refusesSource(const ExecutionGraph& sk, int r, long long written) {
    auto isThisRead = [&](const Value& v) { return v.kind == Value::Kind::Read && v.event == r; };
    return std::any_of(sk.constraints.begin(), sk.constraints.end(), [&](const ValueConstraint& c) {
        if (isThisRead(c.lhs) && c.rhs.kind == Value::Kind::Const) return !compare(c.op, written, c.rhs.constant);
        if (isThisRead(c.rhs) && c.lhs.kind == Value::Kind::Const) return !compare(c.op, c.lhs.constant, written);
        return false;
    });
}

}  // namespace

std::vector<int> sourcesOf(const ExecutionGraph& sk, const std::vector<std::vector<int>>& writesOf, int r, bool& none) {
    const Event& read = sk.events[r];
    std::vector<int> all{sk.initWriteOf(read.location)};
    // herd7 leads iico from each read of an instruction out of po to each of
    // its writes, and no read takes its value from a write iico-after it
    // (herd/mem.ml, optace's Iico default under a cat model); nor does a
    // locked instruction's read its own write.
    auto lockedPair = [&](int w) {
        return std::find(sk.lockedPairs.begin(), sk.lockedPairs.end(), std::make_pair(r, w)) != sk.lockedPairs.end();
    };
    for (int w : writesOf[read.location])
        if (w != r && !sameInstructionOutOfPo(read, sk.events[w]) && !lockedPair(w)) all.push_back(w);
    std::vector<int> kept;
    for (int w : all) {
        const std::optional<long long> written = constantWritten(sk, writesOf, w);
        if (!written || !refusesSource(sk, r, *written)) kept.push_back(w);
    }
    none = kept.empty();
    return none ? all : kept;
}

std::optional<long long> constantWritten(const ExecutionGraph& sk, const std::vector<std::vector<int>>& writesOf, int w) {
    const Value& v = sk.events[w].written;
    if (v.kind == Value::Kind::Const) return v.constant;
    if (v.kind != Value::Kind::Read || !writesOf[sk.events[v.event].location].empty()) return std::nullopt;
    const Value& init = sk.events[sk.initWriteOf(sk.events[v.event].location)].written;
    return init.kind == Value::Kind::Const ? std::optional<long long>(init.constant) : std::nullopt;
}

namespace {

// How many reads v adds up if it is r + k or k, else -1: the terms Z3's
// difference-logic solver takes (a read's value equals its source's written value).
int offsetReads(const Value& v) {
    auto sum = [&](int a, int b) { return a < 0 || b < 0 || a + b > 1 ? -1 : a + b; };
    switch (v.kind) {
        case Value::Kind::Const: return 0;
        case Value::Kind::Read: return 1;
        case Value::Kind::Operation:
            if (v.op == Operator::Add) return sum(offsetReads(v.args[0]), offsetReads(v.args[1]));
            if (v.op == Operator::Sub) return offsetReads(v.args[1]) == 0 ? offsetReads(v.args[0]) : -1;
            break;
    }
    for (const Value& a : v.args)
        if (offsetReads(a) != 0) return -1;
    return 0;
}

// Calls f with each value something computes: a written value, a message, a
// constraint's sides, a register's expression (not a register that only
// holds what a read read).
template <class F>
void forEachComputedValue(const ExecutionGraph& sk, const F& f) {
    for (const Event& e : sk.events) {
        f(e.written);
        for (const Value& m : e.message) f(m);
    }
    for (const ValueConstraint& c : sk.constraints) {
        f(c.lhs);
        f(c.rhs);
    }
    for (const auto& registers : sk.registers)
        for (const auto& [name, v] : registers)
            if (v.kind != Value::Kind::Read) f(v);
}

// The reads whose value something computes with: a bare copy (a put's
// constant copied to its remote write, an assume's side) is no computation.
std::vector<bool> readsComputedWith(const ExecutionGraph& sk) {
    std::vector<bool> used(sk.events.size(), false);
    forEachComputedValue(sk, [&](const Value& v) {
        if (v.kind != Value::Kind::Read) v.forEachRead([&](int r) { used[r] = true; });
    });
    return used;
}

// A read's value is an integer variable, equal to its source's value, unless
// nothing computes with it and every candidate writes a constant (a put's
// too: constantWritten): then its source tells it (valueIsTerm and
// constraintTerm ask the rf Booleans), which spares Z3 two arithmetic atoms
// per candidate; its term is then an if-then-else over the sources, which
// only the model's decoder evaluates.
void nameValue(Choices& c, int r, bool computedWith) {
    const auto& candidates = c.rfCandidates[r];
    std::vector<long long> constants;
    for (int w : candidates)
        if (const std::optional<long long> k = constantWritten(c.sk, c.writesOf, w)) constants.push_back(*k);
    if (computedWith || constants.size() != candidates.size()) {
        c.readValue[r] = c.ctx.int_const(("v" + std::to_string(r)).c_str());
        return;
    }
    auto term = [&](size_t i) { return c.ctx.int_val(static_cast<int64_t>(constants[i])); };
    z3::expr v = term(candidates.size() - 1);
    for (size_t i = candidates.size() - 1; i-- > 0;) v = z3::ite(c.rfChosen[r][i], term(i), v);
    c.readValue[r] = v;
    c.sourceValues[r] = std::move(constants);
}

bool hasBitwise(const Value& v) {
    return v.is(Operator::Xor) || v.is(Operator::Or) || std::any_of(v.args.begin(), v.args.end(), hasBitwise);
}

// A read's values are few up to this many; an XOR or OR is a table up to this
// many pairs of its operands' values (an if-then-else chain that long).
constexpr size_t kFewValues = 256;

// The values v takes when each read r takes one of `of(r)` (null: unknown),
// if at most kFewValues and none leaves the 64-bit range.
template <class Of>
std::optional<std::set<long long>> valuesOf(const Value& v, const Of& of) {
    if (v.kind == Value::Kind::Const) return std::set<long long>{v.constant};
    if (v.kind == Value::Kind::Read) {
        const std::set<long long>* known = of(v.event);
        return known ? std::optional<std::set<long long>>(*known) : std::nullopt;
    }
    std::vector<std::set<long long>> args;
    for (const Value& a : v.args) {
        std::optional<std::set<long long>> values = valuesOf(a, of);
        if (!values) return std::nullopt;
        args.push_back(std::move(*values));
    }
    std::set<long long> out;
    Value step = v;  // v over constants, each combination in turn
    std::vector<long long> none;
    auto combine = [&](auto& self, size_t i) -> bool {
        if (i == args.size()) {
            try {
                out.insert(step.eval(none));
            } catch (const ArithmeticOverflow&) {
                return false;
            }
            return out.size() <= kFewValues;
        }
        for (long long a : args[i]) {
            step.args[i] = Value::of(a);
            if (!self(self, i + 1)) return false;
        }
        return true;
    };
    return combine(combine, 0) ? std::optional<std::set<long long>>(std::move(out)) : std::nullopt;
}

// A range of values, lo..hi; empty while lo > hi.
using Range = std::pair<long long, long long>;
constexpr Range kNoValue{std::numeric_limits<long long>::max(), std::numeric_limits<long long>::min()};

bool isEmpty(const Range& r) { return r.first > r.second; }
Range hull(const Range& a, const Range& b) { return {std::min(a.first, b.first), std::max(a.second, b.second)}; }

// The fewest bits whose signed values hold every value of r.
unsigned signedWidth(const Range& r) {
    unsigned w = 1;
    while (w < 64 && (r.first < -(1LL << (w - 1)) || r.second >= (1LL << (w - 1)))) ++w;
    return w;
}

// The range of an operation's value over its operands' ranges (`a`, none
// empty), if it stays in 64 bits. A wrap into 32 bits (X86's sums: a mod of a
// sum) keeps a range it does not cut, so that X86's small values stay small.
std::optional<Range> operationRange(Operator op, const std::vector<Range>& a) {
    long long lo = 0, hi = 0;
    bool overflow = false;
    switch (op) {
        case Operator::Add:
            overflow = __builtin_add_overflow(a[0].first, a[1].first, &lo) ||
                       __builtin_add_overflow(a[0].second, a[1].second, &hi);
            break;
        case Operator::Sub:
            overflow = __builtin_sub_overflow(a[0].first, a[1].second, &lo) ||
                       __builtin_sub_overflow(a[0].second, a[1].first, &hi);
            break;
        case Operator::Neg:
            overflow = __builtin_sub_overflow(0LL, a[0].second, &lo) || __builtin_sub_overflow(0LL, a[0].first, &hi);
            break;
        case Operator::Mul: {
            lo = std::numeric_limits<long long>::max(), hi = std::numeric_limits<long long>::min();
            for (long long x : {a[0].first, a[0].second})
                for (long long y : {a[1].first, a[1].second}) {
                    long long p = 0;
                    overflow = overflow || __builtin_mul_overflow(x, y, &p);
                    lo = std::min(lo, p), hi = std::max(hi, p);
                }
            break;
        }
        case Operator::Mod:
            if (a[1].first != a[1].second || a[1].first <= 0) return std::nullopt;
            if (a[0].first >= 0 && a[0].second < a[1].first) return a[0];
            return Range{0, a[1].first - 1};
        case Operator::Xor:
        case Operator::Or: {
            const unsigned w = signedWidth(hull(a[0], a[1]));
            if (w == 64) return std::nullopt;
            return Range{-(1LL << (w - 1)), (1LL << (w - 1)) - 1};
        }
        case Operator::Eq:
        case Operator::Gt: return Range{0, 1};
    }
    if (overflow) return std::nullopt;
    return Range{lo, hi};
}

// The range of v when each read r ranges over `of(r)` (null: unknown).
template <class Of>
std::optional<Range> rangeOf(const Value& v, const Of& of) {
    if (v.kind == Value::Kind::Const) return Range{v.constant, v.constant};
    if (v.kind == Value::Kind::Read) {
        const Range* known = of(v.event);
        return known ? std::optional<Range>(*known) : std::nullopt;
    }
    std::vector<Range> args;
    for (const Value& a : v.args) {
        const std::optional<Range> r = rangeOf(a, of);
        if (!r) return std::nullopt;
        if (isEmpty(*r)) return kNoValue;
        args.push_back(*r);
    }
    return operationRange(v.op, args);
}

// Each read's values, when few, and their range: a fixpoint over rf's
// candidates (a read takes what one of them writes), growing until nothing
// grows, or for one round more than there are writes: in an execution a value
// flows through each write at most once (rf and the data it carries are
// acyclic), and without the bound updates that read each other's writes (LOCK
// INC and LOCK XOR of one location) would grow past the few values they take.
// A read with too many values, or one that depends on such a read, has no few
// values (none); one whose range leaves 64 bits, no range.
void boundReadValues(Choices& c) {
    const size_t n = c.sk.events.size();
    std::vector<std::set<long long>> values(n);
    std::vector<Range> ranges(n, kNoValue);
    std::vector<bool> many(n, false), unbounded(n, false);
    auto of = [&](int r) { return many[r] ? nullptr : &values[r]; };
    auto rangeOfRead = [&](int r) { return unbounded[r] ? nullptr : &ranges[r]; };
    const size_t writes = std::count_if(c.sk.events.begin(), c.sk.events.end(),
                                        [](const Event& e) { return isWrite(e.kind) && !isInitEvent(e); });
    size_t rounds = 0;
    for (bool grew = true; grew && rounds++ <= writes;) {
        grew = false;
        for (size_t r = 0; r < n; ++r)
            for (int w : c.rfCandidates[r]) {
                const Value& written = c.sk.events[w].written;
                const std::optional<std::set<long long>> few = many[r] ? std::nullopt : valuesOf(written, of);
                const size_t before = values[r].size();
                if (few) values[r].insert(few->begin(), few->end());
                const bool nowMany = !few || values[r].size() > kFewValues;
                const std::optional<Range> range = unbounded[r] ? std::nullopt : rangeOf(written, rangeOfRead);
                const Range wider = range ? hull(ranges[r], *range) : ranges[r];
                grew = grew || nowMany != many[r] || values[r].size() != before || !range != unbounded[r] ||
                       wider != ranges[r];
                many[r] = nowMany;
                unbounded[r] = !range;
                ranges[r] = wider;
            }
    }
    c.fewValues.assign(n, std::nullopt);
    c.valueRange.assign(n, std::nullopt);
    for (size_t r = 0; r < n; ++r) {
        if (!many[r] && !values[r].empty()) c.fewValues[r] = std::move(values[r]);
        if (!unbounded[r] && !isEmpty(ranges[r])) c.valueRange[r] = ranges[r];
    }
}

// v, an XOR or an OR, as a table over the few values its operands take (Z3's
// round trip through bit-vectors, int2bv and bv2int, costs seconds per
// encoding at 64 bits); when the pairs are many, through bit-vectors as wide
// as the values need (a narrower signed result extends to the 64-bit one) and
// back as signed.
z3::expr bitwiseTerm(const Choices& c, const Value& v) {
    auto of = [&](int r) { return c.fewValues[r] ? &*c.fewValues[r] : nullptr; };
    const z3::expr a = valueTerm(c, v.args[0]), b = valueTerm(c, v.args[1]);
    const auto left = valuesOf(v.args[0], of), right = valuesOf(v.args[1], of);
    if (!left || !right || left->empty() || right->empty() || left->size() * right->size() > kFewValues) {
        auto rangeOfRead = [&](int r) { return c.valueRange[r] ? &*c.valueRange[r] : nullptr; };
        const auto leftRange = rangeOf(v.args[0], rangeOfRead), rightRange = rangeOf(v.args[1], rangeOfRead);
        const unsigned width = !leftRange || !rightRange || isEmpty(*leftRange) || isEmpty(*rightRange)
                                   ? 64
                                   : signedWidth(hull(*leftRange, *rightRange));
        if (v.op == Operator::Xor) return z3::bv2int(z3::int2bv(width, a) ^ z3::int2bv(width, b), true);
        return z3::bv2int(z3::int2bv(width, a) | z3::int2bv(width, b), true);
    }
    std::optional<z3::expr> table;
    for (long long x : *left)
        for (long long y : *right) {
            const z3::expr result = c.ctx.int_val(static_cast<int64_t>(arith::apply(v.op, x, y)));
            z3::expr when = c.ctx.bool_val(true);
            if (left->size() > 1) when = equal(a, c.ctx.int_val(static_cast<int64_t>(x)));
            if (right->size() > 1) when = when && equal(b, c.ctx.int_val(static_cast<int64_t>(y)));
            table = table ? z3::ite(when, result, *table) : result;
        }
    return *table;
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

namespace {

z3::expr operationTerm(const Choices& c, const Value& v) {
    auto term = [&](size_t i) { return valueTerm(c, v.args[i]); };
    switch (v.op) {
        case Operator::Add: return term(0) + term(1);
        case Operator::Sub: return term(0) - term(1);
        case Operator::Mul: return term(0) * term(1);
        case Operator::Mod: return z3::mod(term(0), term(1));  // Euclidean, as arith::mod
        case Operator::Neg: return -term(0);
        case Operator::Xor:
        case Operator::Or: return bitwiseTerm(c, v);
        case Operator::Eq: return z3::ite(equal(term(0), term(1)), c.ctx.int_val(1), c.ctx.int_val(0));
        case Operator::Gt: return z3::ite(term(0) > term(1), c.ctx.int_val(1), c.ctx.int_val(0));
    }
    return c.ctx.int_val(0);
}

}  // namespace

z3::expr valueTerm(const Choices& c, const Value& v) {
    switch (v.kind) {
        case Value::Kind::Const: return c.ctx.int_val(static_cast<int64_t>(v.constant));
        case Value::Kind::Read: return c.readValue[v.event];
        case Value::Kind::Operation: return operationTerm(c, v);
    }
    return c.ctx.int_val(0);
}

void nameReadValues(Choices& c, z3::solver& solver) {
    const int n = static_cast<int>(c.sk.events.size());
    c.readValue.assign(n, c.ctx.int_val(0));
    c.sourceValues.assign(n, {});
    bool bitwise = false;
    forEachComputedValue(c.sk, [&](const Value& v) { bitwise = bitwise || hasBitwise(v); });
    if (bitwise)
        boundReadValues(c);
    else {
        c.fewValues.assign(n, std::nullopt);
        c.valueRange.assign(n, std::nullopt);
    }
    const std::vector<bool> computedWith = readsComputedWith(c.sk);
    for (int r = 0; r < n; ++r)
        if (!c.rfCandidates[r].empty()) nameValue(c, r, computedWith[r]);
    for (int r = 0; r < n; ++r) {
        if (c.rfCandidates[r].empty() || c.valueFromSource(r)) continue;
        const auto& candidates = c.rfCandidates[r];
        for (size_t i = 0; i < candidates.size(); ++i)
            solver.add(z3::implies(c.rfChosen[r][i],
                                   equal(c.readValue[r], valueTerm(c, c.sk.events[candidates[i]].written))));
    }
}

namespace {

// The skeleton's value dependencies (a read to each write it may read from, a
// write to the reads its value uses) in strongly connected components, and
// which events reach a cycle through them: only there can a value go free.
struct Dependencies {
    std::vector<int> component;      // per event; Tarjan's order: a component after those it reaches
    std::vector<bool> reachesCycle;  // per event
};

std::vector<std::vector<int>> dependencyEdges(const Choices& c) {
    std::vector<std::vector<int>> next(c.sk.events.size());
    for (size_t e = 0; e < next.size(); ++e) {
        next[e] = c.rfCandidates[e];
        if (isWrite(c.sk.events[e].kind)) c.sk.events[e].written.forEachRead([&](int d) { next[e].push_back(d); });
    }
    return next;
}

// Tarjan's algorithm with an explicit stack of (event, next edge).
Dependencies dependencies(const Choices& c) {
    const std::vector<std::vector<int>> next = dependencyEdges(c);
    const int n = static_cast<int>(next.size());
    Dependencies deps{std::vector<int>(n, -1), std::vector<bool>(n, false)};
    std::vector<int> index(n, -1), low(n, 0), stack;
    std::vector<bool> reaches;  // per component
    int counter = 0;
    auto visit = [&](int e, std::vector<std::pair<int, size_t>>& frames) {
        index[e] = low[e] = counter++;
        stack.push_back(e);
        frames.emplace_back(e, 0);
    };
    for (int root = 0; root < n; ++root) {
        if (index[root] >= 0) continue;
        std::vector<std::pair<int, size_t>> frames;
        visit(root, frames);
        while (!frames.empty()) {
            const int e = frames.back().first;
            if (frames.back().second < next[e].size()) {
                const int d = next[e][frames.back().second++];
                if (index[d] < 0) visit(d, frames);
                else if (deps.component[d] < 0) low[e] = std::min(low[e], index[d]);  // on the stack
                continue;
            }
            frames.pop_back();
            if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[e]);
            if (low[e] != index[e]) continue;
            const int k = static_cast<int>(reaches.size());
            bool cyclic = stack.back() != e;
            std::vector<int> members;
            do {
                members.push_back(stack.back());
                deps.component[stack.back()] = k;
                stack.pop_back();
            } while (members.back() != e);
            for (int m : members)
                for (int d : next[m])
                    cyclic = cyclic || d == m || (deps.component[d] != k && reaches[deps.component[d]]);
            reaches.push_back(cyclic);
        }
    }
    for (int e = 0; e < n; ++e) deps.reachesCycle[e] = reaches[deps.component[e]];
    return deps;
}

// Whether herd7 solves `v`: each read it uses is grounded (and, within the
// writer's cycle, deeper than it), but for a xor of two copies whose reads
// read one write that writes a copy (Value::xorOfCopies), in any subterm (a
// flag of it, say).
class Solvable {
public:
    Solvable(const Choices& c, const Dependencies& deps, const std::vector<z3::expr>& grounded,
             const std::vector<z3::expr>& depth)
        : c_(c), deps_(deps), grounded_(grounded), depth_(depth) {}

    z3::expr operator()(const Value& v, int writer = -1) const {
        if (v.kind == Value::Kind::Const) return c_.ctx.bool_val(true);
        if (v.kind == Value::Kind::Read) return grounded(v.event, writer);
        z3::expr_vector all(c_.ctx);
        for (const Value& a : v.args) all.push_back((*this)(a, writer));
        const auto copies = v.xorOfCopies();
        return copies ? z3::mk_and(all) || sameSource(copies->first, copies->second) : z3::mk_and(all);
    }

    // `e` grounded, below `above` where they share a cycle.
    z3::expr grounded(int e, int above = -1) const {
        if (above < 0 || deps_.component[e] != deps_.component[above]) return grounded_[e];
        return grounded_[e] && depth_[e] < depth_[above];
    }

private:
    z3::expr sameSource(int a, int b) const {
        z3::expr_vector both(c_.ctx);
        for (size_t i = 0; i < c_.rfCandidates[a].size(); ++i)
            for (size_t j = 0; j < c_.rfCandidates[b].size(); ++j)
                if (c_.rfCandidates[a][i] == c_.rfCandidates[b][j] &&
                    c_.sk.events[c_.rfCandidates[a][i]].written.isCopy())
                    both.push_back(c_.rfChosen[a][i] && c_.rfChosen[b][j]);
        return a == b ? c_.ctx.bool_val(true) : z3::mk_or(both);
    }

    const Choices& c_;
    const Dependencies& deps_;
    const std::vector<z3::expr>& grounded_;
    const std::vector<z3::expr>& depth_;
};

}  // namespace

void forbidUngroundedComputations(const Choices& c, z3::solver& solver) {
    const Dependencies deps = dependencies(c);
    if (std::none_of(deps.reachesCycle.begin(), deps.reachesCycle.end(), [](bool b) { return b; })) return;
    const size_t n = c.sk.events.size();
    std::vector<z3::expr> grounded, depth;
    for (size_t e = 0; e < n; ++e) {  // an event that reaches no cycle is grounded
        const std::string name = std::to_string(e);
        grounded.push_back(deps.reachesCycle[e] ? c.ctx.bool_const(("grounded" + name).c_str()) : c.ctx.bool_val(true));
        depth.push_back(c.ctx.int_const(("depth" + name).c_str()));
    }
    const Solvable solvable(c, deps, grounded, depth);
    auto computed = [&](const Value& v) {
        if (!v.isCopy()) solver.add(solvable(v));
    };
    for (const Event& e : c.sk.events)
        if (isWrite(e.kind) && !isInitEvent(e)) computed(e.written);
    for (const Value& v : c.sk.computations) computed(v);
    for (size_t r = 0; r < n; ++r)
        for (size_t i = 0; deps.reachesCycle[r] && i < c.rfCandidates[r].size(); ++i)
            solver.add(z3::implies(grounded[r] && c.rfChosen[r][i], solvable.grounded(c.rfCandidates[r][i], r)));
    for (size_t w = 0; w < n; ++w)
        if (deps.reachesCycle[w] && isWrite(c.sk.events[w].kind) && !isInitEvent(c.sk.events[w]))
            solver.add(z3::implies(grounded[w], solvable(c.sk.events[w].written, static_cast<int>(w))));
}

namespace {

// The rf Booleans of read r's sources whose value passes `passes`.
template <class Passes>
z3::expr sourcesWhere(const Choices& c, int r, const Passes& passes) {
    z3::expr_vector sources(c.ctx);
    for (size_t i = 0; i < c.sourceValues[r].size(); ++i)
        if (passes(c.sourceValues[r][i])) sources.push_back(c.rfChosen[r][i]);
    return sources.size() == 1 ? sources[0] : z3::mk_or(sources);
}

}  // namespace

z3::expr valueIsTerm(const Choices& c, const Value& v, long long k) {
    if (v.kind != Value::Kind::Read || !c.valueFromSource(v.event))
        return equal(valueTerm(c, v), c.ctx.int_val(static_cast<int64_t>(k)));
    return sourcesWhere(c, v.event, [&](long long x) { return x == k; });
}

z3::expr constraintTerm(const Choices& c, const ValueConstraint& vc) {
    auto fromSource = [&](const Value& v) { return v.kind == Value::Kind::Read && c.valueFromSource(v.event); };
    if (fromSource(vc.lhs) && vc.rhs.kind == Value::Kind::Const)
        return sourcesWhere(c, vc.lhs.event, [&](long long x) { return compare(vc.op, x, vc.rhs.constant); });
    if (fromSource(vc.rhs) && vc.lhs.kind == Value::Kind::Const)
        return sourcesWhere(c, vc.rhs.event, [&](long long x) { return compare(vc.op, vc.lhs.constant, x); });
    return compareValues(vc.op, valueTerm(c, vc.lhs), valueTerm(c, vc.rhs));
}

}  // namespace rdmacheck
