// Recorded runs of the machines (explore with a visitor: what --dot draws on the
// operational engine). Each distinct final memory gets one run; each run is a
// well-formed execution of one of unfold()'s path combinations, event for event, is
// consistent under the declarative model (no cycle among its clock edges), and
// ends in the final state the machine reports. Recording leaves the search
// alone: same states, same counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "../test_support.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/explain.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/relations.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

struct RecordedExecution {
    ExecutionGraph graph;
    FinalState state;
};

struct Recording {
    CheckResult result;
    std::vector<Location> locations;
    std::vector<RecordedExecution> runs;
};

Recording record(const LitmusTest& test, const Model& model, const MachineOptions& options) {
    Recording r;
    r.result = explore(test, model, options,
                       [&](const UnfoldedProgram& program, const ExecutionGraph& ex,
                           const FinalState& state, bool) {
                           r.locations = program.locations;
                           r.runs.push_back({ex, state});
                       });
    return r;
}

// Initial writes first, one per location in order, then each thread's events
// in program order; a call starts at an earlier event of its thread.
void expectNumbering(const ExecutionGraph& sk, size_t locations) {
    ASSERT_GE(sk.events.size(), locations);
    for (size_t l = 0; l < locations; ++l) {
        EXPECT_TRUE(isInitEvent(sk.events[l]));
        EXPECT_EQ(sk.events[l].kind, EventKind::LW);
        EXPECT_EQ(sk.events[l].location, static_cast<int>(l));
    }
    int next = static_cast<int>(locations);
    for (size_t t = 0; t < sk.threadEvents.size(); ++t) {
        const std::vector<int>& events = sk.threadEvents[t];
        for (size_t i = 0; i < events.size(); ++i) {
            EXPECT_EQ(events[i], next++);
            const Event& e = sk.events[events[i]];
            EXPECT_EQ(e.thread, static_cast<int>(t));
            ASSERT_GE(e.call, 0);
            ASSERT_LE(e.call, static_cast<int>(i));
            EXPECT_EQ(sk.events[events[e.call]].call, e.call) << eventName(sk, events[i]);
        }
    }
    EXPECT_EQ(next, static_cast<int>(sk.events.size()));
}

// Every read reads a write of its location, which wrote the value read; mo
// lists each location's writes once, its initial write first.
void expectWellFormed(const ExecutionGraph& ex) {
    ASSERT_EQ(ex.rf.size(), ex.events.size());
    for (size_t r = 0; r < ex.events.size(); ++r) {
        const Event& e = ex.events[r];
        ASSERT_EQ(ex.rf[r] >= 0, isRead(e.kind)) << eventName(ex, static_cast<int>(r));
        if (ex.rf[r] < 0) continue;
        const Event& w = ex.events[ex.rf[r]];
        EXPECT_TRUE(isWrite(w.kind)) << eventName(ex, static_cast<int>(r));
        EXPECT_EQ(w.location, e.location) << eventName(ex, static_cast<int>(r));
        EXPECT_EQ(w.written.eval(ex.readValues), ex.readValues[r]) << eventName(ex, static_cast<int>(r));
    }
    for (size_t l = 0; l < ex.mo.size(); ++l) {
        std::vector<int> writes;
        for (size_t e = 0; e < ex.events.size(); ++e)
            if (isWrite(ex.events[e].kind) && ex.events[e].location == static_cast<int>(l))
                writes.push_back(static_cast<int>(e));
        ASSERT_FALSE(ex.mo[l].empty());
        EXPECT_EQ(ex.mo[l].front(), ex.initWriteOf(static_cast<int>(l)));
        std::vector<int> order = ex.mo[l];
        std::sort(order.begin(), order.end());
        EXPECT_EQ(order, writes) << "mo of location " << l;
    }
}

