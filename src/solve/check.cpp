#include "rdmacheck/check.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>

#include "../encode/solver_context.hpp"
#include "../encode/terms.hpp"
#include "rdmacheck/progress.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

namespace {

// What a thread last put in a register on this path; null when it holds its initial value.
const Value* registerOnPath(const ExecutionGraph& sk, const std::string& name, int thread) {
    const auto& regs = sk.registers[thread];
    auto it = regs.find(name);
    return it == regs.end() ? nullptr : &it->second;
}

}  // namespace

namespace {

// What a name ends with, in terms of the execution's reads: a register's last
// value on the path or a location's mo-last write; null for a register's
// initial value.
const Value* endingOf(const UnfoldedProgram& program, const ExecutionGraph& ex, const std::string& name, int thread) {
    if (thread >= 0) return registerOnPath(ex, name, thread);
    return &ex.events[ex.mo[program.locationIndex(name)].back()].written;
}

// Whether read r's value is fixed by the writes, up rf to constants: not
// where rf and plain copies close a cycle (herd7's XCHG or MOV of two
// locations), whose value no equation fixes and herd7 leaves symbolic (S1,
// ...). `memo` per event: 0 not seen, 1 being read, 2 fixed, 3 free.
bool fixedRead(const ExecutionGraph& ex, int r, std::vector<char>& memo);

// Whether `v` is known in `ex`: each read it uses is, but for a xor of two
// copies of reads that read one write of a copy (Value::xorOfCopies: 0), in
// any subterm.
bool fixedValue(const ExecutionGraph& ex, const Value& v, std::vector<char>& memo) {
    if (v.kind == Value::Kind::Read) return fixedRead(ex, v.event, memo);
    if (const auto copies = v.xorOfCopies(); copies && ex.rf[copies->first] == ex.rf[copies->second] &&
                                              ex.events[ex.rf[copies->first]].written.isCopy())
        return true;
    bool fixed = true;
    for (const Value& a : v.args) fixed = fixedValue(ex, a, memo) && fixed;
    return fixed;
}

bool fixedRead(const ExecutionGraph& ex, int r, std::vector<char>& memo) {
    if (memo[r] != 0) return memo[r] == 2;  // one being read closes a cycle: free
    memo[r] = 1;
    const bool fixed = fixedValue(ex, ex.events[ex.rf[r]].written, memo);
    memo[r] = fixed ? 2 : 3;
    return fixed;
}

}  // namespace

long long finalValue(const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& ex,
                     const std::string& name, int thread) {
    if (const Value* v = endingOf(program, ex, name, thread)) return v->eval(ex.readValues);
    return initialRegisterValue(test, thread, name);
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

}  // namespace

CheckOptions withTimeLeft(const CheckOptions& options, std::chrono::steady_clock::time_point start) {
    CheckOptions left = options;
    if (options.limits.seconds > 0) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        left.limits.seconds = std::max(0.001, options.limits.seconds - spent);
    }
    return left;
}

UnfoldedProgram unfoldFor(const LitmusTest& test, const Model& model, int unroll, bool prefixes) {
    // herd7's dependencies come from its X86 instructions' register events (unfold/dependencies.hpp).
    for (const char* dependency : {"data", "addr", "ctrl"})
        if (test.arch != Arch::X86 && model.uses(dependency))
            throw InputError(SourceLoc{test.file, 1, 1}, std::string("model '") + model.name + "' uses herd7's " +
                                                             dependency + ", which rdmacheck computes for X86 tests only");
    UnfoldOptions options;
    options.unroll = unroll;
    options.prefixes = prefixes;
    options.herdEvents = model.herdEvents;
    options.dependencies = test.arch == Arch::X86;  // pictures may draw them too
    UnfoldedProgram program = unfold(test, options);
    checkModelSupports(program, model);
    return program;
}

