// The cat language's evaluation at load time (doc/model-language.md): names
// looked up in lexical scopes, functions applied, `try`, `if "variant"` and
// `~` reduced, and types checked, so that a loaded Model holds only relational
// expressions over base names, tables, stamps and its definitions. What it does
// not evaluate (match, ++, herd7 primitives such as linearisations) is refused
// at its position when a value is asked of it; a function's body is evaluated
// only when it is applied, so herd7's stdlib.cat and cross.cat load.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "language.hpp"

namespace rdmacheck {

struct CatScope;

// Separates a definition's name from the key that tells its bindings apart
// while the model loads (a later `let` may shadow an earlier one).
constexpr char kDefinitionKey = '\x1f';

// A value: an event set or relation (an expression, typed), a function, a
// procedure, a tuple of values, or a definition whose evaluation failed: herd7
// evaluates a definition only when a check, a flag or another definition asks
// for it, so a definition that names what herd7 binds and rdmacheck does not
// (riscv-defs.cat's Fence.r.r on an X86 test), or that herd7 itself would
// refuse, is an error only where it is used (bindLet keeps the error).
struct CatValue {
    enum class Kind { Expr, Function, Procedure, Tuple, Failed };
    Kind kind = Kind::Expr;
    ModelExpr expr;                        // Expr
    ExprType type = ExprType::Relation;    // Expr
    bool anyType = false;                  // Expr: 0 or {}, empty as a set and as a relation
    const ModelExpr* function = nullptr;   // Function: a Fun expression
    const ModelItem* procedure = nullptr;  // Procedure
    const CatScope* scope = nullptr;       // Function, Procedure: the scope it was defined in,
    size_t time = 0;                       // and the bindings of it it sees: those made before this time
    std::string primitive;                 // Function: one of herd7's primitives (domain, range, ...)
    std::vector<CatValue> items;           // Tuple
    std::optional<InputError> failure;     // Failed: raised where the definition is used

    static CatValue of(ModelExpr e, ExprType t) {
        CatValue v;
        v.expr = std::move(e);
        v.type = t;
        return v;
    }
    // Failed, used as `name` at `use`: the error at the definition, and the use that needed it.
    [[noreturn]] void raiseAt(const std::string& name, const SourceLoc& use) const {
        throw InputError(failure->where(), failure->detail() + "; '" + name + "' is used at " + use.str());
    }
};

// Names as herd7 scopes them: a later binding hides an earlier one for what
// follows, and a function sees the bindings made before it, not later ones.
struct CatScope {
    // Each name's bindings in the order made, with the time each was made.
    std::map<std::string, std::vector<std::pair<size_t, CatValue>>> names;
    const CatScope* parent = nullptr;
    size_t parentTime = static_cast<size_t>(-1);  // the parent's bindings seen: those made before this
    const CatValue* find(const std::string& name, size_t before = static_cast<size_t>(-1)) const;
};

// One binding of a let: `name = expr`.
struct LetBinding {
    const std::string& name;
    const ModelExpr& expr;
};

// The names no scope binds: base sets and relations, tables and stamps.
class CatGlobals {
public:
    virtual ~CatGlobals() = default;
    // `name`'s value; InputError at it when it has none.
    virtual CatValue global(const ModelExpr& name) const = 0;
    // Called for each relational operator built and each function applied
    // (with the size of the argument it copies): checks a scope's library,
    // the model's bounds and the load's limits (InputError at the operator or call).
    virtual void built(const ModelExpr& op) = 0;
    virtual void applied(const ModelExpr& call, size_t copied) = 0;
};

class CatInterpreter {
public:
    explicit CatInterpreter(CatGlobals& globals) : globals_(globals) {}

