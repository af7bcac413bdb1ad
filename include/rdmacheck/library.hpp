// MOWGLI libraries as plug-ins (LOCO Def. 3.5). A library is one
// LibraryDescriptor: its name in the litmus syntax, its methods, the event
// kinds it declares and how a call lowers into stamped subevents of them (its
// stamping function), its rules on calls and on one path combination, the
// static base relations it adds for the models to build its so from, and how
// its calls print. Each built-in library is a folder src/libraries/NAME/; the
// registry at the end holds one descriptor per library, the core RDMA library
// "rdma" first, and the engine reads everything library-specific from it.
// CONTRIBUTING.md, "Adding a library", says which files a new library writes.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/base_relation.hpp"
#include "rdmacheck/events.hpp"

namespace rdmacheck {

struct UnfoldedProgram;
struct ChosenRelation;      // choices.hpp
struct GeneratedKind;       // generate.hpp
class StatementGenerator;   // generate.hpp

// The kinds of argument the core checks and resolves. A Name or HomedName
// argument means what its library says (a barrier, a lock, a buffer, an SC
// location): the library checks it (LibraryDescriptor::checkArgument).
enum class ArgKind {
    Variable,  // a variable of the library with one copy per node (an SV shared variable, `x@sv`)
    Value,     // an integer, or one local location (read by the CPU before the call)
    Work,      // a work identifier, or `_` for none
    Nodes,     // a node set `{2, 3}`
    Out,       // a local location the call writes after it, when its outcome gives it a value
    Name,      // a name the library's calls share (a barrier, a lock, a buffer, an SC location)
    HomedName, // a name with its home node, `l^2` (NLOCK's locks); its home is the argument's node
};

struct MethodSignature {
    std::string name;
    std::vector<ArgKind> args;
    bool returnsValue = false;  // `a := lib.method(...)`
    bool bare = false;          // also written without `lib.`, and printed so: `bar(z)` is bal.bar(z)
    std::string statement{};    // the core statement that is this call, if any: `gfence(1, 2)` is sv.gf({1, 2})
    bool variadic = false;      // the last argument kind repeats, 0 or more times (rbl.submit's values)
    bool resultOptional = false;  // `a :=` may be left out (rbl.submit's success)

    // The kind of argument i (the last kind again past the end, when variadic).
    ArgKind arg(size_t i) const { return variadic && i >= args.size() ? args.back() : args.at(i); }
};

// An argument after the front end has resolved it.
struct CallArgument {
    std::string variable;  // Variable, Name, HomedName
    Value value;           // Value
    int work = -1;         // Work: -1 for `_`
    std::vector<int> nodes;  // Nodes; HomedName: its home
};

// What the scan before unfolding offers a library checking an argument of one
// of its calls (LibraryDescriptor::checkArgument): the test, the calling
// thread, and what every call of the test must agree on.
class CallScan {
public:
    virtual ~CallScan() = default;
    virtual const LitmusTest& test() const = 0;
    virtual int thread() const = 0;  // the calling thread, an index into test().threads
    // Refuses the argument: "argument I of LIB.METHOD is WHAT".
    [[noreturn]] virtual void expected(const std::string& what) const = 0;
    // A name is one thing in a test (doc/LITMUS.md): refused if the test
    // declares it as a location, or a call claimed it as something else.
    virtual void claimName(const std::string& name, const std::string& what, const SourceLoc& where) = 0;
    // The calling thread takes part in `name` (a barrier's participant, a
    // buffer's reader); CallEmitter::participantNodes gives their nodes.
    virtual void takePart(const std::string& name) = 0;
    virtual void addNode(int node) = 0;  // a node the test reaches (a lock's home)
    // What the first call said of `name` under `fact` ("home", "writer"):
    // `value` when this is the first call to say it.
    virtual int firstSaid(const std::string& fact, const std::string& name, int value) = 0;
};

// A call argument that is one plain name: not `_`, a node set or `x^n`.
bool isPlainName(const CallArg& argument);

// What the unfolder offers a library while it lowers one call; every event
// emitted belongs to the call and to the library.
class CallEmitter {
public:
    virtual ~CallEmitter() = default;
    virtual int node() const = 0;                                   // the calling thread's node
    virtual int copyOf(const std::string& variable, int node) = 0;  // location of a variable's copy on a node
    virtual int namedObject(const std::string& name) = 0;  // the hidden location standing for a barrier or lock
    virtual int declared(const std::string& name) const = 0;  // a location the test declares (an SC variable)
    // The nodes of a barrier's participants, or of a buffer's readers.
    virtual std::vector<int> participantNodes(const std::string& name) const = 0;
    virtual std::vector<int> allNodes() const = 0;                                   // every node of the test
    // Emits a subevent; returns its index in the path (for Value::readBy).
    virtual int emit(EventKind kind, int location, int remote, int work, Value written = Value()) = 0;
    // Keeps only executions where `lhs op rhs` holds on this path (a CAS's test).
    virtual void constrain(Value lhs, Comparison op, Value rhs) = 0;
    // Sets what an emitted write writes, when that depends on its own read (an update).
    virtual void setWritten(int event, Value written) = 0;
    // The call writes `value` to its Out argument `argument` (a CPU write after the call).
    virtual void output(size_t argument, Value value) = 0;
    // The values the call sends with an emitted event, for another thread's call
    // to receive (RBL's submit); see LibraryDescriptor::bindValues.
    virtual void send(int event, std::vector<Value> message) = 0;
};

class LibraryDescriptor {
public:
    LibraryDescriptor(std::string name, std::vector<MethodSignature> methods)
        : name_(std::move(name)), methods_(std::move(methods)) {}
    virtual ~LibraryDescriptor() = default;