namespace {

void checkEventCount(const ExecutionGraph& sk, const CheckOptions& options, const std::string& file) {
    if (sk.events.size() > options.maxEvents)
        throw InputError(SourceLoc{file, 1, 1}, "a combination of thread paths has " + std::to_string(sk.events.size()) +
                                                    " events; the declarative engine takes at most " +
                                                    std::to_string(options.maxEvents) + " (--max-events)");
}

// finalValue(name) == k: a register's value or initial value, or a location's last write.
z3::expr nameEndsWith(z3::context& ctx, const LitmusTest& test, const UnfoldedProgram& program,
                      const ExecutionGraph& sk, const ExecutionEncoding& encoding, const std::string& name, int thread,
                      long long k) {
    if (thread < 0) return finalValueIs(encoding, program.locationIndex(name), k);
    if (const Value* v = registerOnPath(sk, name, thread)) return valueIs(encoding, *v, k);
    return ctx.bool_val(initialRegisterValue(test, thread, name) == k);
}

// The value a name ends with, as a term.
z3::expr nameValue(z3::context& ctx, const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& sk,
                   const ExecutionEncoding& encoding, const std::string& name, int thread) {
    if (thread < 0) return finalValueTerm(encoding, program.locationIndex(name));
    if (const Value* v = registerOnPath(sk, name, thread)) return valueTermOf(encoding, *v);
    return ctx.int_val(static_cast<int64_t>(initialRegisterValue(test, thread, name)));
}

z3::expr conditionTerm(z3::context& ctx, const LitmusTest& test, const UnfoldedProgram& program,
                       const ExecutionGraph& sk, const ExecutionEncoding& encoding, const Cond& c) {
    return foldCondition<z3::expr>(
        c,
        [&](const Cond& atom) {
            auto valueOf = [&](const std::string& name, int thread) {
                return nameValue(ctx, test, program, sk, encoding, name, thread);
            };
            const z3::expr is = atom.sameAs ? valueOf(atom.loc, atom.thread) ==
                                                  valueOf(atom.sameAs->name, atom.sameAs->thread)
                                            : nameEndsWith(ctx, test, program, sk, encoding, atom.loc, atom.thread,
                                                           atom.value);
            return atom.equal ? is : !is;
        },
        ctx.bool_val(true), ctx.bool_val(false));
}

// An execution decides the verdict where it passes the filter and satisfies
// the condition of exists / ~exists, or breaks forall's.
z3::expr decisiveTerm(z3::context& ctx, const LitmusTest& test, const UnfoldedProgram& program,
                      const ExecutionGraph& sk, const ExecutionEncoding& encoding) {
    const z3::expr holds = conditionTerm(ctx, test, program, sk, encoding, test.condition);
    z3::expr decisive = test.quantifier == Quantifier::Forall ? !holds : holds;
    if (test.filter) decisive = decisive && conditionTerm(ctx, test, program, sk, encoding, *test.filter);
    return decisive;
}

// Every loop that cut the skeleton is in `notes` already.
bool cutLoopsNoted(const CheckResult& notes, const ExecutionGraph& sk) {
    return std::all_of(sk.cutAt.begin(), sk.cutAt.end(), [&](const SourceLoc& loop) { return hasCutLoop(notes, loop); });
}

}  // namespace

void SkeletonSearch::spend(ExecutionEncoding& encoding) const {
    checkLimits();
    if (options_.limits.seconds > 0) encoding.limitTime(guard_.remainingMilliseconds());
}

void SkeletonSearch::checkLimits() const { guard_.check(); }

void SkeletonSearch::run(SolverContext& ctx, ExecutionEncoding::Mode mode, CheckResult* cutNotes,
                         const Body& body, bool withCut) const {
    std::vector<size_t> choice(program_.paths.size(), 0);
    uint64_t number = 0;
    try {
        for (bool more = program_.skeletonCount() > 0; more; more = program_.nextChoice(choice)) {
            const ExecutionGraph sk = program_.skeleton(choice);
            checkEventCount(sk, options_, test_.file);
            ++number;
            const bool cut = !sk.cutAt.empty() && !withCut;
            if (cut && (!cutNotes || cutLoopsNoted(*cutNotes, sk))) continue;
            if (hasReadWithoutSource(sk, program_.locations.size())) continue;
            // A cut skeleton's loops are noted when a candidate reaches the bound, consistent or not, as
            // herd7 notes them: a longer path's executions need not restrict to consistent ones of the cut.
            ExecutionEncoding encoding(ctx, sk, model_, program_.locations.size(),
                                       cut ? ExecutionEncoding::Mode::WellFormed : mode);
            spend(encoding);
            if (cut) {
                // A cut candidate marks the verdict where it reaches herd7's model: past the filter, and
                // under -speedcheck deciding the verdict (herd/mem.ml's worth_going).
                z3::context& z = ctx.impl().z3();
                if (options_.mode == CheckMode::Deciding || options_.mode == CheckMode::Speedcheck)
                    require(encoding, decisiveTerm(z, test_, program_, sk, encoding));
                else if (test_.filter)
                    require(encoding, conditionTerm(z, test_, program_, sk, encoding, *test_.filter));
                if (encoding.next())
                    for (const SourceLoc& loop : sk.cutAt) noteCutLoop(*cutNotes, loop);
                continue;
            }
            if (!body(PathCombination{sk, choice, number}, encoding)) break;
        }
    } catch (const SolverGaveUp&) {
        stopped();
    } catch (const z3::exception&) {  // Z3 refuses every call once interrupted
        stopped();
    } catch (...) {
        dropInterruptedThreadContext();
        throw;
    }
}

