// The 487 x86 conformance tests, each file checked once per model and engine:
// - `tso`, declarative: herd7's full results (states in herd7's order, Ok/No,
//   observation, execution counts, condition) and Dat3M's expected verdicts; and
//   `rdma-tso`, declarative, must give the same states and Ok/No (Theorem 4.6 of
//   the RDMA^TSO paper: without remote operations RDMA^TSO and x86-TSO coincide;
//   the other model inclusions are in test_model_inclusions.cpp). One result of
//   each model per file serves all these checks. The files are split into
//   kShards shards (file i in shard i mod kShards) so that ctest runs them in
//   parallel; shard 0 is in the fast tier, the others are slow.
// - `tso`, operational machine (store buffers only, on CPU-only tests): exactly
//   herd7's states.
// `sc`, declarative against the sequential machine, is the ctest cross_sc_machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "rdmacheck/herd_log.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/report.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

constexpr int kShards = 16;
constexpr size_t kTests = 487;

// herd7's results and Dat3M's verdicts, read once per test process.
struct Expectations {
    std::string dir = sharedDir() + "/conformance/x86-tso";
    nlohmann::json herd;                        // herd7-x86tso.json's "tests"
    std::vector<std::string> files;             // its files, in its order
    std::vector<std::string> dat3mFiles;        // TSO-expected.csv's files, in its order
    std::map<std::string, std::string> dat3m;   // file -> "1" (allowed) or "0"
    std::map<std::string, std::string> herdLog; // test name -> herd7 7.58's report, Time aside

    Expectations() {
        herd = nlohmann::json::parse(readFile(dir + "/herd7-x86tso.json")).at("tests");
        for (const auto& [file, expected] : herd.items()) files.push_back(file);
        std::istringstream csv(readFile(dir + "/TSO-expected.csv"));
        for (std::string line; std::getline(csv, line);) {
            if (line.empty()) continue;
            const std::string path = line.substr(0, line.find(','));
            const std::string file = path.substr(path.rfind('/') + 1);
            dat3mFiles.push_back(file);
            dat3m[file] = line.substr(line.find(',') + 1);
        }
        std::istringstream log(readFile(dir + "/herd7-7.58.log"));
        std::string name;
        for (std::string line; std::getline(log, line);) {
            if (line.rfind("Test ", 0) == 0) name = line.substr(5, line.rfind(' ') - 5);
            if (!name.empty() && line.rfind("Time ", 0) != 0 && !line.empty())
                herdLog[name] += line + "\n";
        }
    }
};

const Expectations& expectations() {
    static const Expectations e;
    return e;
}

// The states in herd7's order, Ok/No and the observation.
void expectHerd7States(const LitmusTest& test, const CheckResult& r, const nlohmann::json& expected) {
    std::vector<std::string> states;
    for (const auto& [state, satisfies] : r.states) states.push_back(stateLine(r.shown, state, test.addresses));
    EXPECT_EQ(states, expected.at("states").get<std::vector<std::string>>());
    EXPECT_EQ(r.ok ? "Ok" : "No", expected.at("ok").get<std::string>());
    EXPECT_EQ(r.observation(), expected.at("observation").get<std::string>());
}

bool isNicStatement(Stmt::Kind k) {
    return k == Stmt::Kind::Get || k == Stmt::Kind::Put || k == Stmt::Kind::Poll || k == Stmt::Kind::RFence ||
           k == Stmt::Kind::RCas || k == Stmt::Kind::RFaa;
}

}  // namespace

// herd7's results, Dat3M's verdicts and the files on disk name the same 487
// tests, so the shards below, which walk herd7's list, check every file against
// both, and against rdma-tso.
TEST(X86Conformance, ExpectationsNameEveryTestFile) {
    const Expectations& e = expectations();
    EXPECT_EQ(e.files.size(), kTests);
    EXPECT_EQ(e.dat3mFiles.size(), kTests);
    EXPECT_EQ(e.dat3m.size(), e.dat3mFiles.size()) << "a file appears twice in TSO-expected.csv";
    std::set<std::string> onDisk;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(e.dir + "/tests"))
        if (entry.path().extension() == ".litmus") onDisk.insert(entry.path().filename().string());
    const std::set<std::string> herd(e.files.begin(), e.files.end());
    const std::set<std::string> dat3m(e.dat3mFiles.begin(), e.dat3mFiles.end());
    EXPECT_EQ(herd, onDisk);
    EXPECT_EQ(dat3m, onDisk);
    EXPECT_EQ(e.herdLog.size(), kTests);
}

class X86TsoDeclarative : public ::testing::TestWithParam<int> {};

