#include "interpret.hpp"

#include <algorithm>

#include "rdmacheck/limits.hpp"

namespace rdmacheck {

namespace {

const char* opName(ModelExpr::Op op) {
    switch (op) {
        case ModelExpr::Op::Union: return "|";
        case ModelExpr::Op::Inter: return "&";
        case ModelExpr::Op::Diff: return "\\";
        case ModelExpr::Op::Seq: return ";";
        case ModelExpr::Op::Inverse: return "^-1";
        case ModelExpr::Op::Plus: return "+";
        case ModelExpr::Op::Star: return "*";
        case ModelExpr::Op::Opt: return "?";
        default: return "";
    }
}

const char* typeName(ExprType t) { return t == ExprType::Set ? "an event set" : "a relation"; }

ModelExpr universe(const SourceLoc& where) { return ModelExpr::named("_", where); }

[[noreturn]] void unevaluated(const SourceLoc& at, const std::string& what) {
    throw InputError(at, what + " is herd7's, and rdmacheck does not evaluate it");
}

}  // namespace

bool isCatPrimitive(const std::string& name) {
    for (const char* p : {"domain", "range", "at-least-one-writable", "same-oa", "different-values", "fromto",
                          "classes-loc", "classes", "lift", "delift", "deliftinter", "linearisations", "bisimulation",
                          "tag2scope", "tag2level", "tag2events", "tag2fenced", "loc2events", "fail", "as_transitive"})
        if (name == p) return true;
    return false;
}

const UnevaluatedName* findUnevaluatedName(const std::string& name) {
    static constexpr const char* kDependencies =
        "herd7 computes it from its register and branch events, which rdmacheck does not make";
    static constexpr const char* kIntra = "herd7's events inside an instruction, which rdmacheck does not make";
    static const UnevaluatedName kNames[] = {
        {"depend", ExprType::Relation, kDependencies},
        {"B", ExprType::Set, "branches make no event here"},
        {"iico_data", ExprType::Relation, kIntra},
        {"iico_ctrl", ExprType::Relation, kIntra},
        {"iico_order", ExprType::Relation, kIntra},
        {"rf-reg", ExprType::Relation, kIntra},
        {"same-instr", ExprType::Relation, kIntra},
        {"same-instance", ExprType::Relation, kIntra},
        {"same-static", ExprType::Relation, kIntra},
    };
    for (const UnevaluatedName& n : kNames)
        if (name == n.name) return &n;
    return nullptr;
}

const CatValue* CatScope::find(const std::string& name, size_t before) const {
    for (const CatScope* s = this; s; before = std::min(before, s->parentTime), s = s->parent) {
        auto at = s->names.find(name);
        if (at == s->names.end()) continue;
        for (auto b = at->second.rbegin(); b != at->second.rend(); ++b)
            if (b->first < before) return &b->second;
    }
    return nullptr;
}

CatScope* CatInterpreter::child(const CatScope* parent, size_t parentTime) {
    scopes_.emplace_back();
    scopes_.back().parent = parent;
    scopes_.back().parentTime = parentTime;
    return &scopes_.back();
}

void CatInterpreter::bindName(CatScope& scope, const std::string& name, CatValue value) {
    scope.names[name].emplace_back(clock_++, std::move(value));
}

bool CatInterpreter::variantHolds(const ModelExpr& c) {
    switch (c.op) {
        case ModelExpr::Op::Not: return !variantHolds(c.args[0]);
        case ModelExpr::Op::And: return variantHolds(c.args[0]) && variantHolds(c.args[1]);
        case ModelExpr::Op::Or: return variantHolds(c.args[0]) || variantHolds(c.args[1]);
        default: return false;  // herd7's -variant is not taken (doc/herd7-users.md)
    }
}

CatValue CatInterpreter::relational(const ModelExpr& e, const CatScope* scope) {
    CatValue v = value(e, scope);
    if (v.kind == CatValue::Kind::Expr) return v;
    const char* what = v.kind == CatValue::Kind::Tuple ? "a tuple" : v.kind == CatValue::Kind::Procedure ? "a procedure"
                                                                                                      : "a function";
    throw InputError(e.where, std::string("expected an event set or a relation; this is ") + what +
                                  (v.kind == CatValue::Kind::Function ? " (apply it to its arguments)" : ""));
}

CatValue CatInterpreter::value(const ModelExpr& e, const CatScope* scope) {
    if (depth_ == kMaxEvaluationDepth)
        throw InputError(e.where, "nested more than " + std::to_string(kMaxEvaluationDepth) +
                                      " deep as its functions are applied (a recursion that does not end?)");
    ++depth_;
    struct Leave {
        int& depth;
        ~Leave() { --depth; }
    } leave{depth_};
    return evaluate(e, scope);
}

CatValue CatInterpreter::evaluate(const ModelExpr& e, const CatScope* scope) {
    using Op = ModelExpr::Op;
    switch (e.op) {
        case Op::Name: {
            if (const CatValue* bound = scope->find(e.name)) {
                if (bound->kind == CatValue::Kind::Failed) bound->raiseAt(e.name, e.where);
                CatValue v = *bound;
                if (v.kind == CatValue::Kind::Expr && v.expr.op == Op::Name) v.expr.where = e.where;  // the use's place
                return v;
            }
            if (isCatPrimitive(e.name)) {
                CatValue f;
                f.kind = CatValue::Kind::Function;
                f.primitive = e.name;
                return f;
            }
            return globals_.global(e);
        }
        case Op::Empty: {  // as herd7 types them: 0 a relation, {} either
            CatValue v = CatValue::of(e, e.name == "{}" ? ExprType::Set : ExprType::Relation);
            v.anyType = e.name == "{}";
            return v;
        }
        case Op::Apply: return apply(e, scope);
        case Op::Tuple: {
            CatValue t;
            t.kind = CatValue::Kind::Tuple;
            for (const ModelExpr& a : e.args) t.items.push_back(value(a, scope));
            return t;
        }
        case Op::Fun: {
            CatValue f;
            f.kind = CatValue::Kind::Function;
            f.function = &e;
            f.scope = scope;
            f.time = clock_;
            return f;
        }
        case Op::Let: return let(e, scope);
        case Op::Try:
            try {
                return value(e.args[0], scope);
            } catch (const InputError&) {
                return value(e.args[1], scope);
            }
        case Op::If: return value(variantHolds(e.args[0]) ? e.args[1] : e.args[2], scope);
        case Op::Complement: return complement(e, scope);
        case Op::Match: unevaluated(e.where, "'match'");
        case Op::SetAdd: unevaluated(e.where, "'++' (adding to a set of sets)");
        case Op::ExplicitSet: unevaluated(e.where, "an explicit set of values {e, ...}");
        case Op::Tag: unevaluated(e.where, "the tag " + e.name);
        case Op::Variant:
        case Op::Not:
        case Op::And:
        case Op::Or: throw InputError(e.where, "a variant condition is not a value");
        default: return operation(e, scope);
    }
}

// Operators and names in a value's expressions.
size_t CatInterpreter::size(const CatValue& v) {
    std::function<size_t(const ModelExpr&)> nodes = [&](const ModelExpr& e) {
        size_t n = 1;
        for (const ModelExpr& a : e.args) n += nodes(a);
        return n;
    };
    size_t n = v.kind == CatValue::Kind::Expr ? nodes(v.expr) : 0;
    for (const CatValue& item : v.items) n += size(item);
    return n;
}

CatValue CatInterpreter::apply(const ModelExpr& e, const CatScope* scope) {
    const CatValue f = value(e.args[0], scope);
    if (f.kind != CatValue::Kind::Function)
        throw InputError(e.args[0].where, "'" + e.args[0].text() + "' is applied to an argument but is not a function");
    CatValue argument = value(e.args[1], scope);
    if (!f.primitive.empty()) return primitive(f, argument, e.where);
    globals_.applied(e, size(argument));
    CatScope* body = child(f.scope, f.time);
    bind(*body, f.function->names, std::move(argument), e.where);
    return value(f.function->args[0], body);
}

// domain and range of a relation are sets (of 0 empty, as herd7's stdlib's
// emptyset = domain 0); rdmacheck computes no other primitive.
CatValue CatInterpreter::primitive(const CatValue& f, const CatValue& argument, const SourceLoc& at) {
    if (f.primitive != "domain" && f.primitive != "range") unevaluated(at, "the primitive '" + f.primitive + "'");
    if (argument.kind != CatValue::Kind::Expr || (argument.type != ExprType::Relation && !argument.anyType))
        throw InputError(at, f.primitive + " takes a relation");
    if (argument.expr.op == ModelExpr::Op::Empty) {
        ModelExpr empty = ModelExpr::of(ModelExpr::Op::Empty, at);
        empty.name = "{}";
        return CatValue::of(std::move(empty), ExprType::Set);
    }
    const ModelExpr::Op op = f.primitive == "domain" ? ModelExpr::Op::Domain : ModelExpr::Op::Range;
    return CatValue::of(ModelExpr::of(op, at, {argument.expr}), ExprType::Set);
}

void CatInterpreter::bind(CatScope& scope, const std::vector<std::string>& params, CatValue argument,
                          const SourceLoc& at) {
    if (params.size() == 1) {
        if (params[0] != "_" && params[0] != "()") bindName(scope, params[0], std::move(argument));
        return;
    }
    if (argument.kind != CatValue::Kind::Tuple || argument.items.size() != params.size())
        throw InputError(at, "the function takes " + std::to_string(params.size()) + " arguments, given " +
                                 (argument.kind == CatValue::Kind::Tuple ? std::to_string(argument.items.size()) : "1"));
    for (size_t i = 0; i < params.size(); ++i)
        if (params[i] != "_") bindName(scope, params[i], std::move(argument.items[i]));
}

// let a = e and b = f in body (each definition sees the outer scope); let rec
// binds functions that see themselves, and a relation its least fixed point
// (closedFixedPoint's shapes).
CatValue CatInterpreter::let(const ModelExpr& e, const CatScope* scope) {
    CatScope* inner = child(scope, clock_);
    std::vector<LetBinding> bindings;
    for (size_t i = 0; i < e.names.size(); ++i) bindings.push_back({e.names[i], e.args[i]});
    bindLet(bindings, e.name == "rec", scope, *inner);
    return value(e.args.back(), inner);
}

void CatInterpreter::bindLet(const std::vector<LetBinding>& bindings, bool recursive, const CatScope* scope,
                             CatScope& into, const std::function<CatValue(const std::string&, CatValue)>& bound,
                             const std::function<void(const std::string&)>& evaluating) {
    std::vector<CatValue> values;
    for (const LetBinding& b : bindings) {
        if (evaluating) evaluating(b.name);
        if (recursive && b.expr.op != ModelExpr::Op::Fun) {
            std::string refused;
            std::optional<ModelExpr> closed = closedFixedPoint(b.name, b.expr, &refused);
            if (bindings.size() > 1 || !closed)  // top-level ones are the model's (RecursiveGroup)
                throw InputError(b.expr.where, "a 'let rec' of relations inside an expression (let ... in) is "
                                               "computed only in the closed forms r = A | B;r | r;C | r;r (B, C "
                                               "free of r), not '" + (closed ? b.expr.text() : refused) +
                                               "': define it at the top level");
            values.push_back(value(*closed, scope));
            continue;
        }
        try {
            values.push_back(value(b.expr, scope));
        } catch (const LimitError&) {
            throw;  // the load's time or memory ran out: no definition is evaluated later
        } catch (const InputError& e) {
            CatValue failed;
            failed.kind = CatValue::Kind::Failed;
            failed.failure = e;
            values.push_back(std::move(failed));
        }
    }
    for (size_t i = 0; i < values.size(); ++i) {
        if (recursive) values[i].scope = &into;
        const bool kept = bound && values[i].kind != CatValue::Kind::Failed;
        bindName(into, bindings[i].name, kept ? bound(bindings[i].name, std::move(values[i])) : std::move(values[i]));
    }
    if (recursive)  // the functions see themselves and each other: every binding made so far
        for (const LetBinding& b : bindings) into.names[b.name].back().second.time = clock_;
}

// ~S is _ \ S; ~r is (_ * _) \ r.
CatValue CatInterpreter::complement(const ModelExpr& e, const CatScope* scope) {
    CatValue v = relational(e.args[0], scope);
    ModelExpr all = v.type == ExprType::Set
                        ? universe(e.where)
                        : ModelExpr::of(ModelExpr::Op::Product, e.where, {universe(e.where), universe(e.where)});
    ModelExpr diff = ModelExpr::of(ModelExpr::Op::Diff, e.where, {std::move(all), std::move(v.expr)});
    globals_.built(diff);
    return CatValue::of(std::move(diff), v.type);
}

void CatInterpreter::expect(const CatValue& v, ExprType want, const std::string& context) const {
    if (v.type == want || v.anyType) return;
    throw InputError(v.expr.where, context + " takes " + typeName(want) + ", '" + v.expr.text() + "' is " +
                                       typeName(v.type));
}

// The relational operators, typed as doc/model-language.md says.
CatValue CatInterpreter::operation(const ModelExpr& e, const CatScope* scope) {
    using Op = ModelExpr::Op;
    std::vector<CatValue> args;
    for (const ModelExpr& a : e.args) args.push_back(relational(a, scope));
    ExprType type = ExprType::Relation;
    switch (e.op) {
        case Op::Union:
        case Op::Inter:
        case Op::Diff: {
            const CatValue& typed = args[0].anyType ? args[1] : args[0];
            type = typed.type;
            expect(args[1], type, std::string("'") + opName(e.op) + "' with " + typeName(type) + " on its left");
            if (args[0].anyType && args[1].anyType) {
                CatValue v = CatValue::of(e, type);
                v.expr.args = {args[0].expr, args[1].expr};
                v.anyType = true;
                return v;
            }
            break;
        }
        case Op::Product:
            expect(args[0], ExprType::Set, "a product S * S");
            expect(args[1], ExprType::Set, "a product S * S");
            break;
        case Op::Filter: expect(args[0], ExprType::Set, "[S]"); break;
        case Op::Scope: expect(args[0], ExprType::Relation, "a library scope"); break;
        case Op::Seq: expect(args[1], ExprType::Relation, "';'"); [[fallthrough]];
        default: expect(args[0], ExprType::Relation, std::string("'") + opName(e.op) + "'"); break;
    }
    ModelExpr out = ModelExpr::of(e.op, e.where, {});
    out.name = e.name;
    for (CatValue& a : args) out.args.push_back(std::move(a.expr));
    globals_.built(out);
    return CatValue::of(std::move(out), type);
}

}  // namespace rdmacheck
