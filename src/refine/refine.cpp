// implementation ⊆ specification on one test (doc/model-notes.md §N8).
#include <map>
#include <sstream>
#include <tuple>

#include "rdmacheck/print.hpp"
#include "rdmacheck/refine.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

namespace {

// A listing per thread, an event a line: its kind, location and value, and
// where a read reads from (an inlined implementation has hundreds of events:
// a line per thread was unreadable).
std::string describeExecution(const UnfoldedProgram& program, const LitmusTest& test, const ExecutionGraph& ex) {
    std::ostringstream out;
    auto name = [&](int e) {
        const Event& ev = ex.events[e];
        return ev.thread < 0 ? std::string("init") : test.threads[ev.thread].name + "#" + std::to_string(e);
    };
    for (size_t t = 0; t < ex.threadEvents.size(); ++t) {
        out << "    " << test.threads[t].name << ":\n";
        for (int e : ex.threadEvents[t]) {
            const Event& ev = ex.events[e];
            out << "      " << name(e) << ": " << kindName(ev.kind);
            if (ev.location >= 0) out << " " << program.locations[ev.location].name;
            if (ev.remote) out << "^" << ev.remote;
            if (isRead(ev.kind)) out << "=" << ex.readValues[e] << " (from " << name(ex.rf[e]) << ")";
            if (isWrite(ev.kind) && !isRead(ev.kind)) out << ":=" << ev.written.eval(ex.readValues);
            out << "\n";
        }
    }
    return out.str();
}

}  // namespace

namespace {

// A test lowered through the whole chain in one choice of placements.
struct Lowered {
    LitmusTest test;
    std::map<std::string, std::string> names;  // specification name -> implementation name
    std::string placement;
    std::vector<std::string> alarms;  // ImplementedTest::alarms of the chain, by their names in `test`
};

// Every lowering of `test` through chain[i..], one per combination of placements.
std::vector<Lowered> lowerAll(const Lowered& from, const std::vector<Implementation>& chain, size_t i,
                              const std::string& model) {
    if (i == chain.size()) return {from};
    std::vector<Lowered> out;
    for (size_t p = 0; p < placementCount(from.test, chain[i]); ++p) {
        ImplementedTest step = implement(from.test, chain[i], model, p);
        Lowered next{std::move(step.test), from.names, from.placement, from.alarms};
        for (auto& [spec, current] : next.names) current = step.names.at(current);
        for (std::string& alarm : next.alarms) alarm = step.names.at(alarm);
        next.alarms.insert(next.alarms.end(), step.alarms.begin(), step.alarms.end());
        if (!step.placement.empty()) next.placement += (next.placement.empty() ? "" : ", ") + step.placement;
        for (Lowered& l : lowerAll(next, chain, i + 1, step.model)) out.push_back(std::move(l));
    }
    return out;
}

// The first alarm of the chain that `ex` sets, or "".
std::string alarmSet(const Lowered& lowered, const UnfoldedProgram& program, const ExecutionGraph& ex) {
    for (const std::string& alarm : lowered.alarms)
        if (finalValue(lowered.test, program, ex, alarm, -1) != 0) return alarm;
    return "";
}

// Keeps under `key` the least counterexample by (outcome, execution text);
// the text is written only for an execution whose outcome can win.
template <class Key>
void keepLeast(std::map<Key, Counterexample>& kept, const Key& key, Counterexample c, const UnfoldedProgram& program,
               const LitmusTest& test, const ExecutionGraph& ex) {
    auto it = kept.find(key);
    if (it != kept.end() && it->second.outcome < c.outcome) return;
    c.execution = describeExecution(program, test, ex);
    if (it == kept.end()) {
        kept.emplace(key, std::move(c));
    } else if (std::tie(c.outcome, c.execution) < std::tie(it->second.outcome, it->second.execution)) {
        it->second = std::move(c);
    }
}

}  // namespace

std::vector<RefinementResult> checkRefinement(const LitmusTest& test, const std::vector<Implementation>& chain,
                                              const Model& specModel, const Model& implModel,
                                              const CheckOptions& options) {
    if (test.arch != Arch::Rdma)
        throw InputError(SourceLoc{test.file, 1, 1}, "refine inlines RDMA libraries; an X86 test has none to inline");
    Lowered start{test, {}, "", {}};
    UnfoldOptions unfoldOptions;
    unfoldOptions.unroll = 0;  // only the names are wanted
    for (const Location& l : unfold(test, unfoldOptions).locations)
        if (!l.hidden) start.names[l.name] = l.name;
    const std::vector<Lowered> lowerings = lowerAll(start, chain, 0, specModel.name);

    std::vector<ObservedName> names;
    for (const auto& [spec, impl] : start.names) names.push_back(ObservedName{spec, -1, SourceLoc{}});
    std::set<FinalState> specOutcomes;
    const CheckResult spec = check(
        test, specModel, options, [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
            FinalState state;
            for (const ObservedName& n : names) state.push_back(finalValue(test, program, ex, n.name, -1));
            specOutcomes.insert(state);
        });
    std::vector<RefinementResult> results;
    for (const Lowered& lowered : lowerings) {
        // One counterexample per alarm and per outcome the specification
        // forbids (without an alarm), each the least such execution by outcome,
        // then text: the report does not depend on the order the solver finds
        // executions in.
        std::map<std::string, Counterexample> alarms;
        std::map<FinalState, Counterexample> forbidden;
        RefinementResult r{test.name, specModel.name, implModel.name, names, specOutcomes, {}, {}, spec.cutLoops,
                           printLitmus(lowered.test), lowered.placement};
        const CheckResult implResult =
            check(lowered.test, implModel, options,
                  [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
                      FinalState state;
                      for (const ObservedName& n : names)
                          state.push_back(finalValue(lowered.test, program, ex, lowered.names.at(n.name), -1));
                      r.implOutcomes.insert(state);
                      const std::string alarm = alarmSet(lowered, program, ex);
                      if (!alarm.empty()) {
                          keepLeast(alarms, alarm, Counterexample{state, "", alarm}, program, lowered.test, ex);
                      } else if (!r.specOutcomes.count(state)) {
                          keepLeast(forbidden, state, Counterexample{state, "", ""}, program, lowered.test, ex);
                      }
                  });
        for (auto& [alarm, c] : alarms) r.counterexamples.push_back(std::move(c));
        for (auto& [state, c] : forbidden) r.counterexamples.push_back(std::move(c));
        r.cutLoops.insert(r.cutLoops.end(), implResult.cutLoops.begin(), implResult.cutLoops.end());
        results.push_back(std::move(r));
    }
    return results;
}

}  // namespace rdmacheck
