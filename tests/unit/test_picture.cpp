// Pictures drawn with Graphviz: the DOT text read back with cgraph, and rendered files.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "../test_support.hpp"
#include "rdmacheck/picture.hpp"

// Last: Graphviz headers define short macros.
#include <cgraph.h>

using namespace rdmacheck;
using rdmacheck::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// Two RDMA nodes, one thread each, two initial writes; one highlighted rb closes the cycle.
Picture sample() {
    Picture g;
    g.name = "Fig3e_exec3";
    g.caption = "Fig3e execution 3: [a]=0; [b]=\"0\";";
    g.events = {
        {"i0", "init x=0", 0, -1, ""},
        {"i1", "init y=0", 0, -1, ""},
        {"e0", "a: W x=1", 1, 0, "P0"},
        {"e1", "b: nrW y=1 →2", 1, 0, "P0"},
        {"e2", "c: R y=0 \"quoted\"", 1, 0, "P0"},
        {"e3", "d: W y=1", 2, 1, "P1"},
        {"e4", "e: R x=0", 2, 1, "P1"},
    };
    g.edges = {
        {"e0", "e1", "po", false}, {"e1", "e2", "po", false}, {"e3", "e4", "po", false},
        {"i0", "e4", "rf", false}, {"i1", "e2", "rf", false}, {"i0", "e0", "mo", false},
        {"e2", "e3", "rb", false}, {"e1", "e3", "pf", false}, {"e1", "e3", "nfo", false},
        {"e4", "e0", "rb", true},
    };
    return g;
}

struct GraphCloser {
    void operator()(Agraph_t* g) const { agclose(g); }
};
using GraphPtr = std::unique_ptr<Agraph_t, GraphCloser>;

GraphPtr readDot(const std::string& text) {
    GraphPtr g(agmemread(text.c_str()));
    if (!g) throw std::runtime_error("agmemread failed on:\n" + text);
    return g;
}

std::string attr(void* obj, const char* name) {
    const char* v = agget(obj, const_cast<char*>(name));
    return v ? v : "";
}

Agraph_t* subgraph(Agraph_t* g, const std::string& name) { return agsubg(g, const_cast<char*>(name.c_str()), 0); }

std::set<std::string> nodeNames(Agraph_t* g) {
    std::set<std::string> names;
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) names.insert(agnameof(n));
    return names;
}

// A drawn edge: tail, head, label, relation, colour, style, pen width, label font.
using Edge = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string,
                        std::string>;

// Visible edges of `g` (layout-only edges are style=invis); `sub` restricts to a subgraph's edges.
std::multiset<Edge> visibleEdges(Agraph_t* sub) {
    std::multiset<Edge> edges;
    for (Agnode_t* n = agfstnode(sub); n; n = agnxtnode(sub, n))
        for (Agedge_t* e = agfstout(sub, n); e; e = agnxtout(sub, e)) {
            if (attr(e, "style") == "invis") continue;
            edges.insert({agnameof(agtail(e)), agnameof(aghead(e)), attr(e, "label") + attr(e, "xlabel"), attr(e, "relation"),
                          attr(e, "color"), attr(e, "style"), attr(e, "penwidth"), attr(e, "fontname")});
        }
    return edges;
}

Edge plain(const std::string& from, const std::string& to, const std::string& rel, const std::string& color,
           const std::string& style = "solid") {
    return {from, to, rel, rel, color, style, "1", "Helvetica"};
}

