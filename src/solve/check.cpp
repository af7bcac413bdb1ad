#include "rdmacheck/check.hpp"

#include <algorithm>
#include <chrono>

namespace rdmacheck {

namespace {

// herd7 orders x86 registers as its register type does, not alphabetically.
int registerRank(const std::string& reg) {
    static const char* const order[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"};
    for (int i = 0; i < 8; ++i)
        if (reg == order[i]) return i;
    return 8;
}

bool shownBefore(const ObservedName& a, const ObservedName& b) {
    const bool aReg = a.thread >= 0, bReg = b.thread >= 0;
    if (aReg != bReg) return aReg;
    if (aReg && a.thread != b.thread) return a.thread < b.thread;
    if (aReg && registerRank(a.name) != registerRank(b.name)) return registerRank(a.name) < registerRank(b.name);
    return a.name < b.name;
}

void collectAtoms(const Cond& c, std::vector<ObservedName>& out) {
    if (c.kind == Cond::Kind::Atom) out.push_back(ObservedName{c.loc, c.thread, c.where});
    for (const Cond& a : c.args) collectAtoms(a, out);
}

std::vector<ObservedName> shownNames(const LitmusTest& test) {
    std::vector<ObservedName> names = test.shown;
    collectAtoms(test.condition, names);
    std::stable_sort(names.begin(), names.end(), shownBefore);
    names.erase(std::unique(names.begin(), names.end(),
                            [](const ObservedName& a, const ObservedName& b) {
                                return a.thread == b.thread && a.name == b.name;
                            }),
                names.end());
    return names;
}

void checkModelSupports(const UnfoldedProgram& program, const Model& model) {
    for (const auto& paths : program.paths)
        for (const ThreadPath& p : paths)
            for (const Event& e : p.events)
                if (!model.supports[static_cast<int>(e.kind)])
                    throw InputError(e.where, std::string("model '") + model.name + "' has no " + kindName(e.kind) +
                                                  " events; this statement needs an RDMA model such as rdma-tso");
}

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

const char* CheckResult::observation() const {
    if (positive == 0) return "Never";
    if (negative == 0) return "Always";
    return "Sometimes";
}

bool evalCondition(const Cond& c, const std::function<long long(const Cond&)>& lookup) {
    switch (c.kind) {
        case Cond::Kind::True: return true;
        case Cond::Kind::False: return false;
        case Cond::Kind::Atom: return (lookup(c) == c.value) == c.equal;
        case Cond::Kind::Not: return !evalCondition(c.args[0], lookup);
        case Cond::Kind::And:
            return std::all_of(c.args.begin(), c.args.end(), [&](const Cond& a) { return evalCondition(a, lookup); });
        case Cond::Kind::Or:
            return std::any_of(c.args.begin(), c.args.end(), [&](const Cond& a) { return evalCondition(a, lookup); });
    }
    return false;
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
                for (const SourceLoc& loop : sk.cutAt)
                    if (std::none_of(result.cutLoops.begin(), result.cutLoops.end(), [&](const SourceLoc& l) {
                            return l.line == loop.line && l.column == loop.column;
                        }))
                        result.cutLoops.push_back(loop);
        } else {
            while (encoding.next()) {
                const Execution& ex = encoding.current();
                FinalValues values(test, program, sk, ex);
                auto lookup = [&](const Cond& atom) { return values.atom(atom); };
                if (!test.filter || evalCondition(*test.filter, lookup)) {
                    FinalState state;
                    for (const ObservedName& n : result.shown) state.push_back(values.of(n.name, n.thread));
                    bool satisfies = evalCondition(test.condition, lookup);
                    result.states[state] = satisfies;
                    ++(satisfies ? result.positive : result.negative);
                    if (visit) visit(sk, ex, state, satisfies);
                    if (result.positive + result.negative > options.maxExecutions)
                        throw InputError(SourceLoc{test.file, 1, 1},
                                         "more than " + std::to_string(options.maxExecutions) +
                                             " consistent executions; raise --max-executions");
                }
                encoding.blockCurrent();
            }
        }
    }

    switch (test.quantifier) {
        case Quantifier::Exists: result.ok = result.positive > 0; break;
        case Quantifier::NotExists: result.ok = result.positive == 0; break;
        case Quantifier::Forall: result.ok = result.negative == 0; break;
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
