// Library implementations (RMW §4-§5 and LOCO §4-§5): what they inline, and that a
// mutated implementation is caught by refinement.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "../test_support.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/refine.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

std::set<FinalState> outcomes(const LitmusTest& test, const std::vector<std::string>& names, const Model& model) {
    std::set<FinalState> out;
    CheckOptions options;
    options.unroll = 0;  // the spin loops' first pass: what refinement at unroll 0 compares
    check(test, model, options, [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
        FinalState state;
        for (const std::string& name : names) state.push_back(finalValue(test, program, ex, name, -1));
        out.insert(state);
    });
    return out;
}

void dropStatements(Block& block, Stmt::Kind kind) {
    block.erase(std::remove_if(block.begin(), block.end(), [&](const Stmt& s) { return s.kind == kind; }), block.end());
    for (Stmt& s : block) dropStatements(s.body, kind);
}

}  // namespace

// I_NL (RMW Fig. 13): an RFAA ticket, a spin on the now-serving counter, and a
// release that is an rfence then a put, with the lock's locations on its home.
TEST(Implementations, NodeLockIsATicketLockOnItsHome) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/locks/nl2-remote-read.litmus");
    const ImplementedTest impl = implement(test, *findImplementation("nl"), "rdma-wait-rmw");
    EXPECT_EQ(impl.model, "rdma-wait-rmw");
    const std::string text = printLitmus(impl.test);
    for (const char* line : {"l_a@2 = 0; l_r@2 = 0;", "RFAA(p_P0_l, l_a^2, 1, dl);", "v_P0_l := p_P0_l;",
                             "assume(p_P0_l = v_P0_l);", "p_P0_l := v_P0_l + 1;", "rfence(2);",
                             "l_r^2 := p_P0_l;"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    EXPECT_EQ(text.find("nl."), std::string::npos) << text;
    // The spin is its last get, whose test reads p and v in one order only
    // (doc/model-notes.md §N27): one path per thread at any unroll bound.
    UnfoldOptions options;
    options.unroll = 3;
    EXPECT_EQ(unfold(impl.test, options).skeletonCount(), 1u);
}

// Without the release's rfence, the next holder may miss a get of the section:
// nl2-remote-read's a = 1, g = 0, which NLOCK's so forbids (family L7 in litmus/locks/README.md).
TEST(Implementations, NodeLockWithoutItsRfenceIsCaught) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/locks/nl2-remote-read.litmus");
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    const std::vector<std::string> names = {"a", "g"};
    const std::set<FinalState> spec = outcomes(test, names, model);
    ImplementedTest impl = implement(test, *findImplementation("nl"), "rdma-wait-rmw");
    const std::set<FinalState> faithful = outcomes(impl.test, names, model);
    EXPECT_TRUE(std::includes(spec.begin(), spec.end(), faithful.begin(), faithful.end()));
    for (ThreadDecl& t : impl.test.threads) dropStatements(t.body, Stmt::Kind::RFence);
    const std::set<FinalState> mutant = outcomes(impl.test, names, model);
    EXPECT_EQ(spec.count(FinalState{1, 0}), 0u);
    EXPECT_EQ(mutant.count(FinalState{1, 0}), 1u);
}

namespace {

// The outcomes of `test` lowered by `chain` (first placement) with `mutate`
// applied to the last step's test, against the specification's.
struct SpecAndImplementation {
    std::set<FinalState> spec, impl;
};

SpecAndImplementation lowerAndCompare(const std::string& file, const std::vector<Implementation>& chain,
                            const std::vector<std::string>& names, const std::function<void(LitmusTest&)>& mutate) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/locks/" + file);
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    LitmusTest lowered = test;
    for (Implementation impl : chain) lowered = implement(lowered, impl, "rdma-wait-rmw").test;
    mutate(lowered);
    return {outcomes(test, names, model), outcomes(lowered, names, model)};
}

}  // namespace

// I_WL without the wait for its ticket: both threads may read ticket 0 and enter
// together, and the counter loses an increment (wl-counter's c = 1).
TEST(Implementations, WeakLockWithoutItsTicketWaitIsCaught) {
    const auto dropWaits = [](LitmusTest& t) {
        for (ThreadDecl& th : t.threads) dropStatements(th.body, Stmt::Kind::Wait);
    };
    const SpecAndImplementation faithful = lowerAndCompare("wl-counter.litmus", {*findImplementation("wl")}, {"c"}, [](LitmusTest&) {});
    EXPECT_TRUE(std::includes(faithful.spec.begin(), faithful.spec.end(), faithful.impl.begin(), faithful.impl.end()));
    const SpecAndImplementation mutant = lowerAndCompare("wl-counter.litmus", {*findImplementation("wl")}, {"c"}, dropWaits);
    EXPECT_EQ(faithful.spec.count(FinalState{1}), 0u);
    EXPECT_EQ(mutant.impl.count(FinalState{1}), 1u);
}

