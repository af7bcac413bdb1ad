// The operational machines (OPERATIONAL.md): the worked traces of §9, rules
// whose effect a test can see, loops, limits, and agreement of the reduced
// exploration with the full one.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "../test_support.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/report.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

CheckResult runMachine(const std::string& text, const std::string& model, MachineKind kind, int unroll = 2,
                       bool reduce = true) {
    MachineOptions options;
    options.kind = kind;
    options.unroll = unroll;
    options.reduce = reduce;
    return explore(parseLitmus(text, "test.litmus"), loadModel(modelsDir(), model), options);
}

std::set<std::string> lines(const CheckResult& r) {
    std::set<std::string> out;
    for (const auto& [state, satisfies] : r.states) out.insert(stateLine(r, state));
    return out;
}

// The condition's outcome is reachable, on both machines.
void expectReachable(const std::string& text, const std::string& model, bool reachable) {
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
        CheckResult r = runMachine(text, model, kind);
        EXPECT_EQ(r.positive > 0, reachable) << machineName(kind) << " under " << model << "\n" << text;
    }
}

const char* const kFig2h = R"(RDMA T2h
{ x@1 = 1; y@2 = 0; z@2 = 0; }
P0@1 { x := y^2; z^2 := x; }
exists (z = 1))";

const char* const kFig2i = R"(RDMA T2i
{ x@1 = 1; y@2 = 0; z@2 = 0; }
P0@1 { x := y^2; rfence(2); z^2 := x; }
exists (z = 1))";

const char* const kFig3e = R"(RDMA T5
{ y@1 = 0; w@1 = 0; x@2 = 0; z@2 = 0; }
P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y; }
P1@2 { y^1 := 1; d := w^1; poll(1); poll(1); b := x; }
exists (a = 0 /\ b = 0))";

}  // namespace

// §9 T1: a put's local read may see a later CPU write (Fig. 2b); not after a poll (Fig. 2c).
TEST(Machine, TraceT1PutThenWrite) {
    expectReachable("RDMA T1\n{ x@1 = 0; z@2 = 0; } P0@1 { z^2 := x; x := 1; } exists (z = 1)", "rdma-tso", true);
    expectReachable("RDMA T1c\n{ x@1 = 0; z@2 = 0; } P0@1 { z^2 := x; poll(2); x := 1; } exists (z = 1)", "rdma-tso",
                    false);
}

// §9 T2: the put overtakes the get (2h); an rfence stops it, with or without PCIe (2i).
TEST(Machine, TraceT2RFence) {
    expectReachable(kFig2h, "rdma-tso", true);
    expectReachable(kFig2i, "rdma-tso", false);
    expectReachable(kFig2i, "rdma-tso-nopcie", false);
}

// §9 T3: load buffering through gets, forbidden once each get is polled.
TEST(Machine, TraceT3LoadBuffering) {
    expectReachable(R"(RDMA T3
{ x@1 = 0; y@2 = 0; }
        P0@1 { a := y^2; x := 1; } P1@2 { b := x^1; y := 1; } exists (a = 1 /\ b = 1))",
                    "rdma-tso", true);
    expectReachable(R"(RDMA T3c
{ x@1 = 0; y@2 = 0; }
        P0@1 { a := y^2; poll(2); x := 1; } P1@2 { b := x^1; poll(1); y := 1; } exists (a = 1 /\ b = 1))",
                    "rdma-tso", false);
}

// §9 T4 and T5: polled puts do not forbid SB; a polled get after them does, but only with PCIe.
TEST(Machine, TraceT4T5StoreBuffering) {
    expectReachable(R"(RDMA T4
{ y@1 = 0; x@2 = 0; }
        P0@1 { x^2 := 1; poll(2); a := y; } P1@2 { y^1 := 1; poll(1); b := x; } exists (a = 0 /\ b = 0))",
                    "rdma-tso", true);
    expectReachable(kFig3e, "rdma-tso", false);
    expectReachable(kFig3e, "rdma-tso-nopcie", true);
}

// §3: a get's pending local write (GETV in wbL) is invisible to CPU reads;
// §4.2: polling the get guarantees the write has reached memory.
TEST(Machine, GetWriteIsVisibleOnlyOnceWrittenBack) {
    expectReachable("RDMA G\n{ y@2 = 1; a@1 = 0; } P0@1 { a := y^2; b := a; } exists (b = 0)", "rdma-tso", true);
    expectReachable("RDMA G\n{ y@2 = 1; a@1 = 0; } P0@1 { a := y^2; poll(2); b := a; } exists (b = 0)", "rdma-tso",
                    false);
}

// §4 G3: a remote read may happen for any GET in outR, so two gets read out of order.
TEST(Machine, GetsToOneNodeMayReadOutOfOrder) {
    expectReachable(R"(RDMA GG
{ y@2 = 0; x@2 = 0; }
        P0@1 { a := x^2; b := y^2; } P1@2 { y := 1; x := 1; } exists (a = 1 /\ b = 0))",
                    "rdma-tso", true);
}

// §7: unpolled completion notifications may stay in wbL in a final state. The
// get reads the put's value: it reaches outR only after the put's P2, and with
// or without PCIe (G3 / G3') it then sees the pending or written value.
TEST(Machine, UnpolledCompletionsAreAllowedAtTheEnd) {
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
        for (const char* model : {"rdma-tso", "rdma-tso-nopcie"}) {
            CheckResult r = runMachine("RDMA U\n{ x@2 = 0; } P0@1 { x^2 := 1; a := x^2; } exists (x = 1 /\\ a = 0)",
                                       model, kind);
            EXPECT_EQ(lines(r), (std::set<std::string>{"[a]=1; [x]=1;"})) << machineName(kind) << " " << model;
        }
    }
}

