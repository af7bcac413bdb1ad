// herd7's `let rec` of relations: in closed form where its terms allow,
// else a group of definitions whose least fixed point the relation walker
// computes (RelationWalker::fixedPoint), from above where a test uses it
// negatively, which is checked here.
#include <algorithm>
#include <set>

#include "interpret.hpp"
#include "rdmacheck/result.hpp"

namespace rdmacheck {

namespace {

// e's operands under op, with nested uses of op opened: a | (b | c) is a, b, c.
void operands(const ModelExpr& e, ModelExpr::Op op, std::vector<ModelExpr>& out) {
    if (e.op != op) {
        out.push_back(e);
        return;
    }
    for (const ModelExpr& a : e.args) operands(a, op, out);
}

// parts[0] op parts[1] op ..., nested to the left as the parser nests them.
ModelExpr joined(ModelExpr::Op op, const SourceLoc& where, std::vector<ModelExpr> parts) {
    ModelExpr out = std::move(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) out = ModelExpr::of(op, where, {std::move(out), std::move(parts[i])});
    return out;
}

}  // namespace

// herd7's `let rec r = A | B;r | r;C | r;r` (a least fixed point) in closed
// form: B*;A;C*, and (B*;A;C*)+ when r;r is a term. Every term must be free
// of r or one of these shapes (B, C free of r); else none, and `refused` the term.
std::optional<ModelExpr> closedFixedPoint(const std::string& name, const ModelExpr& body, std::string* refused) {
    using Op = ModelExpr::Op;
    std::vector<ModelExpr> terms, base, left, right;
    operands(body, Op::Union, terms);
    bool composed = false;
    const std::vector<std::string> self{name};
    for (const ModelExpr& term : terms) {
        if (!term.mentions(self)) {
            base.push_back(term);
            continue;
        }
        std::vector<ModelExpr> factors;
        operands(term, Op::Seq, factors);
        const auto isName = [&](const ModelExpr& f) { return f.op == Op::Name && f.name == name; };
        // with two factors or more: those but the first and the last free of r (one of these must be too)
        const bool sequence = factors.size() > 1 &&
                              std::none_of(factors.begin() + 1, factors.end() - 1,
                                           [&](const ModelExpr& f) { return f.mentions(self); });
        if (factors.size() == 1 && isName(term)) {
            continue;  // r = ... | r adds nothing
        } else if (factors.size() == 2 && isName(factors.front()) && isName(factors.back())) {
            composed = true;
        } else if (sequence && !factors.front().mentions(self) && isName(factors.back())) {
            left.push_back(joined(Op::Seq, term.where, {factors.begin(), factors.end() - 1}));
        } else if (sequence && isName(factors.front()) && !factors.back().mentions(self)) {
            right.push_back(joined(Op::Seq, term.where, {factors.begin() + 1, factors.end()}));
        } else {
            if (refused) *refused = term.text();
            return std::nullopt;
        }
    }
    if (base.empty()) return ModelExpr::of(Op::Empty, body.where);
    std::vector<ModelExpr> chain;
    if (!left.empty()) chain.push_back(ModelExpr::of(Op::Star, body.where, {joined(Op::Union, body.where, left)}));
    chain.push_back(joined(Op::Union, body.where, base));
    if (!right.empty()) chain.push_back(ModelExpr::of(Op::Star, body.where, {joined(Op::Union, body.where, right)}));
    ModelExpr least = joined(Op::Seq, body.where, std::move(chain));
    return composed ? ModelExpr::of(Op::Plus, body.where, {std::move(least)}) : least;
}

// A let rec of relations without a closed form (closedFixedPoint): several
// together, or a term such as herd7's WW(U;invrf)\id.
bool isRecursiveGroup(const ModelItem& it) {
    if (!it.recursive) return false;
    const auto relation = [](const auto& b) { return b.second.op != ModelExpr::Op::Fun; };
    if (std::none_of(it.bindings.begin(), it.bindings.end(), relation)) return false;
    return it.bindings.size() > 1 || !closedFixedPoint(it.bindings[0].first, it.bindings[0].second);
}

// The encoder keeps a let rec group's relations above their least fixed
// point (RelationWalker::upperFixedPoint), which a test may only use
// negatively: not under '\' on the right, nor in a negated check or an
// assertion (whose failing model negates it). Flags read executions, exactly.
void refuseExactFixedPoint(const Model& m, const ModelExpr& e, bool exact, const SourceLoc& test,
                           std::set<std::pair<std::string, bool>>& walked) {
    if (e.op == ModelExpr::Op::Name) {
        const Definition* d = m.definition(e.name);
        if (!d || !walked.insert({e.name, exact}).second) return;
        if (d->group >= 0 && exact)
            throw InputError(test, "this test needs the least fixed point '" + e.name + "' (let rec at " +
                                       d->where.str() + ") exactly, under '\\' on the right, in domain or range, or negated; "
                                       "rdmacheck computes it there only in the closed forms of a single let rec");
        return refuseExactFixedPoint(m, d->expr, exact, test, walked);
    }
    using Op = ModelExpr::Op;
    for (size_t i = 0; i < e.args.size(); ++i)
        // Exact from the first '\' on, and in domain and range, as the walker computes (RelationWalker::exactly).
        refuseExactFixedPoint(m, e.args[i], exact || (e.op == Op::Diff && i == 1) || e.op == Op::Domain || e.op == Op::Range,
                              test, walked);
}

}  // namespace rdmacheck
