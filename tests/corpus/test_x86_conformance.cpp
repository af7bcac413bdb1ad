// The 487 x86 conformance tests under `tso` against herd7's full results:
// states (in herd7's order), Ok/No, observation, execution counts, condition.
// The operational machine (store buffers only, on CPU-only tests) must reach
// exactly herd7's states too.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/report.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// Runs `verify` on each test of herd7's results file, with herd7's results for it.
template <class Verify>
void forEachHerd7Test(const Verify& verify) {
    const std::string dir = sharedDir() + "/conformance/x86-tso";
    const nlohmann::json herd = nlohmann::json::parse(readFile(dir + "/herd7-x86tso.json"));
    size_t checked = 0;
    for (const auto& [file, expected] : herd.at("tests").items()) {
        SCOPED_TRACE(file);
        verify(parseLitmusFile(dir + "/tests/" + file), expected);
        ++checked;
    }
    EXPECT_EQ(checked, 487u);
}

// The states in herd7's order, Ok/No and the observation.
void expectHerd7States(const CheckResult& r, const nlohmann::json& expected) {
    std::vector<std::string> states;
    for (const auto& [state, satisfies] : r.states) states.push_back(stateLine(r, state));
    EXPECT_EQ(states, expected.at("states").get<std::vector<std::string>>());
    EXPECT_EQ(r.ok ? "Ok" : "No", expected.at("ok").get<std::string>());
    EXPECT_EQ(r.observation(), expected.at("observation").get<std::string>());
}

}  // namespace

TEST(X86Conformance, AgreesWithHerd7OnEveryTest) {
    const Model tso = loadModel(modelsDir(), "tso");
    forEachHerd7Test([&](const LitmusTest& test, const nlohmann::json& expected) {
        CheckResult r = check(test, tso, CheckOptions{});
        expectHerd7States(r, expected);
        EXPECT_EQ(r.positive, expected.at("positive").get<uint64_t>());
        EXPECT_EQ(r.negative, expected.at("negative").get<uint64_t>());
        EXPECT_EQ(conditionText(test.quantifier, test.condition), expected.at("condition").get<std::string>());
    });
}

TEST(X86Conformance, AgreesWithDat3mExpectations) {
    const std::string dir = sharedDir() + "/conformance/x86-tso";
    std::istringstream csv(readFile(dir + "/TSO-expected.csv"));
    const Model tso = loadModel(modelsDir(), "tso");
    size_t checked = 0;
    for (std::string line; std::getline(csv, line);) {
        if (line.empty()) continue;
        std::string path = line.substr(0, line.find(','));
        std::string file = path.substr(path.rfind('/') + 1);
        SCOPED_TRACE(file);
        CheckResult r = check(parseLitmusFile(dir + "/tests/" + file), tso, CheckOptions{});
        EXPECT_EQ(r.ok ? "1" : "0", line.substr(line.find(',') + 1));
        ++checked;
    }
    EXPECT_EQ(checked, 487u);
}

TEST(X86Conformance, OperationalMachineReachesHerd7States) {
    const Model tso = loadModel(modelsDir(), "tso");
    forEachHerd7Test([&](const LitmusTest& test, const nlohmann::json& expected) {
        expectHerd7States(explore(test, tso, MachineOptions{}), expected);
    });
}
