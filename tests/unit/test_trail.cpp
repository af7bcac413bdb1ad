// Executions read off the solver's trail (src/encode/trail.hpp) against Z3's
// model: with the cross-check on, every execution the trail decoder gives is
// decoded from the model too, and a difference throws. The counts make sure
// the trail decoder was used, not bypassed by its fallback.
#include <gtest/gtest.h>

#include "../test_support.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/generate.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// Turns the cross-check on for one test.
class TrailDecoding : public ::testing::Test {
protected:
    void SetUp() override { crossCheckTrailDecoding(true); }
    void TearDown() override { crossCheckTrailDecoding(false); }
};

TEST_F(TrailDecoding, AgreesWithTheModelOnTheCorpus) {
    const DecodeCounts before = decodeCounts();
    std::map<std::string, Model> models;
    for (const std::string& file : litmusFiles(sourceDir() + "/litmus")) {
        const LitmusTest test = parseLitmusFile(file);
        const std::string name = defaultModelName(test);
        if (!models.count(name)) models.emplace(name, loadModel(modelsDir(), name));
        EXPECT_NO_THROW(check(test, models.at(name), CheckOptions{})) << file;
    }
    const DecodeCounts after = decodeCounts();
    EXPECT_GT(after.fromTrail - before.fromTrail, after.fromModel - before.fromModel) << "mostly off the trail";
}

TEST_F(TrailDecoding, AgreesWithTheModelOnRandomPrograms) {
    const std::vector<std::pair<std::string, std::string>> mixes = {
        {"rdma-tso", "put=3,get=3,poll=2,assume=1,if=1,expr=1"},
        {"rdma-tso-rmw", "rcas=2,rfaa=2,poll=2,expr=1"},
        {"rdma-wait-rmw", "wait=2,rcas=1,rfaa=1,svwrite=1,svread=1,svbcast=1,gfence=1"},
        {"tso", "put=0,get=0,poll=0,rfence=0"}};
    const DecodeCounts before = decodeCounts();
    for (const auto& [modelName, mix] : mixes) {
        const Model model = loadModel(modelsDir(), modelName);
        GeneratorOptions options;
        parseMix(mix, options);
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            const std::string text = generateLitmus(seed, options);
            EXPECT_NO_THROW(check(parseLitmus(text, "random.litmus"), model, CheckOptions{})) << text;
        }
    }
    EXPECT_GT(decodeCounts().fromTrail - before.fromTrail, 0u);
}

}  // namespace
