// What models make of the generated tests (doc/diy.md, "Maps of models"):
// diy7's relax reading of each edge, and the smallest tests two models answer
// differently.
#include <algorithm>

#include "rdmacheck/diy.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck {

bool diyAllowed(const DiyTest& test, const Model& model, const CheckOptions& options) {
    return check(parseLitmus(test.text, test.name + ".litmus"), model, options).ok;
}

std::vector<EdgeReading> relaxationMap(DiyArch arch, const Model& model, const std::vector<DiyEdge>& safe,
                                       const std::vector<DiyEdge>& candidates, int size, const CheckOptions& options) {
    std::vector<EdgeReading> out;
    for (const DiyEdge& edge : candidates) {
        EdgeReading reading;
        reading.edge = edge.name;
        size_t considered = 0;
        for (const DiyTest& test : diyTests(arch, safe, {edge}, size, considered)) {
            ++reading.tests;
            if (reading.kind != EdgeReading::Kind::Relaxed && diyAllowed(test, model, options)) {
                reading.kind = EdgeReading::Kind::Relaxed;
                reading.witness = test.name;
            }
        }
        if (reading.tests > 0 && reading.kind == EdgeReading::Kind::Untested) reading.kind = EdgeReading::Kind::Safe;
        out.push_back(reading);
    }
    return out;
}

std::vector<Distinction> distinguish(DiyArch arch, const Model& first, const Model& second,
                                     const std::vector<DiyEdge>& safe, const std::vector<DiyEdge>& relax, int size,
                                     const CheckOptions& options, size_t& checked) {
    size_t considered = 0;
    std::vector<DiyTest> tests = diyTests(arch, safe, relax, size, considered);
    std::stable_sort(tests.begin(), tests.end(), [](const DiyTest& a, const DiyTest& b) { return a.edges < b.edges; });
    std::vector<Distinction> out;
    size_t fewest = 0;  // the edges of the first test found
    for (const DiyTest& test : tests) {
        if (fewest > 0 && test.edges > fewest) break;
        ++checked;
        const bool a = diyAllowed(test, first, options), b = diyAllowed(test, second, options);
        if (a == b) continue;
        out.push_back({test, a, b});
        fewest = test.edges;
    }
    return out;
}

}  // namespace rdmacheck
