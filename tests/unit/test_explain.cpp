// Explanations of forbidden outcomes and the drawn graphs: every explained cycle
// is a real cycle of the relations it names, consistent executions have none,
// and the cycles are the ones the papers give for their figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <graphviz/cgraph.h>

#include "../test_support.hpp"
#include "rdmacheck/draw.hpp"
#include "rdmacheck/explain.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

std::vector<std::string> corpusFiles() {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso"))
        if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

ExplainResult explainFile(const std::string& name, const std::string& model) {
    return explain(parseLitmusFile(sourceDir() + "/litmus/rdma-tso/" + name), loadModel(modelsDir(), model),
                   ExplainOptions{});
}

std::multiset<std::string> relationsOf(const Cycle& c) {
    std::multiset<std::string> r;
    for (const RelationEdge& e : c.edges) r.insert(e.relation);
    return r;
}

// The cycle closes, and each edge is a base edge of its clock in this execution.
void expectRealCycle(const Skeleton& sk, const Execution& ex, const Model& model, const Cycle& cycle) {
    ASSERT_FALSE(cycle.edges.empty());
    const std::vector<RelationEdge> edges = clockEdges(sk, ex, model);
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
        EXPECT_EQ(cycle.axiom, model.clocks[*clocks.begin()].axiom);
    } else {
        EXPECT_EQ(cycle.axiom, "[Inst];ib;ob");
    }
}

}  // namespace

TEST(Explain, EveryForbiddenCorpusOutcomeHasRealCycles) {
    int explained = 0;
    for (const std::string& file : corpusFiles()) {
        for (const char* name : {"rdma-tso", "rdma-tso-nopcie"}) {
            SCOPED_TRACE(file + " under " + name);
            const Model model = loadModel(modelsDir(), name);
            const LitmusTest test = parseLitmusFile(file);
            const ExplainResult x = explain(test, model, ExplainOptions{});
            const bool reachable = check(test, model, CheckOptions{}).positive > 0;
            EXPECT_EQ(x.applicable, !reachable);
            if (!x.applicable) continue;
            EXPECT_GE(x.candidates, 1u);
            ASSERT_FALSE(x.shown.empty());
            for (const Explanation& e : x.shown) {
                ASSERT_EQ(e.executions.size(), e.cycles.size());
                for (size_t i = 0; i < e.cycles.size(); ++i) expectRealCycle(e.skeleton, e.executions[i], model, e.cycles[i]);
            }
            ++explained;
        }
    }
    EXPECT_GE(explained, 10);
}

// The concrete relations and the cycle search agree with the Z3 encoding: no
// consistent execution has a cycle.
TEST(Explain, ConsistentExecutionsHaveNoCycle) {
    for (const std::string& file : corpusFiles()) {
        for (const char* name : {"rdma-tso", "rdma-tso-nopcie", "sc"}) {
            SCOPED_TRACE(file + " under " + name);
            const Model model = loadModel(modelsDir(), name);
            check(parseLitmusFile(file), model, CheckOptions{},
                  [&](const UnfoldedProgram&, const Skeleton& sk, const Execution& ex, const FinalState&, bool) {
                      EXPECT_FALSE(shortestViolation(sk, ex, model).has_value());
                  });
        }
    }
}

// Fig. 3c: load buffering with polls; the paper's argument is the ib cycle
// nrR ->ippo nlW ->pf P ->ippo lW ->rf nrR ... on both sides.
TEST(Explain, Fig3cIsTheLoadBufferingCycleThroughPolls) {
    const ExplainResult x = explainFile("fig3c-lb-gets-polls.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    ASSERT_EQ(x.shown[0].cycles.size(), 1u);
    const Cycle& c = x.shown[0].cycles[0];
    EXPECT_EQ(c.axiom, "ib");
    EXPECT_EQ(relationsOf(c), (std::multiset<std::string>{"ippo", "ippo", "ippo", "ippo", "pf", "pf", "rf", "rf"}));
    EXPECT_EQ(cycleText(x.shown[0].skeleton, x.locations, c),
              "a:nrR y →ippo b:nlW a →pf c:P →ippo d:lW x →rf e:nrR x →ippo f:nlW b →pf g:P →ippo h:lW y →rf a");
}

// Fig. 2i: whichever way nfo orders the queue pair's events, a cycle remains.
TEST(Explain, Fig2iNeedsACycleForEachNfoChoice) {
    const ExplainResult x = explainFile("fig2i-get-rfence-put-z1.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    EXPECT_EQ(x.shown[0].cycles.size(), 4u);  // two same-queue-pair pairs
}

// Fig. 3e: with PCIe the polled gets close a cycle through both queue pairs;
// without PCIe the outcome is allowed and there is nothing to explain.
TEST(Explain, Fig3eMixesIssueAndObservation) {
    const ExplainResult x = explainFile("fig3e-sb-polled-gets.litmus", "rdma-tso");
    ASSERT_EQ(x.shown.size(), 1u);
    EXPECT_EQ(x.shown[0].cycles[0].axiom, "[Inst];ib;ob");
    EXPECT_FALSE(explainFile("fig3e-sb-polled-gets.litmus", "rdma-tso-nopcie").applicable);
}

// The drawn graph, read back with cgraph: every non-constant event is a node and
// the cycle's edges are the highlighted ones.
TEST(Explain, DrawnCandidateReadsBackWithItsCycle) {
    const LitmusTest test = parseLitmusFile(sourceDir() + "/litmus/rdma-tso/fig3c-lb-gets-polls.litmus");
    const Model model = loadModel(modelsDir(), "rdma-tso");
    const ExplainResult x = explain(test, model, ExplainOptions{});
    ASSERT_EQ(x.shown.size(), 1u);
    const Explanation& e = x.shown[0];
    const ExecutionGraph g = drawExecution(test, x.locations, e.skeleton, e.executions[0], model,
                                           defaultDrawnRelations(), "fig3c", "caption", &e.cycles[0]);
    const std::string dot = toDot(g);
    Agraph_t* read = agmemread(dot.c_str());
    ASSERT_NE(read, nullptr);
    int events = 0;
    for (size_t i = 0; i < e.skeleton.events.size(); ++i)
        if (agnode(read, const_cast<char*>(("e" + std::to_string(i)).c_str()), 0)) ++events;
    EXPECT_EQ(events, static_cast<int>(e.skeleton.events.size()));  // no put of a constant here
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
