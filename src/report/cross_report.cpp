#include "rdmacheck/cross_report.hpp"

#include <sstream>

#include "rdmacheck/names.hpp"

namespace rdmacheck {

std::string differenceText(const std::string& testName, const Difference& d) {
    std::ostringstream out;
    out << "DIFF " << testName << ": " << d.first.label() << " and " << d.second.label() << " differ\n";
    for (const FinalState& s : d.onlyFirst) out << "  only " << d.first.label() << ": " << stateLine(d.names, s) << "\n";
    for (const FinalState& s : d.onlySecond) out << "  only " << d.second.label() << ": " << stateLine(d.names, s) << "\n";
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
            << stateLine(r.names, c.outcome) << "\n"
            << "  implementation execution:\n" << c.execution;
    for (const SourceLoc& loop : r.cutLoops)
        out << "Warning: " << loop.str() << ": loop unrolled to the bound; outcomes past it are not compared\n";
    if (printImplementation) out << r.implementationText;
}

}  // namespace rdmacheck
