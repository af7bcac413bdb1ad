// Unfolding: the events each statement becomes (RDMA^TSO paper Def. 4.1).
#include <gtest/gtest.h>

#include <set>

#include "../test_support.hpp"
#include "../../src/libraries/bal/bal.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

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

// RMW App. D.2: a successful RCAS is narR, narW, nlW; a failed one has no narW;
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
    EXPECT_EQ(success.constraints[0].op, Comparison::Eq);
    EXPECT_EQ(failure.constraints[0].op, Comparison::Ne);
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

// ---- MOWGLI: work identifiers, calls, global fences and SV (RMW §3.2, LOCO §3.4).

namespace {

UnfoldedProgram unfoldTest(const std::string& text) {
    UnfoldOptions o;
    return unfold(parseLitmus(text, "m.litmus"), o);
}

// "kind[location]/call/work/library" per event, for the whole path at once.
std::string described(const UnfoldedProgram& u, const ThreadPath& p) {
    std::string s;
    for (const Event& e : p.events) {
        s += s.empty() ? "" : " ";
        s += kindName(e.kind);
        if (e.location >= 0) s += "[" + u.locations[e.location].name + "]";
        if (e.remote) s += "^" + std::to_string(e.remote);
        s += "/c" + std::to_string(e.call);
        if (e.workId >= 0) s += "/d" + std::to_string(e.workId);
        if (e.library != Library::Core) s += std::string("/") + libraryName(e.library);
    }
    return s;
}

}  // namespace

// A get is one call of two subevents, nrR then nlW, both carrying its work id;
// a wait(d) is one wait subevent with the same id. Nothing is polled.
TEST(Unfold, GetWithWorkIdIsOneCallOfTwoSubevents) {
    UnfoldedProgram u = unfoldText("a :=^d y^2; wait(d); a := y^2");
    ASSERT_EQ(u.paths[0].size(), 1u);
    const ThreadPath& p = u.paths[0][0];
    EXPECT_EQ(described(u, p), "nrR[y]^2/c0/d0 nlW[a]^2/c0/d0 wait/c2/d0 nrR[y]^2/c3 nlW[a]^2/c3");
    EXPECT_EQ(p.events[1].written.eval({6}), 6);  // the local write copies the remote read
    EXPECT_TRUE(p.pollsFrom.empty());
}

TEST(Unfold, PutWithWorkIdIsOneCallOfTwoSubevents) {
    UnfoldedProgram u = unfoldText("y^2 :=^e x; y^2 :=^d 1; wait(d); wait(e)");
    ASSERT_EQ(u.paths[0].size(), 1u);
    const ThreadPath& p = u.paths[0][0];
    EXPECT_EQ(described(u, p), "nlR[x]^2/c0/d0 nrW[y]^2/c0/d0 nlR[(1)]^2/c2/d1 nrW[y]^2/c2/d1 wait/c4/d1 wait/c5/d0");
    EXPECT_TRUE(u.locations[p.events[2].location].hidden);
    EXPECT_EQ(p.events[3].written.eval({0, 0, 1, 0}), 1);
}

// Work identifiers are numbered per thread, in order of first use; `_` and a
// missing identifier are none (-1).
TEST(Unfold, WorkIdsArePerThread) {
    UnfoldedProgram u = unfoldTest(R"(RDMA ids
{ y@2; }
P0@1 { a :=^d y^2; b :=^e y^2; c := y^2; wait(e) }
P1@1 { f :=^e y^2; g :=^d y^2; wait(_); wait(d) }
exists (y = 0)
)");
    const ThreadPath& p0 = u.paths[0][0];
    const ThreadPath& p1 = u.paths[1][0];
    EXPECT_EQ(described(u, p0), "nrR[y]^2/c0/d0 nlW[a]^2/c0/d0 nrR[y]^2/c2/d1 nlW[b]^2/c2/d1 nrR[y]^2/c4 nlW[c]^2/c4 "
                                "wait/c6/d1");
    EXPECT_EQ(described(u, p1), "nrR[y]^2/c0/d0 nlW[f]^2/c0/d0 nrR[y]^2/c2/d1 nlW[g]^2/c2/d1 wait/c4 wait/c5/d1");
    EXPECT_EQ(p0.events[0].thread, 0);
    EXPECT_EQ(p1.events[0].thread, 1);
}