void SkeletonSearch::stopped() const {
    dropInterruptedThreadContext();
    if (guard_.expired()) guard_.timeout();
    if (guard_.memoryTripped()) guard_.outOfMemory();
    try {
        throw;
    } catch (const SolverGaveUp& e) {
        throw InputError(SourceLoc{test_.file, 1, 1}, std::string("the solver gave up (") + e.what() +
                                                          "); no verdict rather than a partial one");
    } catch (const z3::exception& e) {
        throw SolverFailure(e.msg());
    }
}


namespace {

// One test's run over its skeletons, in the mode the options ask for.
class DeclarativeCheck {
public:
    DeclarativeCheck(z3::context& ctx, const LitmusTest& test, const UnfoldedProgram& program, const Model& model,
                     const CheckOptions& options, const ExecutionVisitor& visit, const SkeletonSearch& search,
                     CheckResult& result)
        : ctx_(ctx), test_(test), program_(program), model_(model), options_(options), visit_(visit), search_(search),
          result_(result), progress_(test.name, options.progress), combinations_(program.skeletonCount()),
          valueNames_(valueNames(test, result.shown)) {}

    // Runs one skeleton's encoding; false once the verdict is decided (speedcheck).
    bool run(const PathCombination& combination, ExecutionEncoding& encoding) {
        combination_ = combination.number;
        const ExecutionGraph& sk = combination.skeleton;
        switch (options_.mode) {
            case CheckMode::Executions: enumerateExecutions(encoding); return true;
            case CheckMode::States: enumerateStates(sk, encoding); return true;
            case CheckMode::Speedcheck: return !findDecisive(sk, encoding);
            case CheckMode::Deciding:
                // Whether any execution completes, asked before the condition narrows the search.
                if (!result_.completes && !(result_.completes = anyExecution(encoding))) return true;
                require(encoding, decisiveTerm(sk, encoding));
                enumerateExecutions(encoding);
                return true;
        }
        return true;
    }

private:
    void enumerateExecutions(ExecutionEncoding& encoding) {
        std::set<std::string> counted;  // Model::countsCoherence false: each rf and final writes once
        encoding.forEach([&](const ExecutionGraph& ex) {
            result_.completes = true;
            if (!model_.countsCoherence && !counted.insert(rfAndFinalWrites(ex)).second) return true;
            requireFixed(ex);
            auto lookup = [&](const Cond& atom) { return finalValue(test_, program_, ex, atom.loc, atom.thread); };
            if (!test_.filter || evalCondition(*test_.filter, lookup)) {
                record(ex, stateOf(ex));
                raiseFlags(ex);
                if (result_.positive + result_.negative > options_.maxExecutions)
                    throw InputError(SourceLoc{test_.file, 1, 1},
                                     "more than " + std::to_string(options_.maxExecutions) +
                                         " consistent executions; raise --max-executions");
            }
            search_.checkLimits();
            tick();
            return true;
        });
    }

    // herd7's execution where no coherence order is counted: its rf and the
    // last write of each location the test observes (its filter's included).
    std::string rfAndFinalWrites(const ExecutionGraph& ex) const {
        std::string key;
        for (int source : ex.rf) key += std::to_string(source) + ",";
        for (size_t l = 0; l < program_.observed.size(); ++l)
            if (program_.observed[l]) key += ";" + std::to_string(ex.mo[l].empty() ? -1 : ex.mo[l].back());
        return key;
    }

