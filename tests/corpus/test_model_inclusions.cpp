// Models that must coincide on the programs they share:
// - Theorem 4.6 of the RDMA^TSO paper: without remote operations RDMA^TSO and
//   x86-TSO coincide. The two models are different formulations in models/
//   (two clocks tied by I <= O versus herd's uniproc + ghb), so agreement on every
//   CPU-only test is evidence for both. Here on the corpus; on the 487 x86 tests
//   in test_x86_conformance.cpp, which computes tso's results there once for
//   herd7, Dat3M and rdma-tso.
// - RDMA^TSO_RMW without narR/narW events is RDMA^TSO (doc/model-notes.md §N3): its tables
//   restrict to RDMA^TSO's, and rao, ar;rao relate RMW events only.
// - RDMA^TSO_RMW written in MOWGLI style (mowgli-tso-rmw: stamps, iso, so, hb;
//   RMW App. C.1) is the same model as rdma-tso-rmw, which the RMW paper states
//   and the two formulations in models/ must show on every test without work ids.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <utility>

#include "../test_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

bool isNicStatement(Stmt::Kind k) {
    return k == Stmt::Kind::Get || k == Stmt::Kind::Put || k == Stmt::Kind::Poll || k == Stmt::Kind::RFence ||
           k == Stmt::Kind::RCas || k == Stmt::Kind::RFaa;
}

bool isRemoteRmw(Stmt::Kind k) { return k == Stmt::Kind::RCas || k == Stmt::Kind::RFaa; }

// A model's result on a file, computed once per test process.
const CheckResult& resultOf(const std::string& path, const LitmusTest& test, const Model& model) {
    static std::map<std::pair<std::string, std::string>, CheckResult> results;
    const auto key = std::make_pair(path, model.name);
    auto it = results.find(key);
    if (it == results.end()) it = results.emplace(key, check(test, model, CheckOptions{})).first;
    return it->second;
}

// Compares the two models on every file without the excluded statements, over
// the locations and registers the test shows (as herd7 prints them); returns how
// many files were compared.
size_t expectSameResults(const std::vector<std::string>& files, const Model& a, const Model& b,
                         const std::function<bool(Stmt::Kind)>& excluded) {
    size_t compared = 0;
    for (const std::string& path : files) {
        LitmusTest test = parseLitmusFile(path);
        bool skip = defaultModelName(test) == "rdma-wait-rmw";  // work identifiers or library calls
        for (const ThreadDecl& t : test.threads)
            skip = skip || anyStatement(t.body, [&](const Stmt& s) { return excluded(s.kind); });
        if (skip) continue;
        SCOPED_TRACE(path);
        const CheckResult& ra = resultOf(path, test, a);
        const CheckResult& rb = resultOf(path, test, b);
        EXPECT_EQ(ra.states, rb.states);
        EXPECT_EQ(ra.ok, rb.ok);
        ++compared;
    }
    return compared;
}

}  // namespace

// The x86 tests: X86TsoDeclarative in test_x86_conformance.cpp.
TEST(ModelInclusions, RdmaTsoMatchesTsoOnEveryCpuOnlyCorpusTest) {
    const size_t compared = expectSameResults(litmusFiles(sourceDir() + "/litmus"), loadModel(modelsDir(), "rdma-tso"),
                                              loadModel(modelsDir(), "tso"), isNicStatement);
    EXPECT_GE(compared, 6u);
}

// The corpus; random RMW-free tests are the ctest cross_rmw_model_extends_rdma_tso,
// and on CPU-only tests both equal tso (above, and the tables' restriction test).
TEST(ModelInclusions, RdmaTsoRmwMatchesRdmaTsoOnEveryRmwFreeCorpusTest) {
    const size_t compared = expectSameResults(litmusFiles(sourceDir() + "/litmus"), loadModel(modelsDir(), "rdma-tso"),
                                              loadModel(modelsDir(), "rdma-tso-rmw"), isRemoteRmw);
    EXPECT_GE(compared, 27u + 2u);
}

TEST(ModelInclusions, MowgliStyleTsoRmwMatchesRdmaTsoOnEveryCorpusTestWithoutWorkIds) {
    const Model rdmaTso = loadModel(modelsDir(), "rdma-tso");
    const Model rdmaTsoRmw = loadModel(modelsDir(), "rdma-tso-rmw");
    const Model mowgli = loadModel(modelsDir(), "mowgli-tso-rmw");
    const auto files = litmusFiles(sourceDir() + "/litmus");
    const auto none = [](Stmt::Kind) { return false; };
    EXPECT_GE(expectSameResults(files, rdmaTso, mowgli, isRemoteRmw), 27u + 2u);
    EXPECT_GE(expectSameResults(files, rdmaTsoRmw, mowgli, none), 27u + 17u);
}

// rdma-tso-rwd only adds a put's [nrW];pf to ob: without polls pf is empty and
// the two models are one. With polls, the variant is stronger: its states are
// rdma-tso's or fewer (checked on every corpus test without remote RMWs).
TEST(ModelInclusions, RemoteWriteDoneCompletionsOnlyRemoveOutcomesOfPolledPuts) {
    const Model rdmaTso = loadModel(modelsDir(), "rdma-tso");
    const Model rwd = loadModel(modelsDir(), "rdma-tso-rwd");
    const auto files = litmusFiles(sourceDir() + "/litmus");
    const auto pollOrRmw = [](Stmt::Kind k) { return k == Stmt::Kind::Poll || isRemoteRmw(k); };
    EXPECT_GE(expectSameResults(files, rdmaTso, rwd, pollOrRmw), 20u);
    size_t fewer = 0;
    for (const std::string& path : files) {
        const LitmusTest test = parseLitmusFile(path);
        if (defaultModelName(test) != "rdma-tso") continue;
        SCOPED_TRACE(path);
        const CheckResult& strong = resultOf(path, test, rwd);
        const CheckResult& weak = resultOf(path, test, rdmaTso);
        for (const auto& [state, satisfies] : strong.states) EXPECT_TRUE(weak.states.count(state));
        fewer += strong.states.size() < weak.states.size();
    }
    EXPECT_GE(fewer, 1u) << "Fig. 3d's a = b = 0 is gone";
}
