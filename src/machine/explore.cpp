#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <stdexcept>
#include <unordered_set>

#include "program.hpp"
#include "rdmacheck/arith.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/progress.hpp"
#include "record.hpp"
#include "rules.hpp"
#include "search.hpp"

namespace rdmacheck {

const char* machineName(MachineKind kind) { return kind == MachineKind::Concrete ? "concrete" : "simplified"; }

namespace machine {

namespace {

// Where each shown name sits in an Outcome.
class OutcomeLayout {
public:
    OutcomeLayout(const LitmusTest& test, const Program& program) : test_(test), program_(program) {
        size_t offset = program.locations.size();
        for (const auto& t : program.threads) {
            registerOffset_.push_back(offset);
            offset += t.registers.size();
        }
    }

    long long value(const Outcome& o, const std::string& name, int thread) const {
        if (thread < 0) {
            for (size_t l = 0; l < program_.locations.size(); ++l)
                if (program_.locations[l].name == name && !program_.locations[l].hidden) return o[l];
            throw std::logic_error("machine: unknown location " + name);
        }
        const auto& regs = program_.threads[thread].registers;
        for (size_t r = 0; r < regs.size(); ++r)
            if (regs[r] == name) return o[registerOffset_[thread] + r];
        return initialRegisterValue(test_, thread, name);
    }

    long long value(const Outcome& o, const Cond& atom) const { return value(o, atom.loc, atom.thread); }

    // The test's filter keeps the outcome (or it has none).
    bool kept(const Outcome& o) const {
        return !test_.filter || evalCondition(*test_.filter, [&](const Cond& atom) { return value(o, atom); });
    }

private:
    const LitmusTest& test_;
    const Program& program_;
    std::vector<size_t> registerOffset_;
};

}  // namespace

Outcome outcomeOf(const State& s) {
    Outcome o = s.memory;
    for (const auto& t : s.threads) o.insert(o.end(), t.registers.begin(), t.registers.end());
    return o;
}

std::optional<Outcome> outcomeAtEnd(const State& s, const Rules& rules, const Program& program,
                                    const LitmusTest& test, CheckResult& result) {
    if (rules.isFinal(s)) {
        const bool cut = std::any_of(s.threads.begin(), s.threads.end(), [](const auto& t) { return t.cutAt >= 0; });
        if (!cut) return outcomeOf(s);
        // As herd7, a run the filter drops does not mark the verdict when the bound cut it.
        if (!OutcomeLayout(test, program).kept(outcomeOf(s))) return std::nullopt;
        for (size_t t = 0; t < s.threads.size(); ++t)
            if (s.threads[t].cutAt >= 0) noteCutLoop(result, program.threads[t].code[s.threads[t].cutAt].where);
    } else if (rules.programsDone(s)) {
        // §7: a drained program can always flush; being stuck here is a bug.
        throw std::logic_error("machine: stuck configuration with every program done in " + test.name);
    }
    return std::nullopt;
}

void checkStates(uint64_t states, const MachineOptions& options, const LitmusTest& test) {
    if (states > options.maxStates)
        throw InputError(SourceLoc{test.file, 1, 1}, "more than " + std::to_string(options.maxStates) +
                                                         " machine states; raise --max-states or use the "
                                                         "declarative engine");
}

namespace {

// How each visited state was first reached, kept when runs are recorded: the
// node of the state it came from and its place among that state's successors,
// 8 bytes a state, instead of the run itself.
class RunTree {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    uint32_t add(uint32_t parent, size_t successor) {
        nodes_.push_back({parent, static_cast<uint32_t>(successor)});
        return static_cast<uint32_t>(nodes_.size() - 1);
    }

    // The successor indices that lead from the initial state to node.
    Path path(uint32_t node) const {
        Path steps;
        for (; nodes_[node].first != kNone; node = nodes_[node].first) steps.push_back(nodes_[node].second);
        return {steps.rbegin(), steps.rend()};
    }

private:
    std::vector<std::pair<uint32_t, uint32_t>> nodes_;
};

// The depth-first search over hashed configurations: every interleaving.
class StateSearch {
public:
    StateSearch(const LitmusTest& test, const Program& program, const Rules& rules, const MachineOptions& options,
                bool keepPaths, CheckResult& result)
        : test_(test), program_(program), rules_(rules), options_(options), keepPaths_(keepPaths), result_(result) {}

    Reached run() {
        State initial = rules_.initial();
        markVisited(initial);
        push(std::move(initial), RunTree::kNone, 0);
        ProgressLine progress(test_.name, options_.progress);
        const ResourceGuard guard(test_.file, options_.limits);
        while (!pending_.empty()) {
            guard.check();
            State s = std::move(pending_.back());
            pending_.pop_back();
            uint32_t node = 0;
            if (keepPaths_) {
                node = pendingNodes_.back();
                pendingNodes_.pop_back();
            }
            expand(s, node);
            if ((visited_.size() & 0x3fff) == 0)  // reading the clock every state would cost
                progress.tick([&](double seconds) {
                    return std::to_string(visited_.size()) + " states, " +
                           std::to_string(ProgressLine::perSecond(visited_.size(), seconds)) +
                           " states/s, " + std::to_string(pending_.size()) + " to visit";
                });
        }
        Reached reached;
        for (const auto& [outcome, node] : outcomes_)
            reached.outcomes.emplace(outcome, keepPaths_ ? tree_.path(node) : Path{});
        reached.states = visited_.size();
        return reached;
    }

private:
    void expand(const State& s, uint32_t node) {
        successors_.clear();
        applyRules(test_, [&] { rules_.successors(s, successors_); });
        if (successors_.empty()) {
            if (auto o = outcomeAtEnd(s, rules_, program_, test_, result_)) outcomes_.try_emplace(*o, node);
            return;
        }
        for (size_t k = 0; k < successors_.size(); ++k) {
            if (!markVisited(successors_[k])) continue;
            checkStates(visited_.size(), options_, test_);
            push(std::move(successors_[k]), node, k);
        }
    }

