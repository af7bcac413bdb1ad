// Stage 2: LitmusTest -> program-order graphs. Each thread becomes the list of
// its straight-line paths (choices, branches, bounded loops and every read order
// of an expression); a skeleton picks one path per thread.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/events.hpp"

namespace rdmacheck {

// A poll that no earlier remote operation leaves anything to poll (it would
// block forever): a rewrite that inserts polls (robust --repair) tells this
// input error from the others.
class NothingToPoll : public InputError {
public:
    using InputError::InputError;
};

struct ThreadPath {
    std::vector<Event> events;                   // po order; Value::Read indexes this vector
    std::vector<std::pair<int, int>> pollsFrom;  // (write, poll) indexes into events
    std::vector<std::pair<int, int>> lockedPairs;  // (read, write) of a locked instruction (herdEvents)
    // X86: herd7's data and addr (unfold/dependencies.hpp), (load, access)
    std::vector<std::pair<int, int>> dataDependencies, addressDependencies;
    std::vector<ValueConstraint> constraints;
    std::map<std::string, Value> registers;
    // Every value a register took that computes (not a copy, Value::isCopy),
    // overwritten or not: herd7 solves each (ExecutionGraph::computations).
    std::vector<Value> computations;
    bool cut = false;

    void setRegister(const std::string& name, Value v) {
        if (!v.isCopy()) computations.push_back(v);
        registers[name] = std::move(v);
    }
    SourceLoc cutAt;  // the loop whose bound stopped this path
};

struct UnfoldOptions {
    int unroll = 2;          // loop iterations kept
    // X86 instructions as herd7's events (Model::herdEvents): a locked one a read and a write joined by rmw, an
    // unlocked update's out of po, SFENCE and LFENCE fence events.
    bool herdEvents = false;
    bool dependencies = false;  // X86: herd7's data and addr (ThreadPath::dataDependencies)
    // Also every path cut just before a test's reads (assume, if, while): the
    // prefixes robustness quantifies over (doc/model-notes.md §N21).
    bool prefixes = false;
    size_t maxPaths = 100000;     // per thread, guards against blow-up
    size_t maxEvents = 1000000;   // per thread, events made on all its paths and copies of them
};

struct UnfoldedProgram {
    std::vector<Location> locations;  // declared, implicit, then hidden constants
    std::vector<std::vector<ThreadPath>> paths;  // per thread
    // Per hidden location of a name with participants, their threads: a
    // barrier's callers, a buffer's readers (CallScan::takePart).
    std::map<int, std::set<int>> participants;
    // The hidden location of each put of a constant and each RMW result `_`
    // reached while unfolding, by statement (the machines' events name it too).
    std::map<const Stmt*, int> hiddenLocations;
    // Per location: whether the condition, the filter or `locations [...]` names it.
    std::vector<bool> observed;

    // Number of skeletons (product of path counts), saturating.
    size_t skeletonCount() const;
    // choice[t] indexes paths[t]. The libraries bind the values a call
    // receives (LibraryDescriptor::bindValues) unless bindReceived is false:
    // then they stay Value::received, for a test oracle that binds them from
    // its own rf, independently of the libraries' binding.
    ExecutionGraph skeleton(const std::vector<size_t>& choice, bool bindReceived = true) const;
    // Steps choice to the next combination of paths; false after the last one.
    bool nextChoice(std::vector<size_t>& choice) const;
    int locationIndex(const std::string& name) const;  // -1 if unknown
};

// Resolves locations (homes, implicit declarations) and checks every statement
// against doc/LITMUS.md; throws InputError on the first problem.
UnfoldedProgram unfold(const LitmusTest& test, const UnfoldOptions& options);

}  // namespace rdmacheck
