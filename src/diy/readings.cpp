// What models make of the generated tests (doc/diy.md, "Maps of models"):
// diy7's relax reading of each edge, and the smallest tests two models answer
// differently.
#include <algorithm>
#include <stdexcept>

#include "rdmacheck/diy.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck {

std::string EdgeReading::text(int size) const {
    switch (kind) {
        case Kind::Relaxed: return "relaxed: " + witness + " is allowed";
        case Kind::Safe: return "safe: " + std::to_string(tests) + (tests == 1 ? " test" : " tests") + ", none allowed";
        case Kind::Untested: break;
    }
    return "untested: in no cycle of at most " + std::to_string(size) + " edges";
}

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

namespace {

EventKind kindNamed(const std::string& name) {
    for (int k = 0; k < kCoreEventKinds; ++k)
        if (name == kindName(static_cast<EventKind>(k))) return static_cast<EventKind>(k);
    throw std::logic_error("no event kind " + name);
}

// The relax reading of one edge over Rfe, Fre, Wse.
EdgeReading readEdge(const Model& model, const DiyEdge& edge, int size, const CheckOptions& options) {
    std::vector<DiyEdge> safe;
    for (const char* name : {"Rfe", "Fre", "Wse"}) safe.push_back(*findDiyEdge(DiyArch::RDMA, name));
    return relaxationMap(DiyArch::RDMA, model, safe, {edge}, size, options).front();
}

// `model` with the table's cell for the edge's kinds unordered.
Model withoutCell(Model model, const std::string& table, const DiyEdge& edge) {
    OrderTable& t = model.tables.at(table);
    t.cells[static_cast<int>(kindNamed(edge.fromEvent))][static_cast<int>(kindNamed(edge.toEvent))] = Cell::Unordered;
    return model;
}

// Whether the pair stays ordered without its cell, and the axioms each of
// which, dropped too, lets a test relax it.
void readForced(const Model& model, const ModelLoader& load, const std::string& table, const DiyEdge& edge,
                int size, const CheckOptions& options, TableReading& cell) {
    cell.forced = readEdge(withoutCell(model, table, edge), edge, size, options).kind == EdgeReading::Kind::Safe;
    if (!cell.forced) return;
    for (const Axiom& axiom : model.axioms)
        if (readEdge(withoutCell(load({axiom.name}), table, edge), edge, size, options).kind ==
            EdgeReading::Kind::Relaxed)
            cell.forcedBy.push_back(axiom.name);
}

}  // namespace

std::vector<TableReading> readOrderTable(const Model& model, const ModelLoader& load, const std::string& table,
                                         int size, const CheckOptions& options) {
    const OrderTable& cells = model.tables.at(table);
    std::vector<TableReading> out;
    for (const std::string& a : rdmaMemoryKinds())
        for (const std::string& b : rdmaMemoryKinds())
            for (const char* place : {"d", "n"}) {
                const std::optional<DiyEdge> edge = findDiyEdge(DiyArch::RDMA, "Po" + std::string(place) + a + b);
                if (!edge) continue;  // `n` only between two operations
                const Cell cell = cells.at(kindNamed(a), kindNamed(b));
                const bool oneQueuePair = edge->fromEvent[0] == 'n' && edge->toEvent[0] == 'n' && !edge->otherNode;
                TableReading r{a, b, edge->otherNode, readEdge(model, *edge, size, options),
                               cell == Cell::Ordered || (cell == Cell::SameQueuePair && oneQueuePair), false, {}};
                if (r.tableOrders && r.reading.kind == EdgeReading::Kind::Safe) readForced(model, load, table, *edge, size, options, r);
                out.push_back(r);
            }
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