    const std::string& name() const { return name_; }  // "sv": `sv.write(x, 1)`, "sv:rf-e" in models
    const std::vector<MethodSignature>& methods() const { return methods_; }
    const MethodSignature* method(const std::string& name) const;  // nullptr if it has none of that name

    // Its rules on argument `i` of a call, a Name or HomedName, checked before
    // unfolding so that a bad call is reported even on a path no execution
    // takes: what the name is (claimName), who takes part in it, and what
    // every call on it must agree on. The core has checked the signature and
    // the arguments before i. None by default.
    virtual void checkArgument(const Stmt& call, size_t i, CallScan& scan) const;
    // How many outcomes a call of the method has, each its own path (a CAS
    // succeeds or fails, as RCAS does); 1 unless a library says otherwise.
    virtual int outcomes(const std::string& method) const;
    // Lowers a call whose arguments match the signature, as outcome `outcome`
    // (0 .. outcomes-1); returns the result (for methods that return a value).
    virtual Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out,
                        int outcome) const = 0;
    // The library's rule on one path combination, which its calls must keep
    // for its predicate to apply (BAL's equal call counts, LOCO Def. 4.1; the
    // locks' well-formedness, RMW Def. 4): the reason if the skeleton breaks it.
    // The skeleton construction asks every library.
    virtual std::optional<std::string> illFormed(const UnfoldedProgram& program, const ExecutionGraph& sk) const;
    // The static base relations it adds (base_relation.hpp): their pairs follow
    // from the skeleton alone, not from rf, mo or another choice of the execution.
    virtual std::vector<BaseRelation> relations() const;
    // The event kinds of its own that its calls emit (none: only core kinds),
    // registered with it in this order; several libraries may declare the same
    // kind, name and flags (the locks share theirs).
    virtual std::vector<const LibraryKind*> kinds() const;
    // The relations its executions choose (choices.hpp), as the locks' lo:
    // several libraries may declare the same one (wl, sl and nl share lo).
    virtual std::vector<ChosenRelation> choices() const;
    // Replaces the values a call received from another thread's call, which one
    // thread's path cannot know (Value::received), once the path combination
    // fixes the sender (RBL: a receive's values are its submit's, doc/model-notes.md §N11).
    virtual void bindValues(ExecutionGraph& sk) const;
    // The box label of one of its calls made of several subevents, from their
    // kinds ("sv.bcast"); pictures draw it around them.
    virtual std::string callLabel(const std::set<EventKind>& kinds) const = 0;
    // Its generator hook (`rdmacheck generate --mix`, generate.hpp): the
    // statement kinds it adds to the mix, none by default, and the generator
    // that declares and draws them in one test (nullptr when it adds none).
    virtual std::vector<GeneratedKind> generatedKinds() const;
    virtual std::unique_ptr<StatementGenerator> generator() const;

private:
    std::string name_;
    std::vector<MethodSignature> methods_;
};

// ---- The registry. Libraries register before any test is read (at static
// initialisation, or first in main): lookups then run from several threads.

// Adds a library; its handle is the next index. std::invalid_argument if its
// name, a relation name, a bare method name or the core statement it claims is
// taken.
Library registerLibrary(std::unique_ptr<const LibraryDescriptor> library);
std::optional<Library> findLibrary(const std::string& name);  // by its litmus name
const LibraryDescriptor& libraryDescriptor(Library library);
int registeredLibraries();  // how many: their handles are 0 .. registeredLibraries()-1
// The libraries a test can call, for messages: "sv, bal".
std::string knownLibraries();

// A method with the library it belongs to.
struct LibraryMethod {
    Library library;
    const MethodSignature* signature = nullptr;
};
// The method written bare as `word(...)` (bal's `bar`), if a library has one.
std::optional<LibraryMethod> findBareMethod(const std::string& word);
// The method a core statement stands for (`gfence` is sv.gf), if a library claims it.
std::optional<LibraryMethod> findStatementMethod(const std::string& keyword);

// The first reason a registered library gives for the path combination being
// ill formed, if any.
std::optional<std::string> illFormedByLibraries(const UnfoldedProgram& program, const ExecutionGraph& sk);

// Every library's bindValues on a skeleton.
void bindValuesByLibraries(ExecutionGraph& sk);

// The library kind registered as `k` (an index past the core's), and how many
// are registered; events.cpp reads them for kindName, isRead and the others.
const LibraryKind& registeredLibraryKind(EventKind k);
int registeredLibraryKinds();

// A base relation some library adds, by the name models give it ("round");
// nullptr if none does. The model layer resolves relation names through this.
const BaseRelation* findLibraryRelation(const std::string& name);

}  // namespace rdmacheck
