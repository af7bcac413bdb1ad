// The order tables in models/ against the RDMA^TSO paper's and the RMW paper's, cell by cell.
#include <gtest/gtest.h>

#include <regex>

#include "../test_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

const EventKind kColumns[] = {EventKind::LR,  EventKind::LW,  EventKind::CAS, EventKind::F,   EventKind::P,
                              EventKind::NLR, EventKind::NRW, EventKind::NRR, EventKind::NLW, EventKind::NF};

// The order tables as markdown, rows the po-earlier event, columns the later:
// RDMA^TSO paper §4, Fig. 9 (ippo above; oppo below, which differs from ippo in
// the four cells §4 explains), the oppo of the model without the PCIe guarantee
// (§4, "Declarative Semantics without PCIe": cells G8, G9), and the RMW paper's
// 12-column tables for remote RMWs (App. D.2, Fig. 22). Literal data, so the
// test needs nothing outside the repository.
const char* const kOrderTables = R"md(
## ippo and oppo (rows earlier in po, columns later)

Columns/rows: 1 lR · 2 lW · 3 CAS · 4 F · 5 P · 6 nlR · 7 nrW · 8 nrR · 9 nlW · 10 nF.
✓ ordered, ✗ not ordered, sqp ordered iff same queue pair.

ippo:

| earlier \ later | lR | lW | CAS | F | P | nlR | nrW | nrR | nlW | nF |
|---|---|---|---|---|---|---|---|---|---|---|
| A lR  | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| B lW  | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| C CAS | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| D F   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| E P   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| F nlR | ✗ | ✗ | ✗ | ✗ | ✗ | sqp | sqp | sqp | sqp | sqp |
| G nrW | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | sqp | sqp | sqp | sqp |
| H nrR | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | sqp | sqp |
| I nlW | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | sqp | sqp |
| J nF  | ✗ | ✗ | ✗ | ✗ | ✗ | sqp | sqp | sqp | sqp | sqp |

oppo = ippo except four cells: B1 (lW→lR) ✗, B5 (lW→P) ✗, G10 (nrW→nF) ✗,
I10 (nlW→nF) ✗.

