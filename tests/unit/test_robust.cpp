// Robustness against SC (doc/model-notes.md §N21): the verdicts of N26 and litmus/robustness/,
// encoding (B) against (A), the witness as §5 prints it, and §7.3's repairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "../test_support.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/repair.hpp"
#include "rdmacheck/report.hpp"
#include "rdmacheck/robust.hpp"
#include "rdmacheck/robust_report.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

bool robust(const std::string& file, const std::string& model) {
    return checkRobustness(parseLitmusFile(file), loadModel(modelsDir(), model), CheckOptions{}).robust();
}

// Encoding (A) of doc/model-notes.md §N22, the oracle of the tool's (B): every
// consistent execution of every skeleton (prefixes included unless told
// otherwise) searched for an sc cycle.
bool robustByEnumeration(const LitmusTest& input, const Model& model, bool withPrefixes = true) {
    LitmusTest test = input;
    test.filter.reset();
    CheckOptions prefixes;
    prefixes.prefixes = withPrefixes;
    bool cyclic = false;
    check(test, model, prefixes, [&](const UnfoldedProgram&, const ExecutionGraph& ex, const FinalState&, bool) {
        cyclic = cyclic || !shortestScCycle(ex).empty();
    });
    return !cyclic;
}

RobustnessWitness witnessOf(const std::string& corpusName, const std::string& model = "rdma-sc") {
    const RobustnessResult r = checkRobustness(parseLitmusFile(sourceDir() + "/litmus/rdma-tso/" + corpusName),
                                               loadModel(modelsDir(), model), CheckOptions{});
    if (!r.witness) throw std::runtime_error(corpusName + " is robust");
    return *r.witness;
}

}  // namespace

// doc/model-notes.md §N26: the RDMA^TSO corpus under rdma-sc (the paper's notion) and
// rdma-tso; the -z0/-z1 files of a figure share their program's verdict.
TEST(Robustness, CorpusVerdictsOfSection72) {
    const std::map<std::string, std::pair<bool, bool>> verdicts = {  // file prefix -> (rdma-sc, rdma-tso)
        {"fig1a", {true, false}}, {"fig1b", {true, true}},   {"fig1c", {true, true}},   {"fig1d", {true, true}},
        {"fig2a", {true, true}},  {"fig2b", {false, false}}, {"fig2c", {true, true}},   {"fig2d", {false, false}},
        {"fig2e", {false, false}}, {"fig2f", {false, false}}, {"fig2g", {true, true}},  {"fig2h", {false, false}},
        {"fig2i", {true, true}},  {"fig3a", {false, false}}, {"fig3b", {false, false}}, {"fig3c", {true, true}},
        {"fig3d", {false, false}}, {"fig3e", {true, true}},  {"loco-fig2c", {true, true}}};
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso")) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".litmus") continue;
        const auto it = std::find_if(verdicts.begin(), verdicts.end(),
                                     [&](const auto& v) { return name.rfind(v.first + "-", 0) == 0; });
        ASSERT_NE(it, verdicts.end()) << name;
        SCOPED_TRACE(name);
        EXPECT_EQ(robust(entry.path().string(), "rdma-sc"), it->second.first);
        EXPECT_EQ(robust(entry.path().string(), "rdma-tso"), it->second.second);
        ++files;
    }
    EXPECT_EQ(files, 29);
}

// litmus/robustness/README.md's examples, litmus/robustness/expected.csv.
TEST(Robustness, ExamplesOfSection6) {
    const std::string dir = sourceDir() + "/litmus/robustness";
    std::istringstream csv(readFile(dir + "/expected.csv"));
    std::string line;
    std::getline(csv, line);
    int rows = 0;
    while (std::getline(csv, line)) {
        std::istringstream fields(line);
        std::string file, model, expect;
        std::getline(fields, file, ',');
        std::getline(fields, model, ',');
        std::getline(fields, expect, ',');
        SCOPED_TRACE(file);
        EXPECT_EQ(robust(dir + "/" + file, model) ? "Robust" : "NotRobust", expect);
        ++rows;
    }
    EXPECT_EQ(rows, 8);
}

