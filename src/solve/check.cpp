#include "rdmacheck/check.hpp"

#include <chrono>

namespace rdmacheck {

namespace {

// Final values of one execution.
class FinalValues {
public:
    FinalValues(const LitmusTest& test, const UnfoldedProgram& program, const Skeleton& sk, const Execution& ex)
        : test_(test), program_(program), sk_(sk), ex_(ex) {}

    long long of(const std::string& name, int thread) const {
        if (thread >= 0) {
            const auto& regs = sk_.registers[thread];
            auto it = regs.find(name);
            if (it != regs.end()) return it->second.eval(ex_.readValues);
            auto init = test_.registerInit.find(std::to_string(thread) + ":" + name);
            return init == test_.registerInit.end() ? 0 : init->second;
        }
        int l = program_.locationIndex(name);
        return sk_.events[ex_.mo[l].back()].written.eval(ex_.readValues);
    }

    long long atom(const Cond& c) const { return of(c.loc, c.thread); }

private:
    const LitmusTest& test_;
    const UnfoldedProgram& program_;
    const Skeleton& sk_;
    const Execution& ex_;
};

}  // namespace

void checkModelSupports(const UnfoldedProgram& program, const Model& model) {
    for (const auto& paths : program.paths)
        for (const ThreadPath& p : paths)
            for (const Event& e : p.events)
                if (!model.supports[static_cast<int>(e.kind)])
                    throw InputError(e.where, std::string("model '") + model.name + "' has no " + kindName(e.kind) +
                                                  " events; this statement needs an RDMA model such as rdma-tso");
}

CheckResult check(const LitmusTest& test, const Model& model, const CheckOptions& options,
                  const ExecutionVisitor& visit) {
    const auto start = std::chrono::steady_clock::now();
    UnfoldOptions unfoldOptions;
    unfoldOptions.unroll = options.unroll;
    const UnfoldedProgram program = unfold(test, unfoldOptions);
    checkModelSupports(program, model);

    CheckResult result;
    result.test = test.name;
    result.model = model.name;
    result.quantifier = test.quantifier;
    result.shown = shownNames(test);

    z3::context ctx;
    std::vector<size_t> choice(program.paths.size(), 0);
    for (bool more = program.skeletonCount() > 0; more; more = program.nextChoice(choice)) {
        const Skeleton sk = program.skeleton(choice);
        ExecutionEncoding encoding(ctx, sk, model, program.locations.size());
        if (!sk.cutAt.empty()) {
            // A consistent prefix that stopped at the bound: executions are missing.
            if (encoding.next())
                for (const SourceLoc& loop : sk.cutAt) noteCutLoop(result, loop);
        } else {
            while (encoding.next()) {
                const Execution& ex = encoding.current();
                FinalValues values(test, program, sk, ex);
                auto lookup = [&](const Cond& atom) { return values.atom(atom); };
                if (!test.filter || evalCondition(*test.filter, lookup)) {
                    FinalState state;
                    for (const ObservedName& n : result.shown) state.push_back(values.of(n.name, n.thread));
                    addFinalState(result, test, state, lookup);
                    if (visit) visit(sk, ex, state, result.states.at(state));
                    if (result.positive + result.negative > options.maxExecutions)
                        throw InputError(SourceLoc{test.file, 1, 1},
                                         "more than " + std::to_string(options.maxExecutions) +
                                             " consistent executions; raise --max-executions");
                }
                encoding.blockCurrent();
            }
        }
    }

    decideVerdict(result);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
