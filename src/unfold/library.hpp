// The front-end half of a MOWGLI library (MOWGLI.md §2.4): its methods, their
// arguments, and how a call lowers into stamped subevents (its stamping
// function). The other half, the consistency predicate, is data: the so edges a
// model file scopes to the library ("sv:rf-e", ...). A new library adds one of
// these and its edges; the encoder does not change.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/events.hpp"

namespace rdmacheck {

enum class ArgKind {
    Variable,  // a variable of the library (an SV shared variable)
    Value,     // an integer, or one local location (read by the CPU before the call)
    Work,      // a work identifier, or `_` for none
    Nodes,     // a node set `{2, 3}`
    Barrier,   // a barrier's name (its participants are the threads that call it)
};

struct MethodSignature {
    std::string name;
    std::vector<ArgKind> args;
    bool returnsValue = false;  // `a := lib.method(...)`
};

// An argument after the front end has resolved it.
struct CallArgument {
    std::string variable;  // Variable, Barrier
    Value value;           // Value
    int work = -1;         // Work: -1 for `_`
    std::vector<int> nodes;
};

// What the unfolder offers a library while it lowers one call; every event
// emitted belongs to the call and to the library.
class CallEmitter {
public:
    virtual ~CallEmitter() = default;
    virtual int node() const = 0;                                   // the calling thread's node
    virtual int copyOf(const std::string& variable, int node) = 0;  // location of a variable's copy on a node
    virtual int barrier(const std::string& name) = 0;                // the location standing for a barrier
    virtual std::vector<int> participantNodes(const std::string& barrier) const = 0;  // nodes of its threads
    virtual std::vector<int> allNodes() const = 0;                                   // every node of the test
    // Emits a subevent; returns its index in the path (for Value::readBy).
    virtual int emit(EventKind kind, int location, int remote, int work, Value written = Value()) = 0;
};

class LibraryFrontEnd {
public:
    virtual ~LibraryFrontEnd() = default;
    virtual Library library() const = 0;
    virtual std::vector<MethodSignature> methods() const = 0;
    // Lowers a call whose arguments match the signature; returns the result
    // (for methods that return a value).
    virtual Value lower(const std::string& method, const std::vector<CallArgument>& args,
                        CallEmitter& out) const = 0;
};

// The libraries, each in its own file (library_*.cpp).
const LibraryFrontEnd& sharedVariables();  // sv
const LibraryFrontEnd& barriers();         // bal

// The library called `name` in the litmus syntax (`sv`), or nullptr.
const LibraryFrontEnd* findLibrary(const std::string& name);
// "sv, bal" for messages.
std::string knownLibraries();

}  // namespace rdmacheck
