#include "brute_force.hpp"

#include <algorithm>

namespace rdmacheck::oracles {

Relation& Relation::operator|=(const Relation& other) {
    for (size_t a = 0; a < size(); ++a) rows_[a] |= other.rows_[a];
    return *this;
}

Relation operator&(const Relation& a, const Relation& b) {
    Relation r(a.size());
    for (size_t i = 0; i < a.size(); ++i) r.rows_[i] = a.rows_[i] & b.rows_[i];
    return r;
}

Relation operator-(const Relation& a, const Relation& b) {
    Relation r(a.size());
    for (size_t i = 0; i < a.size(); ++i) r.rows_[i] = a.rows_[i] & ~b.rows_[i];
    return r;
}

bool Relation::empty() const {
    return std::all_of(rows_.begin(), rows_.end(), [](EventSet row) { return row == 0; });
}

bool Relation::irreflexive() const {
    for (size_t a = 0; a < size(); ++a)
        if (has(a, a)) return false;
    return true;
}

Relation Relation::closure() const {
    Relation r = *this;
    for (size_t k = 0; k < size(); ++k)
        for (size_t i = 0; i < size(); ++i)
            if (r.has(i, k)) r.rows_[i] |= r.rows_[k];
    return r;
}

Relation Relation::reflexive() const {
    Relation r = *this;
    for (size_t a = 0; a < size(); ++a) r.add(a, a);
    return r;
}

Relation Relation::inverse() const {
    Relation r(size());
    for (size_t a = 0; a < size(); ++a)
        for (size_t b = 0; b < size(); ++b)
            if (has(a, b)) r.add(b, a);
    return r;
}

Relation Relation::then(const Relation& next) const {
    Relation r(size());
    for (size_t a = 0; a < size(); ++a)
        for (size_t b = 0; b < size(); ++b)
            if (has(a, b)) r.rows_[a] |= next.rows_[b];
    return r;
}

Relation Relation::within(EventSet s) const {
    Relation r(size());
    for (size_t a = 0; a < size(); ++a)
        if (contains(s, a)) r.rows_[a] = rows_[a] & s;
    return r;
}

Relation Relation::identity(size_t n, EventSet s) {
    Relation r(n);
    for (size_t a = 0; a < n; ++a)
        if (contains(s, a)) r.add(a, a);
    return r;
}

Relation Relation::product(size_t n, EventSet from, EventSet to) {
    Relation r(n);
    for (size_t a = 0; a < n; ++a)
        if (contains(from, a)) r.rows_[a] = to;
    return r;
}

void addTotalOrder(Relation& r, const std::vector<int>& order) {
    for (size_t i = 0; i < order.size(); ++i)
        for (size_t j = i + 1; j < order.size(); ++j) r.add(order[i], order[j]);
}

void forEachSkeleton(const UnfoldedProgram& program, bool bindReceived,
                     const std::function<void(const ExecutionGraph&)>& visit) {
    std::vector<size_t> choice(program.paths.size(), 0);
    for (bool more = program.skeletonCount() > 0; more; more = program.nextChoice(choice)) {
        const ExecutionGraph sk = program.skeleton(choice, bindReceived);
        if (sk.cutAt.empty()) visit(sk);
    }
}

namespace {

void chooseMo(Candidate& c, const std::vector<std::vector<int>>& writesTo, size_t l,
              const std::function<void()>& visit) {
    if (l == writesTo.size()) {
        visit();
        return;
    }
    std::vector<int> writes = writesTo[l];
    std::sort(writes.begin(), writes.end());
    do {
        c.mo[l] = writes;
        chooseMo(c, writesTo, l + 1, visit);
    } while (std::next_permutation(writes.begin(), writes.end()));
}

void chooseRf(Candidate& c, size_t events, const std::vector<size_t>& reads, size_t i,
              const std::function<bool(size_t, size_t)>& isSource, const std::vector<std::vector<int>>& writesTo,
              const std::function<void()>& visit) {
    if (i == reads.size()) {
        c.mo.assign(writesTo.size(), {});
        chooseMo(c, writesTo, 0, visit);
        return;
    }
    for (size_t w = 0; w < events; ++w) {
        if (w == reads[i] || !isSource(w, reads[i])) continue;
        c.rf[reads[i]] = static_cast<int>(w);
        chooseRf(c, events, reads, i + 1, isSource, writesTo, visit);
    }
}

}  // namespace

void forEachCandidate(Candidate& c, size_t events, const std::vector<size_t>& reads,
                      const std::function<bool(size_t write, size_t read)>& isSource,
                      const std::vector<std::vector<int>>& writesTo, const std::function<void()>& visit) {
    c.rf.assign(events, -1);
    chooseRf(c, events, reads, 0, isSource, writesTo, visit);
}

bool moBefore(const ExecutionGraph& sk, const Candidate& c, int a, int b) {
    const std::vector<int>& order = c.mo[sk.events[b].location];
    const auto at = std::find(order.begin(), order.end(), b);
    if (at == order.end()) return false;
    return sk.events[a].thread < 0 || std::find(order.begin(), at, a) != at;
}

int lastWrite(const ExecutionGraph& sk, const Candidate& c, int l) {
    return c.mo[l].empty() ? sk.initWriteOf(l) : c.mo[l].back();
}

std::vector<int> dependencies(const ExecutionGraph& sk, const Candidate& c, size_t r) {
    std::vector<int> deps;
    std::function<void(const Value&)> collect = [&](const Value& v) {
        if (v.kind == Value::Kind::Read) deps.push_back(v.event);
        for (const Value& a : v.args) collect(a);
    };
    collect(sk.events[c.rf[r]].written);
    return deps;
}

bool values(const ExecutionGraph& sk, const Candidate& c, const std::vector<size_t>& reads,
            std::vector<long long>& readValues, const std::map<size_t, long long>& guesses) {
    const size_t n = sk.events.size();
    readValues.assign(n, 0);
    enum State { Unknown, Computing, Known };
    std::vector<State> state(n, Unknown);
    for (const auto& [r, v] : guesses) {
        readValues[r] = v;
        state[r] = Known;
    }
    std::function<bool(size_t)> valueOf = [&](size_t r) {
        if (state[r] == Known) return true;
        if (state[r] == Computing) return false;
        state[r] = Computing;
        for (int d : dependencies(sk, c, r))
            if (!valueOf(static_cast<size_t>(d))) return false;
        readValues[r] = sk.events[c.rf[r]].written.eval(readValues);
        state[r] = Known;
        return true;
    };
    for (size_t r : reads)
        if (!valueOf(r)) return false;
    for (const auto& [r, v] : guesses)
        if (sk.events[c.rf[r]].written.eval(readValues) != v) return false;
    return true;
}

bool constraintsHold(const ExecutionGraph& sk, const std::vector<long long>& readValues) {
    return std::all_of(sk.constraints.begin(), sk.constraints.end(), [&](const ValueConstraint& c) {
        return holds(c.op, c.lhs.eval(readValues), c.rhs.eval(readValues));
    });
}

bool someOrientation(const std::vector<std::pair<int, int>>& pairs,
                     const std::function<bool(const Relation& oriented)>& accept, size_t events) {
    for (uint64_t bits = 0; bits < (uint64_t(1) << pairs.size()); ++bits) {
        Relation oriented(events);
        for (size_t i = 0; i < pairs.size(); ++i) {
            auto [a, b] = pairs[i];
            if ((bits >> i) & 1) std::swap(a, b);
            oriented.add(a, b);
        }
        if (accept(oriented)) return true;
    }
    return false;
}

namespace {

bool someTotalOrdersFrom(std::vector<std::vector<int>>& orders, size_t g,
                         const std::function<bool(const std::vector<std::vector<int>>&)>& accept) {
    if (g == orders.size()) return accept(orders);
    std::sort(orders[g].begin(), orders[g].end());
    do {
        if (someTotalOrdersFrom(orders, g + 1, accept)) return true;
    } while (std::next_permutation(orders[g].begin(), orders[g].end()));
    return false;
}

}  // namespace

bool someTotalOrders(const std::vector<std::vector<int>>& groups,
                     const std::function<bool(const std::vector<std::vector<int>>& orders)>& accept) {
    std::vector<std::vector<int>> orders = groups;
    return someTotalOrdersFrom(orders, 0, accept);
}

void Outcomes::record(const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& sk,
                      const Candidate& c, const std::vector<ObservedName>& shown,
                      const std::vector<long long>& readValues) {
    auto of = [&](const std::string& name, int thread) -> long long {
        if (thread >= 0) {
            auto it = sk.registers[thread].find(name);
            return it == sk.registers[thread].end() ? 0 : it->second.eval(readValues);
        }
        return sk.events[lastWrite(sk, c, program.locationIndex(name))].written.eval(readValues);
    };
    auto lookup = [&](const Cond& atom) { return of(atom.loc, atom.thread); };
    if (test.filter && !evalCondition(*test.filter, lookup)) return;
    FinalState state;
    for (const ObservedName& o : shown) state.push_back(of(o.name, o.thread));
    const bool sat = evalCondition(test.condition, lookup);
    states[state] = sat;
    ++(sat ? positive : negative);
}

}  // namespace rdmacheck::oracles
