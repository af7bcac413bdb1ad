// The subcommands through the real executable: `cross` (exit codes, difference
// report, shrunk reproducer), `generate`, and `--engine operational`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <set>
#include <utility>
#include <vector>
#include <sys/stat.h>

#include "../test_support.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

std::string corpusFile(const std::string& name) { return sourceDir() + "/litmus/rdma-tso/" + name; }

}  // namespace

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

TEST(Cli, OperationalEnginePrintsTheHerdReport) {
    ToolRun r = runTool("--engine operational --machine simplified --no-time " + corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "Test Fig3e Allowed\n"
              "Model rdma-tso (simplified machine)\n"
              "States 3\n"
              "[a]=0; [b]=1;\n"
              "[a]=1; [b]=0;\n"
              "[a]=1; [b]=1;\n"
              "No\n"
              "Witnesses\n"
              "Positive: 0 Negative: 3\n"
              "Condition exists ([a]=0 /\\ [b]=0)\n"
              "Observation Fig3e Never 0 3\n"
              "\n");
    ToolRun bad = runTool("--engine operational --machine sixbuffers x.litmus");
    EXPECT_NE(bad.status, 0);
}

TEST(Cli, ExplainPrintsTheCycleAndDrawsIt) {
    const TempDir tmp("why");
    const std::string dir = tmp / "why";
    ToolRun r = runTool("--explain --no-time --dot " + dir + " --render svg " + corpusFile("fig3c-lb-gets-polls.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Explanation Fig3c: 1 candidate execution(s) reach exists ([a]=1 /\\ [b]=1); none is "
                         "consistent under rdma-tso\nCandidate 1: [a]=1; [b]=1;\n  cycle breaks ib: a:nrR y →ippo"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(std::filesystem::exists(dir + "/Fig3c-why-1.dot"));
    EXPECT_NE(readFile(dir + "/Fig3c-why-1.svg").find("<svg"), std::string::npos);
}

TEST(Cli, DotShowsTheChosenExecutions) {
    const TempDir tmp("dot");
    const std::string dir = tmp / "dot";
    ToolRun r = runTool("--dot " + dir + " --show all " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.path().extension() == ".dot";
    EXPECT_EQ(files, 4u);  // SB: four consistent executions
    std::filesystem::remove_all(dir);
    ToolRun cond = runTool("--dot " + dir + " " + corpusFile("fig1a-sb.litmus"));
    files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.path().extension() == ".dot";
    EXPECT_EQ(files, 1u);  // --show cond by default: the a = b = 0 execution
}

// The operational engine draws one run per distinct final memory (Positive +
// Negative count them), named and captioned as the declarative pictures are.
TEST(Cli, OperationalDotDrawsARunPerFinalMemory) {
    const TempDir tmp("opdot");
    const std::string dir = tmp / "dot";
    ToolRun r = runTool("--engine operational --no-time --dot " + dir + " --render svg --show all " +
                        corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Positive: 0 Negative: 3\n"), std::string::npos) << r.out;
    std::set<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files.insert(e.path().filename().string());
    // Numbered to the width of --max-pictures (1000 by default), so that they sort.
    EXPECT_EQ(files, (std::set<std::string>{"Fig3e-0001.dot", "Fig3e-0001.svg", "Fig3e-0002.dot", "Fig3e-0002.svg",
                                            "Fig3e-0003.dot", "Fig3e-0003.svg"}));
    EXPECT_NE(readFile(dir + "/Fig3e-0001.dot").find("label=\"Fig3e execution 1: [a]=0; [b]=1;\""), std::string::npos);

    // --show cond by default: only final memories where the condition holds.
    const std::string rmw = sourceDir() + "/litmus/rdma-tso-rmw/fig6a-rcas-vs-cpu-write.litmus";
    ToolRun cond = runTool("--engine operational --json --dot " + (tmp / "cond") + " " + rmw);
    EXPECT_EQ(cond.status, 0) << cond.err;
    size_t drawn = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp / "cond")) drawn += e.path().extension() == ".dot";
    EXPECT_NE(cond.out.find("\"positive\":" + std::to_string(drawn) + ","), std::string::npos) << cond.out;

    ToolRun explain = runTool("--engine operational --explain " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(explain.status, 2);
    EXPECT_EQ(explain.err, "rdmacheck: error: --explain looks for declarative executions; drop --engine operational\n");
}

TEST(Cli, PictureOptionsAreChecked) {
    ToolRun render = runTool("--render svg " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(render.status, 2);
    EXPECT_EQ(render.err, "rdmacheck: error: --render needs --dot DIR (where the pictures go)\n");
    const TempDir dir("edges");
    ToolRun edges = runTool("--dot " + dir.path() + " --edges po,bogus " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(edges.status, 2);
    EXPECT_NE(edges.err.find("unknown relation 'bogus' for model rdma-tso"), std::string::npos) << edges.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
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
                         "    P0: P0#2:nlR x^2=1 (from P0#5);"),
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

// Graphviz 2.43's dot failed to rank these executions when their non-po edges
// carried labels, and then corrupted its heap: every picture must be drawn.
TEST(Cli, EveryExecutionOfASharedVariableTestIsDrawn) {
    const TempDir tmp("fig9c");
    const std::string dir = tmp / "fig9c";
    ToolRun r = runTool("--dot " + dir + " --render svg --show all " + sourceDir() +
                        "/litmus/rdma-wait/loco-fig9c-bcast-split.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    size_t pictures = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) pictures += entry.path().extension() == ".svg";
    EXPECT_EQ(pictures, 28u);
}

// The tool keeps nothing in the temporary directory: pictures (Graphviz runs in
// child processes), explanations, cross with shrinking, refine, generate and the
// operational engine, each run with TMPDIR pointed at a fresh empty directory.
TEST(Cli, LeavesNothingInTheTemporaryDirectory) {
    const TempDir watched("watched"), out("outputs");
    const std::string env = "TMPDIR=" + watched.path();
    const std::string wait = sourceDir() + "/litmus/rdma-wait/loco-fig3a-put-wait-write-z1.litmus";
    const std::vector<std::pair<std::string, int>> runs{
        {"--dot " + (out / "svg") + " --render svg --show all " + corpusFile("fig1a-sb.litmus"), 0},
        {"--dot " + (out / "png") + " --render png " + corpusFile("fig1a-sb.litmus"), 0},
        {"--explain --dot " + (out / "why") + " --render svg " + corpusFile("fig3c-lb-gets-polls.litmus"), 0},
        {"cross -j 1 --configs declarative:rdma-tso,concrete:sc --against-first --repro-dir " + (out / "repro") + " " +
             corpusFile("fig1a-sb.litmus"),
         1},
        {"refine --impl sv,wait-polls " + wait, 0},
        {"generate --seed 7 --count 2 --out " + (out / "gen"), 0},
        {"--engine operational --machine simplified " + corpusFile("fig3e-sb-polled-gets.litmus"), 0},
        {"--engine operational --dot " + (out / "op") + " --render svg " + corpusFile("fig1a-sb.litmus"), 0},
    };
    for (const auto& [args, status] : runs) {
        ToolRun r = runTool(args, env);
        EXPECT_EQ(r.status, status) << args << "\n" << r.err;
    }
    std::string left;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(watched.path()))
        left += entry.path().string() + "\n";
    EXPECT_EQ(left, "") << "left in TMPDIR";
}

// --model takes a path, --skip drops an axiom by name, and the machine refuses the variant.
TEST(Cli, ModelPathsAndSkippedAxioms) {
    const std::string sb = corpusFile("fig1a-sb.litmus");
    ToolRun r = runTool("--model " + sourceDir() + "/models/sc.cat --no-time " + sb);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Observation Fig1a Never 0 3"), std::string::npos) << r.out;
    r = runTool("--model sc --skip sc --no-time " + sb);
    EXPECT_NE(r.out.find("Observation Fig1a Sometimes 1 3"), std::string::npos) << r.out;
    r = runTool("--model rdma-tso --skip nope " + sb);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "rdmacheck: error: --skip: model rdma-tso has no axiom 'nope' (axioms: ib, ob, inst-ib-ob)\n");
    r = runTool("--model rdma-tso --skip ob --engine operational " + sb);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("differs from the rdma-tso the operational machine implements"), std::string::npos) << r.err;
}

// The answer-only modes say which mode ran and print no execution counts.
TEST(Cli, StatesAndSpeedcheckModes) {
    const std::string fig3e = corpusFile("fig3e-sb-polled-gets.litmus");
    ToolRun states = runTool("--states --no-time " + fig3e);
    EXPECT_EQ(states.status, 0) << states.err;
    EXPECT_EQ(states.out,
              "Test Fig3e Allowed\n"
              "Model rdma-tso\n"
              "States 3\n"
              "[a]=0; [b]=1;\n"
              "[a]=1; [b]=0;\n"
              "[a]=1; [b]=1;\n"
              "No\n"
              "Condition exists ([a]=0 /\\ [b]=0)\n"
              "Mode states\n"
              "\n");
    ToolRun speed = runTool("--speedcheck --no-time " + fig3e);
    EXPECT_EQ(speed.status, 0) << speed.err;
    EXPECT_EQ(speed.out, "Test Fig3e Allowed\nModel rdma-tso\nStates 0\nNo\nCondition exists ([a]=0 /\\ [b]=0)\nMode speedcheck\n\n");
    ToolRun json = runTool("--speedcheck --json --no-time " + fig3e);
    EXPECT_NE(json.out.find("\"mode\":\"speedcheck\""), std::string::npos) << json.out;
    EXPECT_EQ(json.out.find("\"positive\""), std::string::npos) << json.out;
    EXPECT_EQ(runTool("--states --speedcheck " + fig3e).status, 2);
    EXPECT_EQ(runTool("--states --engine operational " + fig3e).status, 2);
}

// -j checks files in parallel; the report, errors included, keeps the input order.
TEST(Cli, ParallelFilesPrintInInputOrder) {
    std::string files;
    for (const char* name : {"fig3e-sb-polled-gets.litmus", "fig1a-sb.litmus", "fig2h-get-then-put-z1.litmus"})
        files += " " + corpusFile(name);
    const std::string args = "--no-time" + files + " /nonexistent.litmus" + files;
    ToolRun one = runTool("-j 1 " + args), two = runTool("-j 2 " + args);
    EXPECT_EQ(one.status, 2);
    EXPECT_EQ(two.status, 2);
    EXPECT_EQ(one.out, two.out);
    EXPECT_EQ(one.err, two.err);
    EXPECT_LT(one.out.find("Test Fig3e"), one.out.find("Test Fig1a"));
    EXPECT_NE(one.err.find("/nonexistent.litmus"), std::string::npos) << one.err;
    EXPECT_EQ(runTool("-j 0" + files).status, 2);
}

// Pictures and explanations print executions in the order the solver finds
// them; that order must not depend on the tests checked before, nor on -j.
TEST(Cli, PicturesDoNotDependOnTheTestsCheckedBefore) {
    const std::string a = corpusFile("fig3e-sb-polled-gets.litmus"), b = corpusFile("fig1a-sb.litmus"),
                      c = corpusFile("fig2h-get-then-put-z1.litmus");
    const TempDir tmp("order");
    auto pictures = [&](const std::string& dir, const std::string& args) {
        ToolRun r = runTool("--no-time --show all --explain --dot " + (tmp / dir) + " " + args);
        EXPECT_EQ(r.status, 0) << r.err;
        std::map<std::string, std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(tmp / dir)) {
            std::ifstream in(e.path());
            files[e.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
        }
        return std::make_pair(files, r.out);
    };
    const auto forward = pictures("forward", a + " " + b + " " + c);
    const auto backward = pictures("backward", "-j 2 " + c + " " + b + " " + a);
    EXPECT_FALSE(forward.first.empty());
    EXPECT_EQ(forward.first, backward.first);
    const auto alone = pictures("alone", c);
    EXPECT_NE(forward.second.find(alone.second), std::string::npos);  // c's report and explanation
}

// `run`: a suite from a directory, an index file and standard input; reports in
// order on stdout, a summary on stderr; a bad test does not stop the others.
TEST(Cli, RunChecksASuiteAndSummarises) {
    const TempDir tmp("suite");
    const std::string dir = tmp / "suite";
    std::filesystem::create_directories(dir + "/sub");
    std::filesystem::copy_file(corpusFile("fig1a-sb.litmus"), dir + "/b.litmus");
    std::filesystem::copy_file(corpusFile("fig3e-sb-polled-gets.litmus"), dir + "/sub/a.litmus");
    std::ofstream(dir + "/bad.litmus") << "RDMA Bad\n{ x@1 = 0; }\nP0@1 { x := ; }\nexists (x = 0)\n";
    std::ofstream(dir + "/notes.txt") << "not a test\n";
    ToolRun r = runTool("run -j 2 --no-time " + dir);
    EXPECT_EQ(r.status, 2) << r.err;  // bad.litmus
    EXPECT_LT(r.out.find("Test Fig1a"), r.out.find("Test Fig3e"));  // b.litmus before sub/a.litmus
    EXPECT_NE(r.err.find("bad.litmus:3:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run: 3 tests"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("errors 1, timeouts 0"), std::string::npos) << r.err;

    std::ofstream(dir + "/index") << "# a herd7 index\nb.litmus\n\nsub/a.litmus\n";
    ToolRun index = runTool("run --no-time @" + dir + "/index");
    EXPECT_EQ(index.status, 0) << index.err;
    EXPECT_NE(index.err.find("run: 2 tests"), std::string::npos) << index.err;
    std::ofstream(dir + "/names") << dir + "/b.litmus\n" << dir + "/sub/a.litmus\n";
    ToolRun piped = runTool("run --no-time - < " + dir + "/names");
    EXPECT_EQ(piped.out, index.out);
}

TEST(Cli, RunComparesExpectedVerdictsAndShards) {
    const TempDir tmp("expect");
    const std::string dir = tmp / "expect";
    std::filesystem::create_directories(dir);
    const std::string a = corpusFile("fig1a-sb.litmus"), b = corpusFile("fig3e-sb-polled-gets.litmus");
    // Fig1a is Ok, Fig3e is No.
    std::ofstream(dir + "/right.csv") << "test,verdict\nfig1a-sb.litmus,1\nFig3e,No\n";
    std::ofstream(dir + "/wrong.csv") << "test,verdict\nFig1a,Ok\nfig3e-sb-polled-gets,Ok\n";
    EXPECT_EQ(runTool("run --no-time --expect " + dir + "/right.csv " + a + " " + b).status, 0);
    ToolRun wrong = runTool("run --no-time --expect " + dir + "/wrong.csv " + a + " " + b);
    EXPECT_EQ(wrong.status, 1);
    EXPECT_NE(wrong.err.find("Fig3e (" + b + "): expected Ok, got No"), std::string::npos) << wrong.err;
    // A herd7 log and rdmacheck's JSON serve as expectations too.
    ToolRun log = runTool("--no-time " + a + " " + b);
    std::ofstream(dir + "/log") << log.out;
    EXPECT_EQ(runTool("run --no-time --expect " + dir + "/log " + a + " " + b).status, 0);
    std::ofstream(dir + "/json") << runTool("--json " + a + " " + b).out;
    EXPECT_EQ(runTool("run --no-time --expect " + dir + "/json " + a + " " + b).status, 0);
    std::ofstream(dir + "/bad.csv") << "test,verdict\nFig1a,maybe\n";
    EXPECT_EQ(runTool("run --expect " + dir + "/bad.csv " + a).status, 2);
    // Shards 1/2 and 2/2 split the suite; their union is the whole.
    const std::string suite = sourceDir() + "/litmus/rdma-tso";
    ToolRun whole = runTool("run --no-time " + suite);
    ToolRun first = runTool("run --no-time --shard 1/2 " + suite), second = runTool("run --no-time --shard 2/2 " + suite);
    EXPECT_EQ(whole.status, 0);
    EXPECT_EQ(first.out.size() + second.out.size(), whole.out.size());
    EXPECT_NE(first.out, second.out);
    for (const char* bad : {"0/2", "3/2", "1-2", "1/2x", "-1/2", "1/18446744073709551617", "+1/2"})
        EXPECT_EQ(runTool(std::string("run --shard ") + bad + " " + a).status, 2);
    // merge joins the shards' logs, sorted by test name; a bad log is refused.
    std::ofstream(dir + "/first.log") << first.out;
    std::ofstream(dir + "/second.log") << second.out;
    std::ofstream(dir + "/whole.log") << whole.out;
    ToolRun merged = runTool("merge " + dir + "/second.log " + dir + "/first.log");
    EXPECT_EQ(merged.status, 0) << merged.err;
    EXPECT_EQ(merged.out, runTool("merge " + dir + "/whole.log").out);
    EXPECT_NE(merged.err.find("merge: 29 tests"), std::string::npos) << merged.err;
    std::ofstream(dir + "/wrong-names.csv") << "Fig3e,Ok\n";  // merge knows tests by name only
    EXPECT_EQ(runTool("merge --expect " + dir + "/wrong-names.csv " + dir + "/whole.log").status, 1);
    std::ofstream(dir + "/garbage.log") << "not a log\n";
    ToolRun garbage = runTool("merge " + dir + "/garbage.log");
    EXPECT_EQ(garbage.status, 2);
    EXPECT_NE(garbage.err.find("garbage.log:1:"), std::string::npos) << garbage.err;
}

TEST(Cli, RunReportsTimeouts) {
    ToolRun r = runTool("run --timeout 0.000001 --no-time " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("timeouts 1"), std::string::npos) << r.err;
}

// JSON shards keep their errors and timeouts: merge counts them, keeps their
// records and exits 2, as the one run did; --expect reads such a log too.
TEST(Cli, MergeKeepsTheErrorsOfJsonShards) {
    const TempDir tmp("merge-errors");
    const std::string dir = tmp / "merge-errors";
    std::filesystem::create_directories(dir);
    const std::string ok = corpusFile("fig1a-sb.litmus"), bad = sourceDir() + "/tests/errors/empty-file.litmus";
    ToolRun shard1 = runTool("run --json --no-time " + ok + " " + bad);
    ToolRun shard2 = runTool("run --json --no-time --timeout 0.000001 " + corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(shard1.status, 2);
    EXPECT_EQ(shard2.status, 2);
    EXPECT_NE(shard2.out.find("\"timeout\":true"), std::string::npos) << shard2.out;
    std::ofstream(dir + "/1.json") << shard1.out;
    std::ofstream(dir + "/2.json") << shard2.out;
    ToolRun merged = runTool("merge " + dir + "/1.json " + dir + "/2.json");
    EXPECT_EQ(merged.status, 2) << merged.err;
    EXPECT_NE(merged.err.find("merge: 3 tests"), std::string::npos) << merged.err;
    EXPECT_NE(merged.err.find("errors 1, timeouts 1"), std::string::npos) << merged.err;
    EXPECT_NE(merged.out.find("empty-file.litmus"), std::string::npos) << merged.out;
    EXPECT_EQ(runTool("run --no-time --expect " + dir + "/1.json " + ok).status, 0);
    // A text report whose block a JSON error record follows (logs appended to
    // each other): both are read, the block's lines kept with it.
    ToolRun text = runTool("--no-time " + ok);
    std::ofstream(dir + "/mixed.log") << text.out.substr(0, text.out.size() - 1) << shard1.out.substr(shard1.out.find("\n{") + 1);
    ToolRun mixed = runTool("merge " + dir + "/mixed.log");
    EXPECT_EQ(mixed.status, 2) << mixed.err;
    EXPECT_NE(mixed.err.find("merge: 2 tests"), std::string::npos) << mixed.err;
    EXPECT_NE(mixed.err.find("errors 1, timeouts 0"), std::string::npos) << mixed.err;
}

// herdtools' log reader (tools/lexLog_tools.mll, 7.58): test names are
// (alpha|digit|_ / . - + [ ])+ and state entries `num:reg=v;` or `[loc]=v;` with
// loc = (alpha|_|.|$)(alpha|digit|_|.)*; SV copies x@2 therefore print as x.2.
TEST(Cli, HerdLogReaderAcceptsEveryReport) {
    ToolRun r = runTool("run --no-progress --no-time " + sourceDir() + "/litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    const std::regex testLine(R"(Test [A-Za-z0-9_/.+\[\]-]+ (Allowed|Forbidden|Required))");
    const std::string name = R"([A-Za-z_.$][A-Za-z0-9_.]*)";
    const std::regex stateLine(R"(( *(\d+:)" + name + R"(|\[)" + name + R"(\])=-?\d+;)*)");
    std::istringstream lines(r.out);
    bool inStates = false, sawSvCopy = false;
    size_t tests = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("Test ", 0) == 0) {
            ++tests;
            EXPECT_TRUE(std::regex_match(line, testLine)) << line;
        } else if (line.rfind("States ", 0) == 0) {
            inStates = true;
        } else if (line == "Ok" || line == "No") {
            inStates = false;
        } else if (inStates) {
            EXPECT_TRUE(std::regex_match(line, stateLine)) << line;
            sawSvCopy = sawSvCopy || std::regex_search(line, std::regex(R"(\[[a-z]+\.\d+\])"));
        }
    }
    EXPECT_GT(tests, 100u);
    EXPECT_TRUE(sawSvCopy);  // the corpus has SV tests that show a copy
}

// herd7's single-dash options, --version, a Model line, and suggestions for
// misspelt options and models.
TEST(Cli, Herd7HabitsAndSuggestions) {
    const std::string mp = sharedDir() + "/conformance/x86-tso/tests/MP.litmus";
    // sc without its one axiom (named sc) reaches MP's forbidden outcome.
    ToolRun herd = runTool("-model sc -speedcheck true -unroll 1 -skipchecks sc " + mp);
    EXPECT_EQ(herd.status, 0) << herd.err;
    EXPECT_NE(herd.out.find("\nNo\n"), std::string::npos) << herd.out;
    ToolRun unknown = runTool("-model sc -skipchecks sc,bogus " + mp);
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("bogus"), std::string::npos) << unknown.err;
    ToolRun speed = runTool("-model tso -speedcheck true " + mp);
    EXPECT_EQ(speed.status, 0) << speed.err;
    EXPECT_NE(speed.out.find("Model tso\n"), std::string::npos) << speed.out;
    EXPECT_NE(speed.out.find("Mode speedcheck"), std::string::npos) << speed.out;
    const TempDir tmp("herd");
    EXPECT_EQ(runTool("-o " + (tmp / "pictures") + " -show all " + mp).status, 0);
    EXPECT_TRUE(std::filesystem::exists(tmp / "pictures/MP-0001.dot"));
    ToolRun version = runTool("-version");
    EXPECT_EQ(version.status, 0);
    EXPECT_EQ(version.out.rfind("rdmacheck ", 0), 0u) << version.out;
    EXPECT_EQ(runTool("--version").out, version.out);
    ToolRun flag = runTool("--modle tso " + mp);
    EXPECT_EQ(flag.status, 2);
    EXPECT_NE(flag.err.find("did you mean '--model'?"), std::string::npos) << flag.err;
    ToolRun shard = runTool("run --shrad 1/2 " + mp);
    EXPECT_NE(shard.err.find("did you mean '--shard'?"), std::string::npos) << shard.err;
    ToolRun model = runTool("--model tos " + mp);
    EXPECT_EQ(model.status, 2);
    EXPECT_NE(model.err.find("did you mean 'tso'?"), std::string::npos) << model.err;
    ToolRun directory = runTool(sourceDir() + "/litmus");
    EXPECT_EQ(directory.status, 2);
    EXPECT_NE(directory.err.find("is a directory"), std::string::npos) << directory.err;
}

// compare: mcompare7's table of logs, or of models run on a suite. Fig. 3e is
// the corpus test where rdma-tso and rdma-tso-nopcie differ (a = b = 0).
TEST(Cli, CompareLogsAndModels) {
    const TempDir tmp("compare");
    const std::string dir = tmp / "compare";
    std::filesystem::create_directories(dir);
    const std::string suite = sourceDir() + "/litmus/rdma-tso";
    std::ofstream(dir + "/tso.log") << runTool("run --no-progress --no-time --model rdma-tso " + suite).out;
    std::ofstream(dir + "/nopcie.log") << runTool("run --no-progress --json --model rdma-tso-nopcie " + suite).out;
    ToolRun same = runTool("compare " + dir + "/tso.log " + dir + "/tso.log");
    EXPECT_EQ(same.status, 0) << same.err;
    EXPECT_NE(same.out.find("Fig3e       |Allow| [[a]=0; [b]=1;] =="), std::string::npos) << same.out;
    EXPECT_EQ(same.out.find("!!! Warning"), std::string::npos) << same.out;
    // As mcompare7 7.58 prints these two logs (the JSON one as its text).
    const std::string fig3e = "Fig3e       |Allow| [[a]=0; [b]=1;] +[[a]=0; [b]=0;]\n"
                              "            |No   | [[a]=1; [b]=0;]                 \n";
    for (const std::string& args : {"compare " + dir + "/tso.log " + dir + "/nopcie.log",
                                    "compare --models rdma-tso,rdma-tso-nopcie " + suite}) {
        ToolRun r = runTool(args);
        EXPECT_EQ(r.status, 1) << args;
        EXPECT_NE(r.out.find(fig3e), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("\n\n!!! Warning positive differences in: +Fig3e\n"), std::string::npos) << r.out;
    }
    EXPECT_EQ(runTool("compare " + dir + "/missing.log").status, 2);
    EXPECT_EQ(runTool("compare --models rdma-tso,nosuch " + suite).status, 2);
}

// compare prints what mcompare7 printed for the logs of tests/compare (the
// reference's '# ' lines say how it was made); exit 1 for the differences
// and for the test the first log lacks, which the table leaves out.
TEST(Cli, CompareMatchesMcompare7) {
    const std::string dir = sourceDir() + "/tests/compare/";
    std::istringstream reference(readFile(dir + "mcompare7-a-b-sc.txt"));
    std::string expected;
    for (std::string line; std::getline(reference, line);)
        if (line.rfind("# ", 0) != 0) expected += line + "\n";
    ToolRun r = runTool("compare " + dir + "a.log " + dir + "b.log " + dir + "sc-model.log");
    EXPECT_EQ(r.out, expected);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "compare: not in the first log, so not in the table: Only-in-sc\n");
    ToolRun same = runTool("compare " + dir + "a.log " + dir + "a.log");
    EXPECT_EQ(same.status, 0) << same.out << same.err;
}

// Where mcompare7 stops: one test with two hashes, or states over other locations.
TEST(Cli, CompareStopsOnHashOrLocationMismatch) {
    const TempDir tmp("compare-mismatch");
    const std::string a = sourceDir() + "/tests/compare/a.log";
    std::string b = readFile(sourceDir() + "/tests/compare/b.log");
    std::ofstream(tmp / "hash.log") << std::regex_replace(b, std::regex("Hash=7dbd"), "Hash=0000");
    ToolRun hash = runTool("compare " + a + " " + (tmp / "hash.log"));
    EXPECT_EQ(hash.status, 2);
    EXPECT_NE(hash.err.find("hash mismatch, test X86-SB"), std::string::npos) << hash.err;
    std::ofstream(tmp / "locations.log") << "Test MP Allowed\nStates 1\n[y]=1; 1:r0=1;\nOk\n"
                                          << "Condition exists (1:r0=1)\nObservation MP Always 1 0\n\n";
    ToolRun locations = runTool("compare " + a + " " + (tmp / "locations.log"));
    EXPECT_EQ(locations.status, 2);
    EXPECT_EQ(locations.out, "");
    EXPECT_NE(locations.err.find("state mismatch, test=MP, loc=1:r1"), std::string::npos) << locations.err;
}

// Progress goes to stderr, and only there. --progress-interval 0 prints a line
// at every step, so that the line shows whatever the machine's speed (a test
// expecting a run to last over the default second failed on a faster machine).
TEST(Cli, DeclarativeProgressLine) {
    ToolRun r = runTool("--no-time --progress-interval 0 " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("rdmacheck: Fig1a: 1 executions ("), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("rdmacheck:"), std::string::npos);
    EXPECT_NE(r.out.find("Positive: "), std::string::npos) << r.out;
    ToolRun quiet = runTool("--no-time " + corpusFile("fig1a-sb.litmus"));  // the default: silent for a second
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(runTool("--progress-interval -1 " + corpusFile("fig1a-sb.litmus")).status, 2);
}

// --max-pictures caps the pictures of a test and says how many were left out;
// initial writes are drawn only with --show-init.
TEST(Cli, PictureCapsAndInitialWrites) {
    const TempDir tmp("caps");
    ToolRun capped = runTool("--no-time --show all --max-pictures 3 --dot " + (tmp / "capped") + " " +
                             corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(capped.status, 0) << capped.err;
    std::set<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(tmp / "capped")) files.insert(e.path().filename().string());
    EXPECT_EQ(files, (std::set<std::string>{"Fig1a-1.dot", "Fig1a-2.dot", "Fig1a-3.dot"}));
    EXPECT_NE(capped.err.find("1 more executions not drawn (--max-pictures 3)"), std::string::npos) << capped.err;
    EXPECT_EQ(readFile(tmp / "capped/Fig1a-1.dot").find("cluster_init"), std::string::npos);
    ToolRun init = runTool("--no-time --show-init --dot " + (tmp / "init") + " " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(init.status, 0) << init.err;
    EXPECT_NE(readFile(tmp / "init/Fig1a-0001.dot").find("cluster_init"), std::string::npos);
    EXPECT_EQ(runTool("--max-pictures 0 " + corpusFile("fig1a-sb.litmus")).status, 2);
    EXPECT_EQ(runTool("--max-candidates -1 " + corpusFile("fig1a-sb.litmus")).status, 2);
}

// litmus/bal/README.md's negative control: the transitive I_BAL without its entry
// global fence lets P2 read x = 0, which the specification forbids; refine
// reports it with the implementation's execution.
TEST(Cli, RefineRejectsTheBarrierWithoutItsEntryFence) {
    const std::string file = sourceDir() + "/litmus/bal/transitive-barrier-fig12.litmus";
    ToolRun faithful = runTool("refine --impl bal --unroll 0 " + file);
    EXPECT_EQ(faithful.status, 0) << faithful.out << faithful.err;
    ToolRun mutant = runTool("refine --impl bal-no-entry-fence --unroll 0 " + file);
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

// A lock test's pictures draw the lock order and the lock's so by default.
TEST(Cli, LockPicturesShowLockOrderAndSo) {
    const TempDir tmp("locks");
    const std::string dir = tmp / "pictures";
    ToolRun r = runTool("--dot " + dir + " --show all " + sourceDir() + "/litmus/locks/wl-counter.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string dot = readFile(dir + "/wl-counter-0001.dot");
    EXPECT_NE(dot.find("xlabel=lo"), std::string::npos) << dot;
    EXPECT_NE(dot.find("xlabel=\"wl-so\""), std::string::npos) << dot;
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

// robust --repair prints each smallest repaired program, which parses and is robust.
TEST(Cli, RobustRepairPrintsRepairedPrograms) {
    ToolRun r = runTool("robust --no-time --repair " + corpusFile("fig3b-lb-gets.litmus"));
    EXPECT_EQ(r.status, 1) << r.err;
    const std::string head = "Repair Fig3b 2 insertions, 1 smallest repair (";
    const size_t at = r.out.find(head);
    ASSERT_NE(at, std::string::npos) << r.out;
    const size_t program = r.out.find("RDMA Fig3b-repaired", at);
    ASSERT_NE(program, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Repaired poll(2) after line 6 (P0); poll(1) after line 11 (P1)\n", at), std::string::npos);
    const TempDir tmp("repair");
    const std::string file = tmp / "repaired.litmus";
    std::ofstream(file) << r.out.substr(program);
    EXPECT_EQ(runTool("robust " + file).status, 0);
    ToolRun none = runTool("robust --no-time --repair --repair-max 1 " + corpusFile("fig3a-sb-puts.litmus"));
    EXPECT_EQ(none.status, 1);
    EXPECT_NE(none.out.find("Repair Fig3a none within 1 insertion ("), std::string::npos) << none.out;
}

// robust --repair says how its search goes on stderr (a line every
// --progress-interval), candidates and the size of the sets.
TEST(Cli, RobustRepairProgress) {
    ToolRun r = runTool("robust --no-time --repair --progress-interval 0 " + corpusFile("fig3d-sb-polled-puts.litmus"));
    EXPECT_EQ(r.status, 1) << r.err;
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

// A model each of whose definitions uses the one before twice (2^60 uses if
// expanded) is checked, explained and drawn at once: definitions are shared.
TEST(Cli, DoublingDefinitionsAreCheckedExplainedAndDrawn) {
    const TempDir tmp("doubling");
    std::ofstream model(tmp / "doubling.cat");
    model << "let r0 = po | rf | rb | mo\nlet s0 = _\n";
    for (int i = 1; i <= 60; ++i)
        model << "let r" << i << " = r" << i - 1 << " | r" << i - 1 << "\nlet s" << i << " = s" << i - 1 << " | s"
              << i - 1 << "\n";
    model << "acyclic [s60] ; r60 as sc\n";
    model.close();
    ToolRun r = runTool("--model " + tmp / "doubling.cat" + " --explain --show all --dot " + tmp / "pictures" +
                        " --edges r60,sc --no-time " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Observation Fig1a Never 0 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cycle breaks sc"), std::string::npos) << r.out;
    size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp / "pictures")) files += e.path().extension() == ".dot";
    EXPECT_EQ(files, 4u);  // the three consistent executions and the explained one
}

// --timeout bounds the loading of a model as it bounds a test: exit 2, located.
TEST(Cli, TimeoutStopsTheLoadingOfAModel) {
    const TempDir tmp("slowmodel");
    std::ofstream model(tmp / "many.cat");
    for (int i = 0; i < 20000; ++i) model << "let d" << i << " = po\n";
    model << "acyclic po | rf | rb | mo as sc\n";
    model.close();
    ToolRun r = runTool("--model " + tmp / "many.cat" + " --timeout 0.000001 " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, tmp / "many.cat" + ":1:1: error: timeout: the model did not load within 0.000001 s (--timeout)\n");
}

// Raw bytes in a model, an index file or a path are shown escaped, never cut at a NUL.
TEST(Cli, RawBytesInInputAreShownEscaped) {
    const TempDir tmp("raw");
    std::ofstream(tmp / "nul.cat") << std::string("acyclic po\0 as sc\n", 18);
    ToolRun r = runTool("--model " + tmp / "nul.cat" + " " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, tmp / "nul.cat" + ":1:11: error: NUL byte in the file: a model file is text\n");
    std::ofstream(tmp / "ctl.cat") << "acyclic po \x01 as sc\n";
    r = runTool("--model " + tmp / "ctl.cat" + " " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.err, tmp / "ctl.cat" + ":1:12: error: unexpected character '\\x01'\n");

    // A path with raw bytes, named on the command line; an index file is text.
    r = runTool("run --no-time " + tmp / "\xff\xfe" + "bad");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(tmp.path() + "/\\xFF\\xFEbad: error: cannot open file"), std::string::npos) << r.err;
    std::ofstream(tmp / "nul-index") << "ok.litmus\n" << std::string("bad\0\n", 5);
    r = runTool("run --no-time @" + tmp / "nul-index");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, tmp / "nul-index" + ":2:4: error: NUL byte in the file: an index file is text\n");
}

// Every place a user names a file refuses what is not a regular file, without
// blocking on a FIFO or reading a device: tests (also in a directory or an
// index), models, --expect files, index files, logs; exit 2.
TEST(Cli, NonRegularInputsAreRefused) {
    const TempDir tmp("non-regular");
    const std::string fifo = tmp / "fifo.litmus", dir = tmp / "suite", index = tmp / "index";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::filesystem::create_directories(dir);
    ASSERT_EQ(::mkfifo((dir + "/in-suite.litmus").c_str(), 0600), 0);
    std::ofstream(index) << "/dev/zero\n";
    const std::string test = corpusFile("fig1a-sb.litmus");
    for (const std::string& args : std::vector<std::string>{fifo, "/dev/zero", "--model " + fifo + " " + test, "--model /dev/zero " + test,
          "run --expect " + fifo + " " + test, "run --expect /dev/zero " + test, "run " + dir, "run @" + fifo,
          "run @/dev/zero", "run @" + index, "merge " + fifo, "merge /dev/zero", "merge " + dir, "compare " + fifo}) {
        SCOPED_TRACE(args);
        ToolRun r = runTool(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_TRUE(r.err.find("not a regular file") != std::string::npos ||
                    r.err.find("is a directory") != std::string::npos)
            << r.err;
    }
    // Standard input is read as a file is: stopped at its first bad byte.
    ToolRun zeros = runTool("run - < /dev/zero");
    EXPECT_EQ(zeros.status, 2);
    EXPECT_NE(zeros.err.find("-:1:1: error: NUL byte in the file"), std::string::npos) << zeros.err;
}

// merge counted a log merged with itself twice, and joined overlapping shards
// of runs under different models (25 records for 20 tests): a test in two
// logs, and reports of runs with other options, are errors naming both logs.
TEST(Cli, MergeRefusesOverlapsAndOtherOptions) {
    const TempDir tmp("merge-refusals");
    const std::string a = corpusFile("fig1a-sb.litmus"), b = corpusFile("fig3e-sb-polled-gets.litmus");
    std::ofstream(tmp / "text.log") << runTool("--no-time " + a + " " + b).out;
    std::ofstream(tmp / "a.json") << runTool("--json --no-time " + a).out;
    std::ofstream(tmp / "ab-nopcie.json") << runTool("--json --no-time --model rdma-tso-nopcie " + a + " " + b).out;
    std::ofstream(tmp / "b-nopcie.json") << runTool("--json --no-time --model rdma-tso-nopcie " + b).out;
    std::ofstream(tmp / "b.log") << runTool("--no-time " + b).out;
    std::ofstream(tmp / "empty.log");
    const std::map<std::string, std::string> refused{
        {"text.log " + tmp / "text.log", "merge: test Fig1a is in two logs, " + tmp / "text.log and " + tmp / "text.log"},
        {"a.json " + tmp / "ab-nopcie.json", "is in two logs"},
        {"a.json " + tmp / "b-nopcie.json",
         "merge: test Fig3e of " + tmp / "b-nopcie.json ran with other options than test Fig1a of " + tmp / "a.json" +
             ": model \"rdma-tso-nopcie\" against unset"},
        {"a.json " + tmp / "b.log", "test Fig3e of " + tmp / "b.log is herd7 text"},
        {"empty.log", "merge: no reports in " + tmp / "empty.log"},
    };
    for (const auto& [args, message] : refused) {
        SCOPED_TRACE(args);
        ToolRun r = runTool("merge " + tmp / args);
        EXPECT_EQ(r.status, 2);
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    EXPECT_EQ(runTool("merge " + tmp / "a.json " + tmp / "b-nopcie.json").status, 2);
    std::ofstream(tmp / "b.json") << runTool("--json --no-time " + b).out;
    EXPECT_EQ(runTool("merge " + tmp / "a.json " + tmp / "b.json").status, 0);
}

// Each number option of each command, found in its --help, refuses a value
// past its type's range (CLI11 clamped 18446744073709551616 to 2^64-1) and a
// negative value for an unsigned option; a floating-point one refuses 1e999 (inf) and nan.
TEST(Cli, EveryNumberOptionRefusesWhatItsTypeCannotHold) {
    const std::regex option(R"((--[a-z-]+) (UINT|INT|FLOAT))");
    size_t options = 0;
    for (const std::string& command : std::vector<std::string>{"", "run", "cross", "refine", "robust", "generate", "compare"}) {
        const std::string help = runTool(command + " --help").out;
        for (std::sregex_iterator it(help.begin(), help.end(), option), end; it != end; ++it) {
            const std::string name = (*it)[1], type = (*it)[2];
            const std::vector<std::string> values = type == "FLOAT" ? std::vector<std::string>{"1e999", "nan"}
                                                     : type == "UINT" ? std::vector<std::string>{"18446744073709551616", "-1"}
                                                                      : std::vector<std::string>{"18446744073709551616"};
            for (const std::string& value : values) {
                SCOPED_TRACE(command + " " + name + " " + value);
                ToolRun r = runTool(command + (command == "robust" ? " --repair " : " ") + name + " " + value + " x.litmus");
                EXPECT_EQ(r.status, 2) << r.err;
                EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
            }
            ++options;
        }
    }
    EXPECT_GE(options, 30u);
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
