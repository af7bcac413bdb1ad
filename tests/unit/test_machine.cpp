// The operational machines (RDMA^TSO paper §3, RMW App. D.1): the worked traces (doc/model-notes.md §N19), rules
// whose effect a test can see, loops, limits, and agreement of the reduced
// exploration with the full one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
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
    for (const auto& [state, satisfies] : r.states) out.insert(stateLine(r.shown, state, {}));  // RDMA tests: numbers only
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

// Remote RMWs run on the simplified machine of rdma-tso-rmw only (§6).
CheckResult runRmw(const std::string& text, bool reduce = true) {
    return runMachine(text, "rdma-tso-rmw", MachineKind::Simplified, 2, reduce);
}

const char* const kFig6c = R"(RDMA T6c
{ x@3 = 0; a@1; b@2; }
P0@1 { RCAS(a, x^3, 0, 2) }
P1@2 { RFAA(b, x^3, 1) }
exists (x = 2))";

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
    const TempDir tmp("no-machine");
    const std::string dir = tmp.path();
    std::ofstream(dir + "/axioms.cat") << "acyclic po | rf | rb | mo as c\n";
    try {
        explore(parseLitmus(kFig2h, "t.litmus"), loadModel(dir, "axioms"), MachineOptions{});
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.detail(), "no operational machine implements model 'axioms' (machines implement: rdma-tso, "
                              "rdma-tso-nopcie, rdma-tso-rmw, tso, sc); use the declarative engine");
    }
}

// The reduced search (dpor.cpp) must reach what every interleaving reaches;
// and the sequential machine exactly the SC executions' final states.
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
                EXPECT_GT(a.machineRuns, 0u);
            }
        }
        EXPECT_EQ(lines(explore(test, sc, MachineOptions{})), lines(check(test, sc, CheckOptions{})));
    }
}

// On one queue pair, a get reads its put's value only once the put left the
// pipe and wbR (S-GRR's premises): the corpus's rdma-tso tests need no such
// order on the simplified machine.
const char* const kPutGetPutGet = R"(RDMA put-get-put-get
{ x@1 = 0; a@2 = 0; b@2 = 0; }
P0@2 { x^1 := 2; a := x^1; x^1 := 1; b := x^1; }
exists (a = 2))";

// A random test (rdmacheck generate --seed 7013 --threads 3) where the
// simplified machine's PCIe premises order steps no memory conflict orders.
const char* const kPremiseRace = R"(RDMA random-7013
{ x@1 = 0; y@2 = 0; r0_0@1 = 0; r0_1@1 = 0; r0_2@1 = 0; r1_0@2 = 0; }
P0@1 { r0_0 := x; x := 1; r0_1 := x; r0_2 := y^2; }
P1@2 { rfence(2); rfence(2); r1_0 := x^1; x^1 := r1_0; }
P2@1 { rfence(2); x := 2; }
exists (r1_0 = 1 /\ x = 0))";

// A wrongly declared independence loses final memories, and comparing the
// reduced search with every interleaving on the corpus catches it: each
// mutant misses some outcome of some test, on both machines.
TEST(Machine, ComparingWithEveryInterleavingCatchesAWrongIndependence) {
    const Model m = loadModel(modelsDir(), "rdma-tso");
    std::vector<LitmusTest> tests = {parseLitmus(kPutGetPutGet, "t.litmus"), parseLitmus(kPremiseRace, "t.litmus")};
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso"))
        if (entry.path().extension() == ".litmus") tests.push_back(parseLitmusFile(entry.path().string()));
    const IndependenceMutant mutants[] = {IndependenceMutant::NicReadsCommute, IndependenceMutant::CpuReadsCommute,
                                          IndependenceMutant::PremisesCommute};
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified}) {
        std::map<IndependenceMutant, int> caught;
        for (const LitmusTest& test : tests) {
            MachineOptions full;
            full.kind = kind;
            full.reduce = false;
            const std::set<std::string> all = lines(explore(test, m, full));
            for (IndependenceMutant mutant : mutants) {
                MachineOptions wrong;
                wrong.kind = kind;
                wrong.mutant = mutant;
                const std::set<std::string> reached = lines(explore(test, m, wrong));
                EXPECT_TRUE(std::includes(all.begin(), all.end(), reached.begin(), reached.end()));
                caught[mutant] += reached != all;
            }
        }
        for (IndependenceMutant mutant : mutants)
            EXPECT_GT(caught[mutant], 0) << "mutant " << static_cast<int>(mutant) << " on the " << machineName(kind) << " machine";
    }
}