// E6: no complete execution exists (the assume blocks), so only the prefix cut
// before the assume shows the violation; the witness is that prefix's cycle.
TEST(Robustness, OnlyThePrefixBeforeAnAssumeViolates) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/robustness/rob-prefix-only.litmus");
    const Model model = loadModel(modelsDir(), "rdma-sc");
    EXPECT_EQ(check(test, model, CheckOptions{}).positive + check(test, model, CheckOptions{}).negative, 0u);
    const RobustnessResult r = checkRobustness(test, model, CheckOptions{});
    ASSERT_FALSE(r.robust());
    EXPECT_EQ(cycleText(*r.witness), "a:nlR x=1 -po-> b:nrW z=1 -po-> c:lW x=1 -rf-> a:nlR x=1");
    EXPECT_EQ(cutsText(*r.witness), "P0:3/4");  // cut before the assume's read
    EXPECT_TRUE(r.witness->cut());
}

// Work identifiers and library calls are outside the robustness paper's programs.
TEST(Robustness, MowgliProgramsAreRejectedAtTheirStatement) {
    const LitmusTest test =
        parseLitmus("RDMA t\n{ x@1 = 0; z@2 = 0; }\nP0@1 { z^2 :=^d x; wait(d) }\nexists (z = 0)\n", "t.litmus");
    try {
        checkRobustness(test, loadModel(modelsDir(), "rdma-sc"), CheckOptions{});
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("t.litmus:3:8"), std::string::npos) << e.what();
    }
}

// (A) and (B) agree on the corpus and the §6 examples, under both models.
TEST(Robustness, EnumerationAndOneQueryPerSkeletonAgreeOnTheCorpus) {
    std::vector<std::string> files = litmusFiles(sourceDir() + "/litmus/rdma-tso");
    for (const std::string& f : litmusFiles(sourceDir() + "/litmus/robustness")) files.push_back(f);
    for (const char* m : {"rdma-sc", "rdma-tso"}) {
        const Model model = loadModel(modelsDir(), m);
        for (const std::string& file : files) {
            SCOPED_TRACE(file + " under " + m);
            const LitmusTest test = parseLitmusFile(file);
            EXPECT_EQ(checkRobustness(test, model, CheckOptions{}).robust(), robustByEnumeration(test, model));
        }
    }
}

// The other models robust takes (doc/model-notes.md §N21 allows any M): (B) against (A)
// under rdma-tso-nopcie, and under rdma-tso-rmw with the remote-RMW corpus too.
TEST(Robustness, EnumerationAndOneQueryPerSkeletonAgreeUnderTheOtherModels) {
    const std::vector<std::string> corpus = litmusFiles(sourceDir() + "/litmus/rdma-tso");
    std::vector<std::string> withRmw = corpus;
    for (const std::string& f : litmusFiles(sourceDir() + "/litmus/rdma-tso-rmw")) withRmw.push_back(f);
    int notRobust = 0;
    for (const auto& [m, files] : {std::make_pair("rdma-tso-nopcie", corpus), std::make_pair("rdma-tso-rmw", withRmw)}) {
        const Model model = loadModel(modelsDir(), m);
        for (const std::string& file : files) {
            SCOPED_TRACE(file + " under " + m);
            const LitmusTest test = parseLitmusFile(file);
            const bool robust = checkRobustness(test, model, CheckOptions{}).robust();
            EXPECT_EQ(robust, robustByEnumeration(test, model));
            notRobust += !robust;
        }
    }
    EXPECT_GT(notRobust, 20);
}

// The x86 suite under tso (no assumes, so no prefixes): (B) against (A), and
// robust exactly when tso and sc count as many executions (doc/model-notes.md §N24 (3));
// tso's counts are herd7's (the conformance test).
TEST(RobustnessSlow, X86SuiteUnderTso) {
    const Model tso = loadModel(modelsDir(), "tso"), sc = loadModel(modelsDir(), "sc");
    int notRobust = 0, files = 0;
    for (const std::string& file : litmusFiles(sharedDir() + "/conformance/x86-tso/tests")) {
        SCOPED_TRACE(file);
        const LitmusTest test = parseLitmusFile(file);
        const bool robust = checkRobustness(test, tso, CheckOptions{}).robust();
        EXPECT_EQ(robust, robustByEnumeration(test, tso));
        const CheckResult weak = check(test, tso, CheckOptions{}), strong = check(test, sc, CheckOptions{});
        EXPECT_EQ(robust, weak.positive + weak.negative == strong.positive + strong.negative);
        notRobust += !robust;
        ++files;
    }
    std::cout << "[robustness] x86 suite under tso: " << notRobust << " of " << files << " not robust\n";
    EXPECT_EQ(files, 487);
    EXPECT_GT(notRobust, 100);
}

