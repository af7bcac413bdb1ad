// The layout issue 25 gave the sources, read from the source tree: a thin
// main.cpp, no file over 700 lines, implementations as registry entries, and
// no include cycle between the explanation and the reports.
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

// The command line is thin (issue 25, item 4): main.cpp only chooses the command.
TEST(Layout, ThinCommandLine) {
    const size_t mainLines = sourceLines("src/cli/main.cpp").size();
    EXPECT_GT(mainLines, 0u);
    EXPECT_LE(mainLines, 100u);
}

// No source, header or test passes 700 lines (issue 25, item 5): a file that
// long knows too much.
TEST(Layout, NoSourceOver700Lines) {
    size_t files = 0;
    for (const char* dir : {"src", "include", "tests"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(sourceDir() + "/" + dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".hpp" && ext != ".ipp") continue;
            ++files;
            const std::string path = std::filesystem::relative(entry.path(), sourceDir()).string();
            EXPECT_LE(sourceLines(path).size(), 700u) << path;
        }
    EXPECT_GT(files, 100u);  // the tree was found
}

// Implementations are registry entries, as libraries are (issue 25, item 3):
// no closed enum names them.
TEST(Layout, NoClosedImplementationEnum) {
    const std::vector<std::string> refine = sourceLines("include/rdmacheck/refine.hpp");
    EXPECT_FALSE(refine.empty());
    for (const std::string& line : refine) EXPECT_EQ(line.find("enum class Implementation"), std::string::npos);
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