// nfo directs each same-queue-pair pair once, each group order (rao: each
// node's remote atomic reads) orders its groups, when the model has them;
// otherwise they are empty.
void expectChoices(const ExecutionGraph& ex, const Model& model) {
    std::set<std::pair<int, int>> pairs, chosen;
    for (const auto& events : ex.threadEvents)
        for (size_t i = 0; i < events.size(); ++i)
            for (size_t j = i + 1; j < events.size(); ++j)
                if (model.uses("nfo") && isNfoPair(ex.events[events[i]], ex.events[events[j]]))
                    pairs.emplace(events[i], events[j]);
    for (auto [a, b] : ex.nfo) chosen.emplace(std::min(a, b), std::max(a, b));
    EXPECT_EQ(chosen, pairs);
    EXPECT_EQ(chosen.size(), ex.nfo.size());
    for (const ChosenRelation& c : chosenRelations()) {
        if (c.kind != ChoiceKind::GroupOrder) continue;
        const EventGroups groups = model.uses(c.name) ? c.groups(ex) : EventGroups{};
        EventGroups ordered = ex.orderOf(c.name);
        for (auto& [group, order] : ordered) std::sort(order.begin(), order.end());
        EXPECT_EQ(ordered, groups) << c.name;
    }
}

// A path of unfold() has the same events as a recorded thread.
bool sameEvents(const ThreadPath& path, const ExecutionGraph& sk, const std::vector<int>& events) {
    if (path.events.size() != events.size()) return false;
    for (size_t i = 0; i < events.size(); ++i) {
        const Event &a = path.events[i], &b = sk.events[events[i]];
        if (a.kind != b.kind || a.location != b.location || a.remote != b.remote || a.call != b.call) return false;
    }
    return true;
}

// The run's values satisfy the unfolded skeleton u: its symbolic written values,
// path constraints, final registers and polls.
bool satisfies(const ExecutionGraph& u, const ExecutionGraph& ex) {
    const std::vector<long long>& values = ex.readValues;
    for (size_t e = 0; e < u.events.size(); ++e)
        if (isWrite(u.events[e].kind) && u.events[e].written.eval(values) != ex.events[e].written.eval(values))
            return false;
    for (const ValueConstraint& c : u.constraints)
        if (!holds(c.op, c.lhs.eval(values), c.rhs.eval(values))) return false;
    for (size_t t = 0; t < u.registers.size(); ++t)
        for (const auto& [name, value] : u.registers[t])
            if (value.eval(values) != ex.registers[t].at(name).eval(values)) return false;
    return u.pollsFrom == ex.pollsFrom && u.threadEvents == ex.threadEvents;
}

// The recorded skeleton is one that unfold() makes, event for event (the
// declarative engine's numbering), and the run is an execution of it.
void expectUnfoldedSkeleton(const UnfoldedProgram& program, const ExecutionGraph& ex) {
    std::vector<std::vector<size_t>> candidates(program.paths.size());
    for (size_t t = 0; t < program.paths.size(); ++t)
        for (size_t p = 0; p < program.paths[t].size(); ++p)
            if (sameEvents(program.paths[t][p], ex, ex.threadEvents[t])) candidates[t].push_back(p);
    for (const auto& c : candidates) ASSERT_FALSE(c.empty()) << "a recorded thread matches no path of unfold()";
    std::vector<size_t> at(candidates.size(), 0), choice(candidates.size());
    for (;;) {  // every combination of the matching paths
        for (size_t t = 0; t < at.size(); ++t) choice[t] = candidates[t][at[t]];
        if (satisfies(program.skeleton(choice), ex)) return;
        size_t t = 0;
        while (t < at.size() && ++at[t] == candidates[t].size()) at[t++] = 0;
        ASSERT_LT(t, at.size()) << "the run's values satisfy no skeleton of unfold()";
    }
}

std::string cycleMessage(const ExecutionGraph& sk, const std::vector<Location>& locations, const std::optional<Cycle>& c) {
    return c ? c->axiom + ": " + cycleText(sk, locations, *c) : "";
}

