// The parsed litmus test: what the parse stage hands to the unfold stage.
// Both front ends (RDMA format and herd7's X86 format) produce this.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/events.hpp"

namespace rdmacheck {

enum class Arch { Rdma, X86 };

// herd7 7.58's X86 registers, in the order its states list them (lib/X86Base.ml):
// a name it does not list is no register there.
inline constexpr const char* kX86Registers[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI",
                                                "EBP", "ESP", "EIP", "ZF",  "SF",  "CF"};

// Integer expression over constants, local memory locations and (X86) registers.
struct Expr {
    // Operation: `op` (arith.hpp) of `args`. Mod: E % k, k an integer > 0; Xor, Or, Eq, Gt: X86's only.
    enum class Kind { Const, Location, Register, Operation };
    Kind kind = Kind::Const;
    long long value = 0;   // Const
    std::string name;      // Location / Register
    Operator op = Operator::Add;  // Operation
    int remoteNode = 0;    // Location written `y^n` (only legal as a whole get source)
    std::vector<Expr> args;
    SourceLoc where;

    static Expr constant(long long v, SourceLoc w);
    static Expr location(std::string name, SourceLoc w);
    static Expr operation(Operator op, std::vector<Expr> args, SourceLoc w);
    bool is(Operator o) const { return kind == Kind::Operation && op == o; }