TEST_P(X86TsoDeclarative, AgreesWithHerd7Dat3mAndRdmaTso) {
    const Expectations& e = expectations();
    const Model tso = loadModel(modelsDir(), "tso");
    const Model rdmaTso = loadModel(modelsDir(), "rdma-tso");
    const int shard = GetParam();
    size_t checked = 0;
    for (size_t i = static_cast<size_t>(shard); i < e.files.size(); i += kShards) {
        const std::string& file = e.files[i];
        const nlohmann::json& expected = e.herd.at(file);
        SCOPED_TRACE(file);
        const LitmusTest test = parseLitmusFile(e.dir + "/tests/" + file);
        const CheckResult r = check(test, tso, CheckOptions{});
        // herd7
        expectHerd7States(test, r, expected);
        EXPECT_EQ(r.positive, expected.at("positive").get<uint64_t>());
        EXPECT_EQ(r.negative, expected.at("negative").get<uint64_t>());
        EXPECT_EQ(conditionText(test.quantifier, test.condition, test.addresses), expected.at("condition").get<std::string>());
        // herd7's own log, line for line (Time aside), Hash= included
        std::ostringstream report, warnings;
        printHerd(report, warnings, test, r, ReportOptions{false});
        std::string ours = report.str();  // without our Model line, which herd7 does not print
        ours.erase(ours.find("Model "), ours.find('\n', ours.find("Model ")) - ours.find("Model ") + 1);
        const auto logged = e.herdLog.find(r.test);
        if (logged == e.herdLog.end())
            ADD_FAILURE() << "no report of " << r.test << " in herd7-7.58.log";
        else
            EXPECT_EQ(ours, logged->second + "\n");
        // Dat3M
        const auto verdict = e.dat3m.find(file);
        if (verdict == e.dat3m.end())
            ADD_FAILURE() << "no Dat3M verdict";
        else
            EXPECT_EQ(r.ok ? "1" : "0", verdict->second);
        // rdma-tso, on a CPU-only test
        bool cpuOnly = defaultModelName(test) != "rdma-wait-rmw";
        for (const ThreadDecl& t : test.threads)
            cpuOnly = cpuOnly && !anyStatement(t.body, [](const Stmt& s) { return isNicStatement(s.kind); });
        EXPECT_TRUE(cpuOnly);
        const CheckResult rr = check(test, rdmaTso, CheckOptions{});
        EXPECT_EQ(rr.states, r.states);
        EXPECT_EQ(rr.ok, r.ok);
        ++checked;
    }
    EXPECT_EQ(checked, (kTests - static_cast<size_t>(shard) + kShards - 1) / kShards);
}

std::string shardName(const ::testing::TestParamInfo<int>& info) {
    return "shard" + std::to_string(info.param) + "of" + std::to_string(kShards);
}

INSTANTIATE_TEST_SUITE_P(Sample, X86TsoDeclarative, ::testing::Values(0), shardName);
INSTANTIATE_TEST_SUITE_P(Slow, X86TsoDeclarative, ::testing::Range(1, kShards), shardName);

TEST(X86Conformance, OperationalMachineReachesHerd7States) {
    const Expectations& e = expectations();
    const Model tso = loadModel(modelsDir(), "tso");
    size_t checked = 0;
    for (const std::string& file : e.files) {
        SCOPED_TRACE(file);
        const LitmusTest test = parseLitmusFile(e.dir + "/tests/" + file);
        expectHerd7States(test, explore(test, tso, MachineOptions{}), e.herd.at(file));
        ++checked;
    }
    EXPECT_EQ(checked, kTests);
}

namespace {

// One rdmacheck invocation over the 487 tests with herd7's cat file `model`
// (unchanged, from herd7's own library folder), its reports by test name,
// Time and Model lines aside; herd7's log for it the same way.
std::map<std::string, std::string> reportsByTest(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string name;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Test ", 0) == 0) name = line.substr(5, line.rfind(' ') - 5);
        if (!name.empty() && !line.empty() && line.rfind("Time ", 0) != 0 && line.rfind("Model ", 0) != 0)
            out[name] += line + "\n";
    }
    return out;
}

struct HerdModelRun {
    std::map<std::string, std::string> ours, herd;
};

// `model` by its path (herd7's stdlib.cat is not on the search path: rdmacheck's
// is read), or with `-I` herd7's folder (herd7's stdlib.cat is read).
HerdModelRun runHerdModel(const std::string& model, const std::string& log, bool herdLibrary = false) {
    const std::string cats = sharedDir() + "/conformance/herd-cat";
    const std::string named = herdLibrary ? "-I " + cats + " --model " + model : "--model " + cats + "/" + model;
    const ToolRun r = runTool(named + " " + expectations().dir + "/tests/*.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    return {reportsByTest(r.out), reportsByTest(readFile(log))};
}

}  // namespace

