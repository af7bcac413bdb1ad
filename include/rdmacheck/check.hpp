// Stage 4: enumerate every consistent execution of every skeleton, and collect
// the final states, the condition's verdict and herd7's execution counts; or,
// in the answer-only modes (result.hpp), only the final states or the verdict.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/limits.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/result.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

struct CheckOptions {
    int unroll = 2;
    uint64_t maxExecutions = 10'000'000;  // stop with an error past this many
    size_t maxEvents = 2000;              // per path combination: the encoding is quadratic in it
    ResourceLimits limits;                // --timeout, --max-memory
    CheckMode mode = CheckMode::Executions;  // --states, --speedcheck
    bool progress = false;                // a line on stderr each second once a test takes over one
    bool prefixes = false;                // also paths cut before each test (UnfoldOptions::prefixes)
    std::string badFlag;                  // --bad-flag: a flag whose executions make the verdict Undef (herd7's -badflag)
};

// Called for each consistent execution kept by the filter (for graphs and
// tests), in the order the search finds them, which depends on the encoding:
// sort by canonicallyBefore what a user sees.
using ExecutionVisitor =
    std::function<void(const UnfoldedProgram&, const ExecutionGraph&, const FinalState&, bool satisfies)>;

CheckResult check(const LitmusTest& test, const Model& model, const CheckOptions& options,
                  const ExecutionVisitor& visit = nullptr);

// The value of a location (thread < 0) or register at the end of an execution.
long long finalValue(const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& ex,
                     const std::string& name, int thread);

// `options` with what is left of its time limit since `start`, for a command
// that runs several checks under one --timeout (a millisecond when none is left).
CheckOptions withTimeLeft(const CheckOptions& options, std::chrono::steady_clock::time_point start);

// The test unfolded at `unroll` (paths also cut before each test with `prefixes`),
// with an InputError at the first event the model has no place for (NIC events
// under tso or sc).
UnfoldedProgram unfoldFor(const LitmusTest& test, const Model& model, int unroll, bool prefixes = false);

// One path combination the search reached: its skeleton, the path of each
// thread (an index into UnfoldedProgram::paths), and its number among all, from 1.
struct PathCombination {
    const ExecutionGraph& skeleton;
    const std::vector<size_t>& choice;
    uint64_t number;
};

// The search loop of every declarative command (check, explain, robust): each
// skeleton of `program`, past --max-events an error, gets an encoding in
// `mode` on `ctx`; the limits are checked and the next solver call bounded by
// the time left before `body` runs it, and again at each spend(). `body`
// returns false to stop. A solver that gave up, or a Z3 call stopped by the
// memory watch, ends the search with the error the user sees: the limit that
// stopped it, else "the solver gave up"; any other Z3 error leaves as a
// SolverFailure (encode.hpp).
//
// A skeleton cut at the unroll bound (sk.cutAt) never reaches `body`. With
// `cutNotes`, the search notes its loops there when a candidate execution
// (well-formed, consistent or not, as herd7 reads it) reaches the bound
// (executions past it may be missing: a warning) and passes over the
// skeletons whose loops are all noted, which can tell nothing new; without,
// it passes over them all (explain shows complete candidates only). With
// `withCut`, cut skeletons reach `body` as the others do (herd7 runs its
// model, assertions included, on the candidates it then drops as cut).
class SkeletonSearch {
public:
    SkeletonSearch(const LitmusTest& test, const UnfoldedProgram& program, const Model& model,
                   const CheckOptions& options, const ResourceGuard& guard)
        : test_(test), program_(program), model_(model), options_(options), guard_(guard) {}

    using Body = std::function<bool(const PathCombination&, ExecutionEncoding&)>;
    void run(SolverContext& ctx, ExecutionEncoding::Mode mode, CheckResult* cutNotes, const Body& body,
             bool withCut = false) const;
    // Between two solver calls of one encoding.
    void spend(ExecutionEncoding& encoding) const;
    // Inside a search (ExecutionEncoding::forEach), where the solver's own
    // time limit stays as spend() set it.
    void checkLimits() const;

private:
    [[noreturn]] void stopped() const;

    const LitmusTest& test_;
    const UnfoldedProgram& program_;
    const Model& model_;
    const CheckOptions& options_;
    const ResourceGuard& guard_;
};

}  // namespace rdmacheck