// §7: a run whose assume never holds yields no final state.
TEST(Machine, FailedAssumeYieldsNoFinalState) {
    CheckResult r = runMachine("RDMA A\n{ x@1 = 0; } P0@1 { assume(x = 1); } exists (x = 0)", "rdma-tso",
                               MachineKind::Concrete);
    EXPECT_TRUE(r.states.empty());
    EXPECT_FALSE(r.ok);
}

// §2: the locations of an expression are read in any order. With y := 1; z := 1
// on the same node, e = 2*y + z = 1 needs y read as 0 and z as 1: only the
// y-first order reaches it, since TSO keeps z's write behind y's.
TEST(Machine, ExpressionReadsInEveryOrder) {
    CheckResult r = runMachine(R"(RDMA E
{ y@1 = 0; z@1 = 0; }
        P0@1 { y := 1; z := 1; } P1@1 { e := 2 * y + z; } exists (e = 1))",
                               "rdma-tso", MachineKind::Simplified);
    EXPECT_TRUE(r.ok);
    CheckResult d = run(R"(RDMA E
{ y@1 = 0; z@1 = 0; }
        P0@1 { y := 1; z := 1; } P1@1 { e := 2 * y + z; } exists (e = 1))",
                        "rdma-tso");
    EXPECT_EQ(lines(r), lines(d));
}

// A CPU CAS needs an empty store buffer and acts on memory: exactly one of two CASes wins.
TEST(Machine, CasesOnOneLocation) {
    const char* text = R"(RDMA C
{ x@1 = 0; }
        P0@1 { r := CAS(x, 0, 1); } P1@1 { s := CAS(x, 0, 2); } exists (x = 1 /\ r = 0 /\ s = 1))";
    CheckResult r = runMachine(text, "rdma-tso", MachineKind::Concrete);
    EXPECT_EQ(lines(r), (std::set<std::string>{"[r]=0; [s]=1; [x]=1;", "[r]=2; [s]=0; [x]=2;"}));
    EXPECT_EQ(lines(r), lines(run(text, "rdma-tso")));
}

// Loops count iterations as the unfolding does, and report a cut bound the same way.
TEST(Machine, LoopBoundMatchesTheDeclarativeEngine) {
    const char* text = R"(RDMA L
{ x@1 = 0; f@1 = 0; }
        P0@1 { while (x != 1) { f := f + 1; } } P1@1 { x := 1; } exists (f = 0))";
    for (int unroll : {0, 1, 3}) {
        CheckResult m = runMachine(text, "rdma-tso", MachineKind::Concrete, unroll);
        CheckResult d = run(text, "rdma-tso", unroll);
        EXPECT_EQ(lines(m), lines(d)) << "unroll " << unroll;
        ASSERT_EQ(m.cutLoops.size(), 1u);
        ASSERT_EQ(d.cutLoops.size(), 1u);
        EXPECT_EQ(m.cutLoops[0].line, d.cutLoops[0].line);
        EXPECT_EQ(m.cutLoops[0].column, d.cutLoops[0].column);
    }
}

TEST(Machine, StateBoundStopsWithAPositionedError) {
    try {
        MachineOptions options;
        options.maxStates = 10;
        explore(parseLitmus(kFig3e, "big.litmus"), loadModel(modelsDir(), "rdma-tso"), options);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "big.litmus:1:1: error: more than 10 machine states; raise --max-states or use the declarative "
                  "engine");
    }
}

TEST(Machine, ModelWithoutMachineIsRejected) {
    const std::string dir = std::filesystem::temp_directory_path() / "rdmacheck-no-machine";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/axioms.json")
        << R"({"name": "axioms", "tables": {}, "clocks": [{"name": "c", "edges": ["po", "rf", "rb", "mo"]}],
              "mo-clock": "c"})";
    try {
        explore(parseLitmus(kFig2h, "t.litmus"), loadModel(dir, "axioms"), MachineOptions{});
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.detail(), "model 'axioms' has no operational machine; use the declarative engine");
    }
}

// The reduction (rules.hpp) must not change what is reachable; and the
// sequential machine must reach exactly the SC executions' final states.
TEST(Machine, ReductionAndSequentialMachineOnTheCorpus) {
    const Model sc = loadModel(modelsDir(), "sc");
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso")) {
        if (entry.path().extension() != ".litmus") continue;
        SCOPED_TRACE(entry.path().filename().string());
        const LitmusTest test = parseLitmusFile(entry.path().string());
        for (const char* model : {"rdma-tso", "rdma-tso-nopcie"}) {
            const Model m = loadModel(modelsDir(), model);
            for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
                MachineOptions reduced, full;
                reduced.kind = full.kind = kind;
                full.reduce = false;
                CheckResult a = explore(test, m, reduced), b = explore(test, m, full);
                EXPECT_EQ(lines(a), lines(b)) << model << " " << machineName(kind);
                EXPECT_LE(a.machineStates, b.machineStates);
            }
        }
        EXPECT_EQ(lines(explore(test, sc, MachineOptions{})), lines(check(test, sc, CheckOptions{})));
    }
}