// herd7's own x86tso.cat, tso.cat and sc.cat (with stdlib.cat and every file
// they include, read unchanged): herd7 7.58's log line for line on every test.
TEST(HerdModels, X86tsoCatGivesHerd7sLog) {
    for (bool herdLibrary : {false, true}) {
        const HerdModelRun r = runHerdModel("x86tso.cat", expectations().dir + "/herd7-7.58.log", herdLibrary);
        EXPECT_EQ(r.ours.size(), kTests);
        EXPECT_EQ(r.ours, r.herd);
    }
}

TEST(HerdModels, TsoCatGivesHerd7sLog) {
    const HerdModelRun r = runHerdModel("tso.cat", sharedDir() + "/conformance/herd-cat/herd7-7.58-tso.log");
    EXPECT_EQ(r.ours.size(), kTests);
    EXPECT_EQ(r.ours, r.herd);
}

TEST(HerdModels, ScCatGivesHerd7sLog) {
    const HerdModelRun r = runHerdModel("sc.cat", sharedDir() + "/conformance/herd-cat/herd7-7.58-sc.log");
    EXPECT_EQ(r.ours.size(), kTests);
    EXPECT_EQ(r.ours, r.herd);
}

// uniproc.cat has no atomicity axiom: herd7's XCHG is a read and a write that
// other writes may come between. A model in herd7's terms sees a locked
// instruction as those two events (Model::herdEvents), so its log is herd7's
// too, the 29 tests with XCHG included.
TEST(HerdModels, UniprocCatGivesHerd7sLog) {
    const HerdModelRun r = runHerdModel("uniproc.cat", sharedDir() + "/conformance/herd-cat/herd7-7.58-uniproc.log");
    EXPECT_EQ(r.ours.size(), kTests);
    EXPECT_EQ(r.ours, r.herd);
}

// Unlocked ADD, INC, XOR and OR of memory, MOV from memory to memory and
// XCHG of two locations: herd7's events of one instruction, out of po with
// each other (but XCHG's read of each location to its write), under a model
// in herd7's terms (tests/herd: herd7 7.58's reports under its x86tso.cat and
// uniproc.cat, run on this project's build machine); rdmacheck's own models
// refuse them at the instruction, and a final value that a cycle of copies
// leaves free (herd7's symbolic S2) is refused where it is observed.
TEST(HerdModels, UnlockedUpdatesAsHerd7ReadsThem) {
    const std::string dir = sourceDir() + "/tests/herd";
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".litmus") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    ASSERT_EQ(files.size(), 12u);
    for (const char* model : {"x86tso", "uniproc"}) {
        std::string ours;
        for (const std::string& file : files)
            ours += runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + model + ".cat " + file).out;
        EXPECT_EQ(reportsByTest(ours), reportsByTest(readFile(dir + "/herd7-7.58-" + model + ".log"))) << model;
    }
    const ToolRun own = runTool(files.front());
    EXPECT_EQ(own.status, 2);
    EXPECT_NE(own.err.find("5:2: error: an unlocked read-modify-write of memory is supported only under a model in "
                           "herd7's terms"),
              std::string::npos)
        << own.err;
    const ToolRun free = runTool("-I " + sharedDir() + "/conformance/herd-cat --model x86tso.cat " + dir +
                                 "/free/x86-mov-memory-cycle.litmus");
    EXPECT_EQ(free.status, 2);
    EXPECT_NE(free.err.find("x86-mov-memory-cycle.litmus:6:9: error: in some execution the final value of x is one "
                            "that a cycle of copies along rf leaves free"),
              std::string::npos)
        << free.err;
}

// ADD, XOR and OR of memory with memory, locked or not: herd7 7.58's reads
// of both locations and write of the first, out of po, the operand's read
// never locked (tests/herd/memory-update: herd7's reports under x86tso.cat and
// uniproc.cat). One test's values grow through OR and LOCK ADD into many pairs
// of operands, which took Z3's 64-bit round trip minutes; rdmacheck's own
// models refuse the instruction.
// An OR whose operands take more values than a table of their pairs holds
// goes through bit-vectors as wide as the operands' range (values.cpp's range
// fixpoint): herd7 7.58's report (tests/herd/wide). At 64 bits, as before the
// ranges, this test ran for over a minute.
TEST(HerdModels, WideBitwiseOperandsAsHerd7) {
    const std::string dir = sourceDir() + "/tests/herd/wide/";
    const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model x86tso.cat " + dir +
                              "x86-or-wide.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-x86tso.log")));
}

// The .litmus files of `dir` in name order, every `every`-th from the first, each after a blank.
static std::string testsIn(const std::string& dir, size_t every = 1) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".litmus") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::string tests;
    for (size_t i = 0; i < files.size(); i += every) tests += " " + files[i];
    return tests;
}