// §9 T6: an RMW's lock holds off other remote RMWs towards the node only, not
// CPU writes (6a) or puts (6b); RCAS against RFAA ends at 1 or 3, never 2 (6c).
TEST(Machine, TraceT6RemoteAtomicLock) {
    EXPECT_TRUE(runRmw("RDMA T6a\n{ x@2 = 0; a@1; } P0@1 { RCAS(a, x^2, 0, 2) } P1@2 { x := 1 } exists (x = 2)").ok);
    EXPECT_TRUE(
        runRmw("RDMA T6b\n{ x@3 = 0; a@1; } P0@1 { RCAS(a, x^3, 0, 2) } P1@2 { x^3 := 1 } exists (x = 2)").ok);
    const CheckResult r = runRmw(kFig6c);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(lines(r), (std::set<std::string>{"[x]=1;", "[x]=3;"}));
}

// §9 T7: an RMW's read cannot be overtaken by a later put's remote write (7b),
// a get's can (7a); polling an RMW waits for its local write only (7c).
TEST(Machine, TraceT7RmwOrdering) {
    EXPECT_FALSE(runRmw(R"(RDMA T7b
{ x@2 = 0; y@2 = 0; a@1; b@2; }
P0@1 { RCAS(a, x^2, 8, 9); y^2 := 1 } P1@2 { b := y; x := 1 } exists (a = 1 /\ b = 1))")
                     .ok);
    EXPECT_TRUE(runRmw(R"(RDMA T7a
{ x@2 = 0; y@2 = 0; a@1; b@2; }
P0@1 { a := x^2; y^2 := 1 } P1@2 { b := y; x := 1 } exists (a = 1 /\ b = 1))")
                    .ok);
    EXPECT_TRUE(runRmw(R"(RDMA T7c
{ y@1 = 0; x@2 = 0; a@1; b@2; }
P0@1 { RFAA(_, x^2, 1); poll(2); a := y } P1@2 { RFAA(_, y^1, 1); poll(1); b := x }
exists (a = 0 /\ b = 0))")
                    .ok);
}

// R-CASF: a failed RCAS returns the old value and writes nothing.
TEST(Machine, FailedRcasLeavesMemoryUnchanged) {
    const CheckResult r = runRmw("RDMA F\n{ x@2 = 5; a@1; } P0@1 { a := RCAS(x^2, 0, 7) } exists (x = 5)");
    EXPECT_EQ(lines(r), (std::set<std::string>{"[x]=5;"}));
    EXPECT_EQ(r.negative, 0);
}

// R-FAA and R-AWB: two RFAAs never both read 0, whichever nodes they come from,
// and a loopback RFAA takes the same lock as a remote one (§0, §6).
TEST(Machine, RfaasOnOneLocationAreAtomic) {
    for (const char* text : {R"(RDMA FAA
{ x@3 = 0; a@1; b@2; }
P0@1 { RFAA(a, x^3, 1) } P1@2 { RFAA(b, x^3, 1) } forall (x = 2 /\ (a = 0 /\ b = 1 \/ a = 1 /\ b = 0)))",
                             R"(RDMA FAA-loopback
{ x@1 = 0; a@1; b@2; }
P0@1 { RFAA(a, x^1, 1) } P1@2 { RFAA(b, x^1, 1) } forall (x = 2 /\ (a = 0 /\ b = 1 \/ a = 1 /\ b = 0)))"}) {
        const CheckResult r = runRmw(text);
        EXPECT_TRUE(r.ok) << text;
        EXPECT_EQ(r.positive, 2) << text;
        EXPECT_EQ(r.negative, 0) << text;
    }
}

// §6 defines remote RMWs on the simplified PCIe machine only; without
// --machine, a model with remote atomics picks it.
TEST(Machine, RmwsNeedTheSimplifiedMachineOfRdmaTsoRmw) {
    const LitmusTest test = parseLitmus(kFig6c, "t.litmus");
    try {
        MachineOptions options;
        options.kind = MachineKind::Concrete;
        explore(test, loadModel(modelsDir(), "rdma-tso-rmw"), options);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "t.litmus:3:8: error: the concrete machine has no remote RMW rules (RMW App. D.1); use "
                  "--machine simplified");
    }
    for (const char* model : {"rdma-tso", "tso", "sc"}) {
        try {
            explore(test, loadModel(modelsDir(), model), MachineOptions{});
            FAIL() << "no error under " << model;
        } catch (const InputError& e) {
            EXPECT_EQ(e.where().line, 3) << model;
        }
    }
    // A variant of rdma-tso-rmw is not what the simplified machine implements.
    try {
        explore(test, loadModel(modelsDir(), "rdma-tso-rmw", ModelOptions{{"ib"}}), MachineOptions{});
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(e.detail().find("differs from the rdma-tso-rmw the operational machine implements"),
                  std::string::npos);
    }
    EXPECT_EQ(explore(test, loadModel(modelsDir(), "rdma-tso-rmw"), MachineOptions{}).engine, "simplified");
    EXPECT_EQ(explore(parseLitmus(kFig2h, "t.litmus"), loadModel(modelsDir(), "rdma-tso"), MachineOptions{}).engine,
              "concrete");
}

