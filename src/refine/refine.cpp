// implementation ⊆ specification on one test (MOWGLI.md §12).
#include <sstream>

#include "rdmacheck/print.hpp"
#include "rdmacheck/refine.hpp"

namespace rdmacheck {

namespace {

// One line per thread: each event with its location and value, and where a read reads from.
std::string describeExecution(const UnfoldedProgram& program, const LitmusTest& test, const ExecutionGraph& ex) {
    std::ostringstream out;
    auto name = [&](int e) {
        const Event& ev = ex.events[e];
        return ev.thread < 0 ? std::string("init") : test.threads[ev.thread].name + "#" + std::to_string(e);
    };
    for (size_t t = 0; t < ex.threadEvents.size(); ++t) {
        out << "    " << test.threads[t].name << ":";
        for (int e : ex.threadEvents[t]) {
            const Event& ev = ex.events[e];
            out << " " << name(e) << ":" << kindName(ev.kind);
            if (ev.location >= 0) out << " " << program.locations[ev.location].name;
            if (ev.remote) out << "^" << ev.remote;
            if (isRead(ev.kind)) out << "=" << ex.readValues[e] << " (from " << name(ex.rf[e]) << ")";
            if (isWrite(ev.kind) && !isRead(ev.kind)) out << ":=" << ev.written.eval(ex.readValues);
            out << ";";
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace

RefinementResult checkRefinement(const LitmusTest& test, const std::vector<Implementation>& chain,
                                 const Model& specModel, const Model& implModel, const CheckOptions& options) {
    if (test.arch != Arch::Rdma)
        throw InputError(SourceLoc{test.file, 1, 1}, "refine inlines RDMA libraries; an X86 test has none to inline");
    RefinementResult r;
    r.test = test.name;
    r.specModel = specModel.name;
    r.implModel = implModel.name;

    // Inline the chain, composing the name maps.
    LitmusTest lowered = test;
    std::map<std::string, std::string> names;
    bool first = true;
    std::string model = specModel.name;
    for (Implementation impl : chain) {
        ImplementedTest step = implement(lowered, impl, model);
        if (first) {
            names = step.names;
            first = false;
        } else {
            for (auto& [spec, current] : names) current = step.names.at(current);
        }
        lowered = std::move(step.test);
        model = step.model;
    }
    r.implementationText = printLitmus(lowered);
    for (const auto& [spec, impl] : names) r.names.push_back(ObservedName{spec, -1, SourceLoc{}});

    const CheckResult spec = check(
        test, specModel, options, [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
            FinalState state;
            for (const auto& [name, impl] : names) state.push_back(finalValue(test, program, ex, name, -1));
            r.specOutcomes.insert(state);
        });
    const CheckResult implResult =
        check(lowered, implModel, options,
              [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
                  FinalState state;
                  for (const auto& [name, impl] : names) state.push_back(finalValue(lowered, program, ex, impl, -1));
                  if (r.implOutcomes.insert(state).second && !r.specOutcomes.count(state))
                      r.counterexamples.push_back(Counterexample{state, describeExecution(program, lowered, ex)});
              });
    r.cutLoops = spec.cutLoops;
    r.cutLoops.insert(r.cutLoops.end(), implResult.cutLoops.begin(), implResult.cutLoops.end());
    return r;
}

}  // namespace rdmacheck
