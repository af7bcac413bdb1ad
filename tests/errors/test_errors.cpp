// Bad input through the real executable: every file in tests/errors/ states the
// message it must produce, `(* expect: LINE:COL: text *)` (or on a line of its
// own `// expect: ...`, for a message that names '(*'), and optionally the
// options to run with, `(* args: ... *)`. The tool must exit with code 2 and
// print exactly one "file:line:column: error: ..." line, and nothing on stdout.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "../test_support.hpp"

using namespace rdmacheck::testing;

namespace {

std::string directive(const std::string& text, const std::string& key) {
    std::smatch m;
    std::regex re("\\(\\* " + key + ": (.*?) \\*\\)|// " + key + ": ([^\n]*)");
    if (!std::regex_search(text, m, re)) return "";
    return m[1].matched ? m[1].str() : m[2].str();
}

}  // namespace

TEST(Errors, EveryBadInputHasAPositionedMessageAndExitCode2) {
    const std::string dir = sourceDir() + "/tests/errors";
    size_t cases = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".litmus") continue;
        const std::string path = entry.path().string();
        SCOPED_TRACE(path);
        const std::string text = readFile(path);
        const std::string expect = directive(text, "expect");
        ASSERT_FALSE(expect.empty()) << "no (* expect: ... *) line";
        ToolRun r = runTool(directive(text, "args") + " " + path);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(r.err, path + ":" + expect + "\n");
        EXPECT_TRUE(r.out.empty()) << r.out;
        ++cases;
    }
    EXPECT_GE(cases, 20u);
}

TEST(Errors, MissingFile) {
    ToolRun r = runTool("/nonexistent/x.litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("/nonexistent/x.litmus"), std::string::npos);
    EXPECT_NE(r.err.find("cannot open file"), std::string::npos);
}

TEST(Errors, OneBadFileDoesNotStopTheOthers) {
    const std::string good = sourceDir() + "/litmus/rdma-tso";
    std::string first;
    for (const auto& e : std::filesystem::directory_iterator(good))
        if (e.path().extension() == ".litmus") {
            first = e.path().string();
            break;
        }
    ASSERT_FALSE(first.empty());
    ToolRun r = runTool("/nonexistent.litmus " + first);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("Test "), std::string::npos);
}