// (A) and (B) agree on 300 random programs of the generator with tests
// (assume, if, choice), so that some violate only through a prefix, under both models.
TEST(RobustnessSlow, EnumerationAndOneQueryPerSkeletonAgreeOnRandomPrograms) {
    GeneratorOptions options;
    options.mix["assume"] = 2;
    options.mix["if"] = 1;
    options.mix["choice"] = 1;
    int notRobust = 0, prefixOnly = 0;
    for (uint64_t seed = 1; seed <= 300 && !::testing::Test::HasFailure(); ++seed) {
        const std::string text = generateLitmus(seed, options);
        SCOPED_TRACE(text);
        const LitmusTest test = parseLitmus(text, "random.litmus");
        for (const char* m : {"rdma-sc", "rdma-tso"}) {
            const Model model = loadModel(modelsDir(), m);
            const bool robust = checkRobustness(test, model, CheckOptions{}).robust();
            EXPECT_EQ(robust, robustByEnumeration(test, model)) << m;
            notRobust += !robust;
            prefixOnly += !robust && robustByEnumeration(test, model, false);
        }
    }
    std::cout << "[robustness] 300 random programs x 2 models: " << notRobust << " not robust, " << prefixOnly
              << " of them only through a prefix\n";
    EXPECT_GT(notRobust, 50);
    EXPECT_GT(prefixOnly, 0);
}

// Every insertion set the repair search builds is well formed, with polls and
// remote operations under choice, if and loop too: no candidate throws (a
// poll left nothing to poll on every path was NothingToPoll), and each repair
// re-checks robust (repairRobustness re-checks it printed and parsed back).
TEST(RobustnessSlow, RepairCandidatesAreWellFormedOnRandomPrograms) {
    GeneratorOptions options;
    options.mix["poll"] = 4;
    options.mix["choice"] = 1;
    options.mix["if"] = 1;
    options.mix["loop"] = 1;
    const Model model = loadModel(modelsDir(), "rdma-sc");
    int repaired = 0, notRobust = 0;
    for (uint64_t seed = 1; seed <= 80; ++seed) {
        const std::string text = generateLitmus(seed, options);
        SCOPED_TRACE(text);
        const LitmusTest test = parseLitmus(text, "random.litmus");
        const RobustnessResult r = checkRobustness(test, model, CheckOptions{});
        if (r.robust()) continue;
        ++notRobust;
        RepairResult repair;
        EXPECT_NO_THROW(repair = repairRobustness(test, model, CheckOptions{}, *r.witness, 2));
        repaired += !repair.repairs.empty();
    }
    std::cout << "[robustness] repairs of at most 2 insertions for " << repaired << " of " << notRobust
              << " random programs not robust\n";
    EXPECT_GT(repaired, 0);
}

// doc/model-notes.md §N25's block for Fig. 3d: the cycle from the first thread's
// entry, each visit's relaxed segment with its oppo cell.
TEST(Robustness, WitnessOfFig3dAsSection5PrintsIt) {
    const RobustnessWitness w = witnessOf("fig3d-sb-polled-puts.litmus");
    EXPECT_EQ(cutsText(w), "P0:5/5 P1:5/5");
    EXPECT_FALSE(w.cut());
    EXPECT_EQ(stateLine(w.names, w.state, w.addresses), "[a]=0; [b]=0;");
    EXPECT_EQ(cycleText(w), "b:nrW x=1 -po-> c:P(2) -po-> d:lR y=0 -rb-> g:nrW y=1 -po-> h:P(1) -po-> i:lR x=0 -rb-> "
                            "b:nrW x=1");
    EXPECT_EQ(relaxedText(w), "b:nrW x=1 …→ d:lR y=0 (G1 ✗); g:nrW y=1 …→ i:lR x=0 (G1 ✗)");
}