    // herd7's Flag lines: each flag of the model that this execution raises.
    void raiseFlags(const ExecutionGraph& ex) {
        for (const Axiom& flag : model_.flags)
            if (!result_.flags.count(flag.name) && testHolds(model_, flag, ex)) result_.flags.insert(flag.name);
    }

    void tick() {
        progress_.tick([&](double seconds) {
            const uint64_t found = result_.positive + result_.negative;
            return std::to_string(found) + (options_.mode == CheckMode::States ? " states (" : " executions (") +
                   std::to_string(ProgressLine::perSecond(found, seconds)) +
                   "/s), path combination " + std::to_string(combination_) + " of " + std::to_string(combinations_);
        });
    }

    // Each new final state once, in one search: the states of earlier path
    // combinations are excluded, and each execution found is refuted with
    // every one that ends as it does (the shown locations' last writes and
    // what the shown values depend on), so that the search meets each state
    // once or a few times, not once per execution.
    void enumerateStates(const ExecutionGraph& sk, ExecutionEncoding& encoding) {
        requireFilter(sk, encoding);
        for (const auto& [state, satisfies] : result_.states) require(encoding, !isState(sk, encoding, state));
        std::vector<int> locations;
        std::vector<Value> values;
        for (const ObservedName& n : result_.shown) {
            if (n.thread < 0) {
                locations.push_back(program_.locationIndex(n.name));
                continue;
            }
            const auto& registers = sk.registers[n.thread];
            if (auto it = registers.find(n.name); it != registers.end()) values.push_back(it->second);
        }
        encoding.forEachEnding(locations, values, [&](const ExecutionGraph& ex) {
            requireFixed(ex);
            if (FinalState state = stateOf(ex); !result_.states.count(state)) record(ex, state);
            search_.checkLimits();
            tick();
            return true;
        });
    }

    FinalState stateOf(const ExecutionGraph& ex) const {
        FinalState state;
        for (const ObservedName& n : result_.shown) state.push_back(finalValue(test_, program_, ex, n.name, n.thread));
        return state;
    }

    // One query: an execution that decides the verdict (satisfies the
    // condition of exists / ~exists, or breaks forall's). When there is none,
    // one more query on the same encoding tells whether any execution
    // completes, until one does.
    bool findDecisive(const ExecutionGraph& sk, ExecutionEncoding& encoding) {
        if (firstExecutionWhere(encoding, decisiveTerm(sk, encoding))) {
            record(encoding.current());  // counted, as herd7's -speedcheck counts the execution it stops at
            return true;
        }
        if (!result_.completes) result_.completes = anyExecution(encoding);
        return false;
    }

    z3::expr decisiveTerm(const ExecutionGraph& sk, ExecutionEncoding& encoding) const {
        return rdmacheck::decisiveTerm(ctx_, test_, program_, sk, encoding);
    }

    void record(const ExecutionGraph& ex) {
        requireFixed(ex);
        record(ex, stateOf(ex));
    }

    // A final value that a cycle of copies leaves free is herd7's symbolic
    // value, which a state of integers cannot show: refused, not guessed.
    void requireFixed(const ExecutionGraph& ex) const {
        std::vector<char> memo(ex.events.size(), 0);
        for (const ObservedName& n : valueNames_) {
            const Value* v = endingOf(program_, ex, n.name, n.thread);
            if (v && !fixedValue(ex, *v, memo))
                throw InputError(n.where, "in some execution the final value of " + n.name +
                                              " is one that a cycle of copies along rf leaves free (herd7 "
                                              "prints it symbolic, S1 say); rdmacheck's values are integers: "
                                              "not supported");
        }
    }

    void record(const ExecutionGraph& ex, const FinalState& state) {
        result_.completes = true;
        auto lookup = [&](const Cond& atom) { return finalValue(test_, program_, ex, atom.loc, atom.thread); };
        addFinalState(result_, test_, state, lookup);
        if (visit_) visit_(program_, ex, state, result_.states.at(state));
    }

    void requireFilter(const ExecutionGraph& sk, ExecutionEncoding& encoding) const {
        if (test_.filter) require(encoding, conditionTerm(sk, encoding, *test_.filter));
    }