    CatValue value(const ModelExpr& e, const CatScope* scope);
    // e's value, which must be an event set or a relation.
    CatValue relational(const ModelExpr& e, const CatScope* scope);
    // A new scope inside `parent`, alive as long as the interpreter, that sees
    // the parent's bindings made before `parentTime`.
    CatScope* child(const CatScope* parent, size_t parentTime = static_cast<size_t>(-1));
    // A let's bindings: each evaluated in `scope` (`evaluating` told its name
    // first), then bound in `into` as `bound` makes it (by default the value
    // itself). A let rec binds functions only, which see themselves and each other.
    void bindLet(const std::vector<LetBinding>& bindings, bool recursive, const CatScope* scope, CatScope& into,
                 const std::function<CatValue(const std::string& name, CatValue value)>& bound = {},
                 const std::function<void(const std::string& name)>& evaluating = {});
    // Binds `name` in `scope`, hiding its earlier bindings there.
    void bindName(CatScope& scope, const std::string& name, CatValue value);
    // The time now: a function made now sees the bindings made before.
    size_t now() const { return clock_; }
    // Binds `params` (one name, or several to a tuple's items) to `argument` in `scope`.
    void bind(CatScope& scope, const std::vector<std::string>& params, CatValue argument, const SourceLoc& at);
    // The value of a variant condition: rdmacheck sets no variant.
    static bool variantHolds(const ModelExpr& condition);

private:
    CatValue evaluate(const ModelExpr& e, const CatScope* scope);
    CatValue apply(const ModelExpr& e, const CatScope* scope);
    static size_t size(const CatValue& v);
    CatValue primitive(const CatValue& f, const CatValue& argument, const SourceLoc& at);
    CatValue let(const ModelExpr& e, const CatScope* scope);
    CatValue operation(const ModelExpr& e, const CatScope* scope);
    CatValue complement(const ModelExpr& e, const CatScope* scope);
    void expect(const CatValue& v, ExprType want, const std::string& context) const;

    CatGlobals& globals_;
    std::deque<CatScope> scopes_;
    // Expressions being evaluated, nested: each file's are at most kMaxNesting
    // deep, and applying functions nests them further (a recursion's bound).
    static constexpr int kMaxEvaluationDepth = 2000;
    int depth_ = 0;
    size_t clock_ = 0;  // bindings made so far
};

// herd7's `let rec r = A | B;r | r;C | r;r` in closed form (B*;A;C*, and
// (B*;A;C*)+ with r;r), or none where a term is another shape (`refused`).
std::optional<ModelExpr> closedFixedPoint(const std::string& name, const ModelExpr& body, std::string* refused = nullptr);

// A top-level let rec of relations without a closed form: several together,
// or a term such as herd7's WW(U;invrf)\id (a group of definitions).
bool isRecursiveGroup(const ModelItem& it);
// Refuses a test that reaches a group's relation where it must be exact
// (`exact`: the test's polarity), at the test; `walked` the names seen.
void refuseExactFixedPoint(const Model& m, const ModelExpr& e, bool exact, const SourceLoc& test,
                           std::set<std::pair<std::string, bool>>& walked);
// FNV-1a over a canonical text of everything the model means; `walked`
// the definitions its tests reach.
std::string fingerprintOf(const Model& m, const std::set<std::string>& walked);

// Whether a set is herd7's writes on every test here: W, or W \ S with S empty (SPEC).
bool denotesAllWrites(const Model& m, const ModelExpr& s);
// For `with co from generate_cos(base)` (at `at`): the axiom that makes mo
// extend base's members other than co0, if any; InputError at `where`, naming
// the call as `written`, when co0 is not among them.
std::optional<Axiom> coherenceBaseAxiom(const Model& m, const ModelExpr& base, const std::string& written,
                                        const SourceLoc& where, const SourceLoc& at);

// herd7's primitives: functions on sets and relations it computes in OCaml.
bool isCatPrimitive(const std::string& name);

// A name herd7 predefines that rdmacheck reads but does not evaluate (FW,
// data, ...): its type and why, or nullptr. A model whose axioms reach one is
// refused at the axiom.
struct UnevaluatedName {
    const char* name;
    ExprType type;
    const char* why;
};
const UnevaluatedName* findUnevaluatedName(const std::string& name);

}  // namespace rdmacheck
