// The two searches of a machine's runs: every interleaving over hashed
// configurations (explore.cpp, `--no-reduction`, the oracle), and the reduced
// stateless search (dpor.cpp, the default). Both give the same final memories.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/ast.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/result.hpp"
#include "rules.hpp"

namespace rdmacheck::machine {

// A final memory: every location's value, then every thread's registers.
using Outcome = std::vector<long long>;
// A run, as the index of each step among its configuration's successors (Rules::successors).
using Path = std::vector<uint32_t>;

struct Reached {
    std::map<Outcome, Path> outcomes;  // each final memory, with the first run found to reach it
    uint64_t states = 0;               // configurations expanded
    uint64_t runs = 0;                 // reduced search: runs followed to their end
};

Outcome outcomeOf(const State& s);

// The outcome of a configuration without successors: none for a blocked run
// (failed assume, poll with nothing to poll) or a run past a loop's bound
// (noted in result); a drained program that is stuck is a bug.
std::optional<Outcome> outcomeAtEnd(const State& s, const Rules& rules, const Program& program,
                                    const LitmusTest& test, CheckResult& result);

// Runs the rules, reporting an overflow in a remote fetch-and-add (whose
// statement the NIC no longer knows) at the test.
template <class Apply>
void applyRules(const LitmusTest& test, Apply apply) {
    try {
        apply();
    } catch (const ArithmeticOverflow& e) {
        throw InputError(SourceLoc{test.file, 1, 1}, e.what());
    }
}

// Stops a search that passed --max-states.
void checkStates(uint64_t states, const MachineOptions& options, const LitmusTest& test);

Reached searchStates(const LitmusTest& test, const Program& program, const Rules& rules,
                     const MachineOptions& options, bool keepPaths, CheckResult& result);
Reached searchTraces(const LitmusTest& test, const Program& program, const Rules& rules,
                     const MachineOptions& options, CheckResult& result);

}  // namespace rdmacheck::machine