static std::string everyEighthTest() { return testsIn(expectations().dir + "/tests", 8); }

// herd7's data, addr and ctrl on X86 (tests/herd/dependencies): flags on each kind, and models forbidding
// addr or data, whose surviving executions show where the edges are. RDMA tests have none: refused.
TEST(HerdModels, DependenciesAsHerd7ComputesThem) {
    const std::string dir = sourceDir() + "/tests/herd/dependencies/";
    for (const char* model : {"deps", "no-addr", "no-data"}) {
        const ToolRun r = runTool("--no-time --model " + dir + model + ".cat" + testsIn(dir));
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-" + model + ".log"))) << model;
        EXPECT_EQ(reportsByTest(r.out).size(), 19u);
    }
    const ToolRun rdma = runTool("--model " + dir + "deps.cat " + sourceDir() + "/litmus/rdma-tso/fig1a-sb.litmus");
    EXPECT_EQ(rdma.status, 2);
    EXPECT_NE(rdma.err.find("fig1a-sb.litmus:1:1: error: model 'deps' uses herd7's data, which rdmacheck computes "
                            "for X86 tests only"), std::string::npos) << rdma.err;
}

TEST(HerdModels, MemoryToMemoryUpdatesAsHerd7ReadsThem) {
    const std::string dir = sourceDir() + "/tests/herd/memory-update";
    std::string files;
    for (const char* test : {"x86-add-memory-mp", "x86-lock-add-memory-sb", "x86-or-memory-grows",
                             "x86-or-memory-same", "x86-xor-memory-race"})
        files += " " + dir + "/" + test + ".litmus";
    for (const char* model : {"x86tso", "uniproc"}) {
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + model + ".cat" + files);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + model + ".log"))) << model;
    }
    const ToolRun own = runTool(dir + "/x86-add-memory-mp.litmus");
    EXPECT_EQ(own.status, 2);
    EXPECT_NE(own.err.find("x86-add-memory-mp.litmus:5:16: error: an update of memory with memory is supported only "
                           "under a model in herd7's terms"),
              std::string::npos)
        << own.err;
}

// herd7 leaves a value that a cycle of copies along rf leaves free symbolic,
// but a candidate that computes with such a value (an ADD into memory, a
// register's INC, a locked INC and DEC reading each other's writes) has
// equations it cannot solve and no execution (tests/herd/grounded: herd7
// 7.58's reports under x86tso.cat and a cat without axioms). rdmacheck
// refused these tests: the free value reached an observed name. A xor of one
// free value with itself is 0 to herd7: that candidate stays. A CMP or INC of
// a free value counts though a later instruction overwrites its register; a
// register's 0 is not a literal $0 (x + EAX is no copy).
TEST(HerdModels, ComputationsWithFreeValuesHaveNoExecution) {
    const std::string dir = sourceDir() + "/tests/herd/grounded/";
    const std::string lb = " " + dir + "x86-lb-add-written.litmus " + dir + "x86-lb-inc-register.litmus " + dir +
                           "x86-lock-inc-dec-cycle.litmus " + dir + "x86-xor-same-free.litmus " + dir +
                           "x86-cycle-branch.litmus " + dir + "x86-cycle-inc-overwritten.litmus";
    const std::string herdCat = " -I " + sharedDir() + "/conformance/herd-cat --model ";
    const ToolRun tso = runTool("--no-time" + herdCat + "x86tso.cat " + dir + "x86-copy-cycle-add.litmus " + dir +
                                "x86-xor-register-zero.litmus" + lb);
    EXPECT_EQ(tso.status, 0) << tso.err;
    EXPECT_EQ(reportsByTest(tso.out), reportsByTest(readFile(dir + "herd7-7.58-x86tso.log")));
    const ToolRun free = runTool("--no-time" + herdCat + sourceDir() + "/tests/herd/locked/no-axiom.cat" + lb);
    EXPECT_EQ(free.status, 0) << free.err;
    EXPECT_EQ(reportsByTest(free.out), reportsByTest(readFile(dir + "herd7-7.58-no-axiom.log")));
}

// SFENCE and LFENCE are fence events of herd7's sets SFENCE and LFENCE under
// a model in herd7's terms (tests/herd/fences: a cat that orders by each
// fence, and herd7 7.58's reports under it and under x86tso.cat); MFENCE is
// only the MFENCE events. Under a model that ignored them, message passing
// with SFENCE and LFENCE came out allowed where herd7 forbids it.
TEST(HerdModels, WeakFencesAreHerd7sEvents) {
    const std::string dir = sourceDir() + "/tests/herd/fences";
    std::string files;
    for (const char* test : {"x86-mp-sfence-lfence", "x86-sb-lfences", "x86-sb-sfence-mfence"})
        files += " " + dir + "/" + test + ".litmus";
    for (const std::string& model : {dir + "/fences", std::string("x86tso")}) {
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + model + ".cat" + files);
        const std::string log = dir + "/herd7-7.58-" + (model == "x86tso" ? "x86tso" : "fences") + ".log";
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(log))) << model;
    }
}