TEST(Errors, UnknownModel) {
    ToolRun r = runTool("--model arm x.litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("rdmacheck: error: --model: unknown model 'arm' (known: mowgli-tso-rmw, rdma-sc, rdma-tso", 0), 0u) << r.err;
    r = runTool("--json --model arm x.litmus");  // the JSON stream gets the error record too
    EXPECT_EQ(r.status, 2);
    const nlohmann::json record = nlohmann::json::parse(r.out);
    EXPECT_EQ(record["type"], "error");
    EXPECT_EQ(record["file"], "--model");
}

TEST(Errors, BadOptionIsRejected) {
    ToolRun r = runTool("--unroll -3 x.litmus");
    EXPECT_NE(r.status, 0);
    EXPECT_FALSE(r.err.empty());
}

// Counts and bounds: CLI11 read "-5" into an unsigned option as 2^64-5.
TEST(Errors, NegativeAndHugeOptionValuesAreRejected) {
    const std::string test = sourceDir() + "/litmus/rdma-tso/fig3e-sb-polled-gets.litmus";
    for (const std::string& args : {"--max-states -5 --engine operational " + test, "--max-executions -1 " + test,
                                    "--timeout -1 " + test, "--max-memory -1 " + test, "--unroll -3 " + test,
                                    std::string("generate --seed -1"), std::string("cross --seed -1 --random 1"),
                                    std::string("generate --max-length 2147483647"), std::string("--no-such-flag")}) {
        SCOPED_TRACE(args);
        ToolRun r = runTool(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_FALSE(r.err.empty());
    }
    EXPECT_NE(runTool("--max-states -5 " + test).err.find("--max-states: must not be negative, got -5"), std::string::npos);
}

TEST(Errors, OutputDirectoriesThatCannotBeMadeAreReportedFirst) {
    const TempDir dir("errors");
    const std::string file = dir.path() + "/a-file";
    std::ofstream(file) << "x";
    ToolRun generate = runTool("generate --out " + file + "/sub");
    EXPECT_EQ(generate.status, 2);
    EXPECT_EQ(generate.err.rfind("rdmacheck: error: --out: cannot make directory " + file + "/sub", 0), 0u)
        << generate.err;
    ToolRun cross = runTool("cross --random 1 --repro-dir " + file);
    EXPECT_EQ(cross.status, 2);
    EXPECT_EQ(cross.err.rfind("rdmacheck: error: --repro-dir: cannot make directory " + file, 0), 0u) << cross.err;
    EXPECT_TRUE(cross.out.empty());
}

// A single configuration used to say "need at least two" and hide the unknown model.
TEST(Errors, CrossNamesAnUnknownModel) {
    ToolRun r = runTool("cross --configs declarative:nosuch --random 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("rdmacheck: error: --configs: unknown model 'nosuch' (known: ", 0), 0u) << r.err;
}

// The picture's file name is cut; the verdict is printed either way.
TEST(Errors, LongTestNamesStillGetTheirVerdictAndPictures) {
    const TempDir dir("errors");
    const std::string name(300, 'N');
    const std::string test = dir.path() + "/long.litmus";
    std::ofstream(test) << "RDMA " << name << "\n{ x@1 }\nP0@1 { x := 1 }\nexists (x = 1)\n";
    ToolRun r = runTool("--no-time --dot " + dir.path() + "/pics " + test);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Test " + name + " Allowed\n", 0), 0u) << r.out;
    size_t pictures = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/pics")) {
        EXPECT_LE(e.path().filename().string().size(), 140u);
        ++pictures;
    }
    EXPECT_EQ(pictures, 1u);
}

// A file name that is not UTF-8 is escaped in JSON, not an abort.
TEST(Errors, JsonOutputIsValidUtf8) {
    const TempDir dir("errors");
    const std::string test = dir.path() + "/bad\xff\xfe.litmus";
    std::ofstream(test) << "RDMA t\n{ x@1 }\nP0@1 { x := 1 }\nexists (x = 1)\n";
    ToolRun r = runTool("--json '" + test + "'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"file\":"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\xff'), std::string::npos);
}

TEST(Errors, TimeoutIsAnErrorWithTheTest) {
    const std::string pso = sharedDir() + "/conformance/x86-tso/tests/pso.litmus";
    ToolRun r = runTool("--timeout 0.001 " + pso);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, pso + ":1:1: error: timeout: no answer within 0.001 s (--timeout)\n");
    EXPECT_TRUE(r.out.empty());
}

// Model files: every mistake at its line and column, nothing silently ignored.
TEST(Errors, ModelFileMistakesArePositioned) {
    const TempDir dir("errors");
    const std::string models = sourceDir() + "/models";
    for (const auto& e : std::filesystem::directory_iterator(models))
        std::filesystem::copy_file(e.path(), dir.path() + "/" + e.path().filename().string());
    const std::string good = readFile(models + "/rdma-tso.cat");
    auto variant = [&](const std::string& name, const std::string& from, const std::string& to) {
        std::string text = good;
        const size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        std::ofstream(dir.path() + "/" + name + ".cat") << text;
        return runTool("--models-dir " + dir.path() + " --model " + name + " " + sourceDir() +
                       "/litmus/rdma-tso/fig3e-sb-polled-gets.litmus");
    };
    auto expectError = [&](const ToolRun& r, const std::string& expected) {
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind(dir.path() + "/" + expected, 0), 0u) << r.err;
        EXPECT_TRUE(r.out.empty());
    };
    expectError(variant("keyword", "irreflexive ob", "irreflexiv ob"),
                "keyword.cat:11:1: error: expected a declaration (let, include, acyclic, irreflexive, empty, flag, "
                "show, procedure, call, with, if, table, stamps, events, libraries), found 'irreflexiv'");
    expectError(variant("relation", "| rb-i)", "| rb-ii)"),
                "relation.cat:7:34: error: unknown name 'rb-ii' (did you mean 'rb-i'?) (relations: po, ");
    expectError(variant("typed", "[nlW];pf", "nlW;pf"), "typed.cat:8:25: error: ';' takes a relation, 'nlW' is an "
                                                         "event set");
    expectError(variant("later", "let ib =", "let ib = ob | "), "later.cat:7:10: error: 'ob' is defined later");
    // A second `let ib` hides the first, as in herd7; then ob is defined nowhere.
    expectError(variant("twice", "let ob", "let ib"), "twice.cat:11:13: error: unknown name 'ob' (relations: po, ");
    std::string table = readFile(models + "/rdma-tso.ippo");
    std::ofstream(dir.path() + "/repeated.ippo") << table << table.substr(table.find("\nlR ") + 1);
    expectError(variant("repeated", "rdma-tso.ippo", "repeated.ippo"), "repeated.ippo:14:1: error: row lR given twice (first at line 4)");
    std::ofstream(dir.path() + "/empty.ippo") << "# nothing\n";
    expectError(variant("empty", "rdma-tso.ippo", "empty.ippo"), "empty.ippo:1:1: error: empty table");
}

TEST(Errors, ADirectoryIsNoLitmusFile) {
    ToolRun r = runTool(sourceDir() + "/litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, sourceDir() + "/litmus: error: is a directory, not a litmus test; 'rdmacheck run " + sourceDir() +
                         "/litmus' checks every test under it\n");
}

TEST(Errors, JsonHonoursNoTime) {
    const std::string test = sourceDir() + "/litmus/rdma-tso/fig3e-sb-polled-gets.litmus";
    EXPECT_NE(runTool("--json " + test).out.find("\"time\":"), std::string::npos);
    ToolRun r = runTool("--json --no-time " + test);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.find("\"time\":"), std::string::npos) << r.out;
}
