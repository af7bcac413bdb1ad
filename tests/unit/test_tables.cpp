// The order tables in models/ against shared/spec/RDMA-TSO.md, cell by cell.
#include <gtest/gtest.h>

#include <regex>

#include "../test_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

const EventKind kColumns[] = {EventKind::LR,  EventKind::LW,  EventKind::CAS, EventKind::F,   EventKind::P,
                              EventKind::NLR, EventKind::NRW, EventKind::NRR, EventKind::NLW, EventKind::NF};

// Reads the markdown ippo table of RDMA-TSO.md: rows "| A lR  | ✓ | ... |".
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

// Applies "B1 (lW→lR) ✗"-style cell changes found in one sentence of the spec.
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
    EXPECT_NE(b, std::string::npos) << "spec no longer says: " << start;
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
    std::string md = readFile(sharedDir() + "/spec/RDMA-TSO.md");
};

}  // namespace

TEST_F(TablesTest, IppoMatchesSpec) {
    ASSERT_FALSE(md.empty()) << "cannot read " << sharedDir() << "/spec/RDMA-TSO.md";
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
    // The spec writes "oppo G8 and G9 become ✗".
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

TEST(Models, AllLoadAndDescribeThemselves) {
    for (const std::string name : {"rdma-tso", "rdma-tso-nopcie", "tso", "sc"}) {
        Model m = loadModel(modelsDir(), name);
        EXPECT_EQ(m.name, name);
        EXPECT_FALSE(m.description.empty());
        EXPECT_FALSE(m.clocks.empty());
    }
    EXPECT_TRUE(loadModel(modelsDir(), "rdma-tso").nfo);
    EXPECT_FALSE(loadModel(modelsDir(), "rdma-tso-nopcie").nfo);
    EXPECT_FALSE(loadModel(modelsDir(), "tso").supports[static_cast<int>(EventKind::NLR)]);
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
