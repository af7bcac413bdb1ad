// The pictures module (picture/): a picture of an execution graph for Graphviz,
// written as DOT and rendered (dot.cpp); draw.hpp makes one of an execution (draw.cpp).
#pragma once
#include <string>
#include <vector>
namespace rdmacheck {
struct PictureEvent {
    std::string id;      // unique DOT node name, e.g. "e3"
    std::string label;   // e.g. "c: nrW y=1 →2" or "init x=0"
    int node = 0;        // RDMA node (cluster); 0 for initial writes
    int thread = -1;     // thread index within the test (cluster inside its node); -1 for initial writes
    std::string threadName;  // "P0"
    // MOWGLI models: the subevents of one call (a put's aNLR and aNRW, a
    // broadcast's pairs) share a call number and are boxed together; -1 otherwise.
    int call = -1;
    std::string callLabel = "";  // the call's box label, e.g. "put"
};
struct PictureEdge {
    std::string from, to;   // PictureEvent ids
    std::string relation;   // po rf mo rb pf nfo rao ippo oppo ib ob ... (colour by relation)
    bool highlighted = false;  // part of an explained cycle: drawn thick/red
};
struct Picture {
    std::string name;       // graph name, e.g. "Fig3e_exec3"
    std::string caption;    // e.g. "Fig3e execution 3: [a]=0; [b]=0;" drawn as the graph label
    std::vector<PictureEvent> events;   // in program order within each thread
    std::vector<PictureEdge> edges;
    std::string cycleNote;  // what the highlighted edges are, for the legend, e.g. "cycle: breaks ob"
};
// Builds the Graphviz graph with the cgraph library (agopen/agnode/agedge/agsafeset),
// never by string concatenation, and writes it as DOT text.
std::string toDot(const Picture& g);
void writeDot(const Picture& g, const std::string& path);            // std::runtime_error on failure
// Every picture in one file, one digraph after another (herd7's -o DIR: a file per test).
void writeDots(const std::vector<Picture>& pictures, const std::string& path);
// Lays out (dot) and renders with libgvc (gvContext, gvLayout, gvRenderFilename): format "svg" or "png".
void renderGraph(const Picture& g, const std::string& format, const std::string& path);
// DIR/STEM.dot, and DIR/STEM.FORMAT rendered unless format is "": DIR made if need be.
void writePicture(const Picture& g, const std::string& dir, const std::string& stem, const std::string& format);

// How a relation is drawn: Graphviz colour and style ("solid", "dashed", "dotted").
// Fixed per relation so that pictures of different executions compare at a glance.
struct RelationStyle {
    std::string color;
    std::string style;
};
RelationStyle relationStyle(const std::string& relation);

// The DOT layout conventions (what a reader of toDot's output can rely on):
// - events are nodes named by PictureEvent::id, labelled with PictureEvent::label (a backslash is doubled,
//   since Graphviz labels treat `\` as an escape);
// - clusters: "cluster_init" (label "init"), "cluster_node<N>" (label "node N") holding
//   "cluster_node<N>_thread<T>" (label threadName), itself holding "cluster_node<N>_thread<T>_call<K>"
//   (label callLabel, dotted) around the subevents of call K, and "cluster_legend" (label "legend") holding one
//   edge per relation used, between two empty nodes named "legend_<i>_from"/"legend_<i>_to", and, when
//   edges are highlighted, one more thick red sample edge labelled with Picture::cycleNote;
// - every PictureEdge is one edge labelled with its relation (attribute "relation" too; "label" on po
//   edges, the floating "xlabel" on the others, which do not rank events); layout-only
//   edges that keep program order where no po edge does are style=invis, unlabelled, relation "layout";
// - an invisible node "thread_order" (ordering=out) with layout edges to each thread's first event in
//   (node, thread) order keeps the threads left to right.
}