// §7.2's relaxed segments and their cells, and rdma-tso's B1 on Fig. 1a.
TEST(Robustness, RelaxedSegmentsOfSection72) {
    const std::map<std::string, std::string> cells = {
        {"fig2b-put-then-write-z0.litmus", "F2 ✗"},   {"fig2d-put-put-poll-write-z0.litmus", "F2 ✗"},
        {"fig2e-get-get-two-nodes-x1.litmus", "I9 sqp"}, {"fig2f-get-put-two-nodes-z0.litmus", "I6 ✗"},
        {"fig2h-get-then-put-z0.litmus", "I6 ✗"},     {"fig3a-sb-puts.litmus", "G1 ✗"},
        {"fig3b-lb-gets.litmus", "H2 ✗"}};
    for (const auto& [file, cell] : cells) {
        SCOPED_TRACE(file);
        const RobustnessWitness w = witnessOf(file);
        ASSERT_FALSE(w.relaxed.empty());
        for (const RelaxedSegment& s : w.relaxed) EXPECT_EQ(s.cell, cell);
    }
    EXPECT_EQ(witnessOf("fig1a-sb.litmus", "rdma-tso").relaxed.at(0).cell, "B1 ✗");
}

// Observable: Fig. 3d's state is out of sc's reach; E5's is not (trace, not state, robustness).
TEST(Robustness, ObservableSeparatesStateFromTraceRobustness) {
    const Model sc = loadModel(modelsDir(), "sc");
    const LitmusTest fig3d = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3d-sb-polled-puts.litmus");
    EXPECT_FALSE(scReachesState(fig3d, witnessOf("fig3d-sb-polled-puts.litmus"), sc, CheckOptions{}));
    const LitmusTest e5 = parseLitmusFile(sourceDir() + "/litmus/robustness/rob-trace-not-state.litmus");
    const RobustnessResult r = checkRobustness(e5, loadModel(modelsDir(), "rdma-sc"), CheckOptions{});
    ASSERT_FALSE(r.robust());
    EXPECT_TRUE(scReachesState(e5, *r.witness, sc, CheckOptions{}));
}

namespace {

RepairResult repairOf(const std::string& corpusName) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/" + corpusName);
    const Model model = loadModel(modelsDir(), "rdma-sc");
    return repairRobustness(test, model, CheckOptions{}, *checkRobustness(test, model, CheckOptions{}).witness, 4);
}

// "poll(2) after line 6 (P0); ..." for each repair, "|" between them.
std::string insertionsText(const RepairResult& r) {
    std::string text;
    for (const Repair& repair : r.repairs) {
        text += text.empty() ? "" : " | ";
        for (size_t i = 0; i < repair.insertions.size(); ++i) text += (i ? "; " : "") + repair.insertions[i].text();
    }
    return text;
}

}  // namespace

// doc/model-notes.md §N26: the repairs of the corpus, smallest first, each re-checked
// robust once printed and parsed back.
TEST(Robustness, RepairsOfSection73) {
    const std::map<std::string, std::string> repairs = {
        {"fig2b-put-then-write-z0.litmus", "poll(2) after line 6 (P0) | flush(2) after line 6 (P0)"},
        // a second poll (LOCO Fig. 2c), or a flush of both puts taking over the poll
        {"fig2d-put-put-poll-write-z0.litmus", "poll(2) after line 7 (P0) | flush(2) after line 7 (P0)"},
        {"fig2e-get-get-two-nodes-x1.litmus", "poll(2) after line 6 (P0)"},
        {"fig2f-get-put-two-nodes-z0.litmus", "poll(2) after line 6 (P0)"},
        {"fig2h-get-then-put-z0.litmus", "poll(2) after line 6 (P0) | rfence(2) after line 6 (P0)"},  // Fig. 2i
        {"fig3b-lb-gets.litmus", "poll(2) after line 6 (P0); poll(1) after line 11 (P1)"},           // Fig. 3c
        // polls and rfences cannot repair SB with puts: a flush on both threads (Fig. 3e)
        {"fig3a-sb-puts.litmus", "flush(2) after line 6 (P0); flush(1) after line 11 (P1)"},
        // Fig. 3d's flushes take over its polls: Fig. 3e
        {"fig3d-sb-polled-puts.litmus", "flush(2) after line 6 (P0); flush(1) after line 12 (P1)"}};
    const Model model = loadModel(modelsDir(), "rdma-sc");
    for (const auto& [file, expected] : repairs) {
        SCOPED_TRACE(file);
        const RepairResult r = repairOf(file);
        EXPECT_EQ(insertionsText(r), expected);
        for (const Repair& repair : r.repairs)
            EXPECT_TRUE(checkRobustness(parseLitmus(printLitmus(repair.program), "repaired.litmus"), model,
                                        CheckOptions{}).robust());
    }
}

