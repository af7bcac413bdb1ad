#include "rdmacheck/explain_report.hpp"

namespace rdmacheck {

namespace {

// An X86 test's cycles are written in herd7's notation.
const std::vector<std::string>* x86Addresses(const LitmusTest& test) {
    return test.arch == Arch::X86 ? &test.addresses : nullptr;
}

}  // namespace

nlohmann::json explanationJson(const LitmusTest& test, const std::string& model, const ExplainResult& x) {
    nlohmann::json record{{"test", test.name}, {"model", model}, {"outcome", x.outcome},
                          {"forbidden", x.applicable}, {"candidates", x.candidates}, {"truncated", x.truncated},
                          {"shown", nlohmann::json::array()}};
    const std::vector<ObservedName> shown = shownNames(test);
    for (const Explanation& e : x.shown) {
        nlohmann::json candidate{{"state", stateLine(shown, e.state, test.addresses)}, {"cycles", nlohmann::json::array()}};
        for (size_t i = 0; i < e.cycles.size(); ++i)
            candidate["cycles"].push_back({{"choice", choiceText(e.executions[i])},
                                           {"axiom", e.cycles[i].axiom},
                                           {"cycle", cycleText(e.executions[i], x.locations, e.cycles[i], x86Addresses(test))}});
        record["shown"].push_back(candidate);
    }
    return record;
}

void printExplanation(std::ostream& out, const LitmusTest& test, const std::string& model, const ExplainResult& x) {
    if (!x.applicable) {
        out << "Explanation " << test.name << ": some consistent execution reaches " << x.outcome
            << "; nothing is forbidden\n\n";
        return;
    }
    out << "Explanation " << test.name << ": " << x.candidates << (x.truncated ? "+" : "")
        << " candidate execution(s) reach " << x.outcome << "; none is consistent under " << model << "\n";
    const std::vector<ObservedName> shown = shownNames(test);
    int k = 0;
    for (const Explanation& e : x.shown) {
        out << "Candidate " << ++k << ": " << stateLine(shown, e.state, test.addresses) << "\n";
        for (size_t i = 0; i < e.cycles.size(); ++i) {
            const std::string choice = choiceText(e.executions[i]);
            out << "  " << (choice.empty() ? "" : "with " + choice + ": ") << "cycle breaks " << e.cycles[i].axiom
                << ": " << cycleText(e.executions[i], x.locations, e.cycles[i], x86Addresses(test)) << "\n";
        }
    }
    if (x.shown.size() < x.candidates) out << "(" << x.candidates - x.shown.size() << " more candidates not shown)\n";
    out << "\n";
}

}  // namespace rdmacheck
