// Explanations of forbidden outcomes and the drawn graphs: every explained cycle
// is a real cycle of the relations it names, consistent executions have none,
// and the cycles are the ones the papers give for their figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <graphviz/cgraph.h>

#include "../test_support.hpp"
#include "rdmacheck/draw.hpp"
#include "rdmacheck/explain.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

// Each corpus with the models its tests are checked under.
const std::vector<std::pair<std::string, std::vector<std::string>>> kCorpora = {
    {"rdma-tso", {"rdma-tso", "rdma-tso-nopcie"}},
    {"rdma-tso-rmw", {"rdma-tso-rmw"}},
};

ExplainResult explainFile(const std::string& path, const std::string& model) {
    return explain(parseLitmusFile(sourceDir() + "/litmus/" + path), loadModel(modelsDir(), model), ExplainOptions{});
}

std::multiset<std::string> relationsOf(const Cycle& c) {
    std::multiset<std::string> r;
    for (const RelationEdge& e : c.edges) r.insert(e.relation);
    return r;
}

// The cycle closes, and each edge is a base edge of its clock in this execution.
void expectRealCycle(const ExecutionGraph& ex, const Model& model, const Cycle& cycle) {
    ASSERT_FALSE(cycle.edges.empty());
    const std::vector<RelationEdge> edges = clockEdges(ex, model);
    std::set<int> clocks;
    for (size_t i = 0; i < cycle.edges.size(); ++i) {
        const RelationEdge& e = cycle.edges[i];
        EXPECT_EQ(e.to, cycle.edges[(i + 1) % cycle.edges.size()].from) << "edge " << i << " does not chain";
        EXPECT_TRUE(std::any_of(edges.begin(), edges.end(), [&](const RelationEdge& b) {
            return b.from == e.from && b.to == e.to && b.relation == e.relation && b.clock == e.clock;
        })) << e.relation << " " << e.from << "->" << e.to << " is not an edge of the execution";
        clocks.insert(e.clock);
    }
    if (clocks.size() == 1) {
        EXPECT_EQ(cycle.axiom, model.plan.clocks[*clocks.begin()].axiom);
    } else {
        EXPECT_EQ(cycle.axiom, model.plan.mixedAxiom);
    }
}

}  // namespace

// Slow tier (suite name ending in Slow, tests/CMakeLists.txt).
TEST(ExplainSlow, EveryForbiddenCorpusOutcomeHasRealCycles) {
    int explained = 0;
    for (const auto& [corpus, models] : kCorpora)
    for (const std::string& file : litmusFiles(sourceDir() + "/litmus/" + corpus)) {
        for (const std::string& name : models) {
            SCOPED_TRACE(file + " under " + name);
            const Model model = loadModel(modelsDir(), name);
            const LitmusTest test = parseLitmusFile(file);
            const ExplainResult x = explain(test, model, ExplainOptions{});
            const CheckResult r = check(test, model, CheckOptions{});
            // forall: the outcome explained is the condition's negation.
            const bool reachable = test.quantifier == Quantifier::Forall ? r.negative > 0 : r.positive > 0;
            EXPECT_EQ(x.applicable, !reachable);
            if (!x.applicable) continue;
            EXPECT_GE(x.candidates, 1u);
            ASSERT_FALSE(x.shown.empty());
            for (const Explanation& e : x.shown) {
                ASSERT_EQ(e.executions.size(), e.cycles.size());
                for (size_t i = 0; i < e.cycles.size(); ++i) expectRealCycle(e.executions[i], model, e.cycles[i]);
            }
            ++explained;
        }
    }
    EXPECT_GE(explained, 18);
}

// The concrete relations and the cycle search agree with the Z3 encoding: no
// consistent execution has a cycle.
TEST(Explain, ConsistentExecutionsHaveNoCycle) {
    for (const auto& [corpus, models] : kCorpora)
    for (const std::string& file : litmusFiles(sourceDir() + "/litmus/" + corpus)) {
        for (const std::string& name : corpus == "rdma-tso" ? std::vector<std::string>{"rdma-tso", "rdma-tso-nopcie", "sc"} : models) {
            SCOPED_TRACE(file + " under " + name);
            const Model model = loadModel(modelsDir(), name);
            check(parseLitmusFile(file), model, CheckOptions{},
                  [&](const UnfoldedProgram&, const ExecutionGraph& ex, const FinalState&, bool) {
                      EXPECT_FALSE(shortestViolation(ex, model).has_value());
                  });
        }
    }
}

