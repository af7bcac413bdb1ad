// Checking through the real executable: herd7's reports, options and habits,
// the answer-only modes, `run` (suites, expectations, shards), `merge` and
// `compare` on herd7 logs and rdmacheck's JSON, progress lines, and the inputs
// and option values the tool refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <sys/stat.h>

#include "cli_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

TEST(Cli, OperationalEnginePrintsTheHerdReport) {
    ToolRun r = runTool("--engine operational --machine simplified --no-time " + corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    // The counts are the search's (doc/machines.md); the rest is herd7's report.
    const std::regex counts("machine: [0-9]+ states, [0-9]+ runs");
    EXPECT_TRUE(std::regex_search(r.out, counts)) << r.out;
    EXPECT_EQ(std::regex_replace(r.out, counts, "machine: S states, R runs"),
              "Test Fig3e Allowed\n"
              "Model rdma-tso (simplified machine: S states, R runs)\n"
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

// A test none of whose runs completes keeps herd7's verdict and says why it is
// empty, in the text report and in the JSON, on both engines and in every mode.
TEST(Cli, WarnsWhenNoExecutionCompletes) {
    const TempDir dir("deadlock");
    const std::string file = dir / "deadlock.litmus";
    std::ofstream(file) << "RDMA Deadlock\n{ x@1 = 0; y@2 = 0; }\n"
                           "P0@1 { assume(x = 1); y^2 := 1; }\nP1@2 { assume(y = 1); x^1 := 1; }\n"
                           "forall (x = 1)\n";
    const std::string warning = "Warning: " + file + ": no execution completes: every one stops at an assume, a "
                                "wait or the unroll bound (or the model allows none); the verdict holds of no execution\n";
    for (const char* options : {"", "--states", "--speedcheck", "--engine operational",
                                "--engine operational --machine simplified"}) {
        ToolRun r = runTool(std::string("--no-time ") + options + " " + file);
        EXPECT_EQ(r.status, 0) << options << r.err;
        EXPECT_NE(r.out.find("States 0\nOk\n"), std::string::npos) << options << r.out;
        EXPECT_NE(r.err.find(warning), std::string::npos) << options << r.err;  // on stderr, as herd7's
        ToolRun j = runTool(std::string("--json ") + options + " " + file);
        EXPECT_NE(j.out.find("\"line\":0,\"message\":\"no execution completes"), std::string::npos) << j.out;
    }
    ToolRun live = runTool("--no-time " + corpusFile("fig3e-sb-polled-gets.litmus"));
    EXPECT_EQ(live.err.find("Warning"), std::string::npos) << live.err;
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
    EXPECT_NE(r.out.find("\nModel sc without sc\n"), std::string::npos) << "a variant's log tells it apart: " << r.out;
    r = runTool("--model rdma-tso --skip nope " + sb);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "rdmacheck: error: --skip: model rdma-tso has no check, flag or assertion named 'nope' (names: ib, ob, "
              "inst-ib-ob)\n");
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
    // herd7's -speedcheck counts the executions it looked at before it stopped: here none decides.
    EXPECT_EQ(speed.out, "Test Fig3e Allowed\nModel rdma-tso\nStates 0\nNo\nWitnesses\nPositive: 0 Negative: 0\n"
                         "Condition exists ([a]=0 /\\ [b]=0)\nObservation Fig3e Never 0 0\n\n");
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
    // herd7's (and diy7's) index files: the file's own name starts with '@',
    // for run and the main command alike.
    std::ofstream(dir + "/@all") << "b.litmus\nsub/@sub\n";
    std::ofstream(dir + "/sub/@sub") << "a.litmus\n";
    EXPECT_EQ(runTool("run --no-time " + dir + "/@all").out, index.out);
    ToolRun main = runTool("--no-time " + dir + "/@all");
    EXPECT_EQ(main.status, 0) << main.err;
    EXPECT_EQ(main.out, runTool("--no-time " + dir + "/b.litmus " + dir + "/sub/a.litmus").out);
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
    // A value is a number or (X86) the name of a location, its address.
    const std::regex stateLine(R"(( *(\d+:)" + name + R"(|\[)" + name + R"(\])=(-?\d+|)" + name + R"();)*)");
    std::istringstream lines(r.out);
    bool inStates = false, sawSvCopy = false;
    size_t tests = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("Test ", 0) == 0) {
            ++tests;
            EXPECT_TRUE(std::regex_match(line, testLine)) << line;
        } else if (line.rfind("States ", 0) == 0) {
            inStates = true;
        } else if (line == "Ok" || line == "No" || line == "Loop Ok" || line == "Loop No") {
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
    // herd7's -skipchecks ignores a name the model has no axiom of; --skip refuses it.
    ToolRun unknown = runTool("-model sc -skipchecks sc,bogus " + mp);
    EXPECT_EQ(unknown.status, 0) << unknown.err;
    EXPECT_NE(unknown.out.find("\nModel sc without sc\n"), std::string::npos) << unknown.out;
    ToolRun refused = runTool("-model sc --skip sc --skip bogus " + mp);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("bogus"), std::string::npos) << refused.err;
    ToolRun speed = runTool("-model tso -speedcheck true " + mp);
    EXPECT_EQ(speed.status, 0) << speed.err;
    EXPECT_NE(speed.out.find("Model tso\n"), std::string::npos) << speed.out;
    EXPECT_NE(speed.out.find("\nObservation MP Never 0 0\n"), std::string::npos) << speed.out;
    const TempDir tmp("herd");
    EXPECT_EQ(runTool("-o " + (tmp / "pictures") + " -show all " + mp).status, 0);
    EXPECT_TRUE(std::filesystem::exists(tmp / "pictures/MP.dot"));
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

// A table mcompare7 printed (tests/compare), without the '# ' lines that say how.
static std::string mcompare7Table(const std::string& file) {
    std::istringstream reference(readFile(sourceDir() + "/tests/compare/" + file));
    std::string table;
    for (std::string line; std::getline(reference, line);)
        if (line.rfind("# ", 0) != 0) table += line + "\n";
    return table;
}

// compare prints what mcompare7 printed for the logs of tests/compare (the
// reference's '# ' lines say how it was made); exit 1 for the differences
// and for the test the first log lacks, which the table leaves out.
TEST(Cli, CompareMatchesMcompare7) {
    const std::string dir = sourceDir() + "/tests/compare/";
    ToolRun r = runTool("compare " + dir + "a.log " + dir + "b.log " + dir + "sc-model.log");
    EXPECT_EQ(r.out, mcompare7Table("mcompare7-a-b-sc.txt"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "compare: not in the first log, so not in the table: Only-in-sc\n");
    ToolRun same = runTool("compare " + dir + "a.log " + dir + "a.log");
    EXPECT_EQ(same.status, 0) << same.out << same.err;
}

// A verdict cut at the unrolling bound is `Loop Ok` / `Loop No` in mcompare7's
// Kind column, from herd7's log (tests/compare/loop.log, two tests of
// litmus/x86) as from rdmacheck's own, text or JSON.
TEST(Cli, CompareKeepsLoopVerdicts) {
    const std::string dir = sourceDir() + "/tests/compare/";
    EXPECT_EQ(runTool("compare " + dir + "loop.log " + dir + "loop.log").out, mcompare7Table("mcompare7-loop.txt"));
    const TempDir tmp("loop-logs");
    const std::string tests = sourceDir() + "/litmus/x86/x86-loop-back-out.litmus " + sourceDir() +
                              "/litmus/x86/x86-loop-exit-nested.litmus";
    std::ofstream(tmp / "text.log") << runTool("--no-time " + tests).out;
    std::ofstream(tmp / "json.log") << runTool("--json " + tests).out;
    for (const char* first : {"text.log", "json.log"}) {  // the Kind column is the first log's
        const ToolRun ours = runTool("compare " + (tmp / first) + " " + (tmp / "text.log"));
        EXPECT_NE(ours.out.find("|Loop Ok|"), std::string::npos) << first << ours.out;
        EXPECT_NE(ours.out.find("|Loop No|"), std::string::npos) << first << ours.out;
    }
}

// herd7's Undef verdict (a consistent execution failed an undefined_unless
// test) is "??" in mcompare7's Kind column, read from herd7's log
// (tests/compare/undef.log) as from rdmacheck's own, text or JSON.
TEST(Cli, CompareReadsUndefAsMcompare7) {
    const std::string dir = sourceDir() + "/tests/compare/";
    EXPECT_EQ(runTool("compare " + dir + "undef.log " + dir + "undef.log").out, mcompare7Table("mcompare7-undef.txt"));
    const TempDir tmp("undef-logs");
    const std::string x86 = sharedDir() + "/conformance/x86-tso/tests/";
    std::string run = "-I " + sharedDir() + "/conformance/herd-cat --model " + sourceDir() +
                      "/tests/herd/undefined/negated.cat";
    for (const char* test : {"2+2W+mfence-po+po-rfi-po", "2+2W+rfi-po+po-rfi-po", "4.2W", "SB+po-rfis"})
        run += " " + x86 + test + ".litmus";
    for (const char* form : {"text", "json"}) {  // a folder each: the table names the logs by file name
        std::filesystem::create_directories(tmp / form);
        const std::string json = std::string(form) == "json" ? "--json " : "";
        std::ofstream(tmp / form + "/undef.log") << runTool(json + run).out;
    }
    EXPECT_EQ(runTool("compare " + (tmp / "json/undef.log") + " " + (tmp / "text/undef.log")).out,
              mcompare7Table("mcompare7-undef.txt"));
}

// mcompare7's -pos, -neg and -eq write the names of the tests with positive
// and negative differences and of those some column has the first's states
// for, one a line: mcompare7 7.58 wrote these files for these logs, here.
TEST(Cli, CompareWritesMcompare7sTestSets) {
    const std::string dir = sourceDir() + "/tests/compare/";
    const TempDir tmp("compare-sets");
    ToolRun r = runTool("compare -pos " + (tmp / "pos") + " -neg " + (tmp / "neg") + " --eq " + (tmp / "eq") + " " +
                        dir + "a.log " + dir + "b.log " + dir + "sc-model.log");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(readFile(tmp / "pos"), "MP\nSB\n");
    EXPECT_EQ(readFile(tmp / "neg"), "Hex\nMP\n");
    EXPECT_EQ(readFile(tmp / "eq"), "Counter-long-name\nFetch\nSB\nX86-SB\n");
    ToolRun none = runTool("compare --pos " + (tmp / "none") + " " + dir + "a.log " + dir + "a.log");
    EXPECT_EQ(none.status, 0);
    EXPECT_EQ(readFile(tmp / "none"), "");  // written, empty, as mcompare7 does
    EXPECT_EQ(runTool("compare --pos /no/such/dir/pos " + dir + "a.log " + dir + "b.log").status, 2);
}

// --filter keeps the rows of the tests whose names match from their start
// (OCaml's Str syntax: `\|` alternates); mcompare7's -e, which leaves this
// table whole in 7.58, is refused with the reason. A bad expression is exit 2.
TEST(Cli, CompareFilterKeepsMatchingTests) {
    const std::string dir = sourceDir() + "/tests/compare/";
    const std::string logs = dir + "a.log " + dir + "b.log " + dir + "sc-model.log";
    ToolRun r = runTool("compare --filter 'SB\\|Fe' " + logs);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find("\nSB   |Forbid | [[a]=0; [b]=1;] +[[a]=0; [b]=0;] ==          \n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nFetch|Require| [[z]=-1;]       ---              ==          \n"), std::string::npos) << r.out;
    for (const char* left : {"X86-SB", "MP ", "Hex", "Counter"}) EXPECT_EQ(r.out.find(left), std::string::npos) << left;
    EXPECT_NE(r.out.find("\n!!! Warning positive differences in: +SB\n"), std::string::npos) << r.out;
    ToolRun e = runTool("compare -e SB " + logs);
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("mcompare7's -e filters its other tables"), std::string::npos) << e.err;
    ToolRun bad = runTool("compare --filter 'SB\\(' " + logs);
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("compare: 'SB\\(' is not a regular expression"), std::string::npos) << bad.err;
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
// Off a terminal (here), only with --progress (herd7's -v).
TEST(Cli, DeclarativeProgressLine) {
    EXPECT_EQ(runTool("--no-time --progress-interval 0 " + corpusFile("fig1a-sb.litmus")).err, "");
    EXPECT_NE(runTool("--no-time -v --progress-interval 0 " + corpusFile("fig1a-sb.litmus")).err, "");
    ToolRun r = runTool("--no-time --progress --progress-interval 0 " + corpusFile("fig1a-sb.litmus"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("rdmacheck: Fig1a: 1 executions ("), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("rdmacheck:"), std::string::npos);
    EXPECT_NE(r.out.find("Positive: "), std::string::npos) << r.out;
    ToolRun quiet = runTool("--no-time " + corpusFile("fig1a-sb.litmus"));  // the default: silent for a second
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(runTool("--progress-interval -1 " + corpusFile("fig1a-sb.litmus")).status, 2);
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
