// Pictures through the real executable: --dot, --explain, --render and
// --show, for the declarative and the operational engine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "cli_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

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
    // herd7's co and fr, as X86 pictures label mo and rb
    const std::string mp = sharedDir() + "/conformance/x86-tso/tests/MP.litmus";
    edges = runTool("--dot " + dir.path() + " --show all --edges po,co,fr -I " + sharedDir() +
                    "/conformance/herd-cat --model x86tso.cat " + mp);
    EXPECT_EQ(edges.status, 0) << edges.err;
    // The names listed are those a user writes: herd7's for a model in herd7's
    // terms, no shadowed definition's inner name, no axiom member's text.
    edges = runTool("--dot " + dir.path() + " --edges bogus -I " + sharedDir() + "/conformance/herd-cat --model x86tso.cat " + mp);
    EXPECT_EQ(edges.status, 2);
    for (const std::string shown : {" co,", " fr,", " ghb,", "; or a member of an axiom's union"})
        EXPECT_NE(edges.err.find(shown), std::string::npos) << shown << edges.err;
    for (const std::string hidden : {" mo,", " nfo,", " pf,", " rao,", "#", "po-loc | com"})
        EXPECT_EQ(edges.err.find(hidden), std::string::npos) << hidden << edges.err;
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

// Pictures and explanations must not depend on the tests checked before, nor
// on -j: each test's search starts in a fresh solver, and what is shown is
// sorted canonically.
TEST(Cli, PicturesDoNotDependOnTheTestsCheckedBefore) {
    const std::string a = corpusFile("fig3e-sb-polled-gets.litmus"), b = corpusFile("fig1a-sb.litmus") + " " +
                                                                         corpusFile("fig3a-sb-puts.litmus"),
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
