#include "trail.hpp"

#include <algorithm>
#include <functional>
#include <map>

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

void TrailDecoder::noteSources(int read) {
    const auto& chosen = choices_.rfChosen[read];
    for (size_t i = 0; i < chosen.size(); ++i)
        terms_.emplace(Z3_get_ast_id(ctx_, chosen[i]), Term{Term::Kind::Source, read, static_cast<int>(i)});
}

void TrailDecoder::noteCoherence(const z3::expr& proxy, int a, int b) {
    terms_.emplace(Z3_get_ast_id(ctx_, proxy), Term{Term::Kind::Coherence, static_cast<int>(coherence_.size())});
    coherence_.emplace_back(a, b);
}

void TrailDecoder::noteFlush(int pair) {
    terms_.emplace(Z3_get_ast_id(ctx_, choices_.nfoForward[pair]), Term{Term::Kind::Flush, pair});
}

// Reads the literal's terms only: a term made here would change the solver's
// later search, and with it the order executions are found in.
TrailDecoder::Literal TrailDecoder::read(Z3_ast a) const {
    Literal l;
    if (Z3_get_ast_kind(ctx_, a) != Z3_APP_AST) return l;
    Z3_app app = Z3_to_app(ctx_, a);
    if (Z3_get_decl_kind(ctx_, Z3_get_app_decl(ctx_, app)) == Z3_OP_NOT) {
        l.positive = false;
        a = Z3_get_app_arg(ctx_, app, 0);
    }
    auto it = terms_.find(Z3_get_ast_id(ctx_, a));
    if (it != terms_.end()) l.term = &it->second;
    return l;
}

// Most of an encoding's trail literals recur from one execution to the next:
// each is read once. Held, so that its AST id names it while it is remembered.
const TrailDecoder::Literal& TrailDecoder::remembered(Z3_ast literal) const {
    const unsigned id = Z3_get_ast_id(ctx_, literal);
    if (id >= slot_.size()) slot_.resize(id + 1, -1);
    if (slot_[id] < 0) {
        slot_[id] = static_cast<int>(seen_.size());
        seen_.push_back(read(literal));
        held_.push_back(z3::expr(ctx_, literal));
    }
    return seen_[slot_[id]];
}

bool TrailDecoder::decode(z3::solver& solver, size_t locationCount, ExecutionGraph& found) const {
    for (const auto& [name, order] : choices_.orders)
        for (const auto& [group, events] : order.groups)
            if (events.size() > 1) return false;
    found.clearChoices(locationCount);
    auto noRank = [](const z3::expr&) { return OrderKey(); };  // groups of one event
    for (const auto& [name, order] : choices_.orders) found.orders[name] = order.decode(noRank);
    std::vector<signed char> before(coherence_.size(), -1);
    std::vector<bool> forward(choices_.nfoPairs.size(), false);
    std::vector<int> source(choices_.rfCandidates.size(), -1);
    const z3::expr_vector trail = solver.trail();
    for (unsigned i = 0; i < trail.size(); ++i) {
        const Literal& l = remembered(Z3_ast_vector_get(ctx_, trail, i));
        if (!l.term) continue;
        const int t = l.term->index;
        if (l.term->kind == Term::Kind::Coherence) before[t] = l.positive;
        if (l.term->kind == Term::Kind::Flush) forward[t] = l.positive;
        if (l.term->kind == Term::Kind::Source && l.positive) source[t] = l.term->candidate;
    }
    if (!sourcesFrom(source, found) || !valuesFromSources(found) || !orderWrites(before, locationCount, found))
        return false;
    for (size_t i = 0; i < choices_.nfoPairs.size(); ++i) {
        auto [a, b] = choices_.nfoPairs[i];
        found.nfo.emplace_back(forward[i] ? a : b, forward[i] ? b : a);
    }
    return true;
}

// Each read's source: the candidate whose literal is true, or its only one.
bool TrailDecoder::sourcesFrom(const std::vector<int>& source, ExecutionGraph& found) const {
    for (size_t r = 0; r < choices_.rfCandidates.size(); ++r) {
        const auto& candidates = choices_.rfCandidates[r];
        if (candidates.empty()) continue;
        if (candidates.size() > 1 && source[r] < 0) return false;
        found.rf[r] = candidates[candidates.size() == 1 ? 0 : source[r]];
    }
    return true;
}

// Each value read is its source's written value, computed after the values
// that one reads.
bool TrailDecoder::valuesFromSources(ExecutionGraph& found) const {
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

// mo per location, from the answer of each pair of its writes.
bool TrailDecoder::orderWrites(const std::vector<signed char>& before, size_t locationCount,
                               ExecutionGraph& found) const {
    std::map<std::pair<int, int>, bool> precedes;
    for (size_t p = 0; p < coherence_.size(); ++p) {
        if (before[p] < 0) return false;
        precedes[coherence_[p]] = before[p] == 1;
        precedes[{coherence_[p].second, coherence_[p].first}] = before[p] == 0;
    }
    for (size_t l = 0; l < locationCount; ++l) {
        std::vector<int> writes = choices_.writesOf[l];
        for (size_t i = 0; i < writes.size(); ++i)
            for (size_t j = i + 1; j < writes.size(); ++j)
                if (!precedes.count({writes[i], writes[j]})) return false;  // no proxy yet
        std::sort(writes.begin(), writes.end(), [&](int a, int b) { return a != b && precedes.at({a, b}); });
        found.mo[l].push_back(found.initWriteOf(static_cast<int>(l)));
        found.mo[l].insert(found.mo[l].end(), writes.begin(), writes.end());
    }
    return true;
}

}  // namespace rdmacheck
