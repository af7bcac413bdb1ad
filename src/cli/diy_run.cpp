#include "diy_run.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "common.hpp"
#include "rdmacheck/diy.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck::cli {

namespace {

// Edge names separated by spaces or commas; false after printing an error.
bool edgesOf(DiyArch arch, const std::string& option, const std::vector<std::string>& texts,
             std::vector<DiyEdge>& out) {
    for (std::string text : texts) {
        for (char& c : text)
            if (c == ',') c = ' ';
        std::istringstream words(text);
        for (std::string w; words >> w;) {
            const std::optional<DiyEdge> e = findDiyEdge(arch, w);
            if (!e) {
                std::vector<std::string> known;
                for (const DiyEdge& k : diyEdges(arch)) known.push_back(k.name);
                std::cerr << "rdmacheck: error: " << option << ": unknown edge '" << w << "'" << didYouMean(w, known);
                if (arch == DiyArch::X86) std::cerr << " (X86 edges: " << joined(known) << ")";
                else std::cerr << " (RDMA edges: doc/diy.md, \"RDMA\")";
                std::cerr << "\n";
                return false;
            }
            out.push_back(*e);
        }
    }
    return true;
}

}  // namespace

void DiyFlags::add(CLI::App& app) {
    command = app.add_subcommand("diy", "tests from cycles of relaxations, as diy7 makes them (doc/diy.md)");
    command->add_option("--arch", arch, "the tests' architecture: X86 (diy7's edges) or RDMA (doc/diy.md)")
        ->capture_default_str()
        ->check(CLI::IsMember({"X86", "RDMA"}));
    command->add_option("--cycle", cycles, "one test from this cycle of edges, e.g. \"PodWR Fre PodWR Fre\" (repeatable)");
    command->add_option("--size", size, "every cycle of at most N edges over --safe and --relax")
        ->check(CLI::Range(1, 8));
    command->add_option("--mode", mode, "with --size: which edges may follow which, diy7's -mode: default (diy7's), "
                                        "critical (internal and external edges alternate), free (every cycle)")
        ->capture_default_str()
        ->check(CLI::IsMember({"default", "critical", "free"}));
    command->add_option("--safe", safe, "edges every cycle may use (diy7's -safe; default every X86 edge, with "
                                        "--model Rfe, Fre, Wse)");
    command->add_option("--relax", relax, "edges of which every cycle uses one (diy7's -relax)");
    command->add_option("--out", outDir, "write DIR/NAME.litmus and DIR/@all, the files' names (default: stdout)");
    command->add_option("--model", model, "with --size: which edges model M relaxes, diy7's relax reading");
    command->add_option("--table", table, "with --arch RDMA --size --model M: M's order table NAME (oppo, ippo) "
                                          "rebuilt from the cycles M allows, cell by cell against the table");
    command->add_option("--distinguish", distinguishing, "with --size: the tests of fewest edges on which models "
                                                         "M1,M2 differ")->delimiter(',')->expected(2);
}

int DiyFlags::run(const ModelSearchPath& models, const ResourceLimits& limits) {
    if (cycles.empty() == (size == 0)) {
        std::cerr << "rdmacheck: error: diy takes --cycle or --size, one of them\n";
        return 2;
    }
    if (command->count("--mode") > 0 && size == 0) {
        std::cerr << "rdmacheck: error: --mode takes --size (a --cycle is written as given)\n";
        return 2;
    }
    const bool reads = !model.empty() || !distinguishing.empty();
    if (reads && (size == 0 || (!model.empty() && !distinguishing.empty()))) {
        std::cerr << "rdmacheck: error: --model and --distinguish take --size, and not each other\n";
        return 2;
    }
    const DiyArch a = architecture();
    std::vector<DiyEdge> safeEdges, relaxEdges;
    if (!edgesOf(a, "--safe", safe, safeEdges) || !edgesOf(a, "--relax", relax, relaxEdges)) return 2;
    // The relax reading asks of each edge against the communication edges; every other use takes every edge.
    if (safe.empty() && !model.empty())
        safeEdges = {*findDiyEdge(a, "Rfe"), *findDiyEdge(a, "Fre"), *findDiyEdge(a, "Wse")};
    else if (safe.empty()) safeEdges = diyEdges(a);
    ModelOptions loading;
    loading.limits = limits;
    CheckOptions checking;
    checking.limits = limits;
    if (!table.empty() && (model.empty() || a != DiyArch::RDMA)) {
        std::cerr << "rdmacheck: error: --table takes --arch RDMA, --size and --model\n";
        return 2;
    }
    if (!table.empty()) {
        const ModelLoader load = [&](const std::vector<std::string>& skip) {
            ModelOptions o = loading;
            o.skip = skip;
            return loadModel(models, model, o);
        };
        return readTable(load, checking);
    }
    if (!model.empty()) return map(loadModel(models, model, loading), safeEdges, relaxEdges, checking);
    if (!distinguishing.empty()) {
        const Model first = loadModel(models, distinguishing[0], loading);
        const Model second = loadModel(models, distinguishing[1], loading);
        std::vector<DiyTest> tests;
        size_t checked = 0;
        for (const Distinction& d : distinguish(a, first, second, safeEdges, relaxEdges, size, diyMode(), checking, checked)) {
            std::cerr << d.test.name << " (" << d.test.cycle << "): " << (d.allowedFirst ? "allowed" : "forbidden")
                      << " under " << first.shownName() << ", " << (d.allowedSecond ? "allowed" : "forbidden")
                      << " under " << second.shownName() << "\n";
            tests.push_back(d.test);
        }
        return write(tests, checked);
    }
    if (size > 0) return writeAll(safeEdges, relaxEdges);
    std::vector<DiyTest> tests;
    for (const std::string& c : cycles) {
        std::vector<DiyEdge> cycle;
        if (!edgesOf(a, "--cycle", {c}, cycle)) return 2;
        std::string why;
        std::optional<DiyTest> test = diyTest(a, cycle, why);
        if (!test) {
            std::cerr << "rdmacheck: error: --cycle: no test from this cycle: " << why << "\n";
            return 2;
        }
        tests.push_back(*test);
    }
    return write(tests, cycles.size());
}