// A locked instruction's read and write under herd7's cat: amo holds the pair
// (stdlib's lxsx is empty), and the read never reads its own write, which a
// model without uniproc shows (herd7 7.58's logs in tests/herd/locked).
TEST(HerdModels, LockedPairsAreHerd7s) {
    const std::string dir = sourceDir() + "/tests/herd/locked";
    const std::string files = " " + dir + "/x86-two-lock-inc.litmus " + dir + "/x86-xchg-own-write.litmus";
    for (const std::string model : {"amo", "no-axiom"}) {
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/" + model +
                                  ".cat" + files);
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + model + ".log"))) << model;
    }
}

// herd7's loc and int hold each event with itself (int no initial write, which
// is in ext with every thread's event but no other initial write): irreflexive loc leaves no
// execution, and flags on one event rise (herd7 7.58's logs in tests/herd/identity).
TEST(HerdModels, LocAndIntHoldIdentityAsHerd7s) {
    const std::string dir = sourceDir() + "/tests/herd/identity";
    for (const std::string model : {"irreflexive-loc", "identity-flags", "initial-writes"}) {
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/" + model +
                                  ".cat " + dir + "/x86-sb.litmus");
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + model + ".log"))) << model;
    }
}

// Initial writes in the clocks (herd7 7.58's logs in tests/herd/clocks): mo's
// host numbers mo with each initial write first where an edge enters one (if mo
// is a member: a host may have none where no location has two writes), and a
// clock whose edges are another's is skipped only where that one orders them;
// an initial write that ties the issue and observe clocks is a source of
// neither where an edge of either enters it, and an untied one has I <= O too
// where an issue edge enters it.
TEST(HerdModels, InitialWritesInClocksAsHerd7s) {
    const std::string dir = sourceDir() + "/tests/herd/clocks";
    std::string tests;
    for (const char* test : {"x86-two-writes", "x86-sb", "x86-one-read", "x86-writes-then-read", "x86-write-read-own"})
        tests += " " + dir + "/" + test + ".litmus";
    for (const std::string model :
         {"host-into-init", "implied-through-init", "implied-into-init", "tied-into-init", "tied-folded-into-init",
          "host-without-mo", "untied-into-init", "tied-host-into-init", "host-scoped-mo", "tied-observe-first"}) {
        const ToolRun r =
            runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/" + model + ".cat" + tests);
        const std::string log = model == "host-scoped-mo" ? "host-into-init" : model;  // herd7 reads no scope
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + log + ".log"))) << model;
        // --explain finds each candidate's cycle, through initial writes too
        const ToolRun explained = runTool("--no-time --explain -I " + sharedDir() + "/conformance/herd-cat --model " +
                                          dir + "/" + model + ".cat" + tests);
        EXPECT_EQ(explained.status, 0) << model << ": " << explained.err;
    }
}

// herd7's let rec of relations (tests/herd/letrec/letrec.cat: x86-TSO's orders
// as least fixed points, and flags on the closed forms A;C* and B*;A) on the
// conformance tests with a read-modify-write, against herd7 7.58's log.
TEST(HerdModels, LetRecGivesHerd7sLeastFixedPoints) {
    const std::string dir = sourceDir() + "/tests/herd/letrec";
    const std::string log = readFile(dir + "/herd7-7.58-letrec.log");
    std::string tests;
    for (const auto& entry : std::filesystem::directory_iterator(expectations().dir + "/tests"))
        if (entry.path().filename().string().find("rmw") != std::string::npos) tests += " " + entry.path().string();
    const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/letrec.cat" + tests);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reportsByTest(r.out), reportsByTest(log));
}

// herd7's let rec ... when (tests/herd/letrec/when.cat: SC's and x86-TSO's
// orders as least fixed points checked at each step), with and without its
// check skipped, on every eighth conformance test against herd7 7.58's logs.
TEST(HerdModels, LetRecWhenChecksAsHerd7) {
    const std::string dir = sourceDir() + "/tests/herd/letrec/";
    for (const auto& [skip, log] : std::vector<std::pair<std::string, std::string>>{
             {"", "when"}, {" -skipchecks sc", "when-skipchecks-sc"}}) {
        const ToolRun r = runTool("--no-time" + skip + " -I " + sharedDir() + "/conformance/herd-cat --model " + dir +
                                  "when.cat" + everyEighthTest());
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-" + log + ".log"))) << log;
    }
}

