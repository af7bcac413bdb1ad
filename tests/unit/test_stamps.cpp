// The stamp orders in models/ against the papers' tables, cell by cell: the
// 12-stamp order of RDMA^WAIT_RMW (RMW Fig. 9, read as a Y/N/SN block), the 11-stamp
// order of RDMA^WAIT (LOCO Fig. 10, a markdown table) and ippo (RMW §3.2), each
// read through the model's kind -> stamp map. The tables are kMowgliStampOrders.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "../mowgli_stamp_orders.hpp"
#include "../test_support.hpp"
#include "../../src/libraries/bal/bal.hpp"
#include "../../src/libraries/locks/locks.hpp"
#include "../../src/libraries/rbl/rbl.hpp"
#include "../../src/libraries/sc/sc.hpp"
#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/library.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// Stamp orders as the tables write them: rows the po-earlier stamp.
using StampOrder = std::map<std::string, std::map<std::string, Cell>>;

const std::vector<std::string> kStamps12 = {"aCR",  "aCW",  "aCAS", "aMF",  "aWT", "aNLR",
                                            "aNRW", "aNAR", "aNRR", "aNLW", "aRF", "aGF"};
const std::set<std::string> kFamilies = {"aNLR", "aNRW", "aNAR", "aNRR", "aNLW", "aRF", "aGF"};

// The "stamps" map of rdma-wait-rmw.json and rdma-wait.json (RMW Fig. 9).
const std::map<EventKind, std::string> kWaitStamps = {
    {EventKind::LR, "aCR"},   {EventKind::LW, "aCW"},   {EventKind::CAS, "aCAS"}, {EventKind::F, "aMF"},
    {EventKind::WT, "aWT"},   {EventKind::NLR, "aNLR"}, {EventKind::NRW, "aNRW"}, {EventKind::NAR, "aNAR"},
    {EventKind::NAW, "aNRW"}, {EventKind::NRR, "aNRR"}, {EventKind::NLW, "aNLW"}, {EventKind::NF, "aRF"},
    {EventKind::GF, "aGF"},   {bal::BX, "aCR"},  // BX: a barrier's exit point (LOCO Def. 4.1)
    // The locks' subevents (RMW §4.2-§4.4).
    {locks::ACQ, "aMF"},  {locks::RCW, "aCW"}, {locks::RGF, "aGF"},  {locks::RRF, "aRF"},
    {locks::RNRW, "aNRW"},
    // RDMA^SC_RMW's events (RMW Def. 8).
    {sc::SCR, "aMF"},  {sc::SCW, "aMF"}, {sc::SCU, "aMF"},
    // RBL's (LOCO §5.1).
    {rbl::SUBCW, "aCW"}, {rbl::SUBNRW, "aNRW"}, {rbl::SUBF, "aWT"}, {rbl::RECV, "aCR"},
    {rbl::RECVF, "aWT"}};

// mowgli-tso-rmw.json: RDMA^TSO_RMW in MOWGLI style, a poll stamped aWT (§10.1), no gF.
std::map<EventKind, std::string> tsoRmwStamps() {
    std::map<EventKind, std::string> m = kWaitStamps;
    m.erase(EventKind::WT);
    m.erase(EventKind::GF);
    m.erase(bal::BX);
    for (EventKind library : {locks::ACQ, locks::RCW, locks::RGF, locks::RRF, locks::RNRW,
                              sc::SCR, sc::SCW, sc::SCU, rbl::SUBCW, rbl::SUBNRW,
                              rbl::SUBF, rbl::RECV, rbl::RECVF})
        m.erase(library);
    m[EventKind::P] = "aWT";
    return m;
}

const char* cellName(Cell c) { return c == Cell::Ordered ? "✓" : c == Cell::Unordered ? "✗" : "SN"; }