// The relax reading, one line an edge: relaxed (with the allowed test that says so), safe, or untested.
int DiyFlags::map(const Model& m, const std::vector<DiyEdge>& safeEdges, std::vector<DiyEdge> candidates,
                  const CheckOptions& checking) const {
    if (candidates.empty())  // every edge but the safe ones
        for (const DiyEdge& e : diyEdges(architecture()))
            if (std::none_of(safeEdges.begin(), safeEdges.end(), [&](const DiyEdge& s) { return s.name == e.name; }))
                candidates.push_back(e);
    const int maxEdges = size;
    std::string safeNames;
    for (const DiyEdge& e : safeEdges) safeNames += (safeNames.empty() ? "" : ", ") + e.name;
    std::cout << "Map " << m.shownName() << ": cycles of at most " << maxEdges << " edges over " << safeNames
              << " and one other edge\n";
    for (const EdgeReading& r : relaxationMap(architecture(), m, safeEdges, candidates, maxEdges, diyMode(), checking)) {
        std::cout << r.edge << " " << r.text(maxEdges) << "\n";
    }
    return 0;
}

namespace {

std::string padded(const std::string& cell, size_t width) {
    size_t shown = 0;  // code points, not bytes (✓, ✗)
    for (unsigned char c : cell) shown += (c & 0xC0) != 0x80;
    return cell + std::string(width > shown ? width - shown : 0, ' ');
}

const char* symbol(const EdgeReading& r) {
    return r.kind == EdgeReading::Kind::Relaxed ? "✗" : r.kind == EdgeReading::Kind::Safe ? "✓" : "?";
}

// The table rebuilt: a grid of what the cycles say (one queue pair/two for
// two operations' events; ! where the table says otherwise, * where the
// model orders the pair without its cell).
void printGrid(const std::vector<TableReading>& cells, const std::vector<std::string>& rows,
               const std::vector<std::string>& columns) {
    std::cout << padded("", 5);
    for (const std::string& k : columns) std::cout << (k == columns.back() ? k : padded(k, 7));
    std::cout << "\n";
    for (const std::string& row : rows) {
        std::string line = padded(row, 5);
        for (const std::string& column : columns) {
            std::string cell;
            for (const TableReading& c : cells)
                if (c.earlier == row && c.later == column)
                    cell += (cell.empty() ? "" : "/") + std::string(symbol(c.reading)) + (c.agrees() ? "" : "!") +
                            (c.forced ? "*" : "");
            line += padded(cell, 7);
        }
        std::cout << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
    }
}

// A line for each cell ordered without it (what forces it), then for each
// cell the table gives otherwise (the reading that says so).
void printCellLines(const std::vector<TableReading>& cells, int size) {
    for (const TableReading& c : cells) {
        if (!c.forced) continue;
        std::cout << c.earlier << " " << c.later << (c.twoQueuePairs ? " (two queue pairs)" : "")
                  << (c.tableOrders ? ": ordered without its cell too; " : ": ordered though its cell is not; ");
        if (c.forcedBy.empty()) std::cout << "with any one axiom dropped as well, still no test relaxes it\n";
        for (size_t i = 0; i < c.forcedBy.size(); ++i)
            std::cout << (i ? " or " : "dropping ") << c.forcedBy[i]
                      << (i + 1 == c.forcedBy.size() ? " as well lets a test relax it\n" : "");
    }
    for (const TableReading& c : cells)
        if (!c.agrees())
            std::cout << c.earlier << " " << c.later << (c.twoQueuePairs ? " (two queue pairs)" : "") << ": the table "
                      << (c.tableOrders ? "orders it, but " : "leaves it unordered, but ")
                      << (c.why.empty() ? c.reading.edge + " is " + c.reading.text(size) : c.why) << "\n";
}

// Why each separator cell no test reads is unread.
void printUnreadLines(const std::vector<TableReading>& cells) {
    for (const TableReading& c : cells)
        if (c.reading.kind == EdgeReading::Kind::Untested)
            std::cout << c.earlier << " " << c.later << (c.twoQueuePairs ? " (two queue pairs)" : "")
                      << ": unread, " << c.why << "\n";
}

}  // namespace