// herd7's let rec without a closed form (tests/herd/letrec/general.cat: its
// uniproc order, SC's S and Sloc together, x86-TSO's ghb; checks reading them
// from above, flags exactly) on every eighth conformance test, against herd7 7.58's log.
TEST(HerdModels, LetRecGroupsGiveHerd7sLeastFixedPoints) {
    const std::string dir = sourceDir() + "/tests/herd/letrec/";
    const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "general.cat" +
                              everyEighthTest());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-general.log")));
    // An explanation shows a cycle of U of two events or more, where every
    // event of a cycle of the transitive U has a loop.
    const ToolRun explained = runTool("--no-time --explain -I " + sharedDir() + "/conformance/herd-cat --model " + dir +
                                      "general.cat " + expectations().dir + "/tests/3.SB+mfence+po+rfi-po.litmus");
    EXPECT_EQ(explained.status, 0) << explained.err;
    EXPECT_NE(explained.out.find("cycle breaks uniproc: init z=0 →U e: R[z]=0 (EAX) →U init"), std::string::npos)
        << explained.out;
    EXPECT_EQ(explained.out.find("a negated check"), std::string::npos) << explained.out;
}

// An X86 test's explanation names its events and mo and rb in herd7's notation, as its pictures do.
TEST(HerdModels, ExplanationsOfX86TestsInHerd7sNotation) {
    const ToolRun r = runTool("--no-time --explain " + expectations().dir + "/tests/SB+mfences.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("cycle breaks ghb: a: W[x]=1 →ppo b: MFENCE →ppo c: R[y]=0 (EAX) →fr d: W[y]=1 →ppo "
                         "e: MFENCE →ppo f: R[x]=0 (EAX) →fr a\n"),
              std::string::npos)
        << r.out;
}

// A member of a model in herd7's terms is named as the model writes it, co
// and fr (the base mo and rb behind them): in explanations, in pictures' labels
// and by --edges (tests/herd/spelling).
TEST(HerdModels, MembersNamedAsTheModelWritesThem) {
    const std::string dir = sourceDir() + "/tests/herd/spelling/";
    const TempDir pictures("spelling");
    const ToolRun r = runTool("--no-time --explain --edges 'co;rfe,po' --dot " + pictures.path() + " -I " +
                              sharedDir() + "/conformance/herd-cat --model " + dir + "co-rfe.cat " + dir +
                              "x86-read-then-write.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("cycle breaks ax: a: R[x]=2 (EAX) →po b: W[x]=1 →co;rfe a\n"), std::string::npos) << r.out;
    std::string dots;
    for (const auto& entry : std::filesystem::directory_iterator(pictures.path())) dots += readFile(entry.path().string());
    EXPECT_NE(dots.find("label=\"co;rfe\""), std::string::npos) << dots;
    EXPECT_EQ(dots.find("mo;rfe"), std::string::npos) << dots;
    // A model that writes rdmacheck's mo (no `with co from`) keeps it.
    const ToolRun own = runTool("--no-time --explain --model " + dir + "mo-rfe.cat " + dir + "x86-read-then-write.litmus");
    EXPECT_EQ(own.status, 0) << own.err;
    EXPECT_NE(own.out.find("→mo;rfe a\n"), std::string::npos) << own.out;
}

// A model in herd7's terms that generates no coherence order (no `with co
// from`, as herd7's naked.cat): herd7 counts an execution per rf and final
// write of each observed location, the filter's too (tests/herd/coless, on its
// own two tests and every eighth conformance test, against herd7 7.58's log).
TEST(HerdModels, NoCoherenceOrderCountedWhereTheModelGeneratesNone) {
    const std::string dir = sourceDir() + "/tests/herd/coless";
    const std::string tests =
        " " + dir + "/x86-three-writes.litmus " + dir + "/x86-filter-final.litmus " + dir + "/x86-filter-final-other.litmus" +
        everyEighthTest();
    const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/coless.cat" + tests);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-coless.log")));
}

// herd7's FW, each observed location's final write (tests/herd/finals):
// herd7's own uniproccat.cat and sccat.cat, which read it in co0, and flags
// on it with and without a generated co, on a test observing a location no
// thread writes and every eighth conformance test, against herd7 7.58's logs.
TEST(HerdModels, FinalWritesAsHerd7ChoosesThem) {
    const std::string dir = sourceDir() + "/tests/herd/finals/";
    for (const std::string model : {"uniproccat", "sccat", "finals-cos", "finals-observed"}) {
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + model +
                                  ".cat " + dir + "x86-observed-unwritten.litmus" + everyEighthTest());
        EXPECT_EQ(r.status, 0) << model << ": " << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-" + model + ".log"))) << model;
    }
}

