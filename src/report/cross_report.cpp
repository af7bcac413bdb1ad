#include "rdmacheck/cross_report.hpp"

#include <sstream>

#include "rdmacheck/names.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck {

namespace {
const char* const kRefineCut = "loop unrolled to the bound; outcomes past it are not compared";
// refine reads RDMA tests only, whose values are numbers.
const std::vector<std::string> kRdmaAddresses;
}  // namespace

std::string differenceText(const std::string& testName, const Difference& d) {
    std::ostringstream out;
    out << "DIFF " << testName << ": " << d.first.label() << " and " << d.second.label() << " differ\n";
    for (const FinalState& s : d.onlyFirst) out << "  only " << d.first.label() << ": " << stateLine(d.names, s, d.addresses) << "\n";
    for (const FinalState& s : d.onlySecond) out << "  only " << d.second.label() << ": " << stateLine(d.names, s, d.addresses) << "\n";
    if (!d.reproducer.empty()) {
        out << "  reproducer:\n";
        std::istringstream lines(d.reproducer);
        for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
    }
    return out.str();
}

void printRefinement(std::ostream& out, const std::string& implementations, const RefinementResult& r,
                     bool printImplementation) {
    out << "Refine " << r.test << " " << implementations << (r.placement.empty() ? "" : " [" + r.placement + "]")
        << ": specification " << r.specModel << " " << r.specOutcomes.size() << " outcomes, implementation "
        << r.implModel << " " << r.implOutcomes.size()
        << " outcomes: " << (r.ok() ? "Ok (implementation ⊆ specification)" : "No") << "\n";
    for (const Counterexample& c : r.counterexamples)
        out << (c.alarm.empty() ? "  not allowed by the specification: "
                                : "  implementation check failed (" + c.alarm + " set): ")
            << stateLine(r.names, c.outcome, kRdmaAddresses) << "\n"
            << "  implementation execution:\n" << c.execution;
    for (const SourceLoc& loop : r.cutLoops)
        out << "Warning: " << loop.str() << ": " << kRefineCut << "\n";
    if (printImplementation) out << r.implementationText;
}

namespace {

nlohmann::json stateLines(const std::vector<ObservedName>& names, const std::vector<FinalState>& states,
                          const std::vector<std::string>& addresses) {
    nlohmann::json out = nlohmann::json::array();
    for (const FinalState& s : states) out.push_back(stateLine(names, s, addresses));
    return out;
}

nlohmann::json record(const char* type, const LitmusTest& test) {
    return {{"schema", kJsonSchema}, {"type", type}, {"version", RDMACHECK_VERSION}, {"test", test.name},
            {"file", test.file}};
}

}  // namespace

nlohmann::json differenceJson(const LitmusTest& test, const Difference& d) {
    nlohmann::json j = record("difference", test);
    j["first"] = d.first.label();
    j["second"] = d.second.label();
    j["only_first"] = stateLines(d.names, d.onlyFirst, d.addresses);
    j["only_second"] = stateLines(d.names, d.onlySecond, d.addresses);
    if (!d.reproducer.empty()) j["reproducer"] = d.reproducer;
    return j;
}

nlohmann::json refinementJson(const LitmusTest& test, const std::string& implementations, const RefinementResult& r,
                              bool withImplementation) {
    nlohmann::json j = record("refinement", test);
    j["implementations"] = implementations;
    j["placement"] = r.placement;
    j["spec_model"] = r.specModel;
    j["impl_model"] = r.implModel;
    j["spec_outcomes"] = stateLines(r.names, {r.specOutcomes.begin(), r.specOutcomes.end()}, kRdmaAddresses);
    j["impl_outcomes"] = stateLines(r.names, {r.implOutcomes.begin(), r.implOutcomes.end()}, kRdmaAddresses);
    j["ok"] = r.ok();
    j["counterexamples"] = nlohmann::json::array();
    for (const Counterexample& c : r.counterexamples) {
        nlohmann::json one = {{"outcome", stateLine(r.names, c.outcome, kRdmaAddresses)}, {"execution", c.execution}};
        if (!c.alarm.empty()) one["alarm"] = c.alarm;
        j["counterexamples"].push_back(std::move(one));
    }
    j["warnings"] = cutLoopWarnings(r.cutLoops, kRefineCut);
    if (withImplementation) j["implementation"] = r.implementationText;
    return j;
}

}  // namespace rdmacheck