// An RCAS is one call whichever way it goes: narR, narW, nlW on success,
// narR, nlW on failure (LOCO §3.3, RMW §3.2), all with the work id.
TEST(Unfold, RemoteRmwWithWorkIdIsOneCall) {
    UnfoldedProgram u = unfoldText("mfence; RCAS(x, y^2, 0, 5, d); wait(d)");
    ASSERT_EQ(u.paths[0].size(), 2u);
    const bool successFirst = u.paths[0][0].events.size() == 5;
    const ThreadPath& success = u.paths[0][successFirst ? 0 : 1];
    const ThreadPath& failure = u.paths[0][successFirst ? 1 : 0];
    EXPECT_EQ(described(u, success), "F/c0 narR[y]^2/c1/d0 narW[y]^2/c1/d0 nlW[x]^2/c1/d0 wait/c4/d0");
    EXPECT_EQ(described(u, failure), "F/c0 narR[y]^2/c1/d0 nlW[x]^2/c1/d0 wait/c3/d0");
    ASSERT_EQ(success.constraints.size(), 1u);
    EXPECT_EQ(success.constraints[0].op, Comparison::Eq);
    ASSERT_EQ(failure.constraints.size(), 1u);
    EXPECT_EQ(failure.constraints[0].op, Comparison::Ne);
    EXPECT_EQ(failure.constraints[0].lhs.event, 1);
    EXPECT_EQ(failure.constraints[0].rhs.eval({}), 0);

    UnfoldedProgram faa = unfoldText("RFAA(_, y^2, 3, e); z := RFAA(y^2, 1)");
    ASSERT_EQ(faa.paths[0].size(), 1u);
    EXPECT_EQ(described(faa, faa.paths[0][0]),
              "narR[y]^2/c0/d0 narW[y]^2/c0/d0 nlW[_]^2/c0/d0 narR[y]^2/c3 narW[y]^2/c3 nlW[z]^2/c3");
}

// A failed CAS is one call stamped {aMF, aCR}: its F and lR share the call; the
// write of the result is a call of its own, as is a successful CAS.
TEST(Unfold, FailedCasFenceAndReadShareACall) {
    UnfoldedProgram u = unfoldText("a := CAS(x, 0, 1)");
    ASSERT_EQ(u.paths[0].size(), 2u);
    EXPECT_EQ(described(u, u.paths[0][0]), "CAS[x]/c0 lW[a]/c1");
    EXPECT_EQ(described(u, u.paths[0][1]), "F/c0 lR[x]/c0 lW[a]/c2");
}

// gfence(1, 2) is GF_sv({1, 2}): one call of the SV library, one gF subevent per node.
TEST(Unfold, GlobalFenceIsOneSvCallWithOneSubeventPerNode) {
    UnfoldedProgram u = unfoldText("x := 1; gfence(1, 2); gfence(2)");
    const ThreadPath& p = u.paths[0][0];
    EXPECT_EQ(described(u, p), "lW[x]/c0 gF^1/c1/sv gF^2/c1/sv gF^2/c3/sv");
    EXPECT_EQ(p.events[1].location, -1);
}

// SV (LOCO §3.4, Def. 3.8): a shared variable is one location x@n per node of the
// test, with the declared initial value; each call lowers to the subevents of
// stmp_SV on those copies, all of the SV library and one call.
TEST(Unfold, SharedVariableCallsLowerToStampedSubevents) {
    UnfoldedProgram u = unfoldTest(R"(RDMA sv
{ x@sv = 3; y@2; }
P0@1 {
  sv.write(x, 1);
  sv.write(x, a);
  b := sv.read(x);
  sv.bcast(x, d, {2, 1});
  sv.bcast(x, _, {2});
  sv.wait(d);
  sv.gf({1, 2});
}
P1@2 { c := sv.read(x) }
exists (x@2 = 1)
)");
    ASSERT_EQ(u.paths[0].size(), 1u);
    const ThreadPath& p = u.paths[0][0];
    EXPECT_EQ(described(u, p),
              "lW[x@1]/c0/sv "                                   // sv.write(x, 1)
              "lR[a]/c1 lW[x@1]/c2/sv "                          // sv.write(x, a): the CPU reads a first
              "lR[x@1]/c3/sv lW[b]/c4 "                          // b := sv.read(x): then b is written
              "nlR[x@1]^2/c5/d0/sv nrW[x@2]^2/c5/d0/sv "         // sv.bcast(x, d, {2, 1})
              "nlR[x@1]^1/c5/d0/sv nrW[x@1]^1/c5/d0/sv "
              "nlR[x@1]^2/c9/sv nrW[x@2]^2/c9/sv "               // sv.bcast(x, _, {2})
              "wait/c11/d0/sv "                                  // sv.wait(d)
              "gF^1/c12/sv gF^2/c12/sv");                        // sv.gf({1, 2})
    // Values: the written constant, a's value, the read returned, the broadcast copies.
    EXPECT_EQ(p.events[0].written.eval({}), 1);
    std::vector<long long> reads(p.events.size(), 0);
    reads[1] = 7;
    reads[3] = 8;
    reads[5] = 9;
    EXPECT_EQ(p.events[2].written.eval(reads), 7);
    EXPECT_EQ(p.events[4].written.eval(reads), 8);
    EXPECT_EQ(p.events[6].written.eval(reads), 9);
    EXPECT_EQ(described(u, u.paths[1][0]), "lR[x@2]/c0/sv lW[c]/c1");  // node 2 reads its own copy

    // Two copies, homed on their nodes, initialised from the declaration; no location "x".
    EXPECT_LT(u.locationIndex("x"), 0);
    for (int n : {1, 2}) {
        const int l = u.locationIndex("x@" + std::to_string(n));
        ASSERT_GE(l, 0) << n;
        EXPECT_EQ(u.locations[l].node, n);
        EXPECT_EQ(u.locations[l].init, 3);
        EXPECT_FALSE(u.locations[l].hidden);
    }
    EXPECT_LT(u.locationIndex("x@3"), 0);
}

