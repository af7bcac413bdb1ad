#include "rdmacheck/check.hpp"

#include <chrono>

namespace rdmacheck {

long long finalValue(const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& ex,
                     const std::string& name, int thread) {
    if (thread >= 0) {
        const auto& regs = ex.registers[thread];
        auto it = regs.find(name);
        if (it != regs.end()) return it->second.eval(ex.readValues);
        auto init = test.registerInit.find(std::to_string(thread) + ":" + name);
        return init == test.registerInit.end() ? 0 : init->second;
    }
    return ex.events[ex.mo[program.locationIndex(name)].back()].written.eval(ex.readValues);
}

namespace {

// The models that have what `e` needs, for the message.
const char* modelsFor(const Event& e) {
    switch (e.kind) {
        case EventKind::NAR:
        case EventKind::NAW: return "a remote-RMW model (rdma-tso-rmw, rdma-wait-rmw)";
        case EventKind::WT:
        case EventKind::GF: return "an RDMA^WAIT model (rdma-wait, rdma-wait-rmw)";
        case EventKind::P: return "an RDMA^TSO model (rdma-tso, rdma-tso-rmw); RDMA^WAIT waits on work identifiers";
        default: return "an RDMA model such as rdma-tso";
    }
}

}  // namespace

void checkModelSupports(const UnfoldedProgram& program, const Model& model) {
    for (const auto& paths : program.paths)
        for (const ThreadPath& p : paths)
            for (const Event& e : p.events) {
                if (!model.libraries.count(e.library))
                    throw InputError(e.where, std::string("model '") + model.name + "' has no library '" +
                                                  libraryName(e.library) +
                                                  "'; library calls need rdma-wait or rdma-wait-rmw");
                if (!model.supports[static_cast<int>(e.kind)])
                    throw InputError(e.where, std::string("model '") + model.name + "' has no " + kindName(e.kind) +
                                                  " events; this statement needs " + modelsFor(e));
                if (e.workId >= 0 && !model.supports[static_cast<int>(EventKind::WT)])
                    throw InputError(e.where, std::string("model '") + model.name +
                                                  "' has no work identifiers; they need rdma-wait or rdma-wait-rmw");
            }
}

namespace {

[[noreturn]] void solverGaveUp(const ResourceGuard& guard, const std::string& file, const SolverGaveUp& e) {
    if (guard.expired()) guard.timeout();
    throw InputError(SourceLoc{file, 1, 1}, std::string("the solver gave up (") + e.what() +
                                                "); no verdict rather than a partial one");
}

// Checks the limits, and bounds the next solver call by the time left.
void spend(const ResourceGuard& guard, const ResourceLimits& limits, ExecutionEncoding& encoding) {
    guard.check();
    if (limits.seconds > 0) encoding.limitTime(guard.remainingMilliseconds());
}

}  // namespace

CheckResult check(const LitmusTest& test, const Model& model, const CheckOptions& options,
                  const ExecutionVisitor& visit) {
    const auto start = std::chrono::steady_clock::now();
    const ResourceGuard guard(test.file, options.limits);
    UnfoldOptions unfoldOptions;
    unfoldOptions.unroll = options.unroll;
    const UnfoldedProgram program = unfold(test, unfoldOptions);
    checkModelSupports(program, model);

    CheckResult result;
    result.test = test.name;
    result.model = model.name;
    result.quantifier = test.quantifier;
    result.shown = shownNames(test);

    // One context per thread for every test it checks: making one costs more
    // than checking a small test.
    static thread_local z3::context ctx;
    std::vector<size_t> choice(program.paths.size(), 0);
    try {
        for (bool more = program.skeletonCount() > 0; more; more = program.nextChoice(choice)) {
            const ExecutionGraph sk = program.skeleton(choice);
            if (sk.events.size() > options.maxEvents)
                throw InputError(SourceLoc{test.file, 1, 1},
                                 "a combination of thread paths has " + std::to_string(sk.events.size()) +
                                     " events; the declarative engine takes at most " +
                                     std::to_string(options.maxEvents) + " (--max-events)");
            ExecutionEncoding encoding(ctx, sk, model, program.locations.size());
            spend(guard, options.limits, encoding);
            if (!sk.cutAt.empty()) {
                // A consistent prefix that stopped at the bound: executions are missing.
                if (encoding.next())
                    for (const SourceLoc& loop : sk.cutAt) noteCutLoop(result, loop);
            } else {
                while (encoding.next()) {
                    const ExecutionGraph& ex = encoding.current();
                    auto lookup = [&](const Cond& atom) { return finalValue(test, program, ex, atom.loc, atom.thread); };
                    if (!test.filter || evalCondition(*test.filter, lookup)) {
                        FinalState state;
                        for (const ObservedName& n : result.shown)
                            state.push_back(finalValue(test, program, ex, n.name, n.thread));
                        addFinalState(result, test, state, lookup);
                        if (visit) visit(program, ex, state, result.states.at(state));
                        if (result.positive + result.negative > options.maxExecutions)
                            throw InputError(SourceLoc{test.file, 1, 1},
                                             "more than " + std::to_string(options.maxExecutions) +
                                                 " consistent executions; raise --max-executions");
                    }
                    encoding.blockCurrent();
                    spend(guard, options.limits, encoding);
                }
            }
        }
    } catch (const SolverGaveUp& e) {
        solverGaveUp(guard, test.file, e);
    }

    decideVerdict(result);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