// Everything toDot promises, checked on DOT text read back with cgraph.
void expectSampleDrawing(const std::string& dot) {
    GraphPtr g = readDot(dot);
    EXPECT_STREQ(agnameof(g.get()), "Fig3e_exec3");
    EXPECT_EQ(attr(g.get(), "label"), "Fig3e execution 3: [a]=0; [b]=\"0\";");

    // Nodes: the events, the legend's sample ends and the invisible thread_order, nothing else.
    Agraph_t* legend = subgraph(g.get(), "cluster_legend");
    ASSERT_NE(legend, nullptr);
    std::set<std::string> events = nodeNames(g.get());
    for (const std::string& n : nodeNames(legend)) events.erase(n);
    EXPECT_EQ(events, (std::set<std::string>{"i0", "i1", "e0", "e1", "e2", "e3", "e4", "thread_order"}));

    // Labels, unicode and quotes included, survive the round trip.
    std::map<std::string, std::string> labels;
    for (const PictureEvent& e : sample().events)
        labels[e.id] = attr(agnode(g.get(), const_cast<char*>(e.id.c_str()), 0), "label");
    EXPECT_EQ(labels["e1"], "b: nrW y=1 →2");
    EXPECT_EQ(labels["e2"], "c: R y=0 \"quoted\"");
    EXPECT_EQ(labels["i0"], "init x=0");

    // Clusters: init, then node > thread.
    Agraph_t* init = subgraph(g.get(), "cluster_init");
    ASSERT_NE(init, nullptr);
    EXPECT_EQ(attr(init, "label"), "init");
    EXPECT_EQ(nodeNames(init), (std::set<std::string>{"i0", "i1"}));
    const std::vector<std::tuple<int, int, std::string, std::set<std::string>>> threads{
        {1, 0, "P0", {"e0", "e1", "e2"}}, {2, 1, "P1", {"e3", "e4"}}};
    for (const auto& [node, thread, name, members] : threads) {
        Agraph_t* nc = subgraph(g.get(), "cluster_node" + std::to_string(node));
        ASSERT_NE(nc, nullptr) << node;
        EXPECT_EQ(attr(nc, "label"), "node " + std::to_string(node));
        Agraph_t* tc = subgraph(nc, "cluster_node" + std::to_string(node) + "_thread" + std::to_string(thread));
        ASSERT_NE(tc, nullptr) << name;
        EXPECT_EQ(attr(tc, "label"), name);
        EXPECT_EQ(nodeNames(tc), members);
    }

    // Edges between events: exactly the sample's, each in its relation's colour; the highlighted one thick red bold.
    // Parallel edges share one label, on the first (pf and nfo from b to d), so labels do not overlap.
    std::multiset<Edge> all = visibleEdges(g.get());
    std::multiset<Edge> legendEdges = visibleEdges(legend);
    for (const Edge& e : legendEdges) all.erase(all.find(e));
    const std::multiset<Edge> expected{
        plain("e0", "e1", "po", "black"),        plain("e1", "e2", "po", "black"),
        plain("e3", "e4", "po", "black"),        plain("i0", "e4", "rf", "red"),
        plain("i1", "e2", "rf", "red"),          plain("i0", "e0", "mo", "blue"),
        plain("e2", "e3", "rb", "orange"),       {"e1", "e3", "pf, nfo", "pf", "darkgreen", "dashed", "1", "Helvetica"},
        {"e1", "e3", "", "nfo", "purple", "solid", "1", "Helvetica"}, {"e4", "e0", "rb", "rb", "red", "solid", "3", "Helvetica-Bold"},
    };
    EXPECT_EQ(all, expected);

    // Legend: one sample edge for each relation used, in its colour, then one
    // thick red edge for the highlighted cycle.
    const std::multiset<Edge> expectedLegend{
        plain("legend_0_from", "legend_0_to", "po", "black"),
        plain("legend_1_from", "legend_1_to", "rf", "red"),
        plain("legend_2_from", "legend_2_to", "mo", "blue"),
        plain("legend_3_from", "legend_3_to", "rb", "orange"),
        plain("legend_4_from", "legend_4_to", "pf", "darkgreen", "dashed"),
        plain("legend_5_from", "legend_5_to", "nfo", "purple"),
        {"legend_6_from", "legend_6_to", "cycle", "cycle", "red", "solid", "3", "Helvetica"},
    };
    EXPECT_EQ(legendEdges, expectedLegend);
}

}  // namespace

TEST(GraphDot, ToDotReadsBackWithClustersColoursAndLegend) { expectSampleDrawing(toDot(sample())); }

TEST(GraphDot, WriteDotReadsBackTheSame) {
    TempDir dir("write");
    const std::string file = dir / "sample.dot";
    writeDot(sample(), file);
    const std::string text = rdmacheck::testing::readFile(file);
    EXPECT_EQ(text, toDot(sample()));
    expectSampleDrawing(text);
}

TEST(GraphDot, WriteDotFailsOnABadPath) {
    EXPECT_THROW(writeDot(sample(), "/nonexistent-dir/x/sample.dot"), std::runtime_error);
}

TEST(GraphDot, RelationColours) {
    const std::vector<std::tuple<std::string, std::string, std::string>> table{
        {"po", "black", "solid"},     {"rf", "red", "solid"},      {"mo", "blue", "solid"},
        {"rb", "orange", "solid"},    {"pf", "darkgreen", "dashed"}, {"nfo", "purple", "solid"},
        {"rao", "brown", "solid"},    {"ippo", "grey", "dashed"},  {"ib", "grey", "dashed"},
        {"oppo", "darkcyan", "dotted"}, {"ob", "darkcyan", "dotted"}, {"hb", "darkslategray", "solid"},
    };
    for (const auto& [rel, color, style] : table) {
        EXPECT_EQ(relationStyle(rel).color, color) << rel;
        EXPECT_EQ(relationStyle(rel).style, style) << rel;
    }
}

TEST(GraphDot, BackslashesAreShownNotInterpreted) {
    Picture g;
    g.name = "g";
    g.caption = R"(a\nb)";
    g.events = {{"e0", R"(x\N)", 1, 0, "P0"}};
    GraphPtr back = readDot(toDot(g));
    // Doubled: Graphviz would otherwise draw a line break and the node's name.
    EXPECT_EQ(attr(back.get(), "label"), R"(a\\nb)");
    EXPECT_EQ(attr(agfstnode(back.get()), "label"), R"(x\\N)");
}