Model without the PCIe guarantee (`rdma-tso-nopcie`): no nfo; oppo G8 and G9 become ✗;
`rf_i` and `rb_i` additionally include the same-buffer pairs on one queue pair:
`[nrW];(rf ∩ sqp);[nrR]`, `[nlW];(rf ∩ sqp);[nlR]`, `[nrR];(rb ∩ sqp);[nrW]`,
`[nlR];(rb ∩ sqp);[nlW]` (a NIC read may see, or miss, a write still waiting in its own
queue pair's wbR/wbL). The paper writes `rf ∩ sqp` and `rb ∩ sqp`; without loopback the
two are identical. With loopback the paper's wording also catches cross pairs (a put's
local read against the same queue pair's remote write) that the machine's lookups never
see, and forbids outcomes the machine allows: same-buffer is the definition to use.

RMW extension (12 columns: lR lW CAS F P nlR nrW narR narW nrR nlW nF). Rows for the
new event types, oppo (read cleanly from the RMW paper's Fig. 22):

| earlier \ later | 5 CPU cols | nlR | nrW | narR | narW | nrR | nlW | nF |
|---|---|---|---|---|---|---|---|---|
| narR | ✗ | ✗ | sqp | sqp | sqp | sqp | sqp | sqp |
| narW | ✗ | ✗ | sqp | sqp | sqp | sqp | ✗ | ✗ |

and for the old rows the new columns: nlR→narR/narW sqp; nrW→narR/narW sqp;
nrR→narR/narW ✗; nlW→narR/narW ✗; nF→narR/narW sqp; CPU rows ✓.
ippo = oppo except B1, B5 ✓ and G12 (nrW→nF), I11 (narW→nlW), I12 (narW→nF),
K12 (nlW→nF) sqp.
)md";

// Reads the markdown ippo table: rows "| A lR  | ✓ | ... |".
OrderTable specIppo(const std::string& md) {
    OrderTable t;
    std::istringstream in(md.substr(md.find("ippo:")));
    std::regex row(R"(^\|\s*([A-J])\s+(\w+)\s*\|(.*)\|\s*$)");
    int rows = 0;
    for (std::string line; std::getline(in, line) && rows < 10;) {
        std::smatch m;
        if (!std::regex_match(line, m, row)) continue;
        EventKind earlier;
        EXPECT_TRUE(kindFromName(m[2], earlier)) << line;
        EXPECT_EQ(static_cast<int>(earlier), m[1].str()[0] - 'A') << "row letter and kind disagree: " << line;
        std::istringstream cells(m[3].str());
        std::string cell;
        int c = 0;
        while (std::getline(cells, cell, '|')) {
            cell = std::regex_replace(cell, std::regex(R"(^\s+|\s+$)"), "");
            Cell value = cell == "✓" ? Cell::Ordered : cell == "✗" ? Cell::Unordered : Cell::SameQueuePair;
            EXPECT_TRUE(cell == "✓" || cell == "✗" || cell == "sqp") << line;
            t.cells[static_cast<int>(earlier)][static_cast<int>(kColumns[c++])] = value;
        }
        EXPECT_EQ(c, 10) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 10);
    return t;
}

// Applies "B1 (lW→lR) ✗"-style cell changes found in one sentence of the tables' text.
void applyCells(OrderTable& t, const std::string& sentence, Cell value) {
    std::regex cell(R"(\b([A-J])(\d{1,2}) \()");
    int changed = 0;
    for (auto it = std::sregex_iterator(sentence.begin(), sentence.end(), cell); it != std::sregex_iterator(); ++it) {
        int row = (*it)[1].str()[0] - 'A';
        int column = std::stoi((*it)[2]) - 1;
        t.cells[row][static_cast<int>(kColumns[column])] = value;
        ++changed;
    }
    EXPECT_GT(changed, 0) << sentence;
}

std::string sentenceStarting(const std::string& md, const std::string& start, const std::string& end) {
    size_t b = md.find(start);
    EXPECT_NE(b, std::string::npos) << "kOrderTables no longer says: " << start;
    size_t e = md.find(end, b);
    return md.substr(b, e - b);
}

void expectSameCells(const OrderTable& expected, const OrderTable& actual) {
    for (EventKind a : kColumns)
        for (EventKind b : kColumns)
            EXPECT_EQ(static_cast<int>(expected.at(a, b)), static_cast<int>(actual.at(a, b)))
                << actual.name << " cell " << kindName(a) << " -> " << kindName(b);
}

class TablesTest : public ::testing::Test {
protected:
    const std::string md = kOrderTables;
};


}  // namespace

TEST_F(TablesTest, IppoMatchesSpec) {
    expectSameCells(specIppo(md), loadOrderTable(modelsDir() + "/rdma-tso.ippo", "ippo"));
}

TEST_F(TablesTest, OppoIsIppoExceptFourCells) {
    OrderTable expected = specIppo(md);
    applyCells(expected, sentenceStarting(md, "oppo = ippo except four cells", "\n\n"), Cell::Unordered);
    expectSameCells(expected, loadOrderTable(modelsDir() + "/rdma-tso.oppo", "oppo"));
}

TEST_F(TablesTest, NoPcieOppoDropsG8G9) {
    OrderTable expected = specIppo(md);
    applyCells(expected, sentenceStarting(md, "oppo = ippo except four cells", "\n\n"), Cell::Unordered);
    std::string nopcie = sentenceStarting(md, "Model without the PCIe guarantee", "become");
    // The text says "oppo G8 and G9 become ✗".
    ASSERT_NE(nopcie.find("G8 and G9"), std::string::npos);
    expected.cells[static_cast<int>(EventKind::NRW)][static_cast<int>(EventKind::NRR)] = Cell::Unordered;
    expected.cells[static_cast<int>(EventKind::NRW)][static_cast<int>(EventKind::NLW)] = Cell::Unordered;
    expectSameCells(expected, loadOrderTable(modelsDir() + "/rdma-tso-nopcie.oppo", "oppo"));
}

