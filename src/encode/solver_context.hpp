// The Z3 side of SolverContext (encode.hpp), internal to the encoder and the
// solver: the context, the solvers encodings borrow, and the error for Z3's
// "unknown".
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <stdexcept>
#include <z3++.h>

#include "choice_watch.hpp"
#include "rdmacheck/encode.hpp"

namespace rdmacheck {

// Z3 answered "unknown" (a time limit, or a resource it ran out of): never read
// as "no more executions".
class SolverGaveUp : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Z3's global settings, made before the first context (a base of the Impl).
struct Z3Settings {
    Z3Settings();
};

// The context is made through Z3's C API and checked: when memory runs out
// (ulimit -v) Z3 makes none, and z3::context would use the null one; here it is
// std::bad_alloc.
struct SolverContext::Impl : private Z3Settings {
    Impl();
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    z3::context& z3() { return view_(); }

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
        std::unique_ptr<ChoiceWatch> watch;
    };
    std::deque<Lent> solvers_;  // a deque: lent references stay valid
    Lent& lend(bool differenceLogic);
};

// One encoding's solver, in a scope of its own until the loan ends.
class SolverLoan {
public:
    SolverLoan(SolverContext& ctx, bool differenceLogic);
    ~SolverLoan();
    SolverLoan(const SolverLoan&) = delete;
    SolverLoan& operator=(const SolverLoan&) = delete;
    z3::solver& solver() { return lent_.solver; }
    ChoiceWatch& watch();
    // Bounds each later check (0: no bound) until the loan ends.
    void limitTime(unsigned milliseconds);

private:
    SolverContext::Impl::Lent& lent_;
    bool timed_ = false;
};

}  // namespace rdmacheck
