// What models make of the generated tests (doc/diy.md, "Maps of models"):
// diy7's relax reading of each edge, and the smallest tests two models answer
// differently.
#include <algorithm>
#include <stdexcept>

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
        DiyCount count;
        for (const DiyTest& test : diyTests(arch, safe, {edge}, size, count)) {
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

std::vector<TableReading> readOrderTable(const Model& model, const OrderTable& table, int size,
                                         const CheckOptions& options) {
    static const char* const kinds[] = {"lR", "lW", "nlR", "nrW", "nrR", "nlW"};
    auto kindNamed = [](const std::string& name) {
        for (int k = 0; k < kCoreEventKinds; ++k)
            if (name == kindName(static_cast<EventKind>(k))) return static_cast<EventKind>(k);
        throw std::logic_error("no event kind " + name);
    };
    std::vector<TableReading> out;
    std::vector<DiyEdge> edges;
    for (const char* a : kinds)
        for (const char* b : kinds)
            for (const char* place : {"d", "n"}) {
                const std::optional<DiyEdge> edge = findDiyEdge(DiyArch::RDMA, std::string("Po") + place + a + b);
                if (!edge) continue;  // `n` only between two operations
                const Cell cell = table.at(kindNamed(a), kindNamed(b));
                const bool twoQueuePairs = edge->otherNode;
                const bool oneQueuePair = edge->fromEvent[0] == 'n' && edge->toEvent[0] == 'n' && !twoQueuePairs;
                out.push_back({a, b, twoQueuePairs, {},
                               cell == Cell::Ordered || (cell == Cell::SameQueuePair && oneQueuePair)});
                edges.push_back(*edge);
            }
    std::vector<DiyEdge> safe;
    for (const char* name : {"Rfe", "Fre", "Wse"}) safe.push_back(*findDiyEdge(DiyArch::RDMA, name));
    const std::vector<EdgeReading> readings = relaxationMap(DiyArch::RDMA, model, safe, edges, size, options);
    for (size_t i = 0; i < out.size(); ++i) out[i].reading = readings[i];
    return out;
}

std::vector<Distinction> distinguish(DiyArch arch, const Model& first, const Model& second,
                                     const std::vector<DiyEdge>& safe, const std::vector<DiyEdge>& relax, int size,
                                     const CheckOptions& options, size_t& checked) {
    DiyCount count;
    std::vector<DiyTest> tests = diyTests(arch, safe, relax, size, count);
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