// herd7's negated checks (~acyclic, ~irreflexive, ~empty): the relation must
// have a cycle, a loop, a pair, which reads it positively, so exactly (a
// closure too); tests/herd/negated on every eighth conformance test, against
// herd7 7.58's logs.
// Each DIR/MODEL.cat of `models` on every eighth conformance test gives herd7
// 7.58's reports, DIR/herd7-7.58-MODEL.log.
static void expectHerdLogs(const std::string& dir, std::initializer_list<const char*> models) {
    for (const char* model : models) {
        SCOPED_TRACE(model);
        const ToolRun r = runTool("--no-time -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/" + model +
                                  ".cat" + everyEighthTest());
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + model + ".log")));
    }
}

TEST(HerdModels, NegatedChecksAgainstHerd7) {
    expectHerdLogs(sourceDir() + "/tests/herd/negated", {"cycle", "reflexive", "pairs"});
}

// domain and range of relations the execution chooses (rf, rfe, fre, co),
// in sets, checks (one that removes executions) and flags, and stdlib's udr;
// a tie of two clocks through such a set (tied.cat) is two plain clocks.
TEST(HerdModels, DomainAndRangeAsHerd7) {
    expectHerdLogs(sourceDir() + "/tests/herd/domains", {"domains", "tied"});
}

// herd7's pco under a cat model (its default -optace iico): stdlib's co0, the
// initial writes first and each observed location's final write last; herd7's
// own cos-ok-opt.cat generates co from it (tests/herd/pco).
TEST(HerdModels, PcoAsHerd7ComputesIt) {
    expectHerdLogs(sourceDir() + "/tests/herd/pco", {"pco"});
}

// herd7 evaluates a definition only where a check uses it: definitions with
// unbound names (RISC-V's Fence.r.r on X86), a self-reference, a later name
// or a type error load while nothing reaches them (tests/herd/lazy).
TEST(HerdModels, DefinitionsEvaluatedWhereUsedAsHerd7) {
    expectHerdLogs(sourceDir() + "/tests/herd/lazy", {"lazy"});
}

// herd7's `with co from generate_orders(W \\ SPEC, E)` (its ncos.cat) and its
// sets of memory events by how an access is made (Exp, NExp, EXEC, SPEC,
// SPURIOUS), on every eighth test (tests/herd/orders).
TEST(HerdModels, GeneratedOrdersAsHerd7) {
    expectHerdLogs(sourceDir() + "/tests/herd/orders", {"orders"});
}

// herd7's undefined_unless: a flag raised where the test fails (also negated),
// printed *undef* before the model's own flags, and the verdict Undef in place
// of Ok or No; none where no consistent execution fails it; -badflag and
// -badexecs. On every eighth conformance test against herd7 7.58's logs; a
// log's Undef reads back.
TEST(HerdModels, UndefinedUnlessAsHerd7) {
    const std::string dir = sourceDir() + "/tests/herd/undefined";
    const std::string tests = everyEighthTest();
    expectHerdLogs(dir, {"external", "never", "negated"});
    std::vector<FileReport> log;
    readLogFile(dir + "/herd7-7.58-negated.log", log);
    EXPECT_EQ(std::count_if(log.begin(), log.end(), [](const FileReport& f) { return f.checked && f.undefined; }), 3);
    // herd7's -badflag NAME (the last given counts): a flag of the model is bad
    // too; -badexecs false (last wins too) prints no report of a test with a bad
    // execution, true (herd7's default) prints them all.
    const std::string model = " -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "/flagged.cat";
    for (const auto& [bad, log] : std::vector<std::pair<std::string, std::string>>{
             {"-badflag a-fre", "flagged-badflag"},
             {"--bad-flag a-fre", "flagged-badflag"},
             {"-badflag x -badflag a-fre", "flagged-badflag"},
             {"-badexecs false -badexecs true -badflag a-fre", "flagged-badflag"},
             {"-badexecs false -badflag a-fre", "flagged-badflag-badexecs-false"},
             {"--hide-undefined --bad-flag a-fre", "flagged-badflag-badexecs-false"}}) {
        const ToolRun r = runTool("--no-time " + bad + model + tests);
        EXPECT_EQ(r.status, 0) << bad;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + log + ".log"))) << bad;
    }
    EXPECT_EQ(runTool("--no-time --bad-flag no-such-flag" + model + tests).out, runTool("--no-time" + model + tests).out);
}

// The tests stopped by an assertion, by file name, with the assertion's name:
// herd7's `File "T": NAME assertion failed` warnings, rdmacheck's
// `PATH/T:1:1: error: ... assertion NAME (` lines.
static std::map<std::string, std::string> stoppedTests(const std::string& text, const std::regex& stopped) {
    std::map<std::string, std::string> tests;
    for (std::sregex_iterator it(text.begin(), text.end(), stopped), end; it != end; ++it)
        tests[std::filesystem::path((*it)[1].str()).filename().string()] = (*it)[2].str();
    return tests;
}