// The machine, with and without reduction, and the declarative engine reach the
// same final memories, every location shown, on tests that mix RMWs with gets,
// puts, polls, fences and each other.
TEST(Machine, RmwsAgreeWithTheDeclarativeEngine) {
    const Model model = loadModel(modelsDir(), "rdma-tso-rmw");
    const char* const tests[] = {
        kFig6c,
        R"(RDMA two-rmws-one-thread
{ x@2 = 0; y@2 = 0; a@1; b@1; c@2; }
P0@1 { a := RCAS(x^2, 0, 1); b := RFAA(y^2, 2) } P1@2 { c := y; x := 3 } exists (a = 3 /\ b = 0))",
        R"(RDMA rmw-get-put-poll
{ x@2 = 0; y@2 = 0; z@1 = 0; a@1; b@1; c@2; }
P0@1 { a := y^2; RFAA(b, x^2, 1); poll(2); z := 1; y^2 := z }
P1@2 { RCAS(c, x^2, 0, 5); y := 2 } exists (a = 2 /\ c = 0))",
        R"(RDMA rmw-rfence-loopback
{ x@1 = 0; y@2 = 0; a@1; b@2; }
P0@1 { RFAA(a, x^1, 2); rfence(1); y^2 := 1 } P1@2 { b := RCAS(x^1, 2, 7); x^1 := y } exists (b = 2))",
        R"(RDMA put-read-overtakes-rmw
{ x@2 = 0; y@2 = 0; w@1 = 0; a@1; }
P0@1 { RFAA(a, x^2, 1); y^2 := w } P1@1 { w := 1; x^2 := 1 } exists (a = 1 /\ y = 0))",
    };
    for (const char* text : tests) {
        LitmusTest test = parseLitmus(text, "t.litmus");
        test.shown = everyName(test);
        SCOPED_TRACE(test.name);
        for (bool reduce : {true, false}) {
            MachineOptions options;
            options.reduce = reduce;
            EXPECT_EQ(lines(explore(test, model, options)), lines(check(test, model, CheckOptions{})))
                << (reduce ? "reduced" : "full");
        }
    }
}

// A run the bound cut marks the verdict (herd7's Loop) only when the filter
// keeps it, on both machines and the declarative engine alike, as herd7 marks
// it (litmus/x86/x86-loop-filter.litmus: the cut runs read x=0 throughout).
TEST(Machine, CutRunsTheFilterDropsMarkNothing) {
    const std::string spin = "X86 t\n{ x=0; }\n P0 | P1 ;\n L0: | MOV [x],$1 ;\n MOV EAX,[x] | ;\n CMP EAX,$0 | ;\n"
                             " JE L0 | ;\n";
    const Model tso = loadModel(rdmacheck::testing::modelsDir(), "tso");
    for (const bool filtered : {true, false}) {
        const LitmusTest test =
            parseLitmus(spin + (filtered ? "filter (0:EAX=1)\n" : "") + "exists (0:EAX=1)\n", "spin.litmus");
        SCOPED_TRACE(filtered ? "filtered" : "unfiltered");
        EXPECT_EQ(check(test, tso, CheckOptions{}).cutLoops.empty(), filtered);
        for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified})
            for (const bool reduce : {true, false}) {
                MachineOptions options;
                options.kind = kind;
                options.reduce = reduce;
                EXPECT_EQ(explore(test, tso, options).cutLoops.empty(), filtered) << machineName(kind) << reduce;
            }
    }
}

// An X86 instruction every path jumps over may name a location nothing else
// names: the machines compile it all the same (found by fuzz_litmus).
TEST(Machine, CodeNoPathReachesMayNameItsOwnLocation) {
    const std::string text = "X86 dead\n{ x=0; }\n P0 ;\n JMP L0 ;\n MOV EAX,[unreached] ;\n L0: ;\n"
                             " MOV [x],$1 ;\nexists (x=1)\n";
    const CheckResult r = runMachine(text, "tso", MachineKind::Concrete);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.states.size(), 1u);
}
