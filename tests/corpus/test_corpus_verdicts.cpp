// litmus/*/expected.csv: every corpus test under every model with a stated verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "../test_support.hpp"
#include "rdmacheck/machine.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

struct Expectation {
    std::string test, model, expect, source;
};

// CSV with optional double-quoted fields.
std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '"') {
            if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<Expectation> readExpectations(const std::string& dir) {
    std::vector<Expectation> rows;
    std::istringstream in(readFile(dir + "/expected.csv"));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("test,model,expect,source", 0), 0u) << dir << "/expected.csv header";
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto f = splitCsv(line);
        EXPECT_GE(f.size(), 3u) << line;
        if (f.size() >= 3) rows.push_back({f[0], f[1], f[2], f.size() > 3 ? f[3] : ""});
    }
    return rows;
}


// Every row of dir/expected.csv under the declarative engine and both machines
// (remote RMWs have rules on the simplified machine only, RMW App. D.1);
// every test of dir has a row.
void expectCorpusVerdicts(const std::string& dir) {
    std::vector<Expectation> rows = readExpectations(dir);
    ASSERT_FALSE(rows.empty());
    std::set<std::string> withVerdict;
    for (const Expectation& e : rows) {
        SCOPED_TRACE(e.test + " under " + e.model + " (" + e.source + ")");
        ASSERT_TRUE(e.expect == "Ok" || e.expect == "No") << e.expect;
        LitmusTest test = parseLitmusFile(dir + "/" + e.test);
        const Model model = loadModel(modelsDir(), e.model);
        CheckResult r = check(test, model, CheckOptions{});
        EXPECT_EQ(r.ok ? "Ok" : "No", e.expect);
        EXPECT_TRUE(r.cutLoops.empty());
        withVerdict.insert(e.test);
        if (!findMachine(model)) continue;  // the MOWGLI models are declarative only
        bool rmw = false;
        for (const ThreadDecl& t : test.threads)
            rmw = rmw || anyStatement(t.body, [](const Stmt& s) {
                      return s.kind == Stmt::Kind::RCas || s.kind == Stmt::Kind::RFaa;
                  });
        for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
            MachineOptions options;
            options.kind = kind;
            if (rmw && kind == MachineKind::Concrete) {
                EXPECT_THROW(explore(test, model, options), InputError);
                continue;
            }
            CheckResult m = explore(test, model, options);
            EXPECT_EQ(m.ok ? "Ok" : "No", e.expect) << machineName(kind) << " machine";
        }
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".litmus") continue;
        EXPECT_TRUE(withVerdict.count(entry.path().filename().string()))
            << entry.path() << " has no row in expected.csv";
    }
}

}  // namespace

TEST(Corpus, RdmaTsoPaperVerdicts) { expectCorpusVerdicts(sourceDir() + "/litmus/rdma-tso"); }

TEST(Corpus, RdmaTsoRmwPaperVerdictsAndAtomicityFamily) { expectCorpusVerdicts(sourceDir() + "/litmus/rdma-tso-rmw"); }

// The LOCO and RMW papers' RDMA^WAIT figures, doc/model-notes.md §N6 and derived tests.
TEST(Corpus, RdmaWaitPaperVerdictsAndDerivedTests) { expectCorpusVerdicts(sourceDir() + "/litmus/rdma-wait"); }

// The barrier library: LOCO Figs. 6 and 12, and tests of BAL's so and call counts.
TEST(Corpus, BarrierLibraryVerdicts) { expectCorpusVerdicts(sourceDir() + "/litmus/bal"); }

// The lock libraries WLOCK, SLOCK, NLOCK: litmus/locks/README.md (RMW Figs. 8, 11, 12,
// the §2.4 prose example, and derived tests of each lock's so).
TEST(Corpus, LockLibraryVerdicts) { expectCorpusVerdicts(sourceDir() + "/litmus/locks"); }

// RDMA^SC_RMW: litmus/sc/README.md (RMW Fig. 15 rebuilt, and derived tests).
TEST(Corpus, SequentialConsistencyLibraryVerdicts) { expectCorpusVerdicts(sourceDir() + "/litmus/sc"); }

// The ring buffer RBL: litmus/rbl/README.md (LOCO Fig. 13, and derived tests).
TEST(Corpus, RingBufferLibraryVerdicts) { expectCorpusVerdicts(sourceDir() + "/litmus/rbl"); }

