// What models make of the generated tests (doc/diy.md, "Maps of models"):
// diy7's relax reading of each edge, and the smallest tests two models answer
// differently.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

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
                                       const std::vector<DiyEdge>& candidates, int size, DiyMode mode,
                                       const CheckOptions& options) {
    std::vector<EdgeReading> out;
    for (const DiyEdge& edge : candidates) {
        EdgeReading reading;
        reading.edge = edge.name;
        DiyCount count;
        for (const DiyTest& test : diyTests(arch, safe, {edge}, size, mode, count)) {
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

// The relax reading of one edge over Rfe, Fre, Wse. The cycles the tables
// need (the edge once, between external ones) are kept in every mode.
EdgeReading readEdge(const Model& model, const DiyEdge& edge, int size, const CheckOptions& options) {
    std::vector<DiyEdge> safe;
    for (const char* name : {"Rfe", "Fre", "Wse"}) safe.push_back(*findDiyEdge(DiyArch::RDMA, name));
    // An edge to or from a CAS's half takes Rmw too, which joins the halves.
    if (edge.fromEvent[0] == 'a' || edge.toEvent[0] == 'a') safe.push_back(*findDiyEdge(DiyArch::RDMA, "Rmw"));
    return relaxationMap(DiyArch::RDMA, model, safe, {edge}, size, DiyMode::Default, options).front();
}

// `model` with the table's cell (earlier, later) unordered.
Model withoutCell(Model model, const std::string& table, const std::string& earlier, const std::string& later) {
    OrderTable& t = model.tables.at(table);
    t.cells[static_cast<int>(kindNamed(earlier))][static_cast<int>(kindNamed(later))] = Cell::Unordered;
    return model;
}

// Whether the cell's pair stays ordered without the cell, read on `edge`
// (the edge that showed it ordered), and the axioms each of which, dropped
// too, lets a test relax it.
void readForced(const Model& model, const ModelLoader& load, const std::string& table, const DiyEdge& edge,
                int size, const CheckOptions& options, TableReading& cell) {
    auto relaxedWithout = [&](const Model& m) {
        return readEdge(withoutCell(m, table, cell.earlier, cell.later), edge, size, options).kind ==
               EdgeReading::Kind::Relaxed;
    };
    cell.forced = !relaxedWithout(model);
    if (!cell.forced) return;
    for (const Axiom& axiom : model.axioms)
        if (relaxedWithout(load({axiom.name}))) cell.forcedBy.push_back(axiom.name);
}

bool tableOrders(const OrderTable& table, const std::string& earlier, const std::string& later, bool twoQueuePairs) {
    const Cell cell = table.at(kindNamed(earlier), kindNamed(later));
    return cell == Cell::Ordered || (cell == Cell::SameQueuePair && !twoQueuePairs);
}

// One separator's cells (K, S) and (S, L), read off the fenced edges
// (readSeparatorCells). The separator orders the poll's or rfence's queue
// pair, that of the operation before it: (S, L) for an operation L towards
// another node (a `n` edge) is the two-queue-pair cell.
class SeparatorCells {
public:
    SeparatorCells(const Model& model, int size, const CheckOptions& options, std::string kind, std::string edges)
        : model_(model), size_(size), options_(options), kind_(std::move(kind)), edges_(std::move(edges)) {}

    std::vector<TableReading> read() {
        for (const std::string& k : rdmaMemoryKinds()) {
            cell(Key{k, kind_, false});
            cell(Key{kind_, k, false});
            if (kind_ != "F" && k[0] == 'n') cell(Key{kind_, k, true});
        }
        for (const std::string& k : rdmaMemoryKinds())
            for (const std::string& l : rdmaMemoryKinds())
                for (char place : {'d', 'n'}) addPair(k, l, place);
        for (const Pair& p : pairs_)
            if (p.plain.kind == EdgeReading::Kind::Relaxed && p.fenced.kind == EdgeReading::Kind::Safe)
                for (TableReading* c : {&cell(p.before), &cell(p.after)})
                    show(*c, p, p.fenced.edge + " is safe where " + p.plain.edge + " is relaxed");
        for (const Pair& p : pairs_)
            if (p.plain.kind == EdgeReading::Kind::Relaxed && p.fenced.kind == EdgeReading::Kind::Relaxed) {
                showUnordered(cell(p.before), cell(p.after), p);
                showUnordered(cell(p.after), cell(p.before), p);
            }
        std::vector<TableReading> out;
        for (auto& [key, c] : cells_) {
            if (c.reading.kind == EdgeReading::Kind::Untested) c.why = unread(c);
            out.push_back(c);
        }
        return out;
    }

private:
    using Key = std::tuple<std::string, std::string, bool>;
    struct Pair {
        Key before, after;  // the cells (K, S) and (S, L)
        EdgeReading plain, fenced;
    };

    void addPair(const std::string& k, const std::string& l, char place) {
        const std::optional<DiyEdge> fenced = findDiyEdge(DiyArch::RDMA, edges_ + place + k + l);
        if (!fenced) return;
        const bool apart = place == 'n' && kind_ != "F";
        pairs_.push_back({Key{k, kind_, false}, Key{kind_, l, apart}, edge("Po" + std::string(1, place) + k + l),
                          edge(fenced->name)});
    }

    EdgeReading edge(const std::string& name) {
        auto it = read_.find(name);
        if (it == read_.end())
            it = read_.emplace(name, readEdge(model_, *findDiyEdge(DiyArch::RDMA, name), size_, options_)).first;
        return it->second;
    }

    TableReading& cell(const Key& key) {
        auto it = cells_.find(key);
        if (it != cells_.end()) return it->second;
        TableReading c;
        std::tie(c.earlier, c.later, c.twoQueuePairs) = key;
        return cells_.emplace(key, c).first->second;
    }

    static void show(TableReading& c, const Pair& p, const std::string& why) {
        if (c.reading.kind == EdgeReading::Kind::Safe) return;
        c.reading = p.fenced;
        c.why = why;
    }

    // The fenced edge relaxed though `other` is ordered: `c` is not.
    static void showUnordered(TableReading& c, const TableReading& other, const Pair& p) {
        if (c.reading.kind != EdgeReading::Kind::Untested || other.reading.kind != EdgeReading::Kind::Safe) return;
        show(c, p, p.fenced.edge + " is relaxed as " + p.plain.edge + " is (" + p.fenced.witness + "), though " +
                       other.earlier + " " + other.later + " is ordered");
    }

    std::string unread(const TableReading& c) const {
        const bool column = c.later == kind_;
        bool any = false, plainSafe = true;
        for (const Pair& p : pairs_) {
            if ((column ? p.before : p.after) != Key{c.earlier, c.later, c.twoQueuePairs}) continue;
            any = true;
            plainSafe = plainSafe && p.plain.kind != EdgeReading::Kind::Relaxed;
        }
        if (!any) return "no " + edges_ + " edge puts " + (column ? c.earlier + " before" : c.later + " after") + " it";
        const std::string around = column ? c.earlier + " and every later kind" : "every earlier kind and " + c.later;
        if (plainSafe) return "Po is safe between " + around + ": nothing for the separator to order";
        return "relaxed with and without the separator wherever Po is, and its other cell never ordered there";
    }

    const Model& model_;
    int size_;
    const CheckOptions& options_;
    std::string kind_, edges_;
    std::vector<Pair> pairs_;
    std::map<Key, TableReading> cells_;
    std::map<std::string, EdgeReading> read_;
};

// The cell (a, b) read on the edge `Po<place><from><to>` (from, to: the
// kinds of a CAS's halves where a or b is CAS).
std::optional<TableReading> readCell(const Model& model, const ModelLoader& load, const std::string& table, int size,
                                     const CheckOptions& options, const std::string& a, const std::string& b,
                                     const std::string& place) {
    const std::string from = a == "CAS" ? "aW" : a, to = b == "CAS" ? "aR" : b;
    const std::optional<DiyEdge> edge = findDiyEdge(DiyArch::RDMA, "Po" + place + from + to);
    if (!edge) return std::nullopt;  // `n` only between two operations
    TableReading r{a,     b,     edge->otherNode, readEdge(model, *edge, size, options),
                   tableOrders(model.tables.at(table), a, b, edge->otherNode), false, {}, {}};
    if (r.tableOrders && r.reading.kind == EdgeReading::Kind::Safe) readForced(model, load, table, *edge, size, options, r);
    return r;
}

}  // namespace

std::vector<TableReading> readOrderTable(const Model& model, const ModelLoader& load, const std::string& table,
                                         int size, const CheckOptions& options) {
    std::vector<TableReading> out;
    for (const std::string& a : rdmaMemoryKinds())
        for (const std::string& b : rdmaMemoryKinds())
            for (const char* place : {"d", "n"})
                if (std::optional<TableReading> r = readCell(model, load, table, size, options, a, b, place)) out.push_back(*r);
    return out;
}

std::vector<TableReading> readCasCells(const Model& model, const ModelLoader& load, const std::string& table, int size,
                                       const CheckOptions& options) {
    std::vector<std::pair<std::string, std::string>> pairs{{"CAS", "CAS"}};
    for (const std::string& k : rdmaMemoryKinds()) {
        pairs.emplace_back(k, "CAS");
        pairs.emplace_back("CAS", k);
    }
    std::vector<TableReading> out;
    for (const auto& [a, b] : pairs)
        if (std::optional<TableReading> r = readCell(model, load, table, size, options, a, b, "d")) out.push_back(*r);
    return out;
}

std::vector<TableReading> readSeparatorCells(const Model& model, const ModelLoader& load, const std::string& table,
                                             int size, const CheckOptions& options) {
    const OrderTable& cells = model.tables.at(table);
    std::vector<TableReading> out;
    for (const RdmaSeparator& separator : rdmaSeparators())
        for (TableReading& c : SeparatorCells(model, size, options, separator.kind, separator.edge).read()) {
            c.tableOrders = tableOrders(cells, c.earlier, c.later, c.twoQueuePairs);
            if (c.reading.kind == EdgeReading::Kind::Safe)  // unordered by the table: what orders it
                readForced(model, load, table, *findDiyEdge(DiyArch::RDMA, c.reading.edge), size, options, c);
            out.push_back(std::move(c));
        }
    return out;
}

std::vector<Distinction> distinguish(DiyArch arch, const Model& first, const Model& second,
                                     const std::vector<DiyEdge>& safe, const std::vector<DiyEdge>& relax, int size,
                                     DiyMode mode, const CheckOptions& options, size_t& checked) {
    DiyCount count;
    std::vector<DiyTest> tests = diyTests(arch, safe, relax, size, mode, count);
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