// Records the runs and checks everything this file is about; returns how many runs.
size_t expectRecordedRuns(const LitmusTest& test, const Model& model, const MachineOptions& options) {
    SCOPED_TRACE(test.name + " under " + model.name);
    const Recording rec = record(test, model, options);
    const CheckResult plain = explore(test, model, options);
    EXPECT_EQ(rec.result.states, plain.states);
    EXPECT_EQ(rec.result.positive, plain.positive);
    EXPECT_EQ(rec.result.negative, plain.negative);
    EXPECT_EQ(rec.result.machineStates, plain.machineStates);
    EXPECT_EQ(rec.runs.size(), plain.positive + plain.negative);

    UnfoldOptions unfoldOptions;
    unfoldOptions.unroll = options.unroll;
    const UnfoldedProgram program = unfold(test, unfoldOptions);
    std::set<std::vector<long long>> memories;
    for (const RecordedExecution& run : rec.runs) {
        const ExecutionGraph& ex = run.graph;
        expectNumbering(ex, program.locations.size());
        expectWellFormed(ex);
        expectChoices(ex, model);
        expectUnfoldedSkeleton(program, ex);
        const std::optional<Cycle> cycle = shortestViolation(ex, model);
        EXPECT_FALSE(cycle) << cycleMessage(ex, program.locations, cycle);
        FinalState state, memory;
        for (const ObservedName& n : plain.shown) state.push_back(finalValue(test, program, ex, n.name, n.thread));
        EXPECT_EQ(state, run.state);
        for (const ObservedName& n : everyName(test)) memory.push_back(finalValue(test, program, ex, n.name, n.thread));
        memories.insert(memory);
    }
    EXPECT_EQ(memories.size(), rec.runs.size()) << "one run per distinct final memory";
    return rec.runs.size();
}

MachineOptions on(std::optional<MachineKind> kind, bool reduce = true) {
    MachineOptions options;
    options.kind = kind;
    options.reduce = reduce;
    return options;
}

LitmusTest corpus(const std::string& path) { return parseLitmusFile(sourceDir() + "/litmus/" + path); }

void expectOnBothMachines(const LitmusTest& test, const std::string& model, size_t runs) {
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified})
        EXPECT_EQ(expectRecordedRuns(test, loadModel(modelsDir(), model), on(kind)), runs) << machineName(kind);
}

}  // namespace

TEST(RecordedRuns, StoreBuffering) {
    const LitmusTest sb = corpus("rdma-tso/fig1a-sb.litmus");
    expectOnBothMachines(sb, "rdma-tso", 4);
    EXPECT_EQ(expectRecordedRuns(sb, loadModel(modelsDir(), "sc"), MachineOptions{}), 3u);
    EXPECT_EQ(expectRecordedRuns(sb, loadModel(modelsDir(), "tso"), MachineOptions{}), 4u);
}

TEST(RecordedRuns, GetThenPut) {
    const LitmusTest t = corpus("rdma-tso/fig2h-get-then-put-z1.litmus");
    expectOnBothMachines(t, "rdma-tso", 2);
    expectOnBothMachines(t, "rdma-tso-nopcie", 2);
    expectOnBothMachines(corpus("rdma-tso/fig2i-get-rfence-put-z1.litmus"), "rdma-tso", 1);
}

// Polls (pf), and a put whose local read the PCIe premise orders.
TEST(RecordedRuns, PolledGetsAndPuts) {
    const LitmusTest t = corpus("rdma-tso/fig3e-sb-polled-gets.litmus");
    expectOnBothMachines(t, "rdma-tso", 3);
    expectOnBothMachines(t, "rdma-tso-nopcie", 4);
    expectOnBothMachines(corpus("rdma-tso/fig3c-lb-gets-polls.litmus"), "rdma-tso", 3);
}

// Remote RMWs: rao, a failed RCAS (no narW), and a discarded result `_`.
TEST(RecordedRuns, RemoteRmws) {
    const Model rmw = loadModel(modelsDir(), "rdma-tso-rmw");
    for (const char* file : {"fig6c-rcas-vs-rfaa.litmus", "fig7c-rfaa-sb-polled.litmus", "atom-rcas-rcas.litmus",
                             "fig6b-rcas-vs-put.litmus"})
        EXPECT_GT(expectRecordedRuns(corpus(std::string("rdma-tso-rmw/") + file), rmw, on(MachineKind::Simplified)), 0u)
            << file;
}

// CPU CAS (success and failure), a put of a constant, choice, while, assume,
// an expression of two locations, and loops cut at the bound (no run).
TEST(RecordedRuns, ControlFlowCasAndConstants) {
    const LitmusTest t = parseLitmus(R"(RDMA control
{ x@1 = 0; y@1 = 0; z@2 = 0; a@1; b@1; }
P0@1 { a := CAS(x, 0, 2); choice { y := x + a } or { y := 3 }; z^2 := 7; while (x != 1) { b := b + 1 } }
P1@1 { x := 1; assume (y = 0) }
exists (b = 1))", "t.litmus");
    for (const char* model : {"rdma-tso", "rdma-tso-nopcie"}) expectOnBothMachines(t, model, 9);
    EXPECT_GT(expectRecordedRuns(t, loadModel(modelsDir(), "sc"), MachineOptions{}), 0u);
}