    z3::expr conditionTerm(const ExecutionGraph& sk, const ExecutionEncoding& encoding, const Cond& c) const {
        return rdmacheck::conditionTerm(ctx_, test_, program_, sk, encoding, c);
    }

    z3::expr isState(const ExecutionGraph& sk, const ExecutionEncoding& encoding, const FinalState& state) const {
        z3::expr_vector all(ctx_);
        for (size_t i = 0; i < state.size(); ++i)
            all.push_back(nameEndsWith(ctx_, test_, program_, sk, encoding, result_.shown[i].name,
                                       result_.shown[i].thread, state[i]));
        return z3::mk_and(all);
    }

    z3::context& ctx_;
    const LitmusTest& test_;
    const UnfoldedProgram& program_;
    const Model& model_;
    const CheckOptions& options_;
    const ExecutionVisitor& visit_;
    const SkeletonSearch& search_;
    CheckResult& result_;
    ProgressLine progress_;
    uint64_t combinations_;
    uint64_t combination_ = 0;
    const std::vector<ObservedName> valueNames_;  // whose final values an execution reports or filters on

    static std::vector<ObservedName> valueNames(const LitmusTest& test, std::vector<ObservedName> shown) {
        if (test.filter) forEachAtomName(*test.filter, [&](const ObservedName& n) { shown.push_back(n); });
        return shown;
    }
};

// herd7 stops a test at a candidate execution (the filter kept, the
// model's axioms before the assertion too, cut at the unroll bound or not)
// that fails one of the model's assertions: here, a consistent execution of
// that assertion's failing model.
void checkAssertions(SolverContext& ctx, const LitmusTest& test, const UnfoldedProgram& program, const Model& model,
                     const CheckOptions& options, const ResourceGuard& guard) {
    for (size_t i = 0; i < model.assertions.size(); ++i) {
        const SkeletonSearch search(test, program, *model.failingAssertion[i], options, guard);
        bool fails = false;
        search.run(ctx, ExecutionEncoding::Mode::Consistent, nullptr,
                   [&](const PathCombination& combination, ExecutionEncoding& encoding) {
                       if (test.filter)
                           require(encoding, conditionTerm(ctx.impl().z3(), test, program, combination.skeleton,
                                                           encoding, *test.filter));
                       return !(fails = encoding.next());
                   },
                   true);
        const Axiom& a = model.assertions[i];
        if (fails)
            throw InputError(SourceLoc{test.file, 1, 1}, "a candidate execution fails the model's assertion " + a.name +
                                                             " (" + a.where.str() + "), as herd7 says: '" + a.name +
                                                             " assertion failed, check input test.'");
    }
}

}  // namespace

CheckResult check(const LitmusTest& test, const Model& model, const CheckOptions& options,
                  const ExecutionVisitor& visit) {
    const auto start = std::chrono::steady_clock::now();
    const ResourceGuard guard(test.file, options.limits);
    const UnfoldedProgram program = unfoldFor(test, model, options.unroll, options.prefixes);

    CheckResult result;
    result.test = test.name;
    result.model = model.shownName();
    result.quantifier = test.quantifier;
    result.mode = options.mode;
    result.shown = shownNames(test);

    // A visitor sees executions in the order found, and in the states and
    // speedcheck modes the one found for each state: a fresh context keeps
    // them independent of the tests checked before.
    std::optional<SolverContext> fresh;
    if (visit) fresh.emplace();
    SolverContext& ctx = visit ? *fresh : threadContext();
    checkAssertions(ctx, test, program, model, options, guard);
    const SkeletonSearch search(test, program, model, options, guard);
    DeclarativeCheck run(ctx.impl().z3(), test, program, model, options, visit, search, result);
    search.run(ctx, ExecutionEncoding::Mode::Consistent, &result,
               [&](const PathCombination& combination, ExecutionEncoding& encoding) {
                   return run.run(combination, encoding);
               });

    // The states mode searched under the filter: finding nothing there says
    // nothing of completion.
    if (!result.completes && options.mode == CheckMode::States && test.filter)
        search.run(ctx, ExecutionEncoding::Mode::Consistent, &result,
                   [&](const PathCombination&, ExecutionEncoding& encoding) {
                       result.completes = encoding.next();
                       return !result.completes;
                   });

    decideVerdict(result);
    result.undefined = result.flags.count(kUndefinedFlag) || result.flags.count(options.badFlag);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
