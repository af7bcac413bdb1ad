// The subcommands other than run, merge and compare, through the real
// executable: `cross` (exit codes, difference report, shrunk reproducer),
// `generate`, `refine` (and its mutants) and `robust` (verdicts, witnesses,
// JSON, repair).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

TEST(Cli, CrossAgreesOnTheCorpusAndExitsZero) {
    ToolRun r = runTool("cross -j 1 " + corpusFile("fig2h-get-then-put-z1.litmus") + " " + corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("cross: 2 tests (2 files, 0 random), 6 configurations: 0 with differences, 0 errors"),
              std::string::npos)
        << r.out;
}

// rdma-tso allows store buffering (Fig. 1a) and SC does not: a real difference.
TEST(Cli, CrossReportsADifferenceWithAShrunkReproducer) {
    const TempDir tmp("repro");
    const std::string dir = tmp / "repro";
    ToolRun r = runTool("cross -j 1 --configs declarative:rdma-tso,concrete:sc --against-first --repro-dir " + dir + " " +
                        corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find("DIFF Fig1a"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("only declarative:rdma-tso:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("reproducer:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 with differences"), std::string::npos) << r.out;
    const std::string repro = dir + "/Fig1a.litmus";
    ASSERT_TRUE(std::filesystem::exists(repro));
    const LitmusTest small = parseLitmusFile(repro);
    EXPECT_EQ(statementCount(small), 4u);  // SB needs two writes and two reads
    ToolRun again = runTool("cross -j 1 --no-shrink --configs declarative:rdma-tso,concrete:sc --against-first " + repro);
    EXPECT_EQ(again.status, 1) << again.out;
}

TEST(Cli, CrossRejectsBadConfigurations) {
    ToolRun one = runTool("cross --configs declarative:rdma-tso x.litmus");
    EXPECT_EQ(one.status, 2);
    EXPECT_EQ(one.err, "rdmacheck: error: need at least two configurations\n");
    ToolRun engine = runTool("cross --configs herd:rdma-tso,concrete:rdma-tso x.litmus");
    EXPECT_EQ(engine.status, 2);
    EXPECT_NE(engine.err.find("unknown engine 'herd'"), std::string::npos) << engine.err;
    ToolRun model = runTool("cross --configs declarative:arm,concrete:arm x.litmus");
    EXPECT_EQ(model.status, 2);
    EXPECT_NE(model.err.find("unknown model 'arm'"), std::string::npos) << model.err;
}

TEST(Cli, CrossReportsABadTestAsAnErrorNotADifference) {
    ToolRun r = runTool("cross -j 1 /nonexistent.litmus " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("/nonexistent.litmus"), std::string::npos);
    EXPECT_NE(r.out.find("0 with differences, 1 errors"), std::string::npos) << r.out;
}

TEST(Cli, GenerateWritesParsableTests) {
    const TempDir tmp("gen");
    const std::string dir = tmp / "gen";
    ToolRun r = runTool("generate --seed 7 --count 3 --threads 3 --out " + dir);
    EXPECT_EQ(r.status, 0) << r.err;
    for (int seed : {7, 8, 9}) {
        const std::string path = dir + "/random-" + std::to_string(seed) + ".litmus";
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        const LitmusTest t = parseLitmusFile(path);
        EXPECT_EQ(t.threads.size(), 3u);
        EXPECT_NO_THROW(unfold(t, UnfoldOptions{}));
    }
    ToolRun bad = runTool("generate --mix bogus=1");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("bogus"), std::string::npos) << bad.err;
}

TEST(Cli, GenerateFamilyWritesTestsAndExpectedVerdicts) {
    const TempDir tmp("family");
    const std::string dir = tmp / "family";
    ToolRun r = runTool("generate --family exs --n 3 --s 2 --variant all --out " + dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    for (const std::string variant : {"ok", "early-ack", "no-credit", "flag-first"}) {
        const std::string path = dir + "/exs-ring-n3-s2-" + variant + ".litmus";
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        EXPECT_EQ(parseLitmusFile(path).threads.size(), 2u);
    }
    const std::string csv = readFile(dir + "/expected.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);  // the header, two models per test
    EXPECT_NE(csv.find("\nexs-ring-n3-s2-early-ack.litmus,rdma-tso,No,"), std::string::npos) << csv;
    ToolRun printed = runTool("generate --family SB-ring --n 3");
    EXPECT_EQ(printed.status, 0) << printed.err;
    EXPECT_EQ(printed.out.rfind("X86 SB-ring3\n{ x0=0; x1=0; x2=0; }\n", 0), 0u) << printed.out;
    EXPECT_EQ(printed.out.find("expected"), std::string::npos) << printed.out;
}

TEST(Cli, GenerateFamilyRefusesBadParameters) {
    const TempDir tmp("family");
    const std::string dir = tmp / "family";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--family nope", "unknown family 'nope' (families: exs, SB-ring, "},
        {"--family SB-ring --n 1", "--n 1 is out of range for family SB-ring: 2..256\n"},
        {"--family IRIW-K --n 65", "--n 65 is out of range for family IRIW-K: 2..64\n"},
        {"--family exs --n 3 --s 40", "--s 40 is out of range for family exs: 1..32\n"},
        {"--family exs --n 3", "family exs needs --s (1..32)\n"},
        {"--family exs --n 3 --s 2 --variant late", "unknown variant 'late' of family exs (variants: "},
        {"--family MP-chain --variant ok", "family MP-chain has no variants\n"},
        {"--family MP-chain --s 2", "family MP-chain takes no --s\n"},
        {"--family exs --n 3 --s 2 --seed 4 --count 2", "--seed, --count: for random tests, not with --family\n"},
        {"--family SB-ring --mix put=1", "--mix: for random tests, not with --family\n"},
        {"--n 3 --variant ok", "--n, --variant: only with --family\n"},
    };
    for (const auto& [args, message] : cases) {
        ToolRun r = runTool("generate " + args + " --out " + dir);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.err.rfind("rdmacheck: error: " + message, 0), 0u) << args << ": " << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir)) << args;
    }
}

TEST(Cli, RefineAgreesOnAWaitTestAndExitsZero) {
    const std::string file = sourceDir() + "/litmus/rdma-wait/loco-fig3a-put-wait-write-z1.litmus";
    ToolRun r = runTool("refine --impl wait-polls " + file);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Refine loco-fig3a-z1 wait-polls: specification rdma-wait-rmw 1 outcomes, implementation "
                         "rdma-tso-rmw 1 outcomes: Ok (implementation ⊆ specification)"),
              std::string::npos)
        << r.out;
}