// §7.3's insertions that do not repair: each program stays not robust, so no
// repair of its size may be found either.
TEST(Robustness, NonRepairsOfSection73) {
    const std::string sb = "RDMA t\n{ y@1 = 0; a@1; x@2 = 0; b@2; w@1 = 0; z@2 = 0; c@1; d@2; }\n";
    const std::vector<std::string> programs = {
        // Fig. 2d with rfence(2) before its poll
        "RDMA t\n{ x@1 = 0; z@2 = 0; }\nP0@1 { z^2 := x; z^2 := x; rfence(2); poll(2); x := 1; }\nexists (z = 0)\n",
        // Fig. 3a with a poll after each put is Fig. 3d (corpus); with an rfence and a poll after each
        sb + "P0@1 { x^2 := 1; rfence(2); poll(2); a := y; }\nP1@2 { y^1 := 1; rfence(1); poll(1); b := x; }\n"
             "exists (a = 0 /\\ b = 0)\n",
        // a flush (a get and two polls) on P0 only, P1 as in Fig. 3d
        sb + "P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y; }\nP1@2 { y^1 := 1; poll(1); b := x; }\n"
             "exists (a = 0 /\\ b = 0)\n"};
    const Model model = loadModel(modelsDir(), "rdma-sc");
    for (const std::string& text : programs) {
        SCOPED_TRACE(text);
        EXPECT_FALSE(checkRobustness(parseLitmus(text, "t.litmus"), model, CheckOptions{}).robust());
    }
}

// A flush after a put that a later poll polls completes that put: the poll,
// left nothing to poll, is taken over (before, the flush polled once too often
// and the search dropped its own candidate: "none within 4 insertions").
TEST(Robustness, AFlushTakesOverTheLaterPollOfItsPut) {
    const RepairResult r = repairOf("fig3d-sb-polled-puts.litmus");
    ASSERT_EQ(r.repairs.size(), 1u);
    EXPECT_EQ(r.repairs[0].replaced, (std::vector<std::string>{"poll(2) at line 7 (P0)", "poll(1) at line 13 (P1)"}));
    const std::string text = printLitmus(r.repairs[0].program);
    EXPECT_NE(text.find("  x^2 := 1;\n  flush := flushed^2;\n  poll(2);\n  poll(2);\n  a := y;\n}"), std::string::npos)
        << text;
}

// Fig. 3a's flushes: a get from a fresh location on the other node, then a poll
// for the put and one for the get, as Fig. 3e does.
TEST(Robustness, AFlushGetsAFreshLocationAndPollsUpToIt) {
    const RepairResult r = repairOf("fig3a-sb-puts.litmus");
    ASSERT_EQ(r.repairs.size(), 1u);
    const std::string text = printLitmus(r.repairs[0].program);
    EXPECT_NE(text.find("flushed@2 = 0; flush@1 = 0; flushed_@1 = 0; flush_@2 = 0;"), std::string::npos) << text;
    EXPECT_NE(text.find("  x^2 := 1;\n  flush := flushed^2;\n  poll(2);\n  poll(2);\n  a := y;"), std::string::npos)
        << text;
}