TEST_F(TablesTest, TsoPpoIsOppoOnCpuEvents) {
    // x86-TSO's ppo (po minus W->R, fences and locked instructions ordered) equals
    // RDMA^TSO's oppo restricted to lR, lW, CAS, F: the Theorem 4.6 setting.
    OrderTable tso = loadOrderTable(modelsDir() + "/tso.ppo", "ppo");
    OrderTable oppo = loadOrderTable(modelsDir() + "/rdma-tso.oppo", "oppo");
    const EventKind cpu[] = {EventKind::LR, EventKind::LW, EventKind::CAS, EventKind::F};
    for (EventKind a : cpu)
        for (EventKind b : cpu) EXPECT_EQ(static_cast<int>(tso.at(a, b)), static_cast<int>(oppo.at(a, b)));
    EXPECT_FALSE(tso.covers[static_cast<int>(EventKind::NRW)]);
}

// The RMW paper's 12 columns and row letters (Fig. 22): A lR ... L nF.
const EventKind kRmwColumns[] = {EventKind::LR,  EventKind::LW,  EventKind::CAS, EventKind::F,
                                 EventKind::P,   EventKind::NLR, EventKind::NRW, EventKind::NAR,
                                 EventKind::NAW, EventKind::NRR, EventKind::NLW, EventKind::NF};

void setRmwCell(OrderTable& t, const std::string& letterAndColumn, Cell value) {
    const int row = letterAndColumn[0] - 'A';
    const int column = std::stoi(letterAndColumn.substr(1)) - 1;
    t.cells[static_cast<int>(kRmwColumns[row])][static_cast<int>(kRmwColumns[column])] = value;
}

Cell cellOf(const std::string& text) {
    EXPECT_TRUE(text == "✓" || text == "✗" || text == "sqp") << text;
    return text == "✓" ? Cell::Ordered : text == "✗" ? Cell::Unordered : Cell::SameQueuePair;
}

// The "RMW extension" (RMW Fig. 22's oppo): RDMA^TSO's oppo on the old events, the
// table of the narR/narW rows, the sentence giving the old rows' new columns.
OrderTable specRmwOppo(const std::string& md) {
    OrderTable t = specIppo(md);
    applyCells(t, sentenceStarting(md, "oppo = ippo except four cells", "\n\n"), Cell::Unordered);
    const std::string ext = md.substr(md.find("RMW extension (12 columns"));
    std::istringstream in(ext);
    std::regex row(R"(^\|\s*(narR|narW)\s*\|(.*)\|\s*$)");
    int rows = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, row)) continue;
        EventKind earlier;
        kindFromName(m[1], earlier);
        std::vector<std::string> cells;
        std::istringstream in2(m[2].str());
        for (std::string c; std::getline(in2, c, '|');) cells.push_back(std::regex_replace(c, std::regex(R"(^\s+|\s+$)"), ""));
        EXPECT_EQ(cells.size(), 8u) << line;  // "5 CPU cols", then nlR nrW narR narW nrR nlW nF
        if (cells.size() != 8) continue;
        for (int c = 0; c < 5; ++c) t.cells[static_cast<int>(earlier)][static_cast<int>(kRmwColumns[c])] = cellOf(cells[0]);
        for (int c = 1; c < 8; ++c) t.cells[static_cast<int>(earlier)][static_cast<int>(kRmwColumns[c + 4])] = cellOf(cells[c]);
        ++rows;
    }
    EXPECT_EQ(rows, 2);
    const std::string oldRows = sentenceStarting(ext, "and for the old rows the new columns", "\n\n");
    std::regex pair(R"((\w+)→narR/narW (sqp|✗))");
    int pairs = 0;
    for (auto it = std::sregex_iterator(oldRows.begin(), oldRows.end(), pair); it != std::sregex_iterator(); ++it) {
        EventKind earlier;
        EXPECT_TRUE(kindFromName((*it)[1], earlier)) << (*it)[0];
        for (EventKind later : {EventKind::NAR, EventKind::NAW})
            t.cells[static_cast<int>(earlier)][static_cast<int>(later)] = cellOf((*it)[2]);
        ++pairs;
    }
    EXPECT_EQ(pairs, 5);
    EXPECT_NE(oldRows.find("CPU rows ✓"), std::string::npos);
    for (EventKind earlier : {EventKind::LR, EventKind::LW, EventKind::CAS, EventKind::F, EventKind::P})
        for (EventKind later : {EventKind::NAR, EventKind::NAW})
            t.cells[static_cast<int>(earlier)][static_cast<int>(later)] = Cell::Ordered;
    return t;
}

