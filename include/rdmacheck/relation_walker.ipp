// RelationWalker's members (included by relations.hpp: a template).
#pragma once

#include <optional>
#include <stdexcept>

namespace rdmacheck {

template <class Domain>
const typename RelationWalker<Domain>::Relation& RelationWalker<Domain>::relation(const ModelExpr& e) {
    if (e.op == ModelExpr::Op::Name) {
        auto& memo = memo_[exact_];
        if (!memo.count(e.name)) memo.emplace(e.name, named(e.name));
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
        case Op::Product: return product(set(e.args[0]), set(e.args[1]));
        case Op::Inverse: {
            Relation out;
            for (const auto& [key, v] : relation(e.args[0])) out.emplace(std::make_pair(key.second, key.first), v);
            return out;
        }
        case Op::Plus: return closure(relation(e.args[0]));
        case Op::Star: return unite(closure(relation(e.args[0])), identity());
        case Op::Opt: return unite(relation(e.args[0]), identity());
        case Op::Filter: return filter(set(e.args[0]));
        case Op::Empty: return {};
        default: return {};  // the cat language's other operators: none in a loaded model
    }
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::named(const std::string& name) {
    if (const Definition* d = model_.definition(name)) {
        if (d->type == ExprType::Set) return filter(set(d->expr));
        return compute(d->expr);
    }
    auto table = model_.tables.find(name);
    if (table != model_.tables.end()) return fromPairs(tablePairs(table->second, sk_));
    const BaseRelation* base = findBaseRelation(name);
    if (!base) throw std::logic_error("model: unresolved relation " + name);
    return base->dynamic ? domain_.dynamic(name) : fromPairs(base->pairs(sk_));
}

template <class Domain>
std::vector<bool> RelationWalker<Domain>::set(const ModelExpr& e) {
    return sets_.set(e);
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
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::filter(const std::vector<bool>& s) const {
    Relation out;
    for (int e = 0; e < n_; ++e)
        if (s[e]) out.emplace(std::make_pair(e, e), domain_.truth());
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::product(const std::vector<bool>& a,
                                                                          const std::vector<bool>& b) const {
    Relation out;
    for (int x = 0; x < n_; ++x) {
        if (!a[x]) continue;
        for (int y = 0; y < n_; ++y)
            if (b[y]) out.emplace(std::make_pair(x, y), domain_.truth());
    }
    return out;
}

template <class Domain>
typename RelationWalker<Domain>::Relation RelationWalker<Domain>::fromPairs(const EventPairs& pairs) const {
    Relation out;
    for (const auto& p : pairs) out.emplace(p, domain_.truth());
    return out;
}

template <class Domain>
void RelationWalker<Domain>::put(Relation& r, std::pair<int, int> key, V value) const {
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