    // Calls f on this expression, then on each subexpression in the text's order.
    template <class F>
    void forEach(const F& f) const {
        f(*this);
        for (const Expr& a : args) a.forEach(f);
    }
};

// `y` or `y^n` as written in a statement.
struct LocRef {
    std::string name;
    std::optional<int> node;  // present iff written with ^n
    SourceLoc where;
};

struct Stmt;
using Block = std::vector<Stmt>;

// An argument of a library call: an expression (a location, a work identifier
// or a value, as the method takes it) or a node set `{2, 3}`.
struct CallArg {
    bool isNodeSet = false;
    Expr expr;
    std::vector<int> nodes;
    SourceLoc where;
};

struct Stmt {
    enum class Kind {
        Assign,     // target := expr                     (CPU write)
        Get,        // target := source^n
        Put,        // target^n := source   or target^n := constant
        Poll,       // poll(n)
        RFence,     // rfence(n)
        MFence,     // mfence
        SFence,     // X86 SFENCE, LFENCE: events only under a model in herd7's terms (x86-TSO orders
        LFence,     // what they order anyway)
        Cas,        // result := CAS(target, expected, desired)
        RCas,       // RCAS(source, target^n, expected, desired): remote CAS, old value into local source
        RFaa,       // RFAA(source, target^n, addend): remote fetch-and-add, old value into local source
        Assume,     // assume(expr CMP expr2)
        If,         // if (expr CMP expr2) {body} else {orelse}
        Choice,     // choice {branches[0]} or {branches[1]} ...
        Loop,       // loop {body}
        While,      // while (expr CMP expr2) {body}
        RegAssign,  // X86: register := expr (no event)
        RegLoad,    // X86: register := [target]
        Xchg,       // X86: XCHG [target], register (locked read-modify-write)
        LockedUpdate,  // X86: LOCK ADD/INC/DEC/XOR [target]: [target] := [target] `update` expr (or
                       // [source] where named) in one locked read-modify-write; the new value also to register
                       // `result`
        UnlockedUpdate,  // X86: ADD/INC/DEC/XOR/OR [target] without LOCK: herd7's read and write, in no po with
                         // each other (only models in herd7's terms read it); [source] as LockedUpdate's
        MemoryMove,      // X86: MOV [target],[source]: likewise a read of source and a write of target, in no po
        MemoryExchange,  // X86: XCHG [target],[source]: herd7's locked reads of both and writes of both, in no po
        Label,      // X86: `label:`, naming the next instruction of the thread's code (one flat block)
        Jump,       // X86: to `label` where `expr CMP expr2` holds over registers (JMP: 0 = 0), as herd7 runs jumps
        Wait,       // wait(d)
        GFence,     // gfence(n1, n2, ...): SV's global fence
        Call        // library call `lib.method(args)`, or `target := lib.method(args)`
    };
    Kind kind = Kind::MFence;
    SourceLoc where;
    LocRef target;          // written / tested / remote location
    LocRef source;          // Get: remote source; Put: local source (if !sourceIsConst);
                            // RCas/RFaa: local result ("_": a fresh hidden location)
    bool sourceIsConst = false;
    long long constant = 0; // Put of a constant
    Expr expr;              // Assign / RegAssign; Cas, RCas: expected; RFaa: addend; a test's left side
    Expr expr2;             // Cas, RCas: desired; a test's right side
    Operator update = Operator::Add;  // LockedUpdate: Add or Xor; UnlockedUpdate: Add, Xor or Or
    std::string result;     // Cas result location, RegAssign/RegLoad/Xchg register
    std::vector<std::string> alsoReads;  // X86: registers the instruction reads besides expr's (its dependencies)
    int node = 0;           // Poll / RFence
    Comparison compare = Comparison::Eq;  // Assume / If / While
    // Assume: read the test's locations in the text's order only, not in every
    // order (refine's tests of a thread's own locations, doc/model-notes.md §N27).
    bool readsInTextOrder = false;
    std::string label;      // Label: its name; Jump: its target
    Block body;             // If-then, Loop, While
    Block orelse;           // If-else
    std::vector<Block> branches;  // Choice
    std::string workId;     // Get, Put, RCas, RFaa, Wait: the work identifier ("" if none)
    std::vector<int> nodes; // GFence
    std::string library;    // Call: "sv"
    std::string method;     // Call: "write", "read", ...
    std::vector<CallArg> args;  // Call
    bool hasResult = false;     // Call: `target := lib.method(...)`
};

struct ThreadDecl {
    std::string name;  // P0, P1, ...
    int node = 1;
    Block body;
    SourceLoc where;
};

struct LocationDecl {
    std::string name;
    int node = 1;
    long long init = 0;
    SourceLoc where;
    bool shared = false;  // `x@sv`: a shared variable of the SV library, one copy per node
    bool sc = false;      // `x@sc`: a location of RDMA^SC_RMW (RMW §5), reached by sc.* calls only
};

// A name shown in final states: memory location (thread < 0) or register.
struct ObservedName {
    std::string name;
    int thread = -1;
    SourceLoc where;
};

// Final-state condition. Atoms name a memory location or a thread's register.
struct Cond {
    enum class Kind { True, False, Atom, Not, And, Or };
    Kind kind = Kind::True;
    // Atom: `loc = v` or `loc != v`; register atoms carry thread index >= 0.
    std::string loc;
    int thread = -1;
    bool equal = true;
    long long value = 0;
    std::optional<ObservedName> sameAs;  // Atom `loc = loc2` (herd7's X86): loc2, in place of the value
    std::vector<Cond> args;
    SourceLoc where;
    bool implication = false;  // Or written `A => B` (herd7's): its args are ~A and B
};

// Calls f with each atom of the condition.
template <class F>
void forEachAtom(const Cond& c, const F& f) {
    if (c.kind == Cond::Kind::Atom) f(c);
    for (const Cond& a : c.args) forEachAtom(a, f);
}

// Calls f with each name the condition's atoms read (ObservedName).
template <class F>
void forEachAtomName(const Cond& c, const F& f) {
    forEachAtom(c, [&](const Cond& atom) {
        f(ObservedName{atom.loc, atom.thread, atom.where});
        if (atom.sameAs) f(*atom.sameAs);
    });
}

enum class Quantifier { Exists, NotExists, Forall };


struct LitmusTest {
    Arch arch = Arch::Rdma;
    std::string name;
    std::string description;
    std::string file;
    std::vector<LocationDecl> locations;            // declared in the init block
    std::map<std::string, long long> registerInit;  // X86: "thread:REG" -> value
    std::map<std::string, std::string> initText;  // X86: each number of the init block as written, by name or "t:REG"
    std::map<std::string, std::string> initType;  // X86: the type an init entry gives (`int x=0`), by name or "t:REG"
    // Whether such a type is a pointer's ("int *", "*").
    static bool isPointerType(const std::string& type) { return !type.empty() && type.back() == '*'; }
    // X86: the names taken as values (`0:ESI=x`, `y=x`, `exists (0:EBX=x)`), sorted; the i-th is the value
    // kAddressBase + i.
    std::vector<std::string> addresses;
    std::vector<ThreadDecl> threads;
    std::vector<ObservedName> shown;                // `locations [...]`
    std::optional<Cond> filter;
    Quantifier quantifier = Quantifier::Exists;
    Cond condition;
    // X86: each thread's instructions as herd7 prints them (MOV [x],$1), for
    // herd7's Hash= line.
    std::vector<std::vector<std::string>> x86Code;
};

// herd7's X86 takes a location's name as a value, its address. A test's such
// names, sorted, are the values kAddressBase + 0, 1, ... (LitmusTest::addresses):
// beyond 32 bits, so no number an X86 test computes is one, and above every
// number, where herd7 sorts its symbols (`1:EBX=1;` before `1:EBX=x;`).
inline constexpr long long kAddressBase = 1LL << 40;
// The name whose address `value` is, if it is one.
const std::string* addressName(long long value, const std::vector<std::string>& addresses);
// herd7's spelling of a value: the number, or the name whose address it is.
// `hexBits` > 0: in hexadecimal, as herd7's -hexa prints it, a negative value
// in that many bits' two's complement (32 for X86, whose values are 32-bit).
std::string valueText(long long value, const std::vector<std::string>& addresses, int hexBits = 0);

// The value the init block gives a thread's register (0 if none).
long long initialRegisterValue(const LitmusTest& test, int thread, const std::string& name);
// "thread:REG", the key of LitmusTest::registerInit, as herd7 writes the register.
inline std::string registerKey(int thread, const std::string& reg) { return std::to_string(thread) + ":" + reg; }

// Calls f with each name the test observes: its condition's, its filter's and `locations [...]`'s.
template <class F>
void forEachObservedName(const LitmusTest& test, const F& f) {
    forEachAtomName(test.condition, f);
    if (test.filter) forEachAtomName(*test.filter, f);
    for (const ObservedName& n : test.shown) f(n);
}

// Whether `wanted` holds of a statement of the block, nested blocks included.
bool anyStatement(const Block& block, const std::function<bool(const Stmt&)>& wanted);

// Every name a test uses (locations, registers, results, work identifiers), so
// that a rewrite (an implementation, a repair) can make names of its own.
std::set<std::string> namesOf(const LitmusTest& test);
// `name`, or `name_`, `name__`, ...: the first not in `used`, which then takes it.
std::string fresh(std::string name, std::set<std::string>& used);

// The model a test runs under without --model: tso for X86; rdma-wait-rmw when
// it uses work identifiers, global fences or library calls; rdma-tso-rmw when it
// has remote RMWs; rdma-tso otherwise.
std::string defaultModelName(const LitmusTest& test);

}  // namespace rdmacheck