// I_SL without its global fence is a weak lock: the reader's gets may miss the
// writer's section (sl-fig11, RMW Fig. 11c against 11a).
TEST(Implementations, StrongLockWithoutItsGlobalFenceIsCaught) {
    const auto dropFences = [](LitmusTest& t) {
        for (ThreadDecl& th : t.threads)
            th.body.erase(std::remove_if(th.body.begin(), th.body.end(),
                                         [](const Stmt& s) { return s.kind == Stmt::Kind::Call && s.method == "gf"; }),
                          th.body.end());
    };
    const std::vector<Implementation> chain = {*findImplementation("sl"), *findImplementation("wl")};
    const SpecAndImplementation faithful = lowerAndCompare("sl-fig11.litmus", chain, {"a", "b"}, [](LitmusTest&) {});
    EXPECT_TRUE(std::includes(faithful.spec.begin(), faithful.spec.end(), faithful.impl.begin(), faithful.impl.end()));
    const SpecAndImplementation mutant = lowerAndCompare("sl-fig11.litmus", chain, {"a", "b"}, dropFences);
    EXPECT_FALSE(std::includes(mutant.spec.begin(), mutant.spec.end(), mutant.impl.begin(), mutant.impl.end()));
}

// I_SC whose writer takes no lock: its puts of x and y are not completed in
// order for the reader, who then sees y = 1 but x = 0 (sc-fig15a-mp, RMW Fig. 15a).
TEST(Implementations, ScWritesWithoutTheirLockAreCaught) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/sc/sc-fig15a-mp.litmus");
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    const std::set<FinalState> spec = outcomes(test, {"a", "b"}, model);
    ImplementedTest sc = implement(test, *findImplementation("sc"), "rdma-wait-rmw", 1);  // x@2, y@1
    EXPECT_EQ(sc.placement, "x@2, y@1");
    const std::set<FinalState> faithful =
        outcomes(implement(sc.test, *findImplementation("nl"), "rdma-wait-rmw").test, {"a", "b"}, model);
    EXPECT_TRUE(std::includes(spec.begin(), spec.end(), faithful.begin(), faithful.end()));
    Block& writer = sc.test.threads[0].body;
    writer.erase(std::remove_if(writer.begin(), writer.end(),
                                [](const Stmt& s) { return s.kind == Stmt::Kind::Call && s.library == "nl"; }),
                 writer.end());
    const std::set<FinalState> mutant =
        outcomes(implement(sc.test, *findImplementation("nl"), "rdma-wait-rmw").test, {"a", "b"}, model);
    EXPECT_EQ(spec.count(FinalState{1, 0}), 0u);
    EXPECT_EQ(mutant.count(FinalState{1, 0}), 1u);
}

// I_RBL (LOCO Fig. 14) follows each thread's paths: rbl-fifo's second submit,
// after a successful first, writes slots H % S = 0 and 1 of S = 2 and publishes
// head 4, its read head checked against 2 by an alarm; no branch per slot.
TEST(Implementations, RingBufferSlotsAreFixedByThePath) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rbl/rbl-fifo.litmus");
    const ImplementedTest impl = implement(test, *findImplementation("rbl"), "rdma-wait-rmw", 0);
    EXPECT_EQ(impl.placement, "q: S=2");
    const std::string text = printLitmus(impl.test);
    for (const char* line : {"head_alarm_P0_1 := H_P0_q - 2;", "if (HP1_P0_q < 2) {", "sv.write(q_0, 1);",
                             "sv.write(q_1, 2);", "sv.wait(dq);", "sv.write(q_h, 4);", "sv.bcast(q_h, dq, {2});",
                             "if (Hw_P1_q <= 2) {", "length_alarm_P1_1 := V_P1_q - 1;", "sv.bcast(q_h_P1, _, {1});"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    for (const char* absent : {"choice", "%", "rbl."}) EXPECT_EQ(text.find(absent), std::string::npos) << absent;
    EXPECT_EQ(impl.alarms.size(), 6u);  // a head alarm per call, a length alarm per receive
}

// A call in a branch or a loop has no head fixed by the path: a positioned error.
TEST(Implementations, RingBufferCallsInBranchesAreRefused) {
    const LitmusTest test = parseLitmus(
        "RDMA t\n{ x@1 = 0; }\nP0@1 {\n  if (x = 0) { ok := rbl.submit(q, 1); };\n}\n"
        "P1@2 {\n  r := rbl.receive(q, v);\n}\nexists (ok = 1)\n",
        "t.litmus");
    try {
        implement(test, *findImplementation("rbl"), "rdma-wait-rmw");
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 4);
        EXPECT_NE(e.detail().find("top level only"), std::string::npos) << e.detail();
    }
}