// Every node of the test has a copy, even one only a broadcast names; a variable
// used without a declaration is shared from its first call, initially 0.
TEST(Unfold, SharedVariableHasACopyOnEveryNode) {
    UnfoldedProgram u = unfoldTest(R"(RDMA sv3
{ }
P0@1 { sv.bcast(v, _, {3}) }
P1@2 { }
exists (v@3 = 0)
)");
    std::vector<std::string> names;
    for (const Location& l : u.locations) names.push_back(l.name + "@node" + std::to_string(l.node) + "=" +
                                                          std::to_string(l.init));
    EXPECT_EQ(names, (std::vector<std::string>{"v@1@node1=0", "v@2@node2=0", "v@3@node3=0"}));
    EXPECT_EQ(described(u, u.paths[0][0]), "nlR[v@1]^3/c0/sv nrW[v@3]^3/c0/sv");
}

// An SV broadcast and a core wait share the thread's work identifiers.
TEST(Unfold, SvAndCoreShareTheThreadsWorkIds) {
    UnfoldedProgram u = unfoldTest(R"(RDMA mix
{ x@sv; y@2; }
P0@1 { a :=^e y^2; sv.bcast(x, d, {2}); wait(d); sv.wait(e) }
exists (x@2 = 0)
)");
    EXPECT_EQ(described(u, u.paths[0][0]),
              "nrR[y]^2/c0/d0 nlW[a]^2/c0/d0 nlR[x@1]^2/c2/d1/sv nrW[x@2]^2/c2/d1/sv wait/c4/d1 wait/c5/d0/sv");
}

// A location declared on a node is not a shared variable: an sv call on it is
// refused at the argument (it would otherwise be both x and the copies x@n).
TEST(Unfold, SvCallOnALocationDeclaredOnANodeIsRefused) {
    EXPECT_THROW(unfoldTest("RDMA t\n{ x@1 = 5; }\nP0@1 { a := sv.read(x) }\nexists (a = 5)\n"), InputError);
}

// bar(z) (LOCO Def. 4.1): one gF per node of a participant of z, then the exit,
// all one call of the barrier library; participants making different numbers of
// calls make an ill-formed skeleton.
TEST(Unfold, BarrierCallsAndTheirParticipants) {
    const UnfoldedProgram p = unfoldTest(
        "RDMA t\n{ y@2 = 0; }\nP0@1 { bar(z) }\nP1@3 { bar(z) }\nP2@2 { b := y; if (b = 1) { bar(w) } else { } }\n"
        "exists (y = 0)\n");
    const ThreadPath& path = p.paths[0][0];
    ASSERT_EQ(path.events.size(), 3u);
    EXPECT_EQ(path.events[0].kind, EventKind::GF);
    EXPECT_EQ(path.events[0].remote, 1);
    EXPECT_EQ(path.events[1].kind, EventKind::GF);
    EXPECT_EQ(path.events[1].remote, 3);
    EXPECT_EQ(path.events[2].kind, bal::BX);
    for (const Event& e : path.events) {
        EXPECT_EQ(e.library, findLibrary("bal").value());
        EXPECT_EQ(e.call, 0);
        EXPECT_EQ(e.location, path.events[2].location);
    }
    EXPECT_EQ(p.participants.size(), 2u);
    // P2 alone calls bar(w): once on one path, never on the other; both are well formed.
    std::vector<size_t> choice{0, 0, 0};
    size_t wellFormed = 0, skeletons = 0;
    do {
        ++skeletons;
        wellFormed += !p.skeleton(choice).illFormed;
    } while (p.nextChoice(choice));
    EXPECT_EQ(skeletons, 2u);
    EXPECT_EQ(wellFormed, 2u);
    // With P0 calling bar(z) twice and P1 once, no skeleton is well formed.
    const UnfoldedProgram uneven =
        unfoldTest("RDMA t\n{ y@2 = 0; }\nP0@1 { bar(z); bar(z) }\nP1@3 { bar(z) }\nexists (y = 0)\n");
    EXPECT_EQ(uneven.skeleton({0, 0}).illFormed,
              "the participants of barrier z make different numbers of calls on it (LOCO Def. 4.1)");
}

