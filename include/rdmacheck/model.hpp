// Memory models as text (models/NAME.cat, doc/model-language.md): definitions of
// event sets and relations in a cat-style language, and axioms on them, over
// one skeleton's events and one execution's choices. Order tables (.ippo, .oppo,
// .sto, .ppo) stay data files that a model names and uses as relations.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/events.hpp"
#include "rdmacheck/limits.hpp"

namespace rdmacheck {

enum class Cell { Unordered, Ordered, SameQueuePair };

// Preserved program order: cell [earlier][later].
struct OrderTable {
    std::string name;
    std::array<std::array<Cell, kMaxEventKinds>, kMaxEventKinds> cells{};
    std::array<bool, kMaxEventKinds> covers{};  // kinds with a row and column
    bool betweenCallsOnly = false;  // a stamp order: subevents of one call are not ordered by it

    Cell at(EventKind earlier, EventKind later) const {
        return cells[static_cast<int>(earlier)][static_cast<int>(later)];
    }
};

// One expression tree for sets and relations, and for the cat language's
// functions around them. A loaded Model holds only the relational operators
// (Name to Empty); the interpreter (src/model/interpret.hpp) reduces the others
// (Apply to Tag) away as it loads the model, or refuses them at their position.
struct ModelExpr {
    enum class Op {
        Name,     // a base set or relation, a table, a stamp, or a let definition
        Scope,    // name = a library: [lib] ; args[0] ; [lib]
        Union,    // |
        Inter,    // &
        Diff,     // '\'
        Seq,      // ;
        Product,  // S * S
        Inverse,  // ^-1
        Plus,     // +
        Star,     // *
        Opt,      // ?
        Filter,   // [S]
        Empty,    // 0 (name "{}": the empty event set)
        Domain,   // domain(r): the events r relates to some event (a set)
        Range,    // range(r): the events some event relates to by r (a set)
        // The cat language around the relations (herd7's dialect):
        Apply,       // args[0] applied to args[1]: f(x), f x, f(x, y)
        Tuple,       // (a, b, ...)
        Fun,         // fun params -> args[0]; names: the parameters
        Let,         // let names = args[0..n-1] in args[n]; name "rec" for let rec
        Try,         // try args[0] with args[1]
        If,          // if args[0] then args[1] else args[2]; args[0] a Variant condition
        Variant,     // "name" in a condition; Not, And, Or: args
        Not,
        And,
        Or,
        Complement,  // ~e
        Match,       // match ... end: read, never evaluated
        SetAdd,      // e ++ S: read, never evaluated
        ExplicitSet, // {e, ...}: read; the empty {} is Empty
        Tag,         // 'tag: read, never evaluated
    };
    Op op = Op::Name;
    std::string name;
    std::vector<ModelExpr> args;
    SourceLoc where;
    std::vector<std::string> names;  // Fun's parameters, Let's bound names

    // The expression as a model file writes it (fully parenthesised where needed).
    std::string text() const;
    // Whether a Name anywhere in the tree is one of `names`.
    bool mentions(const std::vector<std::string>& names) const;
    // Whether the relation grows with those `names` name: none under '\' on
    // the right, '~', a function or the cat language's other constructs.
    bool growsWith(const std::vector<std::string>& names) const;

    static ModelExpr of(Op op, const SourceLoc& where, std::vector<ModelExpr> args = {}) {
        ModelExpr e;
        e.op = op;
        e.where = where;
        e.args = std::move(args);
        return e;
    }
    static ModelExpr named(std::string name, const SourceLoc& where) {
        ModelExpr e = of(Op::Name, where);
        e.name = std::move(name);
        return e;
    }
};

enum class ExprType { Set, Relation };

struct Definition {
    std::string name;
    ModelExpr expr;
    ExprType type = ExprType::Relation;
    SourceLoc where;
    // herd7's `let rec` of relations that no closed form gives: the index of
    // the group's first definition (the group's definitions are consecutive
    // and name each other); the relations are the group's least fixed point.
    int group = -1;
};

struct Axiom {
    enum class Kind { Acyclic, Irreflexive, Empty };
    Kind kind = Kind::Acyclic;
    ModelExpr expr;
    std::string name;
    SourceLoc where;
    bool negated = false;  // ~: holds where the test fails (herd7's flags: flag ~empty r)
    // --skip drops it by these (herd7's -skipchecks): its own `as` name, and
    // the `as` names and procedures of the calls it is declared in; an
    // unnamed test outside calls by none.
    std::vector<std::string> skipNames;
    size_t axiomsBefore = 0;  // an assertion: how many of the model's axioms come before it

