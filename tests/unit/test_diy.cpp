// rdmacheck diy (doc/diy.md): tests from cycles of edges as diy7 writes them.
// The 390 tests of the x86 suite that diy7 generated name their cycle (Orig=):
// from it, diy must write the same name and the same program.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "../test_support.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/diy.hpp"

namespace rdmacheck {
namespace {

std::vector<DiyEdge> cycleOf(const std::string& text) {
    std::vector<DiyEdge> out;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        const std::optional<DiyEdge> e = findDiyEdge(w);
        EXPECT_TRUE(e) << w;
        if (e) out.push_back(*e);
    }
    return out;
}

std::optional<DiyTest> testOf(const std::string& cycle) {
    std::string why;
    return diyTest(cycleOf(cycle), why);
}

// The program's rows, from the thread names to the line before the condition.
std::string program(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.find(" P0 ") == 0) inside = true;
        if (inside && line.find(';') == std::string::npos) break;
        if (inside) out += line + "\n";
    }
    return out;
}

TEST(Diy, StoreBufferingIsItsCycle) {
    const std::optional<DiyTest> sb = testOf("PodWR Fre PodWR Fre");
    ASSERT_TRUE(sb);
    EXPECT_EQ(sb->name, "SB");
    EXPECT_EQ(sb->text, "X86 SB\n\"PodWR Fre PodWR Fre\"\nCycle=PodWR Fre PodWR Fre\n{\n}\n"
                        " P0          | P1          ;\n"
                        " MOV [x],$1  | MOV [y],$1  ;\n"
                        " MOV EAX,[y] | MOV EAX,[x] ;\n"
                        "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    // Any rotation names the same test: the writer of MP comes first.
    EXPECT_EQ(testOf("Fre PodWW Rfe PodRR")->name, "MP");
    EXPECT_EQ(testOf("MFencedWR Fre MFencedWR Fre")->name, "SB+mfences");
    EXPECT_EQ(testOf("Rfe PodRR Fre Rfe PodRR Fre")->name, "IRIW");
    std::string why;
    EXPECT_FALSE(diyTest(cycleOf("PodWR Rfe"), why));
    EXPECT_EQ(why, "PodWR ends at R but Rfe starts at W");
    EXPECT_FALSE(diyTest(cycleOf("Wse"), why));
    EXPECT_EQ(why, "a cycle needs two edges or more");
    EXPECT_FALSE(diyTest(cycleOf("PodWR Fri"), why));
    EXPECT_EQ(why, "a cycle needs an external edge (Rfe, Fre, Wse)");
}

// Every diy7 test of the suite whose cycle uses edges diy reads (all but the
// 15 with diy7's Hat edge) but those edited by hand (X000..X006, x86-2+2W
// renamed, SB-XCHG's writes made XCHGs): the same program, and diy7's name
// but where diy7's run numbered it as a repeat (MP+po+po-po001): diy numbers
// the repeats of its own run.
TEST(Diy, WritesTheSuitesTestsFromTheirCycles) {
    const std::string dir = testing::sharedDir() + "/conformance/x86-tso/tests";
    size_t compared = 0, sameProgram = 0, renamed = 0, edited = 0;
    std::string mismatches;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string text = testing::readFile(entry.path().string());
        const size_t orig = text.find("\nOrig=");
        if (orig == std::string::npos || text.find("Hat") != std::string::npos) continue;
        const std::string cycle = text.substr(orig + 6, text.find('\n', orig + 1) - orig - 6);
        const std::optional<DiyTest> made = testOf(cycle);
        ASSERT_TRUE(made) << cycle;
        ++compared;
        const std::string name = text.substr(4, text.find('\n') - 4);
        const bool byHand = name.rfind("X00", 0) == 0 || name == "SB-XCHG" || name == "x86-2+2W";
        const bool repeat = name.size() > 3 && std::isdigit(static_cast<unsigned char>(name.back())) &&
                            name.substr(0, name.size() - 3) == made->name;
        if (byHand) {
            ++edited;
            continue;
        }
        if (repeat) ++renamed;
        else if (made->name != name) mismatches += name + " (" + cycle + "): named " + made->name + "\n";
        if (program(made->text) == program(text)) ++sameProgram;
        else mismatches += name + " (" + cycle + "): program\n" + made->text;
    }
    EXPECT_EQ(compared, 375u);
    EXPECT_EQ(edited, 9u);
    EXPECT_EQ(renamed, 18u);
    EXPECT_EQ(sameProgram, compared - edited);
    EXPECT_EQ(mismatches, "");
}

}  // namespace
}  // namespace rdmacheck
