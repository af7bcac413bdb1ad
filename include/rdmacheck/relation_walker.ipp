// RelationWalker's members (included by relations.hpp: a template).
#pragma once

#include <optional>
#include <stdexcept>

namespace rdmacheck {

template <class Domain>
const typename RelationWalker<Domain>::Relation& RelationWalker<Domain>::relation(const ModelExpr& e) {
    if (e.op == ModelExpr::Op::Name) {
        auto& memo = memo_[exact_];
        if (!memo.count(e.name)) {
            const Definition* d = model_.definition(e.name);
            if (d && d->group >= 0)
                fixedPoint(*d);  // the whole group's
            else
                memo.emplace(e.name, named(e.name));
        }
        return memo.at(e.name);
    }
    auto& memo = exprMemo_[exact_];
    auto it = memo.find(&e);
    if (it == memo.end()) it = memo.emplace(&e, compute(e)).first;
    return it->second;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::exactly(const ModelExpr& e) {
    const bool outer = exact_;
    exact_ = true;
    Relation r = relation(e);
    exact_ = outer;
    return r;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::compute(const ModelExpr& e) {
    using Op = ModelExpr::Op;
    switch (e.op) {
        case Op::Name: return relation(e);  // a renaming (`let a = b`): b once, by its name
        case Op::Scope: return scoped(e.name, relation(e.args[0]));
        case Op::Union: return unite(relation(e.args[0]), relation(e.args[1]));
        case Op::Inter: return intersect(relation(e.args[0]), relation(e.args[1]));
        case Op::Diff: return subtract(relation(e.args[0]), exactly(e.args[1]));
        case Op::Seq: return compose(relation(e.args[0]), relation(e.args[1]));
        case Op::Product: return product(members(e.args[0]), members(e.args[1]));
        case Op::Inverse: {
            Relation out;
            for (const auto& [key, v] : relation(e.args[0])) out.emplace(std::make_pair(key.second, key.first), v);
            return out;
        }
        case Op::Plus: return closure(relation(e.args[0]));
        case Op::Star: return unite(closure(relation(e.args[0])), identity());
        case Op::Opt: return unite(relation(e.args[0]), identity());
        case Op::Filter: return filter(members(e.args[0]));
        case Op::Empty: return {};
        default: return {};  // the cat language's other operators: none in a loaded model
    }
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::named(const std::string& name) {
    if (const Definition* d = model_.definition(name)) {
        if (d->type == ExprType::Set) return filter(definedMembers(name, *d));
        return compute(d->expr);
    }
    auto table = model_.tables.find(name);
    if (table != model_.tables.end()) return fromPairs(tablePairs(table->second, sk_));
    const BaseRelation* base = findBaseRelation(name);
    if (!base) throw std::logic_error("model: unresolved relation " + name);
    return base->dynamic ? domain_.dynamic(name) : fromPairs(base->pairs(sk_));
}

template <class Domain>
typename RelationWalker<Domain>::Members RelationWalker<Domain>::members(const ModelExpr& e) {
    using Op = ModelExpr::Op;
    if (e.op == Op::Name) {
        if (const Definition* d = model_.definition(e.name)) return definedMembers(e.name, *d);
        const BaseSet* base = findBaseSet(e.name);
        if (base && base->dynamic) return finalWrites();
        Members out;
        const std::vector<bool> fixed = sets_.set(e);
        for (int x = 0; x < n_; ++x)
            if (fixed[x]) out.emplace(x, domain_.truth());
        return out;
    }
    if (e.op == Op::Empty) return {};
    if (e.op == Op::Domain || e.op == Op::Range) {  // a positive use: the relation exactly
        Members out;
        for (const auto& [key, v] : exactly(e.args[0])) put(out, e.op == Op::Domain ? key.first : key.second, v);
        return out;
    }
    Members a = members(e.args[0]);
    const Members b = members(e.args[1]);
    if (e.op == Op::Union) {
        for (const auto& [x, v] : b) put(a, x, v);
        return a;
    }
    Members out;  // & and '\'
    for (const auto& [x, v] : a) {
        auto it = b.find(x);
        const bool inter = e.op == Op::Inter;
        if (it == b.end() && inter) continue;
        const V in = it == b.end() ? v : domain_.conj(v, inter ? it->second : domain_.negate(it->second));
        if (!domain_.isFalse(in)) out.emplace(x, in);
    }
    return out;
}

template <class Domain>
const typename RelationWalker<Domain>::Members& RelationWalker<Domain>::definedMembers(const std::string& name,
                                                                                     const Definition& d) {
    auto it = setMemo_.find(name);
    if (it == setMemo_.end()) it = setMemo_.emplace(name, members(d.expr)).first;
    return it->second;
}

// herd7's FW: each observed location's last write in mo (herd7 chooses the
// final writes of observed locations only under a cat model, co generated or
// not: herd/herd.ml, observed_finals_only).
template <class Domain>
typename RelationWalker<Domain>::Members RelationWalker<Domain>::finalWrites() const {
    Members out;
    for (int x = 0; x < n_; ++x) {
        const Event& e = sk_.events[x];
        if (!isWrite(e.kind) || e.location < 0) continue;
        if (!sk_.observed.empty() && !sk_.observed.at(static_cast<size_t>(e.location))) continue;
        const V last = domain_.lastInMo(x);
        if (!domain_.isFalse(last)) out.emplace(x, last);
    }
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::scoped(const std::string& library,
                                                                         const Relation& r) {
    Relation out;
    for (const auto& [key, v] : r)
        if (bothInLibrary(library, sk_.events[key.first], sk_.events[key.second])) out.emplace(key, v);
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::filter(const Members& s) const {
    Relation out;
    for (const auto& [x, v] : s) out.emplace(std::make_pair(x, x), v);
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::identity() const {
    Relation out;
    for (int x = 0; x < n_; ++x) out.emplace(std::make_pair(x, x), domain_.truth());
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::product(const Members& a, const Members& b) const {
    Relation out;
    for (const auto& [x, u] : a)
        for (const auto& [y, v] : b) out.emplace(std::make_pair(x, y), domain_.conj(u, v));
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::fromPairs(const EventPairs& pairs) const {
    Relation out;
    for (const auto& p : pairs) out.emplace(p, domain_.truth());
    return out;
}

template <class Domain>
template <class Map>
void RelationWalker<Domain>::put(Map& r, const typename Map::key_type& key, V value) const {
    if (domain_.isFalse(value)) return;
    auto it = r.find(key);
    if (it == r.end()) {
        r.emplace(key, value);
    } else {
        it->second = domain_.disj(it->second, value);
    }
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::unite(Relation a, const Relation& b) const {
    for (const auto& [key, v] : b) put(a, key, v);
    return a;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::intersect(const Relation& a,
                                                                            const Relation& b) const {
    Relation out;
    for (const auto& [key, v] : a) {
        auto it = b.find(key);
        if (it != b.end()) put(out, key, domain_.conj(v, it->second));
    }
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::subtract(const Relation& a,
                                                                           const Relation& b) const {
    Relation out;
    for (const auto& [key, v] : a) {
        auto it = b.find(key);
        put(out, key, it == b.end() ? v : domain_.conj(v, domain_.negate(it->second)));
    }
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::compose(const Relation& a, const Relation& b) const {
    Relation out;
    for (const auto& [ab, v] : a)
        for (auto it = b.lower_bound({ab.second, -1}); it != b.end() && it->first.first == ab.second; ++it)
            put(out, {ab.first, it->first.second}, domain_.conj(v, it->second));
    return out;
}

// A let rec group's least fixed point, into the memo for each of its
// relations: above it where the domain keeps relations so (a negative use),
// else exactly, by iteration from the empty relations.
template <class Domain>
void RelationWalker<Domain>::fixedPoint(const Definition& member) {
    std::vector<const Definition*> group;
    for (size_t i = static_cast<size_t>(member.group);
         i < model_.definitions.size() && model_.definitions[i].group == member.group; ++i)
        group.push_back(&model_.definitions[i]);
    if constexpr (Domain::boundsAbove)
        if (!exact_) return upperFixedPoint(group);
    const std::vector<Relation> least = kleene(group, false);
    for (size_t k = 0; k < group.size(); ++k) memo_[exact_][group[k]->name] = least[k];
}

// Each relation as a fresh value per pair it can hold, forced by its body
// (Horn clauses): the least fixed point or more in every model, and exactly
// it in some, which is all a negative use needs. The pairs come from an
// iteration of their keys alone.
template <class Domain>
void RelationWalker<Domain>::upperFixedPoint(const std::vector<const Definition*>& group) {
    const std::vector<Relation> keys = kleene(group, true);
    std::vector<Relation> above;
    for (const Relation& k : keys) above.push_back(domain_.upperVariables(k));
    for (size_t i = 0; i < group.size(); ++i) memo_[0][group[i]->name] = above[i];
    for (const Definition* d : group) forget(d->expr);
    for (size_t i = 0; i < group.size(); ++i)
        for (const auto& [key, because] : compute(group[i]->expr)) domain_.atLeast(above[i].at(key), because);
    for (const Definition* d : group) forget(d->expr);
}

// Iteration from the empty relations, in the current mode: exact when no
// round changes a relation, or after every pair could have been added one
// round at a time. `keysOnly`: each pair true, for the pairs a relation can
// hold; the memo's group entries are restored after.
template <class Domain>
std::vector<typename RelationWalker<Domain>::Relation> RelationWalker<Domain>::kleene(
    const std::vector<const Definition*>& group, bool keysOnly) {
    auto& memo = memo_[exact_];
    std::vector<std::optional<Relation>> before;
    for (const Definition* d : group) {
        auto it = memo.find(d->name);
        before.push_back(it == memo.end() ? std::nullopt : std::optional<Relation>(it->second));
    }
    std::vector<Relation> now(group.size());
    const size_t rounds = group.size() * static_cast<size_t>(n_) * static_cast<size_t>(n_) + 1;
    for (size_t round = 0; round <= rounds; ++round) {
        for (size_t i = 0; i < group.size(); ++i) memo[group[i]->name] = now[i];
        for (const Definition* d : group) forget(d->expr);
        std::vector<Relation> next;
        for (const Definition* d : group) {
            next.push_back(compute(d->expr));
            if (keysOnly)
                for (auto& [key, v] : next.back()) v = domain_.truth();
        }
        bool changed = false;
        for (size_t i = 0; i < group.size(); ++i) changed = changed || !same(next[i], now[i]);
        now = std::move(next);
        if (!changed) break;
    }
    for (const Definition* d : group) forget(d->expr);
    for (size_t i = 0; i < group.size(); ++i) {
        if (before[i])
            memo[group[i]->name] = *before[i];
        else
            memo.erase(group[i]->name);
    }
    return now;
}

// Drops what relation() remembers of e and its operands (a body evaluated again).
template <class Domain>
void RelationWalker<Domain>::forget(const ModelExpr& e) {
    for (auto& memo : exprMemo_) memo.erase(&e);
    for (const ModelExpr& a : e.args) forget(a);
}

template <class Domain>
bool RelationWalker<Domain>::same(const Relation& a, const Relation& b) const {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
        if (i->first != j->first || !domain_.same(i->second, j->second)) return false;
    return true;
}

// Squaring: after k rounds the result holds every path of length up to 2^k, so
// ceil(log2 n) + 1 rounds are exact for n events.
template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::closure(const Relation& r) const {
    if (!exact_)
        if (std::optional<Relation> bound = domain_.upperClosure(r, n_)) return std::move(*bound);
    Relation t = r;
    for (int reach = 1; reach < n_; reach *= 2) t = unite(t, compose(t, t));
    return t;
}

}  // namespace rdmacheck
