// Events and the execution graph: what the unfold stage hands to the engines,
// and what they hand back.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

// Event labels. The core's, the RDMA^TSO paper's, are this enum: NAR/NAW are the
// remote RMW extension, WT (wait(d)) and GF (one global-fence subevent per
// node) the MOWGLI level. A library's own kinds (the locks' acq, RBL's subCW)
// are declared in its folder as LibraryKind and registered with the library
// (library.hpp): they take the indices after the core's, in registration
// order. Order tables in models/ name their columns, so indices matter only
// within one run.
enum class EventKind : int { LR, LW, CAS, F, P, NLR, NRW, NRR, NLW, NF, NAR, NAW, WT, GF };
constexpr int kCoreEventKinds = 14;
// How many kinds an order table has room for, the core's and the libraries'.
constexpr int kMaxEventKinds = 64;
int eventKindCount();  // the core's and every registered library's

// An event kind a library declares (`inline constexpr LibraryKind ACQ{"acq"}`
// in its folder's header): its name, as models and pictures write it, and
// what it is. It stands for its EventKind once its library is registered.
struct LibraryKind {
    const char* name;
    bool read = false;
    bool write = false;
    // Inst of the oracle: false for write stamps (a release's aCW, a submit's aNRW_n).
    bool instantaneous = true;

    operator EventKind() const;  // std::logic_error if no registered library declares it
};

const char* kindName(EventKind k);          // "lR", "nrW", ...
bool kindFromName(const std::string& name, EventKind& out);
bool isRead(EventKind k);                   // R = lR, CAS, nlR, nrR, narR, and the libraries' reads
bool isWrite(EventKind k);                  // W = lW, CAS, nlW, nrW, narW, and the libraries' writes
bool isInstantaneous(EventKind k);          // Inst = E \ (lW, nlW, nrW, narW, the libraries' write stamps)

// A symbolic integer: constants and the values read by earlier read events.
struct Value {
    // Operation: `op` (arith.hpp) of `args`.
    enum class Kind { Const, Read, Operation };
    Kind kind = Kind::Const;
    long long constant = 0;
    int event = -1;  // Read: index of the read event
    Operator op = Operator::Add;  // Operation
    std::vector<Value> args;

    static Value of(long long c);
    static Value readBy(int event);
    static Value operation(Operator op, std::vector<Value> args);
    bool is(Operator o) const { return kind == Kind::Operation && op == o; }
    // The index-th value a call received with its event `event`, until the
    // library binds it to the sender's value (LibraryDescriptor::bindValues): a
    // Read of that event whose `constant` is the index.
    static Value received(int event, int index);
    bool isReceived() const { return kind == Kind::Read && constant > 0; }
    void shiftEvents(int offset);
    // Calls f with each read event the value is computed from.
    template <class F>
    void forEachRead(const F& f) const {
        if (kind == Kind::Read) f(event);
        for (const Value& a : args) a.forEachRead(f);
    }
    // herd7's symbolic values (lib/symbValue.ml) simplify a read's value plus
    // (or with) 0 to the read's: the read such a copy copies, if it is one.
    std::optional<int> copiedRead() const;
    // ... and a xor of two equal values to 0: the two reads a xor of two copies
    // copies. herd7 unifies the values of reads of one write that writes a
    // copy (herd/valconstraint.ml, normalize_vars), so the xor is 0 however
    // free that value is; a write that computes is not unified.
    std::optional<std::pair<int, int>> xorOfCopies() const;
    // A constant, a read's value, or a copy of one.
    bool isCopy() const { return kind != Kind::Operation || copiedRead(); }
    // Evaluates with the given read values (indexed by event); ArithmeticOverflow
    // (arith.hpp) when a step leaves the 64-bit range.
    long long eval(const std::vector<long long>& readValues) const;
};

// The library an event belongs to (LOCO Def. 3.5): its index in the library
// registry (rdmacheck/library.hpp), so a library plugs in without touching
// the engine. Core, the model's own RDMA library "rdma", is always the first.
struct Library {
    int index = 0;
    static const Library Core;

    friend bool operator==(Library a, Library b) { return a.index == b.index; }
    friend bool operator!=(Library a, Library b) { return a.index != b.index; }
    friend bool operator<(Library a, Library b) { return a.index < b.index; }
};
inline const Library Library::Core{0};
const char* libraryName(Library l);  // its name in the litmus syntax: "rdma", "sv", "bal"

// herd7's X86 SFENCE and LFENCE: F events of its sets SFENCE and LFENCE, which
// only a model in herd7's terms sees (Stmt::Kind::SFence).
enum class WeakFence : unsigned char { None, Store, Load };

struct Event {
    EventKind kind = EventKind::F;
    WeakFence weakFence = WeakFence::None;  // an F event: SFENCE, LFENCE
    int thread = -1;    // -1 for initial writes
    int location = -1;  // index into the program's locations, -1 if none
    int remote = 0;     // remote node of NIC events, polls, rfences and global fences; 0 if none
    Value written;      // writes only
    SourceLoc where;    // the statement it comes from
    // MOWGLI: events of one call (a get's nrR and nlW, a broadcast's subevents)
    // share `call`, a number unique within the thread; stamp order relates only
    // different calls, iso orders one call's subevents.
    int call = -1;
    int workId = -1;    // work identifier (per thread), -1 if none
    bool locked = false;  // the read or write of an X86 locked instruction as herd7's events
    // An event of an X86 instruction herd7 builds with its events in no po
    // with each other (herd7's terms only): an unlocked read-modify-write,
    // MOV [x],[y], XCHG [x],[y]. Only iico joins them, from each read of the
    // instruction (one `call`) to each of its writes.
    bool outOfPo = false;
    Library library = Library::Core;
    std::vector<Value> message;  // the values a call sends with this event (RBL's submit)
};