void expectSameRmwCells(const OrderTable& expected, const OrderTable& actual) {
    for (EventKind a : kRmwColumns)
        for (EventKind b : kRmwColumns)
            EXPECT_EQ(static_cast<int>(expected.at(a, b)), static_cast<int>(actual.at(a, b)))
                << actual.name << " cell " << kindName(a) << " -> " << kindName(b);
}

TEST_F(TablesTest, RmwOppoMatchesSpec) {
    expectSameRmwCells(specRmwOppo(md), loadOrderTable(modelsDir() + "/rdma-tso-rmw.oppo", "oppo"));
}

TEST_F(TablesTest, RmwIppoIsRmwOppoExceptSixCells) {
    OrderTable expected = specRmwOppo(md);
    const std::string except = sentenceStarting(md, "ippo = oppo except B1, B5", "\n\n");
    setRmwCell(expected, "B1", Cell::Ordered);
    setRmwCell(expected, "B5", Cell::Ordered);
    std::regex cell(R"(\b([A-L]\d{1,2}) \()");
    int changed = 0;
    for (auto it = std::sregex_iterator(except.begin(), except.end(), cell); it != std::sregex_iterator(); ++it, ++changed)
        setRmwCell(expected, (*it)[1], Cell::SameQueuePair);
    EXPECT_EQ(changed, 4);  // G12, I11, I12, K12
    expectSameRmwCells(expected, loadOrderTable(modelsDir() + "/rdma-tso-rmw.ippo", "ippo"));
}

TEST(Models, AllLoadAndDescribeThemselves) {
    for (const std::string name : {"rdma-tso", "rdma-tso-nopcie", "rdma-tso-rmw", "tso", "sc"}) {
        Model m = loadModel(modelsDir(), name);
        EXPECT_EQ(m.name, name);
        EXPECT_FALSE(m.description.empty());
        EXPECT_FALSE(m.plan.clocks.empty());
    }
    EXPECT_TRUE(loadModel(modelsDir(), "rdma-tso").uses("nfo"));
    EXPECT_FALSE(loadModel(modelsDir(), "rdma-tso-nopcie").uses("nfo"));
    EXPECT_FALSE(loadModel(modelsDir(), "tso").supports[static_cast<int>(EventKind::NLR)]);
    // Only rdma-tso-rmw knows remote RMWs, and only it chooses rao.
    for (const std::string name : {"rdma-tso", "rdma-tso-nopcie", "tso", "sc"}) {
        EXPECT_FALSE(loadModel(modelsDir(), name).supports[static_cast<int>(EventKind::NAR)]) << name;
        EXPECT_FALSE(loadModel(modelsDir(), name).uses("rao")) << name;
    }
    EXPECT_TRUE(loadModel(modelsDir(), "rdma-tso-rmw").supports[static_cast<int>(EventKind::NAW)]);
    EXPECT_TRUE(loadModel(modelsDir(), "rdma-tso-rmw").uses("rao"));
}

TEST(Models, UnknownModelIsAnInputError) {
    try {
        loadModel(modelsDir(), "arm");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown model 'arm'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("rdma-tso"), std::string::npos);
    }
}