TEST(RecordedRuns, WithoutTheReduction) {
    const LitmusTest t = corpus("rdma-tso/fig3e-sb-polled-gets.litmus");
    for (MachineKind kind : {MachineKind::Concrete, MachineKind::Simplified})
        EXPECT_EQ(expectRecordedRuns(t, loadModel(modelsDir(), "rdma-tso"), on(kind, false)), 3u);
}

// X86 registers, XCHG and MFENCE on the tso machine.
TEST(RecordedRuns, X86Registers) {
    const Model tso = loadModel(modelsDir(), "tso");
    for (const char* file : {"2+2W+mfence-rmws.litmus", "SB.litmus", "MP.litmus"}) {
        const std::string path = sharedDir() + "/conformance/x86-tso/tests/" + file;
        if (!std::filesystem::exists(path)) continue;
        EXPECT_GT(expectRecordedRuns(parseLitmusFile(path), tso, MachineOptions{}), 0u) << file;
    }
}

// Every corpus test under every machine that accepts it: the runs are checked,
// and asking for them never fails where the plain search does not.
TEST(RecordedRuns, WholeCorpus) {
    const std::vector<std::pair<std::string, std::optional<MachineKind>>> configs{
        {"rdma-tso", MachineKind::Concrete},        {"rdma-tso", MachineKind::Simplified},
        {"rdma-tso-nopcie", MachineKind::Concrete}, {"rdma-tso-nopcie", MachineKind::Simplified},
        {"rdma-tso-rmw", MachineKind::Simplified},  {"tso", std::nullopt},
        {"sc", std::nullopt}};
    size_t accepted = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(sourceDir() + "/litmus")) {
        if (entry.path().extension() != ".litmus") continue;
        const LitmusTest test = parseLitmusFile(entry.path().string());
        for (const auto& [name, kind] : configs) {
            const Model model = loadModel(modelsDir(), name);
            try {
                explore(test, model, on(kind));
            } catch (const InputError&) {
                continue;  // the machine refuses the test (work identifiers, RMWs, NIC events under tso)
            }
            ++accepted;
            expectRecordedRuns(test, model, on(kind));
        }
    }
    EXPECT_GT(accepted, 150u);
}

// Random tests with control flow and expressions, and random RMW tests.
void expectOnRandomTests(uint64_t seeds, bool everyMachine) {
    GeneratorOptions plain;
    plain.maxLength = 3;
    for (const char* kind : {"if", "choice", "loop", "while", "expr", "assume"}) plain.mix[kind] = 1;
    GeneratorOptions rmw;
    rmw.mix["rcas"] = 2;
    rmw.mix["rfaa"] = 2;
    const Model tso = loadModel(modelsDir(), "rdma-tso"), nopcie = loadModel(modelsDir(), "rdma-tso-nopcie");
    const Model withRmws = loadModel(modelsDir(), "rdma-tso-rmw");
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
        const LitmusTest t = parseLitmus(generateLitmus(seed, plain), "random.litmus");
        expectRecordedRuns(t, tso, on(MachineKind::Concrete));
        expectRecordedRuns(t, nopcie, on(MachineKind::Simplified));
        if (everyMachine) {
            expectRecordedRuns(t, tso, on(MachineKind::Simplified));
            expectRecordedRuns(t, nopcie, on(MachineKind::Concrete));
        }
        expectRecordedRuns(parseLitmus(generateLitmus(seed, rmw), "random.litmus"), withRmws,
                           on(MachineKind::Simplified));
    }
}

TEST(RecordedRuns, RandomTests) { expectOnRandomTests(15, false); }

TEST(RecordedRunsSlow, ManyRandomTests) { expectOnRandomTests(150, true); }

// The 487 x86 tests on the tso and sequential machines.
TEST(RecordedRunsSlow, X86Conformance) {
    const Model tso = loadModel(modelsDir(), "tso"), sc = loadModel(modelsDir(), "sc");
    for (const auto& entry : std::filesystem::directory_iterator(sharedDir() + "/conformance/x86-tso/tests")) {
        const LitmusTest test = parseLitmusFile(entry.path().string());
        expectRecordedRuns(test, tso, MachineOptions{});
        expectRecordedRuns(test, sc, MachineOptions{});
    }
}