// tbar(z), the transitive barrier (LOCO §4.3): its entry fences every node of the
// test, not only the participants' (here node 3, which only a put names).
TEST(Unfold, TransitiveBarrierFencesEveryNode) {
    const UnfoldedProgram p =
        unfoldTest("RDMA t\n{ x@3 = 0; }\nP0@1 { x^3 := 1; tbar(z) }\nP1@2 { tbar(z) }\nexists (x = 0)\n");
    std::vector<int> fenced;
    for (const Event& e : p.paths[1][0].events)
        if (e.kind == EventKind::GF) fenced.push_back(e.remote);
    EXPECT_EQ(fenced, (std::vector<int>{1, 2, 3}));
    const LitmusTest t = parseLitmus("RDMA t\n{ }\nP0@1 { tbar(z); bar(w) }\nexists (true)\n", "t.litmus");
    EXPECT_NE(printLitmus(t).find("  tbar(z);\n  bar(w);\n"), std::string::npos) << printLitmus(t);
}

// Tests compare two expressions (doc/LITMUS.md): each location of the two
// sides is read once, in every order, and the path keeps the comparison; the
// else branch and a while's exit keep its negation.
TEST(Unfold, TestsCompareTwoExpressionsReadingEachLocationOnce) {
    UnfoldedProgram u = unfoldText("if (x + 1 < z * x) { y^2 := 1 } else { y^2 := 2 }");
    ASSERT_EQ(u.paths[0].size(), 4u);  // then in both read orders, else in both
    for (const ThreadPath& p : u.paths[0]) {
        EXPECT_EQ(kinds(p).substr(0, 5), "lR lR");
        ASSERT_EQ(p.constraints.size(), 1u);
    }
    EXPECT_EQ(u.paths[0][1].constraints[0].op, Comparison::Lt);
    EXPECT_EQ(u.paths[0][2].constraints[0].op, Comparison::Ge);
    EXPECT_NE(u.paths[0][0].events[0].location, u.paths[0][1].events[0].location);
    EXPECT_EQ(u.paths[0][0].events[0].location, u.paths[0][2].events[0].location);
    UnfoldedProgram w = unfoldText("while (x >= z) { x := 1 }", 1);
    // Two read orders at each head: leave at once (2), or run once and leave (4) or be cut (4).
    ASSERT_EQ(w.paths[0].size(), 10u);
    EXPECT_EQ(w.paths[0][0].constraints[0].op, Comparison::Lt);
    UnfoldedProgram same = unfoldText("assume(x = x)");
    ASSERT_EQ(same.paths[0].size(), 1u);
    EXPECT_EQ(kinds(same.paths[0][0]), "lR");
}

// Every comparison, decided the same by the declarative engine and (for `x CMP k`)
// the queue-pair machines; a machine refuses a test it cannot read in one step.
TEST(Unfold, EveryComparisonDecidesAsWritten) {
    const Model model = loadModel(modelsDir(), "rdma-tso");
    const std::pair<const char*, std::set<long long>> cases[] = {
        {"<", {1}}, {"<=", {1, 2}}, {">", {3}}, {">=", {2, 3}}, {"=", {2}}, {"!=", {1, 3}}};
    for (const auto& [op, passing] : cases) {
        SCOPED_TRACE(op);
        for (long long v : {1, 2, 3}) {
            const std::string text = "RDMA t\n{ x@1 = " + std::to_string(v) + "; c@1; }\nP0@1 { if (x " + op +
                                     " 2) { c := 1 } else { c := 2 } }\nforall (c = 1)\n";
            const LitmusTest t = parseLitmus(text, "t.litmus");
            EXPECT_EQ(check(t, model, CheckOptions{}).ok, passing.count(v) > 0) << v;
            MachineOptions machine;
            EXPECT_EQ(explore(t, model, machine).ok, passing.count(v) > 0) << v;
        }
    }
    const LitmusTest general = parseLitmus("RDMA t\n{ x@1 = 1; y@1 = 2; }\nP0@1 { assume(x < y) }\nexists (x = 1)\n", "t.litmus");
    EXPECT_TRUE(check(general, model, CheckOptions{}).ok);
    EXPECT_THROW(explore(general, model, MachineOptions{}), InputError);
}

