// Unfolding: the events each statement becomes (RDMA-TSO.md, "Events").
#include <gtest/gtest.h>

#include <set>

#include "../test_support.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;

namespace {

UnfoldedProgram unfoldText(const std::string& body, int unroll = 2) {
    LitmusTest t = parseLitmus("RDMA u\n{ x@1; y@2; z@1; }\nP0@1 {\n" + body + "\n}\nexists (x = 0)\n", "u.litmus");
    UnfoldOptions o;
    o.unroll = unroll;
    return unfold(t, o);
}

std::string kinds(const ThreadPath& p) {
    std::string s;
    for (const Event& e : p.events) s += std::string(s.empty() ? "" : " ") + kindName(e.kind);
    return s;
}

}  // namespace

TEST(Unfold, PutAndGetAreNicPairs) {
    UnfoldedProgram u = unfoldText("y^2 := x; x := y^2; poll(2); poll(2)");
    ASSERT_EQ(u.paths[0].size(), 1u);
    const ThreadPath& p = u.paths[0][0];
    EXPECT_EQ(kinds(p), "nlR nrW nrR nlW P P");
    EXPECT_EQ(p.events[0].remote, 2);
    // The k-th poll polls the k-th remote operation's write.
    ASSERT_EQ(p.pollsFrom.size(), 2u);
    EXPECT_EQ(p.pollsFrom[0], std::make_pair(1, 4));
    EXPECT_EQ(p.pollsFrom[1], std::make_pair(3, 5));
}

TEST(Unfold, PutOfConstantReadsAFreshLocation) {
    UnfoldedProgram u = unfoldText("y^2 := 5");
    const Location& hidden = u.locations[u.paths[0][0].events[0].location];
    EXPECT_TRUE(hidden.hidden);
    EXPECT_EQ(hidden.init, 5);
    EXPECT_EQ(hidden.node, 1);
}

TEST(Unfold, EveryReadOrderOfAnExpression) {
    UnfoldedProgram u = unfoldText("x := 2*z + a + z");
    ASSERT_EQ(u.paths[0].size(), 2u);  // z then a, a then z: one read per distinct location
    EXPECT_EQ(kinds(u.paths[0][0]), "lR lR lW");
    EXPECT_NE(u.paths[0][0].events[0].location, u.paths[0][1].events[0].location);
}

TEST(Unfold, CasSucceedsOrFailsWithAFence) {
    UnfoldedProgram u = unfoldText("a := CAS(x, 0, 1)");
    ASSERT_EQ(u.paths[0].size(), 2u);
    EXPECT_EQ(kinds(u.paths[0][0]), "CAS lW");
    EXPECT_EQ(kinds(u.paths[0][1]), "F lR lW");
}

TEST(Unfold, LoopsUnrollAndMarkTheCut) {
    UnfoldedProgram u = unfoldText("loop { x := 1 }", 2);
    ASSERT_EQ(u.paths[0].size(), 4u);  // 0, 1, 2 iterations, and the cut path
    int cut = 0;
    for (const ThreadPath& p : u.paths[0]) cut += p.cut;
    EXPECT_EQ(cut, 1);
    UnfoldedProgram w = unfoldText("while (x != 1) { z := 1 }", 1);
    // exit at once; one iteration then exit; cut after one iteration (test x != 1 again)
    ASSERT_EQ(w.paths[0].size(), 3u);
    EXPECT_EQ(kinds(w.paths[0][0]), "lR");
    EXPECT_EQ(kinds(w.paths[0][1]), "lR lW lR");
    EXPECT_TRUE(w.paths[0][2].cut);
}

TEST(Unfold, PollOnAnEmptyBranchBlocksThatPathOnly) {
    UnfoldedProgram u = unfoldText("choice { y^2 := 1 } or { x := 1 }; poll(2)");
    ASSERT_EQ(u.paths[0].size(), 1u);
    EXPECT_EQ(kinds(u.paths[0][0]), "nlR nrW P");
}

TEST(Unfold, LoopbackUsesTheOwnQueuePair) {
    UnfoldedProgram u = unfoldText("z^1 := x; poll(1)");
    EXPECT_EQ(u.paths[0][0].events[1].remote, 1);
    EXPECT_EQ(u.paths[0][0].pollsFrom.size(), 1u);
}

// RDMA-TSO.md: a successful RCAS is narR, narW, nlW; a failed one has no narW;
// RFAA always writes the old value plus the addend. The nlW is what a poll polls.
TEST(Unfold, RemoteRmwsAreAtomicReadWriteThenLocalWrite) {
    UnfoldedProgram u = unfoldText("RCAS(x, y^2, 0, 5); poll(2)");
    ASSERT_EQ(u.paths[0].size(), 2u);
    const bool successFirst = u.paths[0][0].events.size() == 4;
    const ThreadPath& success = u.paths[0][successFirst ? 0 : 1];
    const ThreadPath& failure = u.paths[0][successFirst ? 1 : 0];
    EXPECT_EQ(kinds(success), "narR narW nlW P");
    EXPECT_EQ(kinds(failure), "narR nlW P");
    EXPECT_EQ(success.events[0].remote, 2);
    EXPECT_EQ(success.events[1].written.eval({}), 5);
    ASSERT_EQ(success.constraints.size(), 1u);
    EXPECT_TRUE(success.constraints[0].equal);
    EXPECT_FALSE(failure.constraints[0].equal);
    EXPECT_EQ(success.pollsFrom[0], std::make_pair(2, 3));
    EXPECT_EQ(failure.pollsFrom[0], std::make_pair(1, 2));
    // The local write copies the value read.
    EXPECT_EQ(success.events[2].written.eval({7}), 7);

    UnfoldedProgram faa = unfoldText("z := RFAA(y^2, 3)");
    ASSERT_EQ(faa.paths[0].size(), 1u);
    EXPECT_EQ(kinds(faa.paths[0][0]), "narR narW nlW");
    EXPECT_EQ(faa.paths[0][0].events[1].written.eval({4}), 7);
}

TEST(Unfold, DiscardedRmwResultIsOneHiddenLocation) {
    UnfoldedProgram u = unfoldText("loop { RFAA(_, y^2, 1) }");
    std::set<int> results;
    for (const ThreadPath& p : u.paths[0])
        for (const Event& e : p.events)
            if (e.kind == EventKind::NLW) results.insert(e.location);
    ASSERT_EQ(results.size(), 1u);  // however many iterations
    const Location& hidden = u.locations[*results.begin()];
    EXPECT_TRUE(hidden.hidden);
    EXPECT_EQ(hidden.name, "_");
    EXPECT_EQ(hidden.node, 1);
    EXPECT_LT(u.locationIndex("_"), 0);  // tests cannot name it
}
