// Implementations and refinement (LOCO Defs. 3.9-3.10, doc/model-notes.md §N8): a library's
// calls replaced by programs over lower libraries, and the check that every
// outcome of the implementation is an outcome of the specification.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

// An implementation as refine names it (`--impl sv,wait-polls`): its index in
// the implementation registry, like Library's in the library registry.
struct Implementation {
    int index = 0;

    friend bool operator==(Implementation a, Implementation b) { return a.index == b.index; }
    friend bool operator!=(Implementation a, Implementation b) { return a.index != b.index; }
};

// A test rewritten by an implementation. `names` maps each name the
// specification shows (a location, or a shared variable's copy `x@2`) to the
// implementation's name for it; implementation-only locations are not in it.
struct ImplementedTest {
    LitmusTest test;
    std::map<std::string, std::string> names;
    std::string model;      // the lower model the implementation runs under
    std::string placement;  // where the implementation put what the paper leaves open ("" if nothing)
    // Implementation locations that stay 0 unless a check of the implementation
    // fails (I_RBL: a head or a length it did not expect); refinement reports them.
    std::vector<std::string> alarms = {};
};

// One registry entry: an implementation of a library's calls (or of the core's
// wait(d)) as a program over lower libraries. Each lives in its library's
// folder, src/libraries/NAME/.
struct ImplementationDescriptor {
    std::string name;      // as --impl names it: "sv", "wait-polls"
    std::string lowersTo;  // the model its output runs under; empty: the model of its input
    // How many placements it has on a test (I_WL: a node for each lock's ticket
    // dispenser, "some arbitrary node"); null: one.
    std::function<size_t(const LitmusTest&)> placements;
    // Inlines it in one placement (0 .. placements-1); InputError at the
    // statement it cannot take.
    std::function<ImplementedTest(const LitmusTest&, size_t placement)> rewrite;
};

// ---- The registry. Implementations register before any test is read; the
// built-in ones are listed in src/libraries/registry.cpp.

// Adds an implementation; std::invalid_argument if its name is taken.
Implementation registerImplementation(ImplementationDescriptor implementation);
std::optional<Implementation> findImplementation(const std::string& name);

// "sv,wait-polls" -> list; InputError (no location) for unknown names.
std::vector<Implementation> parseImplementations(const std::string& list);
const char* implementationName(Implementation impl);
// The model an implementation's output runs under, given the model of its input.
std::string loweredModel(Implementation impl, const std::string& model);
// The model at the bottom of a chain.
std::string loweredModel(const std::vector<Implementation>& chain, const std::string& model);

// How many placements an implementation has on a test; 1 for most.
size_t placementCount(const LitmusTest& test, Implementation impl);
// Inlines one implementation in placement `placement` (0 .. placementCount-1).
// `specModel` names the model the input runs under; InputError at the
// statement an implementation cannot take.
ImplementedTest implement(const LitmusTest& test, Implementation impl, const std::string& specModel,
                          size_t placement = 0);

struct Counterexample {
    FinalState outcome;      // over RefinementResult::names
    std::string execution;   // the implementation's execution reaching it, as text
    std::string alarm = {};  // the alarm it sets, if any (else the outcome is not the specification's)
};

struct RefinementResult {
    std::string test, specModel, implModel;
    std::vector<ObservedName> names;  // the specification's locations, compared
    std::set<FinalState> specOutcomes, implOutcomes;
    std::vector<Counterexample> counterexamples;  // implementation outcomes the specification does not allow
    std::vector<SourceLoc> cutLoops;               // loops the bound cut (in either run)
    std::string implementationText;                // the inlined test, as litmus
    std::string placement;                         // the chain's placements ("" if none)
    bool ok() const { return counterexamples.empty(); }
};

// Runs the specification under `specModel` and the chain of implementations
// under `implModel`, and compares outcomes over every location the
// specification names (doc/model-notes.md §N8): one result per placement of the chain
// (the first implementation with several placements is iterated).
std::vector<RefinementResult> checkRefinement(const LitmusTest& test, const std::vector<Implementation>& chain,
                                              const Model& specModel, const Model& implModel,
                                              const CheckOptions& options);

}  // namespace rdmacheck