TEST(GraphDot, ProgramOrderIsKeptWithoutPoEdges) {
    Picture g;
    g.name = "nopo";
    g.events = {{"a", "a", 1, 0, "P0"}, {"b", "b", 1, 0, "P0"}, {"c", "c", 1, 0, "P0"}};
    g.edges = {{"a", "b", "po", false}, {"c", "a", "rb", false}};
    GraphPtr back = readDot(toDot(g));
    // a->b is drawn po; b->c gets an invisible heavy edge so that c stays below b.
    Agraph_t* legend = subgraph(back.get(), "cluster_legend");
    ASSERT_NE(legend, nullptr);
    int layout = 0;
    for (Agnode_t* n = agfstnode(back.get()); n; n = agnxtnode(back.get(), n))
        for (Agedge_t* e = agfstout(back.get(), n); e; e = agnxtout(back.get(), e)) {
            if (attr(e, "relation") != "layout" || agsubnode(legend, n, 0) ||
                std::string(agnameof(n)) == "thread_order")  // the threads' order, tested below
                continue;
            ++layout;
            EXPECT_STREQ(agnameof(agtail(e)), "b");
            EXPECT_STREQ(agnameof(aghead(e)), "c");
            EXPECT_EQ(attr(e, "style"), "invis");
            EXPECT_EQ(attr(e, "label"), "");
        }
    EXPECT_EQ(layout, 1);
    // No init events, no legend entry for layout edges.
    EXPECT_EQ(subgraph(back.get(), "cluster_init"), nullptr);
    EXPECT_EQ(visibleEdges(legend).size(), 2u);
}

TEST(GraphDot, BadGraphsAreErrors) {
    Picture g = sample();
    g.edges.push_back({"e0", "nowhere", "rf", false});
    EXPECT_THROW(toDot(g), std::runtime_error);
    g = sample();
    g.events.push_back({"e0", "again", 1, 0, "P0"});
    EXPECT_THROW(toDot(g), std::runtime_error);
}

TEST(GraphRender, Svg) {
    TempDir dir("svg");
    const std::string file = dir / "sample.svg";
    renderGraph(sample(), "svg", file);
    const std::string svg = rdmacheck::testing::readFile(file);
    ASSERT_FALSE(svg.empty());
    EXPECT_TRUE(svg.rfind("<?xml", 0) == 0 || svg.find("<svg") != std::string::npos);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("b: nrW y=1 →2"), std::string::npos);
    EXPECT_NE(svg.find("stroke-width=\"3\""), std::string::npos);  // the highlighted edge
}

TEST(GraphRender, Png) {
    TempDir dir("png");
    const std::string file = dir / "sample.png";
    renderGraph(sample(), "png", file);
    const std::string png = rdmacheck::testing::readFile(file);
    ASSERT_GE(png.size(), 8u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(GraphRender, Errors) {
    TempDir dir("errors");
    EXPECT_THROW(renderGraph(sample(), "gif", dir / "x.gif"), std::runtime_error);
    EXPECT_THROW(renderGraph(sample(), "svg", "/nonexistent-dir/x/sample.svg"), std::runtime_error);
}

// Threads stand left to right in thread order within a node, whatever the
// order of the events handed over and the edges between threads: rendered by
// Graphviz (SVG), each thread's first event lies right of the previous one's.
// (Crossing minimisation put P1 left of P0 in most SB pictures before the
// thread_order node.)
TEST(GraphDot, ThreadsStandLeftToRightInProgramOrder) {
    Picture g;
    g.name = "order";
    for (int t : {2, 0, 3, 1})  // scrambled on purpose
        for (int k = 0; k < 2; ++k) {
            const std::string id = "t" + std::to_string(t) + "e" + std::to_string(k);
            g.events.push_back({id, id, 1, t, "P" + std::to_string(t)});
        }
    for (int t = 0; t < 4; ++t) g.edges.push_back({"t" + std::to_string(t) + "e0", "t" + std::to_string(t) + "e1", "po"});
    g.edges.push_back({"t1e1", "t0e0", "rb"});  // SB's crossing edges
    g.edges.push_back({"t0e1", "t1e0", "rb"});
    g.edges.push_back({"t3e1", "t0e0", "rf"});  // and one from the far right
    const TempDir tmp("order");
    renderGraph(g, "svg", tmp / "order.svg");
    const std::string svg = rdmacheck::testing::readFile(tmp / "order.svg");
    double previous = -1e9;
    for (int t = 0; t < 4; ++t) {
        const size_t title = svg.find("<title>t" + std::to_string(t) + "e0</title>");
        ASSERT_NE(title, std::string::npos);
        const size_t x = svg.find(" x=\"", title);
        ASSERT_NE(x, std::string::npos);
        const double position = std::stod(svg.substr(x + 4));
        EXPECT_GT(position, previous) << "P" << t;
        previous = position;
    }
}