    // Whether s is new; it is visited from now on.
    bool markVisited(const State& s) {
        key_.clear();
        encodeState(s, key_);
        return visited_.insert(key_).second;
    }

    // s is to be expanded; it is successor number `successor` of the state at tree node parent.
    void push(State&& s, uint32_t parent, size_t successor) {
        pending_.push_back(std::move(s));
        if (keepPaths_) pendingNodes_.push_back(tree_.add(parent, successor));
    }

    const LitmusTest& test_;
    const Program& program_;
    const Rules& rules_;
    const MachineOptions& options_;
    const bool keepPaths_;
    CheckResult& result_;
    std::map<Outcome, uint32_t> outcomes_;  // the first run to reach each stays
    std::unordered_set<std::string> visited_;
    std::vector<State> pending_;
    std::vector<uint32_t> pendingNodes_;  // keeping paths: each pending state's node
    RunTree tree_;
    std::vector<State> successors_;
    std::string key_;
};

}  // namespace

Reached searchStates(const LitmusTest& test, const Program& program, const Rules& rules,
                     const MachineOptions& options, bool keepPaths, CheckResult& result) {
    return StateSearch(test, program, rules, options, keepPaths, result).run();
}

}  // namespace machine

namespace {

using machine::Outcome;
using machine::OutcomeLayout;
using machine::Path;
using machine::Program;
using machine::Rules;
using machine::RunRecord;
using machine::State;


// Remote RMWs have rules on the simplified machine of a model with remote atomics only (§6).
void checkMachineSupports(const Program& program, const Model& model, const MachineParams& params, MachineKind kind) {
    for (const auto& thread : program.threads) {
        for (const machine::Instr& in : thread.code) {
            if (in.op != machine::Instr::Op::RCas && in.op != machine::Instr::Op::RFaa) continue;
            if (!params.remoteAtomics)
                throw InputError(in.where, "the machine of model '" + model.name +
                                               "' has no remote RMW rules (RMW App. D.1); use the model "
                                               "rdma-tso-rmw");
            if (kind == MachineKind::Concrete)
                throw InputError(in.where, "the concrete machine has no remote RMW rules (RMW App. D.1); use "
                                           "--machine simplified");
        }
    }
}

// Takes the steps of path again on rules that record (their successors come
// in the same order), and returns the run's execution graph;
// the search's run ended in a final state with outcome o.
ExecutionGraph replay(const Rules& recording, const Program& program, const Model& model, const Path& path,
                      const Outcome& o) {
    State s = recording.initial();
    std::vector<RunRecord> records;
    std::vector<State> successors;
    for (uint32_t k : path) {
        s.tracking->records.clear();  // each state's records are those of the step into it
        successors.clear();
        recording.successors(s, successors);
        s = std::move(successors.at(k));
        records.insert(records.end(), s.tracking->records.begin(), s.tracking->records.end());
    }
    if (!recording.isFinal(s) || machine::outcomeOf(s) != o)
        throw std::logic_error("machine: a replayed run ends elsewhere than the search's");
    return machine::recordedExecution(program, records, s, model);
}

}  // namespace

CheckResult explore(const LitmusTest& test, const Model& model, const MachineOptions& options,
                    const ExecutionVisitor& visit) {
    const auto start = std::chrono::steady_clock::now();
    const MachineParams& params = machineFor(model, SourceLoc{test.file, 1, 1});
    const UnfoldedProgram unfolded = unfoldFor(test, model, options.unroll);  // validates the program
    const Program program = machine::compile(test, unfolded);
    const MachineKind kind =
        options.kind.value_or(params.remoteAtomics ? MachineKind::Simplified : MachineKind::Concrete);
    checkMachineSupports(program, model, params, kind);
    Rules rules(program, params, kind, options.unroll);
    rules.mutate(options.mutant);

    CheckResult result;
    result.test = test.name;
    result.model = model.name;
    result.engine = params.family == MachineFamily::Sequential ? "sequential" : machineName(kind);
    result.quantifier = test.quantifier;
    result.shown = shownNames(test);

    const machine::Reached reached =
        options.reduce ? machine::searchTraces(test, program, rules, options, result)
                       : machine::searchStates(test, program, rules, options, visit != nullptr, result);
    result.completes = !reached.outcomes.empty();
    const Rules recording(program, params, kind, options.unroll, true);
    const OutcomeLayout layout(test, program);
    for (const auto& [outcome, path] : reached.outcomes) {
        const Outcome& o = outcome;  // a lambda may not capture a structured binding (C++17)
        if (!layout.kept(o)) continue;
        auto lookup = [&](const Cond& atom) { return layout.value(o, atom); };
        FinalState state;
        for (const ObservedName& n : result.shown) state.push_back(layout.value(o, n.name, n.thread));
        addFinalState(result, test, state, lookup);
        if (!visit) continue;
        visit(unfolded, replay(recording, program, model, path, o), state, result.states.at(state));
    }
    decideVerdict(result);
    result.machineStates = reached.states;
    result.machineRuns = reached.runs;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
