// Theorem 4.6 of the RDMA^TSO paper: without remote operations RDMA^TSO and
// x86-TSO coincide. The two models are different formulations in models/
// (two clocks tied by I <= O versus herd's uniproc + ghb), so agreement on every
// CPU-only test is evidence for both.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

bool hasNicStatement(const Block& b) {
    for (const Stmt& s : b) {
        if (s.kind == Stmt::Kind::Get || s.kind == Stmt::Kind::Put || s.kind == Stmt::Kind::Poll ||
            s.kind == Stmt::Kind::RFence)
            return true;
        if (hasNicStatement(s.body) || hasNicStatement(s.orelse)) return true;
        for (const Block& br : s.branches)
            if (hasNicStatement(br)) return true;
    }
    return false;
}

void expectSameResults(const std::string& path, const Model& rdma, const Model& tso, size_t& compared) {
    LitmusTest test = parseLitmusFile(path);
    for (const ThreadDecl& t : test.threads)
        if (hasNicStatement(t.body)) return;
    SCOPED_TRACE(path);
    CheckResult a = check(test, rdma, CheckOptions{});
    CheckResult b = check(test, tso, CheckOptions{});
    EXPECT_EQ(a.states, b.states);
    EXPECT_EQ(a.positive, b.positive);
    EXPECT_EQ(a.negative, b.negative);
    ++compared;
}

}  // namespace

TEST(RdmaTsoMatchesTso, OnEveryCpuOnlyTest) {
    const Model rdma = loadModel(modelsDir(), "rdma-tso");
    const Model tso = loadModel(modelsDir(), "tso");
    size_t compared = 0;
    for (const std::string& dir : {sharedDir() + "/conformance/x86-tso/tests", sourceDir() + "/litmus/rdma-tso"})
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.path().extension() == ".litmus") expectSameResults(entry.path().string(), rdma, tso, compared);
    EXPECT_GE(compared, 487u);
}
