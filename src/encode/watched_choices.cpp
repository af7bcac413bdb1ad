#include "watched_choices.hpp"

#include <algorithm>
#include <functional>

#include "rdmacheck/arith.hpp"

namespace rdmacheck {

namespace {

// Whether every read `v` refers to settles (Value::Kind::Read is one).
template <class Settle>
bool readsSettle(const Value& v, const Settle& settle) {
    if (v.kind == Value::Kind::Read) return settle(v.event);
    return std::all_of(v.args.begin(), v.args.end(), [&](const Value& a) { return readsSettle(a, settle); });
}

}  // namespace

WatchedChoices::WatchedChoices(z3::solver& solver, ChoiceWatch& watch, const Choices& choices)
    : watch_(watch), choices_(choices) {
    readAt_.assign(choices.rfChosen.size(), -1);
    for (size_t r = 0; r < choices.rfChosen.size(); ++r) {
        if (choices.rfChosen[r].size() < 2) continue;
        readAt_[r] = static_cast<int>(reads_.size());
        reads_.push_back(static_cast<int>(r));
        sources_.emplace_back();
        for (const z3::expr& chosen : choices.rfChosen[r]) sources_.back().push_back(watch.watch(chosen));
    }
    for (const auto& writes : choices.writesOf)
        for (size_t i = 0; i < writes.size(); ++i)
            for (size_t j = i + 1; j < writes.size(); ++j)
                coherence_.push_back(order(solver, writes[i], writes[j], choices.moBefore(writes[i], writes[j]), "mo"));
    for (const z3::expr& forward : choices.nfoForward) flushes_.push_back(watch.watch(forward));
    for (const auto& [name, ranked] : choices.orders)
        for (const auto& [group, events] : ranked.groups)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    const int a = events[i], b = events[j];
                    groupOrders_[name].push_back(order(solver, a, b, ranked.rank[a] < ranked.rank[b], name));
                }
}

// A Boolean constant tied to `before`: Z3 would wrap an inequality watched
// directly in a proxy of its own at every encoding.
WatchedChoices::Ordered WatchedChoices::order(z3::solver& solver, int a, int b, const z3::expr& before,
                                              const std::string& name) {
    const std::string proxyName = name + "<" + std::to_string(a) + "_" + std::to_string(b);
    const z3::expr proxy = choices_.ctx.bool_const(proxyName.c_str());
    solver.add(proxy == before);
    return {a, b, proxy, watch_.watch(proxy)};
}

bool WatchedChoices::complete() const {
    auto all = [&](const std::vector<unsigned>& ids) {
        return std::all_of(ids.begin(), ids.end(), [&](unsigned id) { return watch_.assigned(id); });
    };
    auto allOrdered = [&](const std::vector<Ordered>& pairs) {
        return std::all_of(pairs.begin(), pairs.end(), [&](const Ordered& p) { return watch_.assigned(p.id); });
    };
    return std::all_of(sources_.begin(), sources_.end(), all) && all(flushes_) && allOrdered(coherence_) &&
           std::all_of(groupOrders_.begin(), groupOrders_.end(), [&](const auto& g) { return allOrdered(g.second); });
}

// Each event's place in its group (a location's writes, a group order's
// group): how many of the group come before it. The pairs' values are a
// strict total order per group at a final check, so the places are 0, 1, ...
std::vector<int> WatchedChoices::places(const std::vector<Ordered>& pairs, size_t eventCount) const {
    std::vector<int> place(eventCount, 0);
    for (const Ordered& p : pairs) ++place[watch_.holds(p.id) ? p.b : p.a];
    return place;
}

bool WatchedChoices::read(size_t locationCount, ExecutionGraph& found) const {
    found.clearChoices(locationCount);
    for (size_t r = 0; r < choices_.rfCandidates.size(); ++r)
        if (choices_.rfCandidates[r].size() == 1) found.rf[r] = choices_.rfCandidates[r][0];
    for (size_t i = 0; i < reads_.size(); ++i) {
        const auto& ids = sources_[i];
        const auto taken = std::find_if(ids.begin(), ids.end(), [&](unsigned id) { return watch_.holds(id); });
        if (taken == ids.end()) return false;
        found.rf[reads_[i]] = choices_.rfCandidates[reads_[i]][taken - ids.begin()];
    }
    if (!valuesFromSources(found)) return false;
    const std::vector<int> place = places(coherence_, found.events.size());
    for (size_t l = 0; l < locationCount; ++l) {
        std::vector<int> writes = choices_.writesOf[l];
        std::sort(writes.begin(), writes.end(), [&](int a, int b) { return place[a] < place[b]; });
        found.mo[l].push_back(found.initWriteOf(static_cast<int>(l)));
        found.mo[l].insert(found.mo[l].end(), writes.begin(), writes.end());
    }
    for (size_t i = 0; i < choices_.nfoPairs.size(); ++i) {
        const auto [a, b] = choices_.nfoPairs[i];
        const bool forward = watch_.holds(flushes_[i]);
        found.nfo.emplace_back(forward ? a : b, forward ? b : a);
    }
    for (const auto& [name, ranked] : choices_.orders) {
        static const std::vector<Ordered> none;  // every group of one event
        auto it = groupOrders_.find(name);
        const std::vector<int> rank = places(it == groupOrders_.end() ? none : it->second, found.events.size());
        found.orders[name] = ranked.decode([&](int a, int b) { return rank[a] < rank[b]; });
    }
    return true;
}