std::string trim(const std::string& s) { return std::regex_replace(s, std::regex(R"(^\s+|\s+$)"), ""); }

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// Text of the section that starts with `heading` (up to the next "### ").
std::string section(const std::string& md, const std::string& heading) {
    const size_t b = md.find(heading);
    EXPECT_NE(b, std::string::npos) << "kMowgliStampOrders has no section " << heading;
    if (b == std::string::npos) return "";
    const size_t e = md.find("\n### ", b + 1);
    return md.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

// The "### 3.3" excerpt's Y/N/SN block: "    #      aCR aCW ..." then 12 rows of Y, N, SN.
StampOrder machineReadable12(const std::string& md) {
    StampOrder t;
    const std::string sec = section(md, "### 3.3 ");
    const size_t start = sec.find("Machine-readable form");
    EXPECT_NE(start, std::string::npos);
    if (start == std::string::npos) return t;
    std::istringstream in(sec.substr(start));
    std::vector<std::string> columns;
    std::string line;
    std::getline(in, line);  // the sentence introducing the block
    while (std::getline(in, line)) {
        if (trim(line).empty()) {
            if (columns.empty()) continue;
            break;  // end of the block
        }
        EXPECT_EQ(line.rfind("    ", 0), 0u) << "not an indented block line: " << line;
        std::vector<std::string> w = words(line);
        if (columns.empty()) {
            EXPECT_EQ(w.at(0), "#") << line;
            columns.assign(w.begin() + 1, w.end());
            EXPECT_EQ(columns, kStamps12);
            continue;
        }
        EXPECT_EQ(w.size(), columns.size() + 1) << line;
        for (size_t c = 0; c + 1 < w.size() && c < columns.size(); ++c) {
            const std::string& v = w[c + 1];
            EXPECT_TRUE(v == "Y" || v == "N" || v == "SN") << line;
            t[w[0]][columns[c]] = v == "Y" ? Cell::Ordered : v == "N" ? Cell::Unordered : Cell::SameQueuePair;
        }
    }
    EXPECT_EQ(t.size(), 12u);
    for (size_t r = 0; r < kStamps12.size(); ++r) EXPECT_EQ(t.count(kStamps12[r]), 1u) << kStamps12[r];
    return t;
}

// A markdown stamp table of the section `heading`: "| 1 aCR | 2 aCW | ..." header,
// rows "| A aCR   | ✓ | ✗ | SN | **✗** | ...". Checks the row letters and column numbers.
StampOrder markdownTable(const std::string& md, const std::string& heading, size_t size) {
    StampOrder t;
    const std::string sec = section(md, heading);
    std::istringstream in(sec);
    const std::regex header(R"(^\|\s*earlier \\ later\s*\|(.*)\|\s*$)");
    const std::regex row(R"(^\|\s*([A-Z])\s+(a[A-Z]+)\s*\|(.*)\|\s*$)");
    std::vector<std::string> columns;
    int rows = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (columns.empty()) {
            if (!std::regex_match(line, m, header)) continue;
            std::istringstream cells(m[1].str());
            for (std::string c; std::getline(cells, c, '|');) {
                std::vector<std::string> w = words(c);
                EXPECT_EQ(w.size(), 2u) << c;
                if (w.size() != 2) continue;
                EXPECT_EQ(w[0], std::to_string(columns.size() + 1)) << "column number of " << w[1];
                columns.push_back(w[1]);
            }
            EXPECT_EQ(columns.size(), size);
            continue;
        }
        if (!std::regex_match(line, m, row)) {
            if (rows > 0 && line.rfind("|", 0) != 0) break;  // end of the table
            continue;
        }
        const std::string stamp = m[2];
        EXPECT_EQ(m[1].str()[0] - 'A', rows) << "row letter of " << stamp;
        EXPECT_EQ(stamp, columns.at(rows)) << "rows and columns are in the same order";
        std::istringstream cells(m[3].str());
        size_t c = 0;
        for (std::string cell; std::getline(cells, cell, '|'); ++c) {
            cell = std::regex_replace(trim(cell), std::regex(R"(\*\*)"), "");  // **✗** marks the reconstructed cell
            EXPECT_TRUE(cell == "✓" || cell == "✗" || cell == "SN") << line;
            if (c < columns.size())
                t[stamp][columns[c]] = cell == "✓" ? Cell::Ordered : cell == "✗" ? Cell::Unordered : Cell::SameQueuePair;
        }
        EXPECT_EQ(c, size) << line;
        ++rows;
    }
    EXPECT_EQ(static_cast<size_t>(rows), size);
    return t;
}