// `E % k` (doc/LITMUS.md, for I_RBL's ring slots): Euclidean, in 0..k-1
// also for a negative E, on both engines; the printer writes it back.
TEST(Unfold, ModuloByAPositiveIntegerOnBothEngines) {
    const Model model = loadModel(modelsDir(), "rdma-tso");
    for (long long x : {-7, -3, 0, 2, 5, 9}) {
        SCOPED_TRACE(x);
        const long long expected = ((x % 3) + 3) % 3;
        const std::string text = "RDMA t\n{ x@1 = " + std::to_string(x) + "; c@1; }\nP0@1 { c := (x + 1) % 3 - 1 % 2 }\n" +
                                 "forall (c = " + std::to_string((((x + 1) % 3) + 3) % 3 - 1) + ")\n";
        const LitmusTest t = parseLitmus(text, "t.litmus");
        EXPECT_TRUE(check(t, model, CheckOptions{}).ok);
        EXPECT_TRUE(explore(t, model, MachineOptions{}).ok);
        const std::string cond = "RDMA t\n{ x@1 = " + std::to_string(x) + "; c@1; }\nP0@1 { if (x % 3 = " +
                                 std::to_string(expected) + ") { c := 1 } }\nforall (c = 1)\n";
        EXPECT_TRUE(check(parseLitmus(cond, "t.litmus"), model, CheckOptions{}).ok);
    }
    const LitmusTest t = parseLitmus("RDMA t\n{ }\nP0@1 { c := (x + 1) % 4 * 2 % 3 }\nexists (c = 0)\n", "t.litmus");
    EXPECT_NE(printLitmus(t).find("c := (x + 1) % 4 * 2 % 3;"), std::string::npos) << printLitmus(t);
}

// XCHG [x],[y] under a model in herd7's terms (herd/event.ml exch_comp):
// locked reads of x and y, then writes of their values to y and x, one
// call; po holds only each location's read to its write, and a picture
// draws po's reduction: the MOV before to both reads, both writes to the
// MOV after.
TEST(Unfold, XchgOfTwoLocationsIsHerd7sFourEvents) {
    const LitmusTest t = parseLitmus("X86 t\n{ x=1; y=2; z=0; }\n P0 ;\n MOV [z],$1 ;\n XCHG [x],[y] ;\n"
                                     " MOV EAX,[z] ;\nexists (x=2)\n",
                                     "t.litmus");
    UnfoldOptions o;
    o.herdEvents = true;
    const ExecutionGraph sk = unfold(t, o).skeleton({0});
    const int first = sk.threadEvents[0][1];  // the read of x
    ASSERT_EQ(sk.threadEvents[0].size(), 6u);
    std::string events;
    for (int e : sk.threadEvents[0]) events += std::string(kindName(sk.events[e].kind)) + " ";
    EXPECT_EQ(events, "lW lR lR lW lW lR ");
    EXPECT_EQ(sk.lockedPairs, (std::vector<std::pair<int, int>>{{first, first + 2}, {first + 1, first + 3}}));
    EXPECT_EQ(sk.events[first + 2].written.event, first + 1);  // x takes y's value
    EXPECT_EQ(sk.events[first + 3].written.event, first);
    std::set<std::pair<int, int>> po;
    for (const RelationEdge& e : executionEdges(sk))
        if (e.relation == "po") po.emplace(e.from, e.to);
    const int before = first - 1, after = first + 4;
    EXPECT_EQ(po, (std::set<std::pair<int, int>>{{before, first}, {before, first + 1}, {first, first + 2},
                                                 {first + 1, first + 3}, {first + 2, after}, {first + 3, after}}));
    EXPECT_THROW(unfold(t, UnfoldOptions{}), InputError);  // rdmacheck's own models: refused
}