int DiyFlags::readTable(const ModelLoader& load, const CheckOptions& checking) const {
    const Model m = load({});
    if (!m.tables.count(table)) {
        std::cerr << "rdmacheck: error: --table: model " << m.shownName() << " has no order table '" << table << "'\n";
        return 2;
    }
    const std::vector<TableReading> cells = readOrderTable(m, load, table, size, checking);
    std::cout << "Table " << table << " of " << m.shownName() << " from cycles of at most " << size
              << " edges over Rfe, Fre, Wse and one program-order edge (rows earlier, columns later; ✓ no test "
                 "relaxes the pair, ✗ one does, ? none has it; one queue pair/two for two operations; ! the table "
                 "says otherwise; * ordered even without its cell)\n";
    printGrid(cells, rdmaMemoryKinds(), rdmaMemoryKinds());
    printCellLines(cells, size);
    const std::vector<TableReading> separators = readSeparatorCells(m, load, table, size, checking);
    std::cout << "Separators F, P, nF (mfence, poll, rfence) through the MFence, Poll and Rfence edges (✓ the fenced "
                 "edge is safe where Po is relaxed: both cells order; ✗ it stays relaxed though its other cell "
                 "orders; ? unread; one queue pair/two for an operation after a poll or rfence)\n";
    printGrid(separators, rdmaMemoryKinds(), rdmaSeparatorKinds());
    printGrid(separators, rdmaSeparatorKinds(), rdmaMemoryKinds());
    printCellLines(separators, size);
    printUnreadLines(separators);
    const std::vector<TableReading> cas = readCasCells(m, load, table, size, checking);
    std::cout << "CAS (a CPU compare-and-swap: PodKaR to its read, PodaWK from its write, Rmw between) over Rfe, Fre, "
                 "Wse, Rmw\n";
    std::vector<std::string> withCas = rdmaMemoryKinds();
    withCas.push_back("CAS");
    printGrid(cas, withCas, {"CAS"});
    printGrid(cas, {"CAS"}, rdmaMemoryKinds());
    printCellLines(cas, size);
    std::cout << "The cells between two separators, or a separator and a CAS: not read (no edge puts them in a row)\n";
    return 0;
}

// Writes tests as they come: to stdout, or to DIR/NAME.litmus with DIR/@all;
// a name met again is numbered 001, 002, ... as diy7 numbers it.
class TestWriter {
public:
    TestWriter(const std::string& arch, const std::string& dir) : arch_(arch), dir_(dir) {}

    bool open() {
        if (!makeDirectory("--out", dir_)) return false;
        if (!dir_.empty()) index_.open(dir_ + "/@all");
        return dir_.empty() || index_ || failed("@all");
    }
    bool add(DiyTest test) {
        if (const int seen = names_[test.name]++; seen > 0) {
            const std::string number = std::to_string(seen);
            test.name += std::string(3 - std::min<size_t>(3, number.size()), '0') + number;
            test.text = arch_ + " " + test.name + test.text.substr(test.text.find('\n'));
        }
        ++written_;
        if (dir_.empty()) return static_cast<bool>(std::cout << test.text << "\n");
        const std::string file = test.name + ".litmus";
        std::ofstream out(dir_ + "/" + file);
        return ((out << test.text) && (index_ << file << "\n")) || failed(file);
    }
    void summary(size_t considered, size_t repeats) const {
        std::cerr << "diy: " << written_ << (written_ == 1 ? " test" : " tests") << " from " << considered
                  << (considered == 1 ? " cycle" : " cycles") << " considered";
        if (repeats > 0) std::cerr << ", " << repeats << " more left out: another's program and condition";
        std::cerr << "\n";
    }

private:
    bool failed(const std::string& file) const {
        std::cerr << "rdmacheck: error: cannot write " << dir_ << "/" << file << "\n";
        return false;
    }

    std::string arch_, dir_;
    std::ofstream index_;
    std::unordered_map<std::string, int> names_;
    size_t written_ = 0;
};

int DiyFlags::write(const std::vector<DiyTest>& tests, size_t considered) const {
    TestWriter writer(arch, outDir);
    if (!writer.open()) return 2;
    for (const DiyTest& test : tests)
        if (!writer.add(test)) return 2;
    writer.summary(considered, 0);
    return 0;
}

// Every cycle up to --size, written as it is made.
int DiyFlags::writeAll(const std::vector<DiyEdge>& safeEdges, const std::vector<DiyEdge>& relaxEdges) const {
    TestWriter writer(arch, outDir);
    if (!writer.open()) return 2;
    DiyCount count;
    bool ok = true;
    forEachDiyTest(architecture(), safeEdges, relaxEdges, size, diyMode(), count,
                   [&](DiyTest&& test) { ok = ok && writer.add(std::move(test)); });
    if (!ok) return 2;
    writer.summary(count.cycles, count.repeats);
    return 0;
}

}  // namespace rdmacheck::cli