// A flush location is fresh against every name of the test, including a
// location declared only by its use.
TEST(Robustness, AFlushLocationIsFreshAgainstNamesDeclaredByUse) {
    const LitmusTest test = parseLitmus("RDMA t\n{ x@2 = 0; y@1 = 0; a@1; b@2; }\n"
                                        "P0@1 { x^2 := 1; a := y; flush := 3 }\n"
                                        "P1@2 { y^1 := 1; b := x }\nexists (a = 0 /\\ b = 0)\n",
                                        "t.litmus");
    const Model model = loadModel(modelsDir(), "rdma-sc");
    const RepairResult r = repairRobustness(test, model, CheckOptions{}, *checkRobustness(test, model, {}).witness, 2);
    ASSERT_FALSE(r.repairs.empty());
    const std::string text = printLitmus(r.repairs[0].program);
    EXPECT_NE(text.find("flush_ := flushed^2;"), std::string::npos) << text;
    EXPECT_NE(text.find("flush := 3;"), std::string::npos) << text;
}

// The time limit ends the search, not the command: what was found is kept.
TEST(Robustness, RepairStopsAtTheTimeLimit) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3a-sb-puts.litmus");
    const Model model = loadModel(modelsDir(), "rdma-sc");
    CheckOptions expired;
    expired.limits.seconds = 1e-9;  // over before the first candidate's first solver call
    const RepairResult r =
        repairRobustness(test, model, expired, *checkRobustness(test, model, CheckOptions{}).witness, 2);
    EXPECT_TRUE(r.repairs.empty());
    EXPECT_NE(r.stopped.find("timeout"), std::string::npos) << r.stopped;
    EXPECT_EQ(r.candidates, 0u);
    EXPECT_EQ(r.size, 1);
}

// So does the memory limit, before the first candidate (1 MiB is below any
// process's resident memory): the search says where it stopped.
TEST(Robustness, RepairStopsAtTheMemoryLimit) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3a-sb-puts.litmus");
    const Model model = loadModel(modelsDir(), "rdma-sc");
    CheckOptions small;
    small.limits.megabytes = 1;
    const RepairResult r = repairRobustness(test, model, small, *checkRobustness(test, model, {}).witness, 2);
    EXPECT_TRUE(r.repairs.empty());
    EXPECT_NE(r.stopped.find("memory limit of 1 MiB reached"), std::string::npos) << r.stopped;
    EXPECT_EQ(r.candidates, 0u);
    EXPECT_EQ(r.size, 1);
}

// None within the bound: SB with puts needs two insertions.
TEST(Robustness, NoRepairWithinTheBoundIsReported) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3a-sb-puts.litmus");
    const Model model = loadModel(modelsDir(), "rdma-sc");
    const RepairResult r =
        repairRobustness(test, model, CheckOptions{}, *checkRobustness(test, model, CheckOptions{}).witness, 1);
    EXPECT_TRUE(r.repairs.empty());
    EXPECT_GT(r.candidates, 0u);
}

// doc/model-notes.md §N24 (3) and (4) on the corpus (no assumes): robust exactly when
// M and sc have as many executions (SC ⊆ M), and a state M reaches but sc does
// not comes with a witness.
TEST(Robustness, ExecutionCountsAndStatesAgreeWithTheVerdict) {
    const Model sc = loadModel(modelsDir(), "sc");
    for (const char* m : {"rdma-sc", "rdma-tso"}) {
        const Model model = loadModel(modelsDir(), m);
        for (const std::string& file : litmusFiles(sourceDir() + "/litmus/rdma-tso")) {
            SCOPED_TRACE(file + " under " + m);
            const LitmusTest test = parseLitmusFile(file);
            const CheckResult weak = check(test, model, CheckOptions{}), strong = check(test, sc, CheckOptions{});
            const bool robust = checkRobustness(test, model, CheckOptions{}).robust();
            EXPECT_EQ(robust, weak.positive + weak.negative == strong.positive + strong.negative);
            const bool moreStates = std::any_of(weak.states.begin(), weak.states.end(),
                                                [&](const auto& s) { return !strong.states.count(s.first); });
            EXPECT_FALSE(moreStates && robust);
        }
    }
}