// herd7's assert: a candidate execution that the model's checks before it keep
// and that fails it stops the test (no report; herd7 warns "NAME assertion
// failed"), here an error at the test; after SC's axiom the same assertion
// never fails, and fails again with SC skipped; -skipchecks drops an
// assertion, an undefined_unless test or a flag by its own name, and all of a
// procedure's by the call's name or the procedure's, whose tests keep their
// own names; executions cut at the unroll bound count (litmus/x86's loops).
// On every eighth conformance test against herd7 7.58's reports and the tests
// it stopped, with the assertion each names.
TEST(HerdModels, AssertionsStopTestsAsHerd7s) {
    const std::string dir = sourceDir() + "/tests/herd/assert/";
    const std::string tests = everyEighthTest();
    const std::regex herdStopped("File \"([^\"]+)\": (.*) assertion failed, check input test\\.");
    const std::regex ours("([^\n]+\\.litmus):1:1: error: a candidate execution fails the model's assertion (.*) \\(");
    std::string loops;  // litmus/x86's loops: executions cut at the unroll bound fail cut.cat's assertion too
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/x86"))
        if (entry.path().filename().string().rfind("x86-loop", 0) == 0) loops += " " + entry.path().string();
    for (const auto& [model, options, log] : std::vector<std::array<std::string, 3>>{
             {"cut", "", "cut"},
             {"before-sc", "", "before-sc"},
             {"before-sc", " -skipchecks po-fr", "after-sc"},
             {"after-sc", "", "after-sc"},
             {"after-sc", " --skip sc", "after-sc-skipchecks-sc"},
             {"unnamed", "", "unnamed"},
             {"in-call", "", "in-call"},
             {"in-call", " -skipchecks outer", "in-call-skipchecks-outer"},
             {"in-call", " -skipchecks p", "in-call-skipchecks-outer"},
             {"in-call", " -skipchecks inner -badflag inner-flag", "in-call-skipchecks-inner-badflag-inner-flag"}}) {
        SCOPED_TRACE(model + options);
        const ToolRun r = runTool("--no-time" + options + " -I " + sharedDir() + "/conformance/herd-cat --model " + dir +
                                  model + ".cat" + (model == "cut" ? loops : tests));
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "herd7-7.58-" + log + ".log")));
        const std::string herdErrors =
            std::filesystem::exists(dir + "herd7-7.58-" + log + ".err") ? readFile(dir + "herd7-7.58-" + log + ".err") : "";
        const std::map<std::string, std::string> stopped = stoppedTests(herdErrors, herdStopped);
        EXPECT_EQ(stoppedTests(r.err, ours), stopped);
        EXPECT_EQ(r.status, stopped.empty() ? 0 : 2);
    }
    const ToolRun robust = runTool("robust -I " + sharedDir() + "/conformance/herd-cat --model " + dir + "unnamed.cat " +
                                   expectations().dir + "/tests/SB.litmus");
    EXPECT_EQ(robust.status, 2);
    EXPECT_NE(robust.err.find("unnamed.cat:3:1: error: robust does not evaluate a model's assert"), std::string::npos)
        << robust.err;
}

// Under herd7's -speedcheck true only candidates that decide the verdict reach
// its model, so only such a cut one marks `Loop`: litmus/x86's 63 tests (28
// with branches) against herd7 7.58's log.
TEST(HerdModels, SpeedcheckMarksLoopsAsHerd7) {
    std::string tests;
    for (const std::string& file : litmusFiles(sourceDir() + "/litmus/x86")) tests += " " + file;
    const ToolRun r = runTool("--no-time -speedcheck true" + tests);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reportsByTest(r.out),
              reportsByTest(readFile(sourceDir() + "/tests/herd/speedcheck/herd7-7.58-true-loops.log")));
}

// herd7's -speedcheck: fast stops at the first execution that decides the
// condition, true counts every execution that does and no other; on every
// eighth conformance test and the two (frmap, intel.n8) where two deciding
// executions tell the modes apart, against herd7 7.58's logs.
TEST(HerdModels, SpeedcheckModesAgainstHerd7) {
    const std::string dir = sourceDir() + "/tests/herd/speedcheck";
    const std::string tests = everyEighthTest() + " " + expectations().dir + "/tests/frmap.litmus " +
                              expectations().dir + "/tests/intel.n8.litmus";
    for (const char* mode : {"true", "fast"}) {
        SCOPED_TRACE(mode);
        const ToolRun r = runTool(std::string("--no-time -speedcheck ") + mode + tests);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(reportsByTest(r.out), reportsByTest(readFile(dir + "/herd7-7.58-" + mode + ".log")));
    }
}