// Mismatches between a table over event kinds and a stamp order through `stampOf`:
// every (kind, kind) pair of the map, plus the coverage of every kind.
std::vector<std::string> mismatches(const OrderTable& table, const StampOrder& spec,
                                    const std::map<EventKind, std::string>& stampOf) {
    std::vector<std::string> out;
    for (int k = 0; k < eventKindCount(); ++k) {
        const EventKind kind = static_cast<EventKind>(k);
        if (table.covers[k] != (stampOf.count(kind) > 0))
            out.push_back(std::string(table.covers[k] ? "covers " : "does not cover ") + kindName(kind));
    }
    for (const auto& [earlier, a] : stampOf)
        for (const auto& [later, b] : stampOf) {
            const Cell want = spec.at(a).at(b);
            const Cell have = table.at(earlier, later);
            if (want != have)
                out.push_back(std::string(kindName(earlier)) + " -> " + kindName(later) + " (" + a + " -> " + b +
                              "): spec " + cellName(want) + ", model " + cellName(have));
        }
    return out;
}

// A cell of RMW Fig. 9, e.g. "G11": row letter, column number.
std::pair<std::string, std::string> rmwCell(const std::string& name) {
    const size_t row = static_cast<size_t>(name[0] - 'A');
    const size_t column = std::stoul(name.substr(1)) - 1;
    EXPECT_LT(row, kStamps12.size()) << name;
    EXPECT_LT(column, kStamps12.size()) << name;
    return {kStamps12.at(row), kStamps12.at(column)};
}

class StampsTest : public ::testing::Test {
protected:
    void SetUp() override {
        spec12 = machineReadable12(md);
        ASSERT_EQ(spec12.size(), 12u);
    }

    // ippo (RMW §3.2, the "### 4.6" excerpt): the stamp order plus the cells
    // "puts back" names. A cell between two family stamps comes from
    // ⋃_n [aNRW_n ∪ aNLW_n];po;[aRF_n] and is SN; the others come from
    // [aCW];po;[aCR ∪ aWT] and are ✓.
    StampOrder specIppo() {
        StampOrder t = spec12;
        const std::string sec = section(md, "### 4.6 ");
        std::smatch m;
        const bool found = std::regex_search(sec, m, std::regex(R"(puts back cells ([^(]*) \(RMW numbering\))"));
        EXPECT_TRUE(found) << "the 4.6 excerpt no longer says which cells ippo puts back";
        if (!found) return t;
        const std::string list = m[1];
        std::vector<std::string> names;
        const std::regex cell(R"(\b[A-L]\d{1,2}\b)");
        for (auto it = std::sregex_iterator(list.begin(), list.end(), cell); it != std::sregex_iterator(); ++it)
            names.push_back((*it)[0]);
        EXPECT_EQ(names, (std::vector<std::string>{"B1", "B5", "G11", "J11"}));
        for (const std::string& name : names) {
            const auto [a, b] = rmwCell(name);
            EXPECT_EQ(t[a][b], Cell::Unordered) << name << " is ✗ in the stamp order";
            t[a][b] = kFamilies.count(a) && kFamilies.count(b) ? Cell::SameQueuePair : Cell::Ordered;
        }
        return t;
    }

    const std::string md = kMowgliStampOrders;
    StampOrder spec12;
};

}  // namespace

// The "### 3.3" excerpt's markdown table and its Y/N/SN block say the same.
TEST_F(StampsTest, SpecMarkdownAndMachineReadableFormsAgree) {
    const StampOrder markdown = markdownTable(md, "### 3.3 ", 12);
    for (const std::string& a : kStamps12)
        for (const std::string& b : kStamps12)
            EXPECT_EQ(cellName(markdown.at(a).at(b)), cellName(spec12.at(a).at(b))) << a << " -> " << b;
}

TEST_F(StampsTest, RdmaWaitRmwPpoIsThe12StampOrder) {
    const Model m = loadModel(modelsDir(), "rdma-wait-rmw");
    const OrderTable& ppo = m.tables.at("ppo");
    EXPECT_EQ(joined(mismatches(ppo, spec12, kWaitStamps), "\n"), "");
    // The cells the papers' prose relies on, as event kinds (RMW §2.3, §3.2, App. A, B.3).
    EXPECT_EQ(ppo.at(EventKind::LW, EventKind::LR), Cell::Unordered);      // B1
    EXPECT_EQ(ppo.at(EventKind::LW, EventKind::WT), Cell::Unordered);      // B5
    EXPECT_EQ(ppo.at(EventKind::NRW, EventKind::NF), Cell::Unordered);     // G11, the G10 doubt of [LOCO]
    EXPECT_EQ(ppo.at(EventKind::NLW, EventKind::NF), Cell::Unordered);     // J11
    EXPECT_EQ(ppo.at(EventKind::NRW, EventKind::GF), Cell::SameQueuePair); // G12
    EXPECT_EQ(ppo.at(EventKind::NAW, EventKind::GF), Cell::SameQueuePair); // narW is an aNRW
    EXPECT_EQ(ppo.at(EventKind::GF, EventKind::LW), Cell::Ordered);        // L2
    EXPECT_EQ(ppo.at(EventKind::NRR, EventKind::NRW), Cell::Unordered);    // I7
    EXPECT_EQ(ppo.at(EventKind::NAR, EventKind::NRW), Cell::SameQueuePair);// H7
    EXPECT_FALSE(ppo.covers[static_cast<int>(EventKind::P)]);
}