// An implementation model that ignores polls (pf dropped from rdma-tso-rmw)
// lets the put read x after x := 1: refine must show that outcome and its execution.
TEST(Cli, RefineReportsAnOutcomeTheSpecificationForbids) {
    const TempDir tmp("models");
    const std::string dir = tmp / "models";
    std::filesystem::copy(sourceDir() + "/models", dir);
    const std::string path = dir + "/rdma-tso-rmw.cat";
    std::string text = readFile(path);
    for (const std::string edge : {" | pf", " | [nlW];pf"}) text.erase(text.find(edge), edge.size());
    std::ofstream(path) << text;
    const std::string file = sourceDir() + "/litmus/rdma-wait/loco-fig3a-put-wait-write-z1.litmus";
    ToolRun r = runTool("refine --models-dir " + dir + " --impl wait-polls " + file);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find(": No\n  not allowed by the specification: [x]=1; [z]=1;\n  implementation execution:\n"
                         "    P0:\n      P0#2: nlR x^2=1 (from P0#5)\n"),
              std::string::npos)
        << r.out;
}

TEST(Cli, RefineRejectsUnknownImplementationsAndBadTests) {
    ToolRun r = runTool("refine --impl locks " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown implementation 'locks'"), std::string::npos) << r.err;
    // Control flow: the polls a wait needs depend on the path.
    const TempDir tmp("refine");
    const std::string dir = tmp.path();
    std::ofstream(dir + "/t.litmus") << "RDMA t\n{ x@1 = 0; z@2 = 0; }\nP0@1 { choice { z^2 :=^d x } or { mfence }; wait(d) }\n"
                                        "exists (z = 1)\n";
    r = runTool("refine --impl wait-polls " + dir + "/t.litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("t.litmus:3:8: error: wait-polls compiles straight-line threads only"), std::string::npos)
        << r.err;
}

// litmus/bal/README.md's negative control: the transitive I_BAL without its entry
// global fence lets P2 read x = 0, which the specification forbids; refine
// reports it with the implementation's execution. At the default unroll (the
// README's example), which walked 20,449 path combinations before the waits
// became their last reads (doc/model-notes.md §N27); the timeout makes a
// regression fail rather than hang.
TEST(Cli, RefineRejectsTheBarrierWithoutItsEntryFence) {
    const std::string file = sourceDir() + "/litmus/bal/transitive-barrier-fig12.litmus";
    ToolRun faithful = runTool("refine --timeout 60 --impl bal " + file);
    EXPECT_EQ(faithful.status, 0) << faithful.out << faithful.err;
    EXPECT_EQ(faithful.out.find("Warning"), std::string::npos) << "no bound cuts a wait: " << faithful.out;
    ToolRun mutant = runTool("refine --timeout 60 --impl bal-no-entry-fence " + file);
    EXPECT_EQ(mutant.status, 1) << mutant.out << mutant.err;
    EXPECT_NE(mutant.out.find(": No\n  not allowed by the specification: [a]=0;"), std::string::npos) << mutant.out;
    EXPECT_NE(mutant.out.find("  implementation execution:\n    P0:"), std::string::npos) << mutant.out;
}

// I_RBL publishing its head before the slots (the rbl-head-first mutant): the
// reader may see the new head and read the slots' old copies, which the
// length alarm reports, with the implementation's execution.
TEST(Cli, RefineCatchesTheRingBufferPublishingItsHeadFirst) {
    const std::string file = sourceDir() + "/litmus/rbl/rbl-mp-put.litmus";
    ToolRun faithful = runTool("refine --impl rbl,sv --unroll 0 " + file);
    EXPECT_EQ(faithful.status, 0) << faithful.out << faithful.err;
    ToolRun mutant = runTool("refine --impl rbl-head-first,sv --unroll 0 " + file);
    EXPECT_EQ(mutant.status, 1) << mutant.out << mutant.err;
    // Which execution shows an alarm first depends on the enumeration order; that one is shown.
    EXPECT_NE(mutant.out.find("[q: S=2]: specification rdma-wait-rmw 5 outcomes, implementation rdma-wait-rmw 4 "
                              "outcomes: No\n"),
              std::string::npos)
        << mutant.out;
    EXPECT_NE(mutant.out.find("  implementation check failed (length_alarm_P1_0 set): [b]=1; [ok]=1; [r]=1; [v]="),
              std::string::npos)
        << mutant.out;
    EXPECT_NE(mutant.out.find("[x]=1;\n  implementation execution:\n    P0:"), std::string::npos) << mutant.out;
}

// robust: a herd7-style block per test (doc/model-notes.md §N25); exit 1 when a test is
// not robust, 0 when every test is, 2 on a test outside the paper's programs.
TEST(Cli, RobustPrintsAVerdictAndTheCycleAndExits) {
    ToolRun r = runTool("robust " + corpusFile("fig3c-lb-gets-polls.litmus") + " " + corpusFile("fig3d-sb-polled-puts.litmus"));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find("Robustness Fig3c Robust\nModel rdma-sc against sc (trace robustness; prefixes; unroll 2)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Robustness Fig3d NotRobust\nModel rdma-sc against sc (trace robustness; prefixes; unroll 2)\n"
                         "Witness P0:5/5 P1:5/5  [a]=0; [b]=0;\n"
                         "Cycle b:nrW x=1 -po-> c:P(2) -po-> d:lR y=0 -rb-> g:nrW y=1 -po-> h:P(1) -po-> i:lR x=0 "
                         "-rb-> b:nrW x=1\n"
                         "Relaxed b:nrW x=1 …→ d:lR y=0 (G1 ✗); g:nrW y=1 …→ i:lR x=0 (G1 ✗)\n"
                         "Observable yes (this final state is not reachable under sc)\n"
                         "Time Fig3d "),
              std::string::npos)
        << r.out;
    EXPECT_EQ(runTool("robust " + corpusFile("fig3c-lb-gets-polls.litmus")).status, 0);
    const TempDir tmp("robust");
    const std::string dir = tmp / "witness";
    EXPECT_EQ(runTool("robust --dot " + dir + " " + corpusFile("fig3d-sb-polled-puts.litmus")).status, 1);
    const std::string dot = readFile(dir + "/Fig3d-witness.dot");
    EXPECT_NE(dot.find("cycle: breaks sc"), std::string::npos);
    // b:nrW …→ d:lR and g:nrW …→ i:lR, dashed red, labelled with their cell
    const size_t relaxed = dot.find("relation=\"relaxed G1 ✗\",\n\t\tstyle=dashed");
    ASSERT_NE(relaxed, std::string::npos) << dot;
    EXPECT_NE(dot.find("relation=\"relaxed G1 ✗\",\n\t\tstyle=dashed", relaxed + 1), std::string::npos) << dot;
    ToolRun fig1a = runTool("robust --model rdma-tso " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(fig1a.status, 1);
    const std::string wait = sourceDir() + "/litmus/rdma-wait/loco-fig3a-put-wait-write-z1.litmus";
    ToolRun mowgli = runTool("robust " + wait);
    EXPECT_EQ(mowgli.status, 2);
    EXPECT_NE(mowgli.err.find("outside the robustness paper's programs"), std::string::npos) << mowgli.err;
}

// robust --json: one record per test with the fields of doc/model-notes.md §N25
// (doc/output.schema.json validates them in the json_schema entry).
TEST(Cli, RobustJsonCarriesTheWitness) {
    ToolRun r = runTool("robust --json --no-time " + corpusFile("fig3c-lb-gets-polls.litmus") + " " +
                        sourceDir() + "/litmus/robustness/rob-prefix-only.litmus");
    EXPECT_EQ(r.status, 1) << r.err;
    std::istringstream lines(r.out);
    std::string robust, notRobust;
    std::getline(lines, robust);
    std::getline(lines, notRobust);
    EXPECT_NE(robust.find("\"robust\":true"), std::string::npos) << robust;
    EXPECT_NE(robust.find("\"witness\":null"), std::string::npos) << robust;
    EXPECT_EQ(robust.find("\"time\""), std::string::npos) << robust;
    EXPECT_NE(notRobust.find("\"robust\":false"), std::string::npos) << notRobust;
    EXPECT_NE(notRobust.find("\"cuts\":[{\"kept\":3,\"length\":4,\"thread\":\"P0\"}]"), std::string::npos) << notRobust;
    EXPECT_NE(notRobust.find("{\"from\":\"c: lW x=1\",\"relation\":\"rf\",\"to\":\"a: nlR x=1 →2\"}"), std::string::npos)
        << notRobust;
    EXPECT_NE(notRobust.find("\"relaxed\":[{\"cell\":\"F2 ✗\",\"from\":\"a: nlR x=1 →2\",\"to\":\"c: lW x=1\"}]"),
              std::string::npos)
        << notRobust;
    EXPECT_NE(notRobust.find("\"observable\":true"), std::string::npos) << notRobust;
}

// robust --repair writes each smallest repaired program to --repair-dir, and
// the file parses and is robust; exit 0 once every test is repaired.
TEST(Cli, RobustRepairWritesRepairedPrograms) {
    const TempDir tmp("repair");
    ToolRun r = runTool("robust --no-time --repair --repair-dir " + (tmp / "out") + " " +
                        corpusFile("fig3b-lb-gets.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string head = "Repair Fig3b 2 insertions, 1 smallest repair (";
    const size_t at = r.out.find(head);
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Repaired poll(2) after line 6 (P0); poll(1) after line 11 (P1)\nWritten " +
                             (tmp / "out/Fig3b-repaired.litmus") + "\n",
                         at),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("RDMA Fig3b-repaired"), std::string::npos) << "the program is in its file, not the report";
    EXPECT_EQ(runTool("robust " + (tmp / "out/Fig3b-repaired.litmus")).status, 0);
    ToolRun none = runTool("robust --no-time --repair --repair-max 1 --repair-dir " + tmp.path() + " " +
                           corpusFile("fig3a-sb-puts.litmus"));
    EXPECT_EQ(none.status, 1);
    EXPECT_NE(none.out.find("Repair Fig3a none within 1 insertion ("), std::string::npos) << none.out;
}

// robust --repair says how its search goes on stderr (a line every
// --progress-interval), candidates and the size of the sets.
TEST(Cli, RobustRepairProgress) {
    const TempDir tmp("progress");
    ToolRun r = runTool("robust --no-time --repair --repair-dir " + tmp.path() + " --progress --progress-interval 0 " +
                        corpusFile("fig3d-sb-polled-puts.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("rdmacheck: Fig3d: repair: 0 candidates checked, now sets of 1 insertion (at most 4)\n"),
              std::string::npos) << r.err;
    EXPECT_NE(r.err.find("now sets of 2 insertions"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("rdmacheck:"), std::string::npos);
}

// A limit that stops robust's verdict gives Unknown and exit 2: --max-memory
// as --timeout. 1 MiB is below any process's resident memory, and too small
// for Z3 to make a context, which crashed check and robust alike (signal 11).
TEST(Cli, MemoryLimitIsUnknownNotACrash) {
    ToolRun r = runTool("robust --max-memory 1 " + corpusFile("fig3d-sb-polled-puts.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out.rfind("Robustness Fig3d Unknown (memory limit", 0), 0u) << r.out;
    EXPECT_NE(r.err.find("fig3d-sb-polled-puts.litmus"), std::string::npos) << r.err;
    ToolRun check = runTool("--max-memory 1 " + corpusFile("fig3d-sb-polled-puts.litmus"));
    EXPECT_EQ(check.status, 2);
    EXPECT_NE(check.err.find("fig3d-sb-polled-puts.litmus:1:1: error: memory limit"), std::string::npos) << check.err;
}

// robust's bad options and inputs: exit 2 with a message.
TEST(Cli, RobustRejectsBadOptions) {
    const std::string fig3a = corpusFile("fig3a-sb-puts.litmus");
    ToolRun render = runTool("robust --render svg " + fig3a);
    EXPECT_EQ(render.status, 2);
    EXPECT_NE(render.err.find("--render requires --dot"), std::string::npos) << render.err;
    ToolRun max = runTool("robust --repair-max 2 " + fig3a);
    EXPECT_EQ(max.status, 2);
    EXPECT_NE(max.err.find("--repair-max requires --repair"), std::string::npos) << max.err;
    EXPECT_EQ(max.err.find("did you mean"), std::string::npos) << max.err;  // not a typo
    EXPECT_EQ(runTool("robust --repair --repair-max 0 " + fig3a).status, 2);
    EXPECT_EQ(runTool("robust --repair --repair-max -1 " + fig3a).status, 2);
    ToolRun format = runTool("robust --dot out --render pdf " + fig3a);
    EXPECT_EQ(format.status, 2);
    ToolRun model = runTool("robust --model nosuch " + fig3a);
    EXPECT_EQ(model.status, 2);
    EXPECT_NE(model.err.find("nosuch"), std::string::npos) << model.err;
    ToolRun missing = runTool("robust --json missing.litmus");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.out.find("\"type\":\"error\""), std::string::npos) << missing.out;
    ToolRun sc = runTool("robust --model sc " + fig3a);  // robust against itself
    EXPECT_EQ(sc.status, 0) << sc.err;
    ToolRun noFiles = runTool("robust --repair");
    EXPECT_EQ(noFiles.status, 2);
    const std::string x86 = sharedDir() + "/conformance/x86-tso/tests/SB.litmus";
    ToolRun x86Repair = runTool("robust --repair " + x86);
    EXPECT_EQ(x86Repair.status, 2) << x86Repair.out;
    EXPECT_NE(x86Repair.err.find("--repair inserts RDMA statements"), std::string::npos) << x86Repair.err;
}

// cross --mix with every weight 0 was an internal error (exit 3); it is the
// usage error generate gives.
TEST(Cli, CrossRefusesAMixThatDrawsNothing) {
    const std::string mix = " --mix write=0,read=0,put=0,get=0,poll=0,rfence=0,mfence=0,cas=0";
    ToolRun generate = runTool("generate" + mix), cross = runTool("cross -j 1 --random 1" + mix);
    EXPECT_EQ(generate.status, 2);
    EXPECT_EQ(cross.status, 2) << cross.err;
    EXPECT_EQ(cross.err, generate.err);
    EXPECT_NE(cross.err.find("the statement mix leaves nothing to generate"), std::string::npos) << cross.err;
}

// rdmacheck diy (doc/diy.md): one cycle to stdout; every cycle of at most 4
// edges to a folder with its @all, each a test rdmacheck runs; diy7's default
// mode keeping fewer; herd7's spelling; and the mistakes it refuses.
TEST(Commands, DiyWritesTestsFromCycles) {
    const ToolRun sb = runTool("diy --cycle \"PodWR Fre PodWR Fre\"");
    ASSERT_EQ(sb.status, 0) << sb.err;
    EXPECT_EQ(sb.out.rfind("X86 SB\n", 0), 0u) << sb.out;
    EXPECT_EQ(sb.err, "diy: 1 test from 1 cycle considered\n");
    const TempDir dir("diy");
    const ToolRun all = runTool("diy -arch X86 -size 4 -mode free -out " + dir.path());
    ASSERT_EQ(all.status, 0) << all.err;
    EXPECT_EQ(all.err, "diy: 989 tests from 5104 cycles considered\n");
    const std::string index = readFile(dir / "@all");
    EXPECT_EQ(std::count(index.begin(), index.end(), '\n'), 989);
    for (const char* test : {"SB.litmus\n", "MP.litmus\n", "LB+mfences.litmus\n", "LB+pos+rmw.litmus\n"})
        EXPECT_NE(index.find(test), std::string::npos) << test;
    EXPECT_NE(index.find("CoRR+pos-mfences001.litmus\n"), std::string::npos);  // a name met again
    const ToolRun run = runTool("run --no-time " + dir.path());
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(runTool("diy --size 4").err, "diy: 152 tests from 609 cycles considered\n");  // diy7's default
    EXPECT_EQ(runTool("diy --size 4 --mode critical").err, "diy: 115 tests from 280 cycles considered\n");
    EXPECT_EQ(runTool("diy --cycle \"PodWR Fre PodWR Fre\" --mode free").err,
              "rdmacheck: error: --mode takes --size (a --cycle is written as given)\n");
    const ToolRun sc = runTool("diy --size 4 --mode sc");
    EXPECT_EQ(sc.status, 2);
    EXPECT_NE(sc.err.find("--mode: sc not in {default,critical,free}"), std::string::npos) << sc.err;
    const ToolRun relaxed = runTool("diy --size 4 --safe PodWR,Fre --relax MFencedWR");
    ASSERT_EQ(relaxed.status, 0) << relaxed.err;
    EXPECT_EQ(relaxed.err, "diy: 2 tests from 5 cycles considered\n");  // SB+mfence+po, SB+mfences
    EXPECT_NE(relaxed.out.find("X86 SB+mfences\n"), std::string::npos);
    const ToolRun unknown = runTool("diy --cycle \"PodWR Fer\"");
    EXPECT_EQ(unknown.status, 2);
    EXPECT_EQ(unknown.err.rfind("rdmacheck: error: --cycle: unknown edge 'Fer' (did you mean 'Fre'?) (X86 edges: PosWW,", 0), 0u)
        << unknown.err;
    EXPECT_EQ(runTool("diy --cycle \"PodWR Rfe\"").err,
              "rdmacheck: error: --cycle: no test from this cycle: PodWR ends at R but Rfe starts at W\n");
    EXPECT_EQ(runTool("diy").err, "rdmacheck: error: diy takes --cycle or --size, one of them\n");
    EXPECT_EQ(runTool("diy --cycle \"Rfe Fre\"").err,
              "rdmacheck: error: --cycle: no test from this cycle: a read reads a write and one coherence-before it "
              "(Rfe Fre)\n");
    // diy7's Coe and Coi are Wse and Wsi
    EXPECT_EQ(runTool("diy --cycle \"Coe PodWR Fre PodWR\"").out, runTool("diy --cycle \"Wse PodWR Fre PodWR\"").out);
    EXPECT_EQ(runTool("diy --cycle \"Wse Wse PosWW\"").err,
              "rdmacheck: error: --cycle: no test from this cycle: Wse Wse is one edge: nothing observes the write "
              "between\n");
}

// diy7's relax reading: under x86-TSO only a write then a read on another
// location (PodWR, SB) is relaxed among cycles of 4 edges; under SC nothing.
// The smallest tests tso and sc answer differently are SB and R and their
// fenced variants (allowed under tso only).
TEST(Commands, DiyMapsModelsAndTellsThemApart) {
    const ToolRun tso = runTool("diy --size 4 --model tso");
    ASSERT_EQ(tso.status, 0) << tso.err;
    EXPECT_EQ(tso.out.rfind("Map tso: cycles of at most 4 edges over Rfe, Fre, Wse and one other edge\n", 0), 0u);
    EXPECT_NE(tso.out.find("\nPodWR relaxed: SB is allowed\n"), std::string::npos) << tso.out;
    EXPECT_NE(tso.out.find("\nPodWW safe: 1 test, none allowed\n"), std::string::npos) << tso.out;  // 2+2W
    EXPECT_NE(tso.out.find("\nRfi untested: in no cycle of at most 4 edges\n"), std::string::npos) << tso.out;
    EXPECT_EQ(std::count(tso.out.begin(), tso.out.end(), '\n'), 21);  // the map's line, then one an edge
    EXPECT_EQ(runTool("diy --size 4 --model sc").out.find("relaxed"), std::string::npos);
    EXPECT_NE(runTool("diy --size 6 --model tso --relax Rfi --safe Rfe,Fre,Wse,PodRR").out.find("Rfi relaxed: "), std::string::npos);
    const TempDir dir("distinguish");
    const ToolRun apart = runTool("diy --size 4 --distinguish tso,sc --out " + dir.path());
    ASSERT_EQ(apart.status, 0) << apart.err;
    EXPECT_NE(apart.err.find("SB (PodWR Fre PodWR Fre): allowed under tso, forbidden under sc\n"), std::string::npos)
        << apart.err;
    EXPECT_EQ(readFile(dir / "@all"), "R.litmus\nSB.litmus\nR+mfence+po.litmus\nSB+po+mfence.litmus\n");
    // Each written test says so again when run: allowed (Ok) under tso, not under sc.
    EXPECT_EQ(runTool("run --model tso " + dir.path()).status, 0);
    EXPECT_EQ(runTool("--model sc " + (dir / "SB.litmus")).out.find("\nNo\n") != std::string::npos, true);
    EXPECT_EQ(runTool("diy --size 4 --model tso --distinguish tso,sc").err,
              "rdmacheck: error: --model and --distinguish take --size, and not each other\n");
}

// RDMA cycles (doc/diy.md, "RDMA"): every cycle of at most 3 edges makes a
// test rdmacheck runs (diy7's default mode keeps fewer); the smallest tests over a few edges that tell rdma-tso
// from rdma-sc (store buffering) and from rdma-tso-nopcie (a put then a get
// to one node, each side: the PCIe guarantee), each checked again from its file.
TEST(Commands, DiyWritesRdmaCyclesAndTellsRdmaModelsApart) {
    const TempDir dir("diy-rdma");
    const ToolRun all = runTool("diy --arch RDMA --size 3 --mode free --out " + dir.path());
    ASSERT_EQ(all.status, 0) << all.err;
    EXPECT_EQ(all.err, "diy: 2700 tests from 49089 cycles considered, 37 more left out: another's program and "
                       "condition\n");
    EXPECT_EQ(runTool("diy --arch RDMA --size 3").err,
              "diy: 131 tests from 1280 cycles considered, 1 more left out: another's program and condition\n");
    const ToolRun run = runTool("run --no-time " + dir.path());
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.out.find("error"), std::string::npos);
    // Two cycles, one program and condition (CoRR): the second is left out.
    const ToolRun corr = runTool("diy --arch RDMA --size 4 --mode free --safe Rfe,Fri,PoslRlW,PoslWlR,Fre");
    EXPECT_NE(corr.err.find(" more left out: another's program and condition\n"), std::string::npos) << corr.err;
    EXPECT_NE(corr.out.find("\"Rfe PoslRlW PoslWlR Fre\"") == std::string::npos,
              corr.out.find("\"Rfe Fri PoslWlR Fre\"") == std::string::npos)
        << corr.out;
    const ToolRun sc = runTool("diy --arch RDMA --size 4 --safe PodlWlR,Fre,PodnrWnrR --distinguish rdma-tso,rdma-sc");
    EXPECT_EQ(sc.err, "SB (PodlWlR Fre PodlWlR Fre): allowed under rdma-tso, forbidden under rdma-sc\n"
                      "SB+po+PodnrWnrR (PodlWlR Fre PodnrWnrR Fre): allowed under rdma-tso, forbidden under rdma-sc\n"
                      "diy: 2 tests from 3 cycles considered\n");
    const ToolRun pcie = runTool("diy --arch RDMA --size 4 --safe Fre,PodnrWnrR --distinguish rdma-tso,rdma-tso-nopcie "
                                 "--out " + dir.path());
    EXPECT_EQ(pcie.err, "SB+PodnrWnrRs (PodnrWnrR Fre PodnrWnrR Fre): forbidden under rdma-tso, allowed under "
                        "rdma-tso-nopcie\n"
                        "diy: 1 test from 1 cycle considered\n");
    EXPECT_NE(runTool("--model rdma-tso " + (dir / "SB+PodnrWnrRs.litmus")).out.find("\nNo\n"), std::string::npos);
    EXPECT_NE(runTool("--model rdma-tso-nopcie " + (dir / "SB+PodnrWnrRs.litmus")).out.find("\nOk\n"), std::string::npos);
    EXPECT_EQ(runTool("diy --arch RDMA --cycle \"PodWR Fre\"").err,
              "rdmacheck: error: --cycle: unknown edge 'PodWR' (RDMA edges: doc/diy.md, \"RDMA\")\n");
    EXPECT_EQ(runTool("diy --arch ARM --size 2").status, 2);
}

// diy7's relax reading rebuilds rdma-tso's oppo table over the six memory
// event kinds, cell by cell (one queue pair/two where both are operations'
// events), from cycles of at most 6 edges: no cell left untested, none that
// disagrees; * marks the cells the model orders without them (ippo through
// inst-ib-ob, nfo through ib), with the axiom that then forbids. Against ippo
// only lW lR (B1) disagrees: store buffering is allowed though ippo orders the
// pair. rdma-tso-nopcie's behaviour has its own oppo's two cells (nrW before
// nrR, nlW) unordered.
TEST(Commands, DiyRebuildsTheOrderTables) {
    const std::string rows = "     lR     lW     nlR    nrW    nrR    nlW\n"
                             "lR   ✓*     ✓*     ✓*     ✓*     ✓*     ✓*\n"
                             "lW   ✗      ✓      ✓      ✓*     ✓      ✓*\n"
                             "nlR  ✗      ✗      ✓*/✗   ✓*/✗   ✓*/✗   ✓*/✗\n"
                             "nrW  ✗      ✗      ✗/✗    ✓/✗    ✓*/✗   ✓*/✗\n"
                             "nrR  ✗      ✗      ✗/✗    ✗/✗    ✗/✗    ✓*/✗\n"
                             "nlW  ✗      ✗      ✗/✗    ✗/✗    ✗/✗    ✓/✗\n";
    const ToolRun oppo = runTool("diy --arch RDMA --size 6 --model rdma-tso --table oppo");
    ASSERT_EQ(oppo.status, 0) << oppo.err;
    const std::string grid = oppo.out.substr(oppo.out.find('\n') + 1);
    EXPECT_EQ(grid.substr(0, rows.size()), rows);
    EXPECT_NE(grid.find("\nlR lW: ordered without its cell too; dropping inst-ib-ob as well lets a test relax it\n"),
              std::string::npos)
        << grid;
    EXPECT_NE(grid.find("\nnrW nrR: ordered without its cell too; dropping ib or ob as well lets a test relax it\n"),
              std::string::npos)
        << grid;
    // The separators' cells, read through the MFence, Poll and Rfence edges.
    const std::string separators = "     F      P      nF\n"
                                   "lR   ?      ?      ?\n"
                                   "lW   ✓      ?      ?\n"
                                   "nlR  ✗      ✓!*    ?\n"
                                   "nrW  ✗      ✗      ✗\n"
                                   "nrR  ✗      ✓!*    ✓*\n"
                                   "nlW  ✗      ✓!*    ✓!*\n"
                                   "     lR     lW     nlR    nrW    nrR    nlW\n"
                                   "F    ✓*     ?      ?      ?      ?      ?\n"
                                   "P    ✓*     ✓*     ✓*/✓*  ✓*/✓*  ✓*/✓*  ?/✓*\n"
                                   "nF   ✗      ✗      ✓*/✗   ✓*/✗   ✓*/✗   ?/✗\n";
    EXPECT_NE(grid.find("\n" + separators), std::string::npos) << grid;
    EXPECT_NE(grid.find("\nnlW nF: the table leaves it unordered, but RfencednlWnlR is safe where PodnlWnlR is "
                        "relaxed\n"),
              std::string::npos)
        << grid;
    EXPECT_NE(grid.find("\nnlW nF: ordered though its cell is not; dropping ob as well lets a test relax it\n"),
              std::string::npos)
        << grid;
    EXPECT_NE(grid.find("\nlW P: unread, no Poll edge puts lW before it\n"), std::string::npos) << grid;
    // A CPU CAS's cells, through its read aR and write aW (Rmw between): at 6 edges a CAS before a read is in no
    // cycle (a read after a CAS must reach another location through a second thread's program order).
    EXPECT_NE(grid.find("\n     CAS\nlR   ✓*\nlW   ✓\nnlR  ✗\nnrW  ✗\nnrR  ✗\nnlW  ✗\nCAS  ✓*\n"
                        "     lR     lW     nlR    nrW    nrR    nlW\nCAS  ?      ✓*     ?      ✓*     ?      ✓*\n"),
              std::string::npos)
        << grid;
    EXPECT_NE(grid.find("\nlR F: unread, Po is safe between lR and every later kind: nothing for the separator to "
                        "order\n"),
              std::string::npos)
        << grid;
    const ToolRun ippo = runTool("diy --arch RDMA --size 6 --model rdma-tso --table ippo");
    EXPECT_NE(ippo.out.find("\nlW   ✗!     ✓"), std::string::npos) << ippo.out;
    EXPECT_NE(ippo.out.find("\nlW lR: the table orders it, but PodlWlR is relaxed: "), std::string::npos) << ippo.out;
    // After the legend and before the separators: B1 is the one memory cell behaviour reads otherwise; among
    // the separators' cells, G10 (nrW nF) is unordered by behaviour, as oppo has it.
    const size_t legendEnd = ippo.out.find('\n');
    const std::string ippoCells = ippo.out.substr(legendEnd, ippo.out.find("\nSeparators") - legendEnd);
    EXPECT_EQ(std::count(ippoCells.begin(), ippoCells.end(), '!'), 1);
    EXPECT_NE(ippo.out.find("\nnrW  ✗      ✗      ✗!\n"), std::string::npos) << ippo.out;
    const ToolRun nopcie = runTool("diy --arch RDMA --size 6 --model rdma-tso-nopcie --table oppo");
    EXPECT_NE(nopcie.out.find("\nnrW  ✗      ✗      ✗/✗    ✓/✗    ✗/✗    ✗/✗\n"), std::string::npos) << nopcie.out;
    const size_t separatorsAt = nopcie.out.find("\nSeparators");
    EXPECT_EQ(nopcie.out.substr(0, separatorsAt).find('!', nopcie.out.find('\n')), std::string::npos) << nopcie.out;
    EXPECT_NE(nopcie.out.find("\nnlW  ✗      ✓!*    ✗\n", separatorsAt), std::string::npos) << nopcie.out;
    EXPECT_EQ(runTool("diy --arch RDMA --size 6 --model rdma-tso --table nosuch").status, 2);
    EXPECT_EQ(runTool("diy --size 6 --model tso --table oppo").err,
              "rdmacheck: error: --table takes --arch RDMA, --size and --model\n");
}
