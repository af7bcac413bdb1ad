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
};

// Called for each consistent execution kept by the filter (for graphs and tests).
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

// What a search over skeletons shares with check(): the limits checked, and the
// next solver call bounded by the time left; a solver that gave up as the
// error the user sees (a timeout once the time is up); a skeleton past --max-events.
void spend(const ResourceGuard& guard, const ResourceLimits& limits, ExecutionEncoding& encoding);
[[noreturn]] void solverGaveUp(const ResourceGuard& guard, const std::string& file, const SolverGaveUp& e);
void checkEventCount(const ExecutionGraph& sk, const CheckOptions& options, const std::string& file);
// A skeleton cut at the unroll bound only adds warnings: once each of its loops
// has one in `result`, solving it can tell nothing new.
bool cutLoopsNoted(const CheckResult& result, const ExecutionGraph& sk);
// For a cut skeleton (true), notes its loops in `result` when a consistent
// execution reaches the bound: executions past it are missing. False otherwise.
bool noteCutSkeleton(const ExecutionGraph& sk, ExecutionEncoding& encoding, CheckResult& result);

}  // namespace rdmacheck