    // An empty or irreflexive axiom: whether the pair (from, to) of its relation breaks it.
    bool breaks(int from, int to) const { return kind == Kind::Empty || from == to; }
};

// An acyclicity axiom on a union of relations: the encoder gives it an integer
// clock that every member's edges must respect (doc/model-notes.md §N1).
struct Clock {
    std::string axiom;               // the axiom's name, e.g. "ob"
    std::vector<ModelExpr> members;  // the union's operands, as written
};

// How the axioms are checked: clocks for acyclic unions, two clocks tied for
// RDMA^TSO's ([S];ib;ob)+ axiom, and the rest by a general encoding.
struct CheckPlan {
    std::vector<Clock> clocks;
    int issueClock = -1, observeClock = -1;  // tied: I(e) <= O(e), equal on the tie set
    std::optional<ModelExpr> tieSet;         // S of ([S];ib;ob)+
    std::string mixedAxiom;                  // that axiom's name
    std::vector<Axiom> general;              // the irreflexive and empty axioms no clock takes
    // herd7's negated checks (~acyclic r, ~irreflexive r, ~empty r): r must
    // have a cycle, a pair (e, e), a pair; they read r positively, so exactly.
    std::vector<Axiom> negated;
};

struct Model {
    std::string name;         // the file's stem
    std::string description;  // the file's leading string
    std::string file;
    std::map<std::string, OrderTable> tables;
    std::map<std::string, std::string> stampOf;  // event kind name -> MOWGLI stamp
    std::vector<Definition> definitions;         // in file order
    std::map<std::string, size_t> definitionAt;  // a definition's name -> its index in definitions
    std::vector<Axiom> axioms;                   // in file order, without --skip ones
    std::vector<std::string> skipped;            // the axioms --skip dropped
    // herd7's flagged tests (flag ~empty r as NAME): no constraint; a report
    // names each flag that some consistent execution raises (its test holds).
    // An undefined_unless test is one too, raised where it fails (kUndefinedFlag).
    std::vector<Axiom> flags;
    // herd7's assertions (assert T as NAME): a candidate execution that the
    // axioms before one keep must pass it, or the test is in error. For each,
    // the model whose consistent executions are those failing it: the axioms
    // before it, and it negated.
    std::vector<Axiom> assertions;
    std::vector<std::shared_ptr<const Model>> failingAssertion;
    std::array<bool, kMaxEventKinds> supports{};
    std::set<Library> libraries{Library::Core};  // the libraries whose calls the model takes
    bool stamped = false;  // MOWGLI: the tables are stamp orders (between calls only)
    // A model in herd7's terms (no order table, no `events` declaration, as
    // herd7's cat files): an X86 locked instruction is herd7's read and write
    // joined by rmw, where rdmacheck's own models see one CAS event.
    bool herdEvents = false;
    // herd7 counts coherence orders only under a model that generates them
    // (`with co from`): under one in herd7's terms that never does (nor reads
    // mo or rb), an execution is its rf and each observed location's final
    // write, however the other writes are ordered (herd7's naked.cat).
    bool countsCoherence = true;
    bool generatesCo = false;  // a `with co from` binds herd7's co to mo (so mo is shown as co)
    std::set<std::string> usedBaseNames;  // base relations the axioms reach (nfo, rao are choices only then)
    CheckPlan plan;
    // A hash of what the model means (definitions, axioms, tables, declarations;
    // not its name or comments): a machine implements one fingerprint.
    std::string fingerprint;

    const Definition* definition(const std::string& name) const;
    // The name reports give: "rdma-tso", "rdma-tso without sc" under --skip sc,
    // so that logs of a model and of its variant are told apart.
    std::string shownName() const;
    bool uses(const std::string& base) const { return usedBaseNames.count(base) > 0; }
};

struct ModelOptions {
    std::vector<std::string> skip;  // axioms dropped by name (herd7's -skipchecks)
    ResourceLimits limits{};        // --timeout and --max-memory, while the model loads
    // The test the model is loaded for: a limit then stops the test, as its
    // check would ("no answer", at the test). Empty: the model did not load,
    // at the declaration reached (--model, before any test).
    std::string test{};
    bool skipOnlyPresent = false;  // a skip name no axiom has is ignored, as herd7's -skipchecks ignores it
};

// Where model files are found, in herd7's order (its -I and libdir): a file
// name (x86tso.cat, herd/tso.cat) in the current folder, then in each of
// `folders`, then in herd7's library; a model's name (rdma-tso, no extension)
// in `folders` only; a path from the root, ./ or ../ as it is. An include is
// looked for so, then beside the file that names it; a table beside the
// model that names it first.
struct ModelSearchPath {
    std::vector<std::string> folders;
    std::string herdLibrary;  // herd7's own cat files, when found (withDefaults); "" when not
    ModelSearchPath() = default;
    ModelSearchPath(std::string folder) : folders{std::move(folder)} {}  // one folder (tests)
    ModelSearchPath(const char* folder) : folders{folder} {}
    explicit ModelSearchPath(std::vector<std::string> list) : folders(std::move(list)) {}
    // `added` (--models-dir, herd7's -I; +DIR is DIR in the shipped models'
    // folder, as herd7 reads it), then $RDMACHECK_MODELS (folders separated
    // by ':'), then the models shipped with rdmacheck; and herd7's library,
    // $HERDLIB or the one beside a herd7 on the PATH.
    static ModelSearchPath withDefaults(const std::vector<std::string>& added = {});

    // The file `name` (a model's name gets ".cat") stands for, or "" if no
    // file of the name exists; a path that is not searched, as it is.
    std::string find(const std::string& name, const std::string& besideFolder = "") const;
    // The same for an include, in herd7's order, beside the including file last.
    std::string findInclude(const std::string& name, const std::string& includingFolder) const;
    // The models' names in the folders, without duplicates, sorted.
    std::vector<std::string> modelNames() const;
};

// `nameOrPath`: a model's name (rdma-tso) or a .cat file, found on `path`.
// InputError at file:line:column for every mistake in the file.
Model loadModel(const ModelSearchPath& path, const std::string& nameOrPath, const ModelOptions& options = {});
// The same from text (tests); `file` names it in messages, includes and
// tables are found beside it, then on `path`.
Model parseModel(const std::string& text, const std::string& file, const ModelSearchPath& path,
                 const ModelOptions& options = {});
OrderTable loadOrderTable(const std::string& path, const std::string& name);
// A stamp order (RMW Fig. 9: rows and columns named by stamps, cells Y, N,
// SN) as an order on event kinds, through the kind -> stamp map `stampOf`.
OrderTable loadStampTable(const std::string& path, const std::string& name,
                          const std::map<std::string, std::string>& stampOf);
// The models shipped with rdmacheck: the ones installed beside the executable
// (PREFIX/share/rdmacheck/models), else the source tree's (set at build time).
std::string shippedModelsDir();

}  // namespace rdmacheck
