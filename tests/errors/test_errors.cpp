// Bad input through the real executable: every file in tests/errors/ states the
// message it must produce, `(* expect: LINE:COL: text *)`, and optionally the
// options to run with, `(* args: ... *)`. The tool must exit with code 2 and
// print exactly one "file:line:column: error: ..." line, and nothing on stdout.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "../test_support.hpp"

using namespace rdmacheck::testing;

namespace {

std::string directive(const std::string& text, const std::string& key) {
    std::smatch m;
    std::regex re("\\(\\* " + key + ": (.*?) \\*\\)");
    return std::regex_search(text, m, re) ? m[1].str() : "";
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
    EXPECT_EQ(r.err.rfind("rdmacheck: error: --model: unknown model 'arm' (known: mowgli-tso-rmw, rdma-tso", 0), 0u) << r.err;
}

TEST(Errors, BadOptionIsRejected) {
    ToolRun r = runTool("--unroll -3 x.litmus");
    EXPECT_NE(r.status, 0);
    EXPECT_FALSE(r.err.empty());
}
