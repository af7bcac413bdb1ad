// What models make of the generated tests (doc/diy.md, "Maps of models"):
// diy7's relax reading of each edge, and the smallest tests two models answer
// differently.
#include <algorithm>

#include "rdmacheck/diy.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck {

DiyCheck checkDiyTest(const std::vector<DiyEdge>& cycle, const Model& model, const CheckOptions& options) {
    std::string why;
    DiyCheck out;
    out.test = *diyTest(cycle, why);
    out.edges = cycle.size();
    out.allowed = check(parseLitmus(out.test.text, out.test.name + ".litmus"), model, options).ok;
    return out;
}

std::vector<EdgeReading> relaxationMap(const Model& model, const std::vector<DiyEdge>& safe,
                                       const std::vector<DiyEdge>& candidates, int size, const CheckOptions& options) {
    std::vector<EdgeReading> out;
    for (const DiyEdge& edge : candidates) {
        EdgeReading reading;
        reading.edge = edge.name;
        size_t considered = 0;
        for (const std::vector<DiyEdge>& cycle : diyCycles(safe, {edge}, size, considered)) {
            ++reading.tests;
            const DiyCheck c = checkDiyTest(cycle, model, options);
            if (c.allowed && reading.kind != EdgeReading::Kind::Relaxed) {
                reading.kind = EdgeReading::Kind::Relaxed;
                reading.witness = c.test.name;
            }
        }
        if (reading.tests > 0 && reading.kind == EdgeReading::Kind::Untested) reading.kind = EdgeReading::Kind::Safe;
        out.push_back(reading);
    }
    return out;
}

std::vector<Distinction> distinguish(const Model& first, const Model& second, const std::vector<DiyEdge>& safe,
                                     const std::vector<DiyEdge>& relax, int size, const CheckOptions& options,
                                     size_t& checked) {
    size_t considered = 0;
    std::vector<std::vector<DiyEdge>> cycles = diyCycles(safe, relax, size, considered);
    std::stable_sort(cycles.begin(), cycles.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
    std::vector<Distinction> out;
    size_t fewest = 0;  // the edges of the first test found
    for (const std::vector<DiyEdge>& cycle : cycles) {
        if (fewest > 0 && cycle.size() > fewest) break;
        ++checked;
        const DiyCheck a = checkDiyTest(cycle, first, options), b = checkDiyTest(cycle, second, options);
        if (a.allowed == b.allowed) continue;
        out.push_back({a.test, a.allowed, b.allowed});
        fewest = cycle.size();
    }
    return out;
}

}  // namespace rdmacheck