// Each value read is its source's written value, computed after the values
// that one reads.
bool WatchedChoices::valuesFromSources(ExecutionGraph& found) const {
    std::vector<signed char> state(found.events.size(), 0);  // 0 open, 1 on the stack, 2 done
    std::function<bool(int)> settle = [&](int r) {
        if (state[r] != 0) return state[r] == 2;
        if (found.rf[r] < 0) return false;  // a value received but never bound (a read of no write)
        state[r] = 1;
        const Value& written = found.events[found.rf[r]].written;
        if (!readsSettle(written, settle)) return false;
        try {
            found.readValues[r] = written.eval(found.readValues);
        } catch (const ArithmeticOverflow&) {
            return false;
        }
        state[r] = 2;
        return true;
    };
    for (size_t r = 0; r < choices_.rfCandidates.size(); ++r)
        if (!choices_.rfCandidates[r].empty() && !settle(static_cast<int>(r))) return false;
    return true;
}

std::string WatchedChoices::key() const {
    std::string key;
    for (const auto& ids : sources_)
        for (size_t c = 0; c < ids.size(); ++c)
            if (watch_.holds(ids[c])) {
                key.push_back(static_cast<char>(c & 0xff));
                if (ids.size() > 256) key.push_back(static_cast<char>(c >> 8));
            }
    for (size_t i = 0; i < coherence_.size(); i += 8) {
        char bits = 0;
        for (size_t k = i; k < std::min(i + 8, coherence_.size()); ++k)
            if (watch_.holds(coherence_[k].id)) bits = static_cast<char>(bits | (1 << (k - i)));
        key.push_back(bits);
    }
    return key;
}

std::vector<unsigned> WatchedChoices::determining(const ExecutionGraph& ex, const std::vector<int>& locations,
                                                  const std::vector<Value>& values) const {
    std::vector<unsigned> ids;
    std::vector<bool> met(ex.events.size(), false);
    std::function<void(const Value&)> cone = [&](const Value& v) {  // the sources of the reads v depends on
        if (v.kind != Value::Kind::Read) {
            for (const Value& a : v.args) cone(a);
            return;
        }
        if (met[v.event]) return;
        met[v.event] = true;
        if (readAt_[v.event] >= 0)
            for (unsigned id : sources_[readAt_[v.event]])
                if (watch_.holds(id)) ids.push_back(id);
        cone(ex.events[ex.rf[v.event]].written);
    };
    std::vector<bool> last(ex.events.size(), false);
    for (int l : locations) last[ex.mo[l].back()] = true;
    for (const Ordered& p : coherence_)
        if (last[p.a] || last[p.b]) ids.push_back(p.id);
    for (int l : locations) cone(ex.events[ex.mo[l].back()].written);
    for (const Value& v : values) cone(v);
    return ids;
}

std::vector<unsigned> WatchedChoices::distinguishing() const {
    std::vector<unsigned> ids;
    for (const auto& candidates : sources_)
        for (unsigned id : candidates)
            if (watch_.holds(id)) ids.push_back(id);
    for (const Ordered& p : coherence_) ids.push_back(p.id);
    return ids;
}

z3::expr_vector WatchedChoices::literalsOf(const ExecutionGraph& ex) const {
    z3::expr_vector literals(choices_.ctx);
    for (int r : reads_) {
        const auto& candidates = choices_.rfCandidates[r];
        const auto i = std::find(candidates.begin(), candidates.end(), ex.rf[r]) - candidates.begin();
        literals.push_back(choices_.rfChosen[r][i]);
    }
    for (const Ordered& p : coherence_) {
        const auto& order = ex.mo[ex.events[p.a].location];
        const bool forward = std::find(order.begin(), order.end(), p.a) < std::find(order.begin(), order.end(), p.b);
        literals.push_back(forward ? p.proxy : !p.proxy);
    }
    return literals;
}

std::vector<z3::expr> WatchedChoices::groupOrderPairs() const {
    std::vector<z3::expr> pairs;
    for (const auto& [name, ordered] : groupOrders_)
        for (const Ordered& p : ordered) pairs.push_back(p.proxy);
    return pairs;
}

}  // namespace rdmacheck
