// Stage 3: one skeleton under one model -> Z3 constraints whose models are
// exactly the model's consistent executions of that skeleton.
//
// Choices: rf (a source per read), mo (a key per write, read off a clock that
// contains mo when there is one), nfo (one direction per pair), rao (a rank per
// narR, distinct per target node), and one integer clock per acyclicity axiom
// of the model's plan (model.hpp). Every pair of a clock's union operands is a
// strict inequality on that clock, guarded by the pair's formula; for RDMA^TSO
// the issue and observation clocks are tied by I(e) <= O(e), equal on
// instantaneous events, which makes ib, ob and ([Inst];ib;ob)+ irreflexive
// together (RDMA-TSO.md). The same clocks are exact for RDMA^TSO_RMW, whose ib
// and ob contain each other through Inst (Def. 20): ob;[Inst] is respected by I
// since I(a) <= O(a) < O(b) = I(b), [Inst];ib by O since O(a) = I(a) < I(b) <=
// O(b); and a cycle through both clocks passes from O back to I only at an Inst
// event, so it is an ob cycle. Irreflexive and empty axioms deny their pairs.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>
#include <z3++.h>

#include "rdmacheck/events.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

// Z3 answered "unknown" (a time limit, or a resource it ran out of): never read
// as "no more executions".
class SolverGaveUp : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Z3's global settings, made before the first context (a base of SolverContext).
struct Z3Settings {
    Z3Settings();
};

// A Z3 context and the solvers its encodings borrow. A thread reuses one for
// the tests it checks (threadContext(): making a context costs about as much as
// checking a small test), but then the order in which executions are found
// depends on the tests checked before; what prints that order (pictures,
// explanations) takes a fresh one, to be reproducible.
//
// An encoding works in a scope of its own (push/pop) on a borrowed solver, so a
// thread sets a solver up once per configuration for all its skeletons and
// tests; encodings alive at the same time borrow different solvers.
//
// Past the memory bound, the memory watch (limits.hpp) interrupts every context;
// an interrupted one may stay cancelled, so threadContext() replaces it.
//
// The context is made through Z3's C API and checked: when memory runs out
// (ulimit -v) Z3 makes none, and z3::context would use the null one; here it is
// std::bad_alloc.
class SolverContext : private Z3Settings {
public:
    SolverContext();
    ~SolverContext();
    SolverContext(const SolverContext&) = delete;
    SolverContext& operator=(const SolverContext&) = delete;
    z3::context& z3() { return view_(); }
    bool interrupted() const { return interrupted_; }

private:
    // Owns the Z3 context: declared first, so deleted after everything made in it.
    struct Owned {
        Z3_context context;
        ~Owned() { Z3_del_context(context); }
    };
    Owned owned_;
    z3::scoped_context view_;  // the C++ API over owned_, which it leaves to Owned
    std::atomic<bool> interrupted_{false};
    size_t watchId_;
    struct Lent {
        z3::solver solver;
        bool differenceLogic;
        bool busy;
    };
    std::deque<Lent> solvers_;  // a deque: lent references stay valid
    Lent& lend(bool differenceLogic);

public:
    // One encoding's solver, in a scope of its own until the loan ends.
    class Loan {
    public:
        Loan(SolverContext& ctx, bool differenceLogic);
        ~Loan();
        Loan(const Loan&) = delete;
        Loan& operator=(const Loan&) = delete;
        z3::solver& solver() { return lent_.solver; }
        // Bounds each later check (0: no bound) until the loan ends.
        void limitTime(unsigned milliseconds);

    private:
        Lent& lent_;
        bool timed_ = false;
    };
};
SolverContext& threadContext();
// Frees the thread's context if the memory watch interrupted it, and gives its
// memory back, so that the next test starts under the bound.
void dropInterruptedThreadContext();

class ExecutionEncoding {
public:
    // Consistent: the model's executions. WellFormed: every candidate execution
    // (rf, mo, nfo and the values agree; the model's axioms are left out), which
    // is what an explanation of a forbidden outcome searches.
    enum class Mode { Consistent, WellFormed };

    ExecutionEncoding(SolverContext& ctx, const ExecutionGraph& skeleton, const Model& model, size_t locationCount,
                      Mode mode = Mode::Consistent);
    ~ExecutionEncoding();
    ExecutionEncoding(const ExecutionEncoding&) = delete;
    ExecutionEncoding& operator=(const ExecutionEncoding&) = delete;

    // Whether another execution exists, with rf or mo unlike every execution
    // found before (depth-first, in disjoint parts of the search space). Throws
    // SolverGaveUp when Z3 cannot tell, and InputError at the statement when a
    // value of the execution leaves the 64-bit range (arith.hpp).
    bool next();
    // Bounds each later next() (0: no bound); past it, next() throws SolverGaveUp.
    void limitTime(unsigned milliseconds);
    // The skeleton with the choices of the execution found by the last
    // successful next(); valid until the next call.
    const ExecutionGraph& current() const;

    // Formulas over the execution's choices, for conditions on its final
    // state (answer-only modes): a location ends with value k (its mo-last
    // write's), and a value under the execution's read values is k.
    z3::expr finalValueIs(int location, long long k) const;
    z3::expr valueIs(const Value& v, long long k) const;
    // Keeps only executions where `condition` holds in later next() calls.
    void require(const z3::expr& condition);
    // Keeps only executions whose po ∪ rf ∪ mo ∪ rb has a cycle (ROBUSTNESS.md
    // §4.3 (B)): a non-empty set of `on` events, each with an on successor.
    void requireScCycle();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace rdmacheck