TEST_F(StampsTest, RdmaWait11StampOrderIsThe12StampOrderWithoutNar) {
    const StampOrder spec11 = markdownTable(md, "### 3.4 ", 11);
    std::vector<std::string> stamps11 = kStamps12;
    stamps11.erase(std::find(stamps11.begin(), stamps11.end(), "aNAR"));
    ASSERT_EQ(spec11.size(), 11u);
    for (const std::string& a : stamps11)
        for (const std::string& b : stamps11)
            EXPECT_EQ(cellName(spec11.at(a).at(b)), cellName(spec12.at(a).at(b))) << a << " -> " << b;

    // rdma-wait lists its events without narR/narW; on them its table is the 11-stamp order.
    const Model m = loadModel(modelsDir(), "rdma-wait");
    std::map<EventKind, std::string> stampOf = kWaitStamps;
    stampOf.erase(EventKind::NAR);
    stampOf.erase(EventKind::NAW);
    for (int k = 0; k < eventKindCount(); ++k)
        EXPECT_EQ(m.supports[k], stampOf.count(static_cast<EventKind>(k)) > 0) << kindName(static_cast<EventKind>(k));
    const OrderTable& ppo = m.tables.at("ppo");
    for (const auto& [earlier, a] : stampOf)
        for (const auto& [later, b] : stampOf)
            EXPECT_EQ(cellName(ppo.at(earlier, later)), cellName(spec11.at(a).at(b)))
                << kindName(earlier) << " -> " << kindName(later) << " (" << a << " -> " << b << ")";
    EXPECT_FALSE(m.uses("rao"));
    EXPECT_TRUE(m.libraries.count(findLibrary("sv").value()));
}

TEST_F(StampsTest, IppoIsPpoPlusB1B5G11J11) {
    const StampOrder ippo = specIppo();
    for (const std::string name : {"rdma-wait-rmw", "rdma-wait"}) {
        SCOPED_TRACE(name);
        const Model m = loadModel(modelsDir(), name);
        EXPECT_EQ(joined(mismatches(m.tables.at("ippo"), ippo, kWaitStamps), "\n"), "");
    }
    const Model m = loadModel(modelsDir(), "rdma-wait-rmw");
    const OrderTable& ppo = m.tables.at("ppo");
    const OrderTable& issue = m.tables.at("ippo");
    EXPECT_EQ(issue.at(EventKind::LW, EventKind::LR), Cell::Ordered);         // B1
    EXPECT_EQ(issue.at(EventKind::LW, EventKind::WT), Cell::Ordered);         // B5
    EXPECT_EQ(issue.at(EventKind::NRW, EventKind::NF), Cell::SameQueuePair);  // G11
    EXPECT_EQ(issue.at(EventKind::NAW, EventKind::NF), Cell::SameQueuePair);  // G11 (an RMW's aNRW)
    EXPECT_EQ(issue.at(EventKind::NLW, EventKind::NF), Cell::SameQueuePair);  // J11
    // Exactly those cells differ, counted over stamps: one kind per stamp (narW
    // shares nrW's row G, barX lR's column 1, the locks' kinds their stamps').
    std::map<std::string, EventKind> kindOfStamp;
    for (const auto& [kind, stamp] : kWaitStamps) kindOfStamp.emplace(stamp, kind);
    int differing = 0;
    for (const auto& [a, earlier] : kindOfStamp)
        for (const auto& [b, later] : kindOfStamp)
            if (ppo.at(earlier, later) != issue.at(earlier, later)) ++differing;
    EXPECT_EQ(differing, 4);
}

