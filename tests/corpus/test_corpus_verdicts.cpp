// litmus/*/expected.csv: every corpus test under every model with a stated verdict,
// and, where the corpus has a states column, its number of final states.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "../test_support.hpp"
#include "rdmacheck/machine.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

struct Expectation {
    std::string test, model, expect, source;
    std::optional<size_t> states;  // the number of final states, where the corpus has a states column
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

// The position of column `name` in the header, if it has one.
std::optional<size_t> columnOf(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) return std::nullopt;
    return static_cast<size_t>(it - header.begin());
}

// One row; `states` is read when the header has that column, and every row must then fill it.
std::optional<Expectation> parseRow(const std::string& line, std::optional<size_t> statesColumn) {
    const std::vector<std::string> f = splitCsv(line);
    EXPECT_GE(f.size(), 3u) << line;
    if (f.size() < 3) return std::nullopt;
    Expectation e{f[0], f[1], f[2], f.size() > 3 ? f[3] : "", std::nullopt};
    if (statesColumn) {
        const std::string cell = *statesColumn < f.size() ? f[*statesColumn] : "";
        const bool number = !cell.empty() && cell.find_first_not_of("0123456789") == std::string::npos;
        EXPECT_TRUE(number) << "the states cell is not a number: " << line;
        if (number) e.states = std::stoul(cell);
    }
    return e;
}

std::vector<Expectation> readExpectations(const std::string& dir) {
    std::vector<Expectation> rows;
    std::istringstream in(readFile(dir + "/expected.csv"));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("test,model,expect,source", 0), 0u) << dir << "/expected.csv header";
    const std::optional<size_t> statesColumn = columnOf(splitCsv(line), "states");
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (std::optional<Expectation> e = parseRow(line, statesColumn)) rows.push_back(*e);
    }
    return rows;
}

// The verdict, and the number of final states where the row gives it. A
// verdict `Loop Ok` or `Loop No` (herd7's, when the unroll bound cuts a
// candidate) is the declarative engine's; a machine marks only the loops its
// runs reach, so its verdict is compared without the mark.
void expectAsStated(const CheckResult& r, const Expectation& e, const std::string& engine) {
    const bool declarative = engine == "declarative";
    const std::string loop = declarative && !r.cutLoops.empty() ? "Loop " : "";
    const std::string expected = declarative ? e.expect : e.expect.substr(e.expect.rfind(' ') + 1);
    EXPECT_EQ(loop + (r.ok ? "Ok" : "No"), expected) << engine;
    if (e.states) {
        EXPECT_EQ(r.states.size(), *e.states) << engine << ": final states";
    }
}

bool hasRemoteRmw(const LitmusTest& test) {
    return std::any_of(test.threads.begin(), test.threads.end(), [](const ThreadDecl& t) {
        return anyStatement(t.body, [](const Stmt& s) { return s.kind == Stmt::Kind::RCas || s.kind == Stmt::Kind::RFaa; });
    });
}

// Both machines, where the model has them: remote RMWs have rules on the
// simplified machine only (RMW App. D.1).
void expectMachinesAsStated(const LitmusTest& test, const Model& model, const Expectation& e) {
    if (!findMachine(model)) return;  // the MOWGLI models are declarative only
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
        MachineOptions options;
        options.kind = kind;
        if (hasRemoteRmw(test) && kind == MachineKind::Concrete) {
            EXPECT_THROW(explore(test, model, options), InputError);
            continue;
        }
        expectAsStated(explore(test, model, options), e, std::string(machineName(kind)) + " machine");
    }
}

void expectEveryTestHasARow(const std::string& dir, const std::set<std::string>& withVerdict) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".litmus") continue;
        EXPECT_TRUE(withVerdict.count(entry.path().filename().string()))
            << entry.path() << " has no row in expected.csv";
    }
}

// Every row of dir/expected.csv under the declarative engine and both machines;
// every test of dir has a row.
void expectCorpusVerdicts(const std::string& dir) {
    std::vector<Expectation> rows = readExpectations(dir);
    ASSERT_FALSE(rows.empty());
    std::set<std::string> withVerdict;
    for (const Expectation& e : rows) {
        SCOPED_TRACE(e.test + " under " + e.model + " (" + e.source + ")");
        ASSERT_TRUE(e.expect == "Ok" || e.expect == "No" || e.expect == "Loop Ok" || e.expect == "Loop No")
            << e.expect;
        const LitmusTest test = parseLitmusFile(dir + "/" + e.test);
        const Model model = loadModel(modelsDir(), e.model);
        const CheckResult r = check(test, model, CheckOptions{});
        expectAsStated(r, e, "declarative");
        withVerdict.insert(e.test);
        expectMachinesAsStated(test, model, e);
    }
    expectEveryTestHasARow(dir, withVerdict);
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


// The EXS stream protocol over RDMA: litmus/exs/README.md, doc/case-studies/exs.md.
// Its states column also tells a deadlock (no final state) from a forall that holds.
TEST(Corpus, ExsCaseStudyVerdictsAndStates) { expectCorpusVerdicts(sourceDir() + "/litmus/exs"); }

// Reports without their Model lines and rdmacheck's Warning lines (herd7 writes its warnings on stderr).
static std::string withoutModelLines(const std::string& reports) {
    std::string kept;
    std::istringstream lines(reports);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("Model ", 0) != 0 && line.rfind("Warning: ", 0) != 0) kept += line + "\n";
    return kept;
}

// herd7's X86 instructions beyond the conformance suite's (litmus/x86/README.md):
// the verdicts; both machines reach the declarative engine's final states under
// tso, rdma-tso and sc; and under tso herd7 7.58's whole report, line for line
// but the Model line (litmus/x86/herd7-7.58.log, herd7 run beside rdmacheck).
TEST(Corpus, X86InstructionsGiveHerd7sReports) {
    const std::string dir = sourceDir() + "/litmus/x86";
    expectCorpusVerdicts(dir);
    for (const std::string& file : litmusFiles(dir))
        for (const std::string name : {"tso", "rdma-tso", "sc"}) {
            SCOPED_TRACE(file + " under " + name);
            const LitmusTest test = parseLitmusFile(file);
            const Model model = loadModel(modelsDir(), name);
            const CheckResult declarative = check(test, model, CheckOptions{});
            for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
                MachineOptions options;
                options.kind = kind;
                EXPECT_EQ(explore(test, model, options).states, declarative.states) << machineName(kind);
            }
        }
    const std::string herd = readFile(dir + "/herd7-7.58.log");
    std::string ours;
    for (const std::string& file : litmusFiles(dir)) ours += runTool("--model tso --no-time " + file).out;
    EXPECT_EQ(withoutModelLines(ours), herd);
}

// The loops at other bounds: herd7 7.58's -unroll 1 and 3 (litmus/x86/herd7-7.58-unroll*.log,
// run beside rdmacheck) count the jumps back to each instruction along a path.
TEST(Corpus, X86LoopsBoundedAsHerd7Bounds) {
    const std::string dir = sourceDir() + "/litmus/x86";
    for (const char* unroll : {"1", "3"}) {
        std::string ours;
        for (const std::string& file : litmusFiles(dir))
            if (file.find("/x86-loop-") != std::string::npos || file.find("crossing-loop") != std::string::npos)
                ours += runTool(std::string("--model tso --no-time --unroll ") + unroll + " " + file).out;
        EXPECT_EQ(withoutModelLines(ours), readFile(dir + "/herd7-7.58-unroll" + unroll + ".log")) << "--unroll " << unroll;
    }
}
