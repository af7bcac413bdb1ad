// Watching a search from inside Z3 (its user-propagator interface): the
// Booleans that tell an execution's choices apart are followed as Z3 assigns
// and unassigns them, and at Z3's final check, when the assignment is a
// complete model, a handler reads the execution off them and either refutes it
// (a conflict: Z3 learns it, backjumps and goes on to the next execution) or
// ends the check with it. So one check enumerates every execution (AllSAT),
// each found from the last one's backjump, where a check per execution redid
// the whole search and read a trail of every literal (doc/performance.md).
// Internal to the encoder.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>
#include <z3++.h>

namespace rdmacheck {

// One per solver (Z3 takes one per solver, and a solver serves many encodings,
// each in a scope of its own), attached at the solver's first search
// (SolverLoan::watch: attaching configures Z3 from the assertions present).
class ChoiceWatch {
public:
    explicit ChoiceWatch(z3::solver& solver);
    ChoiceWatch(const ChoiceWatch&) = delete;
    ChoiceWatch& operator=(const ChoiceWatch&) = delete;

    // Follows Boolean `b` until the solver scope it was watched in is popped.
    unsigned watch(const z3::expr& b);
    bool assigned(unsigned id) const { return value_[id] >= 0; }
    bool holds(unsigned id) const { return value_[id] == 1; }

    // Runs at every final check while the Handling lives: if it refutes the
    // assignment (refute()) the search goes on, otherwise the check answers sat
    // with it. With no handler every final check answers sat. It runs inside
    // Z3, so it must not throw.
    using Handler = std::function<void()>;
    class Handling {
    public:
        Handling(ChoiceWatch& watch, Handler handler) : watch_(watch) {
            watch_.handler_ = std::move(handler);
            watch_.armed_ = false;
        }
        ~Handling() { watch_.handler_ = nullptr; }
        Handling(const Handling&) = delete;
        Handling& operator=(const Handling&) = delete;

    private:
        ChoiceWatch& watch_;
    };
    // Inside a handler only: refutes the current values of `ids` together.
    void refute(const std::vector<unsigned>& ids);

private:
    static void pushed(void* self);
    static void popped(void* self, unsigned scopes);
    static void* fresh(void* self, Z3_context);
    static void fixed(void* self, Z3_solver_callback, unsigned id, Z3_ast value);
    static void finalCheck(void* self, Z3_solver_callback cb);

    z3::solver& solver_;
    std::vector<signed char> value_;  // by id: -1 unassigned, 0 false, 1 true
    std::vector<unsigned> assignedIds_;  // in the order assigned
    std::vector<size_t> scopes_;      // assignedIds_'s size at each open scope
    Handler handler_;
    uint64_t changes_ = 0;  // scopes pushed and popped, Booleans assigned
    bool armed_ = false;    // a final check saw the assignment as of armedAt_
    uint64_t armedAt_ = 0;
    Z3_solver_callback callback_ = nullptr;  // during a handler
};

}  // namespace rdmacheck
