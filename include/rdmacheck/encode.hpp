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
// together (doc/model-notes.md §N1). The same clocks are exact for RDMA^TSO_RMW, whose ib
// and ob contain each other through Inst (Def. 20): ob;[Inst] is respected by I
// since I(a) <= O(a) < O(b) = I(b), [Inst];ib by O since O(a) = I(a) < I(b) <=
// O(b); and a cycle through both clocks passes from O back to I only at an Inst
// event, so it is an ob cycle. Irreflexive and empty axioms deny their pairs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>

#include "rdmacheck/events.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

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
// Opaque here: the encoder and the solver reach Z3 through its Impl
// (src/encode/solver_context.hpp); nothing else includes Z3.
class SolverContext {
public:
    SolverContext();  // std::bad_alloc when Z3 cannot make a context (ulimit -v)
    ~SolverContext();
    SolverContext(const SolverContext&) = delete;
    SolverContext& operator=(const SolverContext&) = delete;
    bool interrupted() const;

    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};
SolverContext& threadContext();
// Frees the thread's context if the memory watch interrupted it, and gives its
// memory back, so that the next test starts under the bound.
void dropInterruptedThreadContext();

// `ex` (a consistent execution under `model`) with the least nfo its rf and
// mo allow (each pair forward where it can be), then the least group orders
// that nfo allows (likewise, pair by pair): nfo and group orders are not
// counted (an execution is its paths, rf and mo, as in herd7), and a picture
// or a witness should not show whichever the solver picked. One query per
// pair, in the thread's solver context.
ExecutionGraph withLeastFlushes(const ExecutionGraph& ex, const Model& model, size_t locationCount);

// Whether some read of the skeleton has no source its own tests allow
// (`assume(x = 1)` where nothing writes 1 to x): then no execution, nor any
// candidate, exists, and no encoding need say so.
bool hasReadWithoutSource(const ExecutionGraph& sk, size_t locationCount);

// Z3 failed with an error of its own (not a limit, not "unknown"): its message.
class SolverFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// How the executions found so far, in every thread, were decoded: most off
// the choices' Booleans at Z3's final check, the rest (whose values read need
// it) from Z3's model (src/encode/watched_choices.hpp). For tests: with
// crossCheckDecoding(true), every execution is read from the model too, each
// in a check of its own, and a difference throws std::logic_error.
struct DecodeCounts {
    uint64_t fromChoices = 0, fromModel = 0;
};
DecodeCounts decodeCounts();
void crossCheckDecoding(bool on);

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
    // found before. Throws SolverGaveUp (src/encode/solver_context.hpp:
    // SkeletonSearch turns it into the error the user sees) when Z3 cannot
    // tell, and InputError at the statement when a value of the execution
    // leaves the 64-bit range (arith.hpp).
    bool next();
    // Each execution not found before, in one search (much cheaper per
    // execution than next()), until `visit` returns false; what `visit`
    // throws stops the search and is thrown here. Between two executions
    // nothing else may use the encoding.
    void forEach(const std::function<bool(const ExecutionGraph&)>& visit);
    // The same, but each execution visited is refuted with every execution
    // that ends as it does: the same mo-last write at each of `locations`, and
    // the same sources for every read that those writes and `values` depend
    // on. So each such ending is visited once or a few times (an execution
    // whose values need Z3's model is refuted alone), where forEach visits
    // every execution: --states's search.
    void forEachEnding(const std::vector<int>& locations, const std::vector<Value>& values,
                       const std::function<bool(const ExecutionGraph&)>& visit);
    // Bounds each later search (0: no bound); past it, next() and forEach() throw SolverGaveUp.
    void limitTime(unsigned milliseconds);
    // The skeleton with the choices of the execution found by the last
    // successful next(); valid until the next call.
    const ExecutionGraph& current() const;

    // Keeps only executions whose po ∪ rf ∪ mo ∪ rb has a cycle (doc/model-notes.md §N22,
    // encoding (B)): a non-empty set of `on` events, each with an on successor.
    void requireScCycle();

    // The encoding's Z3 side (src/encode/terms.hpp), opaque here.
    struct Impl;
    Impl& impl() { return *impl_; }
    const Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rdmacheck
