#include <chrono>
#include <iostream>
#include <set>
#include <stdexcept>
#include <unordered_set>

#include "program.hpp"
#include "rdmacheck/arith.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/machine.hpp"
#include "rules.hpp"

namespace rdmacheck {

using machine::Program;
using machine::Rules;
using machine::State;

const char* machineName(MachineKind kind) { return kind == MachineKind::Concrete ? "concrete" : "simplified"; }

namespace {

// A final memory: every location's value, then every thread's registers.
using Outcome = std::vector<long long>;

Outcome outcomeOf(const State& s) {
    Outcome o = s.memory;
    for (const auto& t : s.threads) o.insert(o.end(), t.registers.begin(), t.registers.end());
    return o;
}

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
        auto init = test_.registerInit.find(std::to_string(thread) + ":" + name);
        return init == test_.registerInit.end() ? 0 : init->second;
    }

private:
    const LitmusTest& test_;
    const Program& program_;
    std::vector<size_t> registerOffset_;
};

class Progress {
public:
    Progress(const std::string& test, bool enabled) : test_(test), enabled_(enabled) {}

    void tick(uint64_t states, size_t pending) {
        if (!enabled_ || (states & 0x3fff) != 0) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::seconds(1)) return;
        last_ = now;
        const double elapsed = std::chrono::duration<double>(now - start_).count();
        std::cerr << "rdmacheck: " << test_ << ": " << states << " states, "
                  << static_cast<uint64_t>(static_cast<double>(states) / elapsed) << " states/s, " << pending
                  << " to visit\n";
    }

private:
    std::string test_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_ = start_;
};

// Remote RMWs have rules on the simplified machine of a model with remote atomics only (§6).
void checkMachineSupports(const Program& program, const Model& model, const MachineParams& params, MachineKind kind) {
    for (const auto& thread : program.threads) {
        for (const machine::Instr& in : thread.code) {
            if (in.op != machine::Instr::Op::RCas && in.op != machine::Instr::Op::RFaa) continue;
            if (!params.remoteAtomics)
                throw InputError(in.where, "the machine of model '" + model.name +
                                               "' has no remote RMW rules (OPERATIONAL.md §6); use the model "
                                               "rdma-tso-rmw");
            if (kind == MachineKind::Concrete)
                throw InputError(in.where, "the concrete machine has no remote RMW rules (OPERATIONAL.md §6); use "
                                           "--machine simplified");
        }
    }
}

}  // namespace

CheckResult explore(const LitmusTest& test, const Model& model, const MachineOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    const MachineParams& params = machineFor(model);
    UnfoldOptions unfoldOptions;
    unfoldOptions.unroll = options.unroll;
    const UnfoldedProgram unfolded = unfold(test, unfoldOptions);  // validates the program
    checkModelSupports(unfolded, model);
    const Program program = machine::compile(test, unfolded);
    const MachineKind kind =
        options.kind.value_or(params.remoteAtomics ? MachineKind::Simplified : MachineKind::Concrete);
    checkMachineSupports(program, model, params, kind);
    const Rules rules(program, params, kind, options.unroll, options.reduce);

    CheckResult result;
    result.test = test.name;
    result.model = model.name;
    result.engine = params.family == MachineFamily::Sequential ? "sequential" : machineName(kind);
    result.quantifier = test.quantifier;
    result.shown = shownNames(test);

    std::set<Outcome> outcomes;
    std::unordered_set<std::string> visited;
    std::vector<State> pending{rules.initial()};
    std::vector<State> successors;
    std::string key;
    encodeState(pending.back(), key);
    visited.insert(key);
    Progress progress(test.name, options.progress);
    const ResourceGuard guard(test.file, options.limits);
    while (!pending.empty()) {
        guard.check();
        State s = std::move(pending.back());
        pending.pop_back();
        successors.clear();
        try {
            rules.successors(s, successors);
        } catch (const ArithmeticOverflow& e) {  // a remote fetch-and-add, whose statement the NIC forgot
            throw InputError(SourceLoc{test.file, 1, 1}, e.what());
        }
        if (successors.empty()) {
            if (rules.isFinal(s)) {
                bool cut = false;
                for (size_t t = 0; t < s.threads.size(); ++t) {
                    if (s.threads[t].cutAt >= 0) {
                        noteCutLoop(result, program.threads[t].code[s.threads[t].cutAt].where);
                        cut = true;
                    }
                }
                if (!cut) outcomes.insert(outcomeOf(s));
            } else if (rules.programsDone(s)) {
                // §7: a drained program can always flush; being stuck here is a bug.
                throw std::logic_error("machine: stuck configuration with every program done in " + test.name);
            }
            continue;  // a blocked run (failed assume, poll with nothing to poll): no outcome
        }
        for (State& n : successors) {
            key.clear();
            encodeState(n, key);
            if (!visited.insert(key).second) continue;
            if (visited.size() > options.maxStates)
                throw InputError(SourceLoc{test.file, 1, 1},
                                 "more than " + std::to_string(options.maxStates) +
                                     " machine states; raise --max-states or use the declarative engine");
            pending.push_back(std::move(n));
        }
        progress.tick(visited.size(), pending.size());
    }

    const OutcomeLayout layout(test, program);
    for (const Outcome& o : outcomes) {
        auto lookup = [&](const Cond& atom) { return layout.value(o, atom.loc, atom.thread); };
        if (test.filter && !evalCondition(*test.filter, lookup)) continue;
        FinalState state;
        for (const ObservedName& n : result.shown) state.push_back(layout.value(o, n.name, n.thread));
        addFinalState(result, test, state, lookup);
    }
    decideVerdict(result);
    result.machineStates = visited.size();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rdmacheck
