// The layout issue 25 gave the command line and the reports, read from the
// source tree: a thin main.cpp, short sources, and no include cycle between
// the explanation and the reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../test_support.hpp"

using namespace rdmacheck::testing;

namespace {

std::vector<std::string> sourceLines(const std::string& path) {
    std::ifstream in(sourceDir() + "/" + path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

bool includes(const std::string& path, const std::string& header) {
    const std::vector<std::string> lines = sourceLines(path);
    EXPECT_FALSE(lines.empty()) << path << " is missing";
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return l.rfind("#include \"" + header + "\"", 0) == 0;
    });
}

}  // namespace

// The command line is thin (issue 25, item 4): main.cpp only chooses the
// command, and no source of the command line, the reports or the pictures
// passes 700 lines.
TEST(Layout, ThinCommandLineAndShortSources) {
    const size_t mainLines = sourceLines("src/cli/main.cpp").size();
    EXPECT_GT(mainLines, 0u);
    EXPECT_LE(mainLines, 100u);
    for (const char* dir : {"src/cli", "src/report", "src/picture", "src/explain", "src/names"})
        for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/" + dir)) {
            const std::string path = std::string(dir) + "/" + entry.path().filename().string();
            EXPECT_LE(sourceLines(path).size(), 700u) << path;
        }
}

// The explanation and the reports do not include each other: what both
// name (events, cycles, conditions) lives below them, in names.hpp.
TEST(Layout, ExplainAndReportsDoNotIncludeEachOther) {
    for (const char* explainSide : {"include/rdmacheck/explain.hpp", "src/explain/explain.cpp",
                                    "include/rdmacheck/names.hpp", "src/names/names.cpp"})
        for (const char* report : {"rdmacheck/report.hpp", "rdmacheck/explain_report.hpp"})
            EXPECT_FALSE(includes(explainSide, report)) << explainSide << " includes " << report;
    for (const char* reportSide : {"include/rdmacheck/report.hpp", "src/report/report.cpp",
                                   "include/rdmacheck/names.hpp"})
        EXPECT_FALSE(includes(reportSide, "rdmacheck/explain.hpp")) << reportSide;
    EXPECT_TRUE(includes("include/rdmacheck/explain.hpp", "rdmacheck/names.hpp"));
}
