// Implementations and refinement (shared/spec/MOWGLI.md §2.6, §12): a library's
// calls replaced by programs over lower libraries, and the check that every
// outcome of the implementation is an outcome of the specification.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

enum class Implementation {
    SharedVariables,     // I_SV into RDMA^WAIT (MOWGLI.md §5.2)
    WaitByPolls,         // wait(d) compiled into polls over RDMA^TSO_RMW, lean variant (§10.3)
    WaitByPollsFaithful, // the same with an mfence wherever I_W has a set operation (§10.2)
    NodeLocks,           // I_NL, ticket node locks over RDMA^WAIT_RMW (RMW Fig. 13, LIBRARIES.md §5.2)
    WeakLocks,           // I_WL, ticket locks over RDMA^WAIT_RMW and SV (RMW Fig. 10, LIBRARIES.md §3.2)
    StrongLocks,         // I_SL, a weak lock whose release first fences every node (RMW §4.3)
    SequentialConsistency,  // I_SC, SC locations guarded by node locks (RMW Fig. 14, LIBRARIES.md §8.2)
    Barriers,               // I_BAL, barriers as SV counters (LOCO Fig. 11, LIBRARIES.md §10.1)
    BarriersWithoutEntryFence,  // §12.4's negative control: I_BAL without its entry fence (unsound)
    RingBuffers,            // I_RBL, ring buffers as SV slots and heads (LOCO Fig. 14, LIBRARIES.md §9.3)
    RingBuffersHeadFirst,   // a mutant of I_RBL that publishes the head before the slots (unsound)
};

// "sv,wait-polls" -> list; InputError (no location) for unknown names.
std::vector<Implementation> parseImplementations(const std::string& list);
const char* implementationName(Implementation impl);
// The model an implementation's output runs under, given the model of its input.
std::string loweredModel(Implementation impl, const std::string& model);
// The model at the bottom of a chain.
std::string loweredModel(const std::vector<Implementation>& chain, const std::string& model);

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

// How many placements an implementation has on a test (I_WL: a node for each
// lock's ticket dispenser, "some arbitrary node"); 1 for most.
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
// specification names (MOWGLI.md §12): one result per placement of the chain
// (the first implementation with several placements is iterated).
std::vector<RefinementResult> checkRefinement(const LitmusTest& test, const std::vector<Implementation>& chain,
                                              const Model& specModel, const Model& implModel,
                                              const CheckOptions& options);

}  // namespace rdmacheck
