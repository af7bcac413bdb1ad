// Robustness against SC (ROBUSTNESS.md §4): the verdicts §6 and §7.2 derive.
#include <gtest/gtest.h>

#include <map>

#include "../test_support.hpp"
#include "rdmacheck/robust.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

bool robust(const std::string& file, const std::string& model) {
    return checkRobustness(parseLitmusFile(file), loadModel(modelsDir(), model), CheckOptions{}).robust();
}

}  // namespace

// ROBUSTNESS.md §7.2: the RDMA^TSO corpus under rdma-sc (the paper's notion) and
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

// ROBUSTNESS.md §6's examples, litmus/robustness/expected.csv.
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
    EXPECT_EQ(rows, 7);
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