// Fig. 3c: load buffering with polls; the paper's argument is the ib cycle
// nrR ->ippo nlW ->pf P ->ippo lW ->rf nrR ... on both sides.
TEST(Explain, Fig3cIsTheLoadBufferingCycleThroughPolls) {
    const ExplainResult x = explainFile("rdma-tso/fig3c-lb-gets-polls.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    ASSERT_EQ(x.shown[0].cycles.size(), 1u);
    const Cycle& c = x.shown[0].cycles[0];
    EXPECT_EQ(c.axiom, "ib");
    EXPECT_EQ(relationsOf(c), (std::multiset<std::string>{"ippo", "ippo", "ippo", "ippo", "pf", "pf", "rf", "rf"}));
    EXPECT_EQ(cycleText(x.shown[0].executions[0], x.locations, c),
              "a:nrR y →ippo b:nlW a →pf c:P →ippo d:lW x →rf e:nrR x →ippo f:nlW b →pf g:P →ippo h:lW y →rf a");
}

// Fig. 2i: whichever way nfo orders the queue pair's events, a cycle remains.
TEST(Explain, Fig2iNeedsACycleForEachNfoChoice) {
    const ExplainResult x = explainFile("rdma-tso/fig2i-get-rfence-put-z1.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    EXPECT_EQ(x.shown[0].cycles.size(), 4u);  // two same-queue-pair pairs
}

// Fig. 3e: with PCIe the polled gets close a cycle through both queue pairs;
// without PCIe the outcome is allowed and there is nothing to explain.
TEST(Explain, Fig3eMixesIssueAndObservation) {
    const ExplainResult x = explainFile("rdma-tso/fig3e-sb-polled-gets.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    EXPECT_EQ(x.shown[0].cycles[0].axiom, "inst-ib-ob");
    EXPECT_FALSE(explainFile("rdma-tso/fig3e-sb-polled-gets.litmus", "rdma-tso-nopcie").applicable);
}

// Under RDMA^TSO_RMW a cycle through both clocks is an ob cycle (Def. 20: [Inst];ib ⊆ ob).
TEST(Explain, Fig3eUnderTheRmwModelBreaksOb) {
    const ExplainResult x = explainFile("rdma-tso/fig3e-sb-polled-gets.litmus", "rdma-tso-rmw");
    ASSERT_EQ(x.shown.size(), 1u);
    EXPECT_EQ(x.shown[0].cycles[0].axiom, "ob");
}

// Fig. 6c: whichever RMW rao puts first, its narW is ob-before the other's read
// (ar;rao), which read the initial value and so is rb-before that narW.
TEST(Explain, Fig6cNeedsACycleForEachRaoOrder) {
    const ExplainResult x = explainFile("rdma-tso-rmw/fig6c-rcas-vs-rfaa.litmus", "rdma-tso-rmw");
    bool perRao = false;
    for (const Explanation& e : x.shown) {
        if (e.cycles.size() != 2) continue;
        perRao = true;
        for (size_t i = 0; i < 2; ++i) {
            EXPECT_EQ(e.cycles[i].axiom, "ob");
            EXPECT_EQ(relationsOf(e.cycles[i]), (std::multiset<std::string>{"rb", "ar;rao"}));
        }
        EXPECT_NE(e.executions[0].orderOf("rao"), e.executions[1].orderOf("rao"));
    }
    EXPECT_TRUE(perRao);
}

// Fig. 7b: the RMW's read is issued before the later put (ippo narR→nrW is sqp),
// unlike a get's (Fig. 7a, allowed).
TEST(Explain, Fig7bIsAnIssueCycleThroughTheRmwRead) {
    const ExplainResult x = explainFile("rdma-tso-rmw/fig7b-rcas-lb.litmus", "rdma-tso-rmw");
    ASSERT_EQ(x.shown.size(), 1u);
    ASSERT_EQ(x.shown[0].cycles.size(), 1u);
    EXPECT_EQ(cycleText(x.shown[0].executions[0], x.locations, x.shown[0].cycles[0]),
              "a:narR x →ippo d:nrW y →rf e:lR y →ippo g:lW x →rf a");
    EXPECT_FALSE(explainFile("rdma-tso-rmw/fig7a-get-lb.litmus", "rdma-tso-rmw").applicable);
}

// A drawn RMW execution shows its events and rao, which orders the two reads.
TEST(Explain, DrawnRmwExecutionShowsRao) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso-rmw/atom-rfaa-rfaa.litmus");
    const Model model = loadModel(modelsDir(), "rdma-tso-rmw");
    int drawn = 0;
    check(test, model, CheckOptions{},
          [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
              const Picture g =
                  drawExecution(test, program.locations, ex, model, defaultDrawnRelations(model), "g", "caption");
              int rao = 0, labels = 0;
              for (const PictureEdge& e : g.edges) rao += e.relation == "rao";
              for (const PictureEvent& e : g.events)
                  labels += e.label.find("narR x") != std::string::npos || e.label.find("narW x") != std::string::npos;
              EXPECT_EQ(rao, 1);
              EXPECT_EQ(labels, 4);
              ++drawn;
          });
    EXPECT_GE(drawn, 2);
}

// The drawn graph, read back with cgraph: every non-constant event is a node and
// the cycle's edges are the highlighted ones.
TEST(Explain, DrawnCandidateReadsBackWithItsCycle) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3c-lb-gets-polls.litmus");
    const Model model = loadModel(modelsDir(), "rdma-tso");
    const ExplainResult x = explain(test, model, ExplainOptions{});
    ASSERT_EQ(x.shown.size(), 1u);
    const Explanation& e = x.shown[0];
    const Picture g = drawExecution(test, x.locations, e.executions[0], model,
                                           defaultDrawnRelations(model), "fig3c", "caption", &e.cycles[0]);
    const std::string dot = toDot(g);
    Agraph_t* read = agmemread(dot.c_str());
    ASSERT_NE(read, nullptr);
    // Every event but the initial writes the cycle does not use (herd7 leaves
    // initial writes out unless -showinitwrites).
    int events = 0, expectedEvents = 0;
    for (size_t i = 0; i < e.executions[0].events.size(); ++i) {
        const bool init = isInitEvent(e.executions[0].events[i]);
        bool onCycle = false;
        for (const RelationEdge& edge : e.cycles[0].edges)
            onCycle = onCycle || edge.from == static_cast<int>(i) || edge.to == static_cast<int>(i);
        expectedEvents += !init || onCycle;
        if (agnode(read, const_cast<char*>(("e" + std::to_string(i)).c_str()), 0)) ++events;
    }
    EXPECT_EQ(events, expectedEvents);
    EXPECT_LT(expectedEvents, static_cast<int>(e.executions[0].events.size()));  // some initial writes are left out
    const std::string withInit = toDot(drawExecution(test, x.locations, e.executions[0], model,
                                                     defaultDrawnRelations(model), "fig3c", "caption", &e.cycles[0], true));
    EXPECT_NE(withInit.find("cluster_init"), std::string::npos);  // --show-init draws them all
    int highlighted = 0, po = 0;
    for (Agnode_t* n = agfstnode(read); n; n = agnxtnode(read, n)) {
        if (std::string(agnameof(n)).rfind("legend", 0) == 0) continue;
        for (Agedge_t* ed = agfstout(read, n); ed; ed = agnxtout(read, ed)) {
            const char* width = agget(ed, const_cast<char*>("penwidth"));
            if (width && std::string(width) == "3") ++highlighted;
            const char* rel = agget(ed, const_cast<char*>("relation"));
            if (rel && std::string(rel) == "po") ++po;
        }
    }
    agclose(read);
    EXPECT_EQ(highlighted, static_cast<int>(e.cycles[0].edges.size()));
    EXPECT_EQ(po, 6);  // two threads of four events
}

// The explanation's own search obeys --timeout: store buffering with fences
// around a ring of 16 threads, each writing its location twice, is forbidden
// under tso and has 2^16 well-formed candidates reaching the outcome (the
// order of each pair of writes), far more than 0.2 s can enumerate.
TEST(Explain, TheSearchStopsAtTheTimeout) {
    constexpr int n = 16;
    std::string text = "X86 SB2-ring\n{ }\n";
    auto row = [&](const std::function<std::string(int)>& cell) {
        for (int t = 0; t < n; ++t) text += (t ? " | " : " ") + cell(t);
        text += " ;\n";
    };
    row([](int t) { return "P" + std::to_string(t); });
    row([](int t) { return "MOV [x" + std::to_string(t) + "],$1"; });
    row([](int t) { return "MOV [x" + std::to_string(t) + "],$2"; });
    row([](int) { return std::string("MFENCE"); });
    row([&](int t) { return "MOV EAX,[x" + std::to_string((t + 1) % n) + "]"; });
    text += "exists (";
    for (int t = 0; t < n; ++t) text += (t ? " /\\ " : "") + std::to_string(t) + ":EAX=0";
    text += ")\n";
    ExplainOptions options;
    options.limits.seconds = 0.2;
    EXPECT_THROW(explain(parseLitmus(text, "sb2-ring.litmus"), loadModel(modelsDir(), "tso"), options), TimeoutError);
}

// --max-events bounds the explanation's searches as it bounds the check's
// (the explanation once took the default whatever the command line said).
TEST(Explain, TakesTheMaxEventsOfTheCheck) {
    ExplainOptions options;
    options.maxEvents = 1;
    EXPECT_THROW(explain(parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig1a-sb.litmus"),
                         loadModel(modelsDir(), "rdma-tso"), options),
                 InputError);
}