TEST_F(StampsTest, StampOrdersRelateDifferentCallsOnly) {
    for (const std::string name : {"rdma-wait-rmw", "rdma-wait", "mowgli-tso-rmw"}) {
        const Model m = loadModel(modelsDir(), name);
        EXPECT_TRUE(m.stamped) << name;
        EXPECT_TRUE(m.tables.at("ppo").betweenCallsOnly) << name;
        EXPECT_TRUE(m.tables.at("ippo").betweenCallsOnly) << name;
    }
    // The RDMA^TSO tables order events, not stamps.
    const Model tso = loadModel(modelsDir(), "rdma-tso-rmw");
    EXPECT_FALSE(tso.stamped);
    for (const auto& [name, table] : tso.tables) EXPECT_FALSE(table.betweenCallsOnly) << name;
}

TEST_F(StampsTest, MowgliTsoRmwStampsPollsAsWaitsAndHasNoWaitOrGlobalFence) {
    const Model m = loadModel(modelsDir(), "mowgli-tso-rmw");
    EXPECT_EQ(joined(mismatches(m.tables.at("ppo"), spec12, tsoRmwStamps()), "\n"), "");
    EXPECT_EQ(joined(mismatches(m.tables.at("ippo"), specIppo(), tsoRmwStamps()), "\n"), "");
    EXPECT_TRUE(m.supports[static_cast<int>(EventKind::P)]);
    EXPECT_FALSE(m.supports[static_cast<int>(EventKind::WT)]);
    EXPECT_FALSE(m.supports[static_cast<int>(EventKind::GF)]);
    EXPECT_TRUE(m.supports[static_cast<int>(EventKind::NAR)]);
    EXPECT_FALSE(m.libraries.count(findLibrary("sv").value()));
    // A poll is a wait: row and column P are row and column aWT.
    const OrderTable& ppo = m.tables.at("ppo");
    EXPECT_EQ(ppo.at(EventKind::LW, EventKind::P), Cell::Unordered);  // B5
    EXPECT_EQ(ppo.at(EventKind::P, EventKind::LR), Cell::Ordered);
    EXPECT_EQ(ppo.at(EventKind::NRW, EventKind::P), Cell::Unordered);
}

// The comparison above is not vacuous: one changed cell in a copy of mowgli.sto
// (the doubtful G11, aNRW -> aRF, set to SN) is reported, and only it.
TEST_F(StampsTest, AChangedCellIsReported) {
    const std::string text = readFile(modelsDir() + "/mowgli.sto");
    ASSERT_FALSE(text.empty());
    std::istringstream in(text);
    std::string changed;
    int edits = 0;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> w = words(line);
        if (!w.empty() && w[0] == "aNRW" && w.size() == 13) {
            EXPECT_EQ(w[11], "N");
            w[11] = "SN";  // column aRF
            line.clear();
            for (const std::string& x : w) line += x + " ";
            ++edits;
        }
        changed += line + "\n";
    }
    ASSERT_EQ(edits, 1);
    const TempDir dir("stamps");
    const std::string path = dir / "changed.sto";
    {
        std::ofstream out(path);
        out << changed;
    }
    std::map<std::string, std::string> stampOf;
    for (const auto& [kind, stamp] : kWaitStamps) stampOf[kindName(kind)] = stamp;
    const OrderTable table = loadStampTable(path, "ppo", stampOf);
    const std::vector<std::string> found = mismatches(table, spec12, kWaitStamps);
    // nrW, narW, relNRW and subNRW are aNRW, nF and relRF aRF: eight kind pairs, one stamp cell.
    EXPECT_EQ(joined(found, "\n"),
              "nrW -> nF (aNRW -> aRF): spec ✗, model SN\n"
              "nrW -> relRF (aNRW -> aRF): spec ✗, model SN\n"
              "narW -> nF (aNRW -> aRF): spec ✗, model SN\n"
              "narW -> relRF (aNRW -> aRF): spec ✗, model SN\n"
              "relNRW -> nF (aNRW -> aRF): spec ✗, model SN\n"
              "relNRW -> relRF (aNRW -> aRF): spec ✗, model SN\n"
              "subNRW -> nF (aNRW -> aRF): spec ✗, model SN\n"
              "subNRW -> relRF (aNRW -> aRF): spec ✗, model SN");
}