// I_BAL: a thread whose calls on z are all at its top level knows v, since its
// own counter has no other writer; its waits test u against the call's index
// and v - index goes to an alarm. A call under an `if` keeps the test u <= v.
TEST(Implementations, BarrierWaitsAgainstTheCallIndexWhereThePathFixesIt) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/bal/bar-uneven-calls.litmus");
    const ImplementedTest impl = implement(test, *findImplementation("bal"), "rdma-wait-rmw");
    const std::string text = printLitmus(impl.test);
    for (const char* line : {"counter_alarm_P0_z_0 := v_P0_z - 0;", "assume(u_P0_z > 0);",
                             "assume(u_P1_z > v_P1_z);"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    EXPECT_EQ(text.find("counter_alarm_P1"), std::string::npos) << text;
    EXPECT_EQ(impl.alarms, std::vector<std::string>{"counter_alarm_P0_z_0"});
}

// doc/model-notes.md §N27: a spin wait and its last read have the same final
// states at every unroll bound, on a plain location and on an SV copy, where
// the failed iterations read values the waiting thread then drops.
TEST(Implementations, ASpinWaitHasTheOutcomesOfItsLastRead) {
    const std::string head = "RDMA Spin\n{ x@sv = 0; z@2 = 0; y@2 = 0; u@2; b@2; c@2; }\n"
                             "P0@1 { z^2 := 1; sv.write(x, 1); sv.bcast(x, _, {2}); y^2 := 2; }\n";
    const std::string tail = " b := z; c := y; }\nexists (b = 0)\n";
    const LitmusTest spin = parseLitmus(head + "P1@2 { u := sv.read(x); while (u <= 0) { u := sv.read(x); };" + tail, "s");
    const LitmusTest last = parseLitmus(head + "P1@2 { u := sv.read(x); assume(u > 0);" + tail, "l");
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    CheckOptions options;
    options.mode = CheckMode::States;
    const CheckResult once = check(last, model, options);
    EXPECT_FALSE(once.states.empty());
    for (int unroll : {1, 2, 3}) {
        options.unroll = unroll;
        const CheckResult looped = check(spin, model, options);
        EXPECT_EQ(looped.states, once.states) << "unroll " << unroll;
        EXPECT_FALSE(looped.cutLoops.empty()) << "the bound cuts the loop, not the last read";
    }
}

namespace {

void readInEveryOrder(Block& block) {
    for (Stmt& st : block) {
        st.readsInTextOrder = false;
        readInEveryOrder(st.body);
        readInEveryOrder(st.orelse);
        for (Block& b : st.branches) readInEveryOrder(b);
    }
}

}  // namespace

// doc/model-notes.md §N27: the tests an implementation writes on a thread's own
// locations read them in one order, and the other orders add no final state.
TEST(Implementations, OwnLocationTestsReadInOneOrderLoseNoOutcome) {
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    CheckOptions options;
    options.mode = CheckMode::States;
    for (const auto& [file, impl] : {std::pair{"locks/nl2-fig12.litmus", "nl"}, std::pair{"locks/wl-prose.litmus", "wl"},
                                     std::pair{"bal/bar-uneven-calls.litmus", "bal"}}) {
        SCOPED_TRACE(file);
        ImplementedTest once = implement(parseLitmusFile(sourceDir() + "/litmus/" + file), *findImplementation(impl),
                                         "rdma-wait-rmw");
        ImplementedTest every = once;
        for (ThreadDecl& t : every.test.threads) readInEveryOrder(t.body);
        const UnfoldOptions unfoldOptions;
        EXPECT_LT(unfold(once.test, unfoldOptions).skeletonCount(), unfold(every.test, unfoldOptions).skeletonCount());
        EXPECT_EQ(check(once.test, model, options).states, check(every.test, model, options).states);
    }
}