// Whether a relation scoped to the library named `library` (`rdma:po`) can
// relate a and b: both are events of it.
bool bothInLibrary(const std::string& library, const Event& a, const Event& b);

// A test's comparison (doc/LITMUS.md: = != < <= > >=).
enum class Comparison { Eq, Ne, Lt, Le, Gt, Ge };
const char* comparisonText(Comparison c);  // "=", "!=", "<", ...
Comparison negated(Comparison c);          // the comparison that holds exactly when c does not

// `lhs c rhs` for anything with the six operators: integers (a bool), Z3 terms (a formula).
template <class T>
auto compare(Comparison c, const T& lhs, const T& rhs) -> decltype(lhs == rhs) {
    switch (c) {
        case Comparison::Eq: return lhs == rhs;
        case Comparison::Ne: return lhs != rhs;
        case Comparison::Lt: return lhs < rhs;
        case Comparison::Le: return lhs <= rhs;
        case Comparison::Gt: return lhs > rhs;
        case Comparison::Ge: return lhs >= rhs;
    }
    return lhs != lhs;  // unreachable: every comparison is above
}
inline bool holds(Comparison c, long long lhs, long long rhs) { return compare(c, lhs, rhs); }

// `lhs CMP rhs` on the values of one path.
struct ValueConstraint {
    Value lhs;
    Comparison op = Comparison::Eq;
    Value rhs;
    SourceLoc where;  // the test, CAS or RCAS it comes from
};

struct Location {
    std::string name;
    int node = 1;
    long long init = 0;
    // Fresh locations the test cannot name: the constant of `y^n := 5` (named
    // "(5)") and the discarded result of `RFAA(_, y^n, 1)` (named "_").
    bool hidden = false;
};

// The one execution graph every engine produces and every reader reads (as
// GenMC's ExecutionGraph): the events and program order of one choice of path
// per thread, which unfold() builds, and the relations an execution chooses,
// which the Z3 decoder (encode.hpp) and a machine's recorded run fill in. The
// walker (relations.hpp), explanations, pictures and test oracles read only
// this; a library's own relations come from the events through its registry
// entry (library.hpp). A graph whose choices are still empty, as unfold()
// makes it, is called a skeleton. Events are the initial writes (one per location, in
// location order) followed by each thread's events in program order.
struct ExecutionGraph {
    // Fixed by the paths.
    std::vector<Event> events;
    std::vector<std::vector<int>> threadEvents;  // per thread, in po order
    std::vector<std::pair<int, int>> pollsFrom;  // (polled NIC write, poll)
    // An X86 locked instruction as herd7's two events, for a model in herd7's
    // terms (Model::herdEvents): (read, write), herd7's rmw.
    std::vector<std::pair<int, int>> lockedPairs;
    std::vector<std::pair<int, int>> dataDependencies, addressDependencies;  // X86: herd7's data, addr
    std::vector<ValueConstraint> constraints;
    std::vector<std::map<std::string, Value>> registers;  // X86 final register values
    // X86: every value a register took that computes, the threads' in turn
    // (herd7 must solve each, as it solves the flags of an overwritten CMP).
    std::vector<Value> computations;
    std::vector<SourceLoc> cutAt;  // loops whose unroll bound stopped a thread here
    std::vector<size_t> paths;     // per thread, its path (UnfoldedProgram::paths); empty from a machine
    // Per location: whether the test observes its final value (herd7's
    // observed locations, whose last writes are its FW); empty: every one.
    std::vector<bool> observed;
    // Why a library's rule on the whole path combination fails (a barrier's
    // participants make different numbers of calls), if one does: then no
    // execution is consistent.
    std::optional<std::string> illFormed;

    // Chosen by an execution; empty in a graph straight from unfold().
    std::vector<int> rf;                   // per event: its source write, or -1
    std::vector<std::vector<int>> mo;      // per location: its writes in mo order (initial write first)
    std::vector<long long> readValues;     // per event: value read (reads), else 0
    std::vector<std::pair<int, int>> nfo;  // chosen nfo edges
    // Per chosen group order (choices.hpp: rao, lo), by name: per group, its events in that order.
    std::map<std::string, std::map<int, std::vector<int>>> orders;

    int initWriteOf(int location) const { return location; }
    // The chosen group order `name`, per group; empty if the execution has none.
    const std::map<int, std::vector<int>>& orderOf(const std::string& name) const;
    // Empties the chosen relations and sizes rf and readValues for the events.
    void clearChoices(size_t locationCount);
};

// An order on the executions of one test that does not depend on the order a
// search finds them in (the solver's, the machine's): by paths, then rf, mo,
// nfo and group orders. Pictures and explanations show executions in it.
bool canonicallyBefore(const ExecutionGraph& a, const ExecutionGraph& b);

}  // namespace rdmacheck
