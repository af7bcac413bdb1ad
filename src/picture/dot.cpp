// Pictures of execution graphs as Graphviz graphs: built with cgraph, written as DOT, laid out and rendered with gvc.
#include "rdmacheck/picture.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "rdmacheck/choices.hpp"

// Last: types.h (pulled in by gvc.h) defines short macros such as MIN/MAX.
#include <cgraph.h>
#include <gvc.h>

namespace rdmacheck {

namespace fs = std::filesystem;

namespace {

// Graphviz keeps global state (error handler, string pools, plugin loading): one caller at a time.
std::mutex graphvizMutex;

// Messages Graphviz reports through agerr, collected so that failures can say why.
std::string* errorSink = nullptr;

int collectError(char* message) {
    if (errorSink) errorSink->append(message);
    return 0;
}

// Routes agerr to a string for the lifetime of the object (under graphvizMutex).
class ErrorCapture {
public:
    ErrorCapture() : previous_(agseterrf(collectError)) {
        agreseterrors();
        errorSink = &text_;
    }
    ~ErrorCapture() {
        errorSink = nullptr;
        agseterrf(previous_);
    }
    ErrorCapture(const ErrorCapture&) = delete;
    ErrorCapture& operator=(const ErrorCapture&) = delete;
    // The collected messages on one line, for an exception text.
    std::string text() const {
        std::string s = text_;
        while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
        for (char& c : s)
            if (c == '\n') c = ' ';
        return s.empty() ? "" : " (" + s + ")";
    }

private:
    agusererrf previous_;
    std::string text_;
};

// agwrite's output channel: our std::string.
int putToString(void* chan, const char* str) {
    static_cast<std::string*>(chan)->append(str);
    return 0;
}
int flushNothing(void*) { return 0; }

// Object ids in order of first use. cgraph's default ids are string addresses, and it writes (and lays out)
// subgraphs in id order: the same graph would come out with its clusters in a different order from run to run.
struct IdState {
    Agraph_t* graph;
    std::map<std::string, IDTYPE, std::less<>> ids;
    // Names as cgraph's own reference-counted strings: agwrite reads their header to tell HTML names apart.
    // They belong to the graph's string pool, which agclose frees.
    std::vector<char*> names;  // named ids are even: 2, 4, ...; anonymous ones odd, as in cgraph
    IDTYPE anonymous = 1;
};

void* idOpen(Agraph_t* g, Agdisc_t*) { return new IdState{g, {}, {}, 1}; }

long idMap(void* state, int, char* str, IDTYPE* id, int createflag) {
    auto* s = static_cast<IdState*>(state);
    if (!str) {
        *id = s->anonymous;
        s->anonymous += 2;
        return 1;
    }
    auto it = s->ids.find(std::string_view(str));
    if (it == s->ids.end()) {
        if (!createflag) return 0;
        s->names.push_back(agstrdup(s->graph, str));
        it = s->ids.emplace(str, 2 * static_cast<IDTYPE>(s->names.size())).first;
    }
    *id = it->second;
    return 1;
}

long idAlloc(void*, int, IDTYPE) { return 0; }  // callers may not choose ids, as with cgraph's own
void idFree(void*, int, IDTYPE) {}              // names live until the graph is closed

char* idPrint(void* state, int, IDTYPE id) {
    auto* s = static_cast<IdState*>(state);
    if (id % 2 != 0 || id == 0 || id / 2 > s->names.size()) return nullptr;
    return s->names[id / 2 - 1];
}

void idClose(void* state) { delete static_cast<IdState*>(state); }
void idRegister(void*, int, void*) {}

Agdisc_t* discipline() {
    static Agiodisc_t io = [] {
        Agiodisc_t d = AgIoDisc;
        d.putstr = putToString;
        d.flush = flushNothing;
        return d;
    }();
    static Agiddisc_t ids{idOpen, idMap, idAlloc, idFree, idPrint, idClose, idRegister};
    static Agdisc_t disc{&AgMemDisc, &ids, &io};
    return &disc;
}

struct GraphCloser {
    void operator()(Agraph_t* g) const { agclose(g); }
};
using GraphPtr = std::unique_ptr<Agraph_t, GraphCloser>;

struct ContextFreer {
    void operator()(GVC_t* c) const { gvFreeContext(c); }
};

// One context for the whole process, freed at exit. Graphviz 2.42's pango text layout remembers, in a
// static, a font name owned by the context: with a context per call, the next layout compares against
// freed memory (AddressSanitizer: heap-use-after-free in pango_textlayout).
GVC_t* context(const ErrorCapture& errors) {
    static std::unique_ptr<GVC_t, ContextFreer> gvc(gvContext());
    if (!gvc) throw std::runtime_error("Graphviz could not create a context" + errors.text());
    return gvc.get();
}

// cgraph's API predates const: it copies every string it is given, so the casts are safe.
char* cstr(const std::string& s) { return const_cast<char*>(s.c_str()); }
char* cstr(const char* s) { return const_cast<char*>(s); }

void set(void* obj, const char* name, const std::string& value, const char* fallback = "") {
    agsafeset(obj, cstr(name), cstr(value), cstr(fallback));
}

// Graphviz reads `\` in labels as an escape (\n, \l, \N...): doubled, it is shown as is.
std::string labelText(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// Relations in legend order, by slot (ChoiceDrawing::legendSlot places the
// chosen ones among these); anything else follows in order of first use.
const std::vector<std::string>& knownRelations() {
    static const std::vector<std::string> order = [] {
        std::vector<std::pair<int, std::string>> slots{{10, "po"},   {45, "fr"}, {50, "pf"},
                                                       {90, "ippo"}, {91, "ib"}, {92, "oppo"}, {93, "ob"}};
        for (const ChosenRelation& c : chosenRelations()) slots.emplace_back(c.drawing.legendSlot, c.name);
        std::stable_sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::string> names;
        for (const auto& [slot, name] : slots) names.push_back(name);
        return names;
    }();
    return order;
}

Agnode_t* eventNode(const std::map<std::string, Agnode_t*>& nodes, const std::string& id, const char* end) {
    auto it = nodes.find(id);
    if (it == nodes.end()) throw std::runtime_error(std::string("graph edge ") + end + " '" + id + "' is no event");
    return it->second;
}

// The whole drawing as a cgraph graph: clusters, events, relation edges,
// layout hints, legend; one method a part, in the order they are made.
class GraphBuilder {
public:
    explicit GraphBuilder(const Picture& g) : g_(g) {
        const std::string name = g.name.empty() ? "execution" : g.name;
        graph_.reset(agopen(cstr(name), Agdirected, discipline()));
        if (!graph_) throw std::runtime_error("Graphviz could not create graph '" + name + "'");
        root_ = graph_.get();
    }

    GraphPtr build() {
        setDefaults();
        addEvents();
        addEdges();
        steerLayout();
        addLegend();
        // Last, for the reason given in setDefaults.
        set(root_, "label", labelText(g_.caption));
        return std::move(graph_);
    }

private:
    void setDefaults() {
        // Defaults first: agsafeset on the root would otherwise make the caption every subgraph's default label.
        agattr(root_, AGRAPH, cstr("fontname"), cstr("Helvetica"));
        agattr(root_, AGRAPH, cstr("labelloc"), cstr("t"));
        // One global ranking: rank=same then holds inside clusters (the init row, the threads' first events).
        agattr(root_, AGRAPH, cstr("newrank"), cstr("true"));
        agattr(root_, AGNODE, cstr("fontname"), cstr("Helvetica"));
        agattr(root_, AGNODE, cstr("shape"), cstr("box"));
        agattr(root_, AGEDGE, cstr("fontname"), cstr("Helvetica"));
        agattr(root_, AGEDGE, cstr("fontsize"), cstr("10"));
    }

    Agnode_t* addNode(Agraph_t* sub, const PictureEvent& e) {
        if (e.id.empty()) throw std::runtime_error("graph event without id (label '" + e.label + "')");
        if (nodes_.count(e.id)) throw std::runtime_error("duplicate graph event id '" + e.id + "'");
        Agnode_t* n = agnode(sub, cstr(e.id), 1);
        set(n, "label", labelText(e.label), "\\N");
        nodes_[e.id] = n;
        return n;
    }

    // Initial writes in their own cluster, alone on the top rank; threads in a
    // cluster per RDMA node, inside it one per thread, made in (node, thread)
    // order, events in the order given (program order).
    void addEvents() {
        std::vector<const PictureEvent*> ordered;
        for (const PictureEvent& e : g_.events) ordered.push_back(&e);
        std::stable_sort(ordered.begin(), ordered.end(), [](const PictureEvent* a, const PictureEvent* b) {
            return std::make_tuple(a->thread >= 0, a->node, a->thread) <
                   std::make_tuple(b->thread >= 0, b->node, b->thread);
        });
        for (const PictureEvent* e : ordered) {
            if (e->thread < 0) {
                set(addNode(initRank(), *e), "shape", "plaintext", "box");
                continue;
            }
            threadEvents_[{e->node, e->thread}].push_back(addNode(clusterOf(*e), *e));
        }
    }

    Agraph_t* initRank() {
        if (!initRank_) {
            Agraph_t* cluster = agsubg(root_, cstr("cluster_init"), 1);
            set(cluster, "label", "init");
            set(cluster, "style", "dashed");
            initRank_ = agsubg(cluster, cstr("init_rank"), 1);
            set(initRank_, "rank", "same");
        }
        return initRank_;
    }

    // The cluster an event of a thread goes in: its call's, else its thread's.
    Agraph_t* clusterOf(const PictureEvent& e) {
        Agraph_t*& nodeCluster = nodeClusters_[e.node];
        if (!nodeCluster && e.node == 0) {
            nodeCluster = root_;  // no node (X86): the threads' boxes in the picture itself
        } else if (!nodeCluster) {
            nodeCluster = agsubg(root_, cstr("cluster_node" + std::to_string(e.node)), 1);
            set(nodeCluster, "label", "node " + std::to_string(e.node));
        }
        const std::string threadName = "cluster_node" + std::to_string(e.node) + "_thread" + std::to_string(e.thread);
        Agraph_t*& threadCluster = threadClusters_[{e.node, e.thread}];
        if (!threadCluster) {
            threadCluster = agsubg(nodeCluster, cstr(threadName), 1);
            set(threadCluster, "label", e.threadName.empty() ? "P" + std::to_string(e.thread) : e.threadName);
            set(threadCluster, "style", "rounded");
        }
        if (e.call < 0) return threadCluster;
        Agraph_t* call = agsubg(threadCluster, cstr(threadName + "_call" + std::to_string(e.call)), 1);
        set(call, "label", e.callLabel);
        set(call, "style", "dotted");
        return call;
    }

    void addEdges() {
        // Parallel edges share one label, on the first ("rf, rfe, ppo"; each keeps its colour): labels drawn
        // over each other were unreadable. Cycle edges and po keep their own.
        std::map<std::pair<std::string, std::string>, std::string> shared;
        for (const PictureEdge& edge : g_.edges)
            if (!edge.highlighted && edge.relation != "po") shared[{edge.from, edge.to}] += ", " + edge.relation;
        for (const PictureEdge& edge : g_.edges) {
            Agnode_t* from = eventNode(nodes_, edge.from, "source");
            Agnode_t* to = eventNode(nodes_, edge.to, "target");
            if (edge.relation.empty())
                throw std::runtime_error("graph edge " + edge.from + " -> " + edge.to + " has no relation");
            Agedge_t* e = agedge(root_, from, to, nullptr, 1);
            if (!e) throw std::runtime_error("Graphviz could not create edge " + edge.from + " -> " + edge.to);
            const RelationStyle style = relationStyle(edge.relation);
            set(e, "relation", edge.relation);
            // Only po edges rank events; the others get a floating label (xlabel):
            // dot fails to rank some graphs ("trouble in init_rank") whose
            // constraint=false edges carry labels, e.g. loco-fig9c's executions.
            std::string label = edge.relation;
            if (!edge.highlighted && edge.relation != "po") label = std::exchange(shared[{edge.from, edge.to}], ", ").substr(2);
            if (!label.empty()) set(e, edge.relation == "po" ? "label" : "xlabel", labelText(label));
            set(e, "style", style.style, "solid");
            set(e, "color", edge.highlighted ? "red" : style.color, "black");
            set(e, "fontcolor", edge.highlighted ? "red" : style.color, "black");
            if (edge.highlighted) {
                set(e, "penwidth", "3", "1");
                set(e, "fontname", "Helvetica-Bold", "Helvetica");
            }
            if (edge.relation == "po") {
                // Heavy, so program order stays a straight vertical column.
                set(e, "weight", "10", "1");
                poPairs_.insert({from, to});
            } else {
                // Only program order ranks the events; rf/rb cycles would otherwise bend threads upwards.
                set(e, "constraint", "false", "true");
            }
            if (std::find(used_.begin(), used_.end(), edge.relation) == used_.end()) used_.push_back(edge.relation);
        }
    }

    // An invisible edge that only steers the layout.
    static void layoutEdge(Agraph_t* sub, Agnode_t* from, Agnode_t* to, const char* weight) {
        Agedge_t* e = agedge(sub, from, to, nullptr, 1);
        set(e, "relation", "layout");
        set(e, "style", "invis", "solid");
        set(e, "weight", weight, "1");
    }

    void steerLayout() {
        // Keep each thread top-to-bottom even where the caller drew no po edge between neighbours.
        for (const auto& [thread, events] : threadEvents_)
            for (size_t i = 1; i < events.size(); ++i)
                if (!poPairs_.count({events[i - 1], events[i]})) layoutEdge(root_, events[i - 1], events[i], "10");
        if (threadEvents_.empty()) return;
        // Threads start on one row, left to right in (node, thread) order as herd7 draws them, below the init row.
        Agraph_t* tops = agsubg(root_, cstr("thread_tops"), 1);
        set(tops, "rank", "same");
        Agnode_t* previous = nullptr;
        for (const auto& [thread, events] : threadEvents_) {
            agsubnode(tops, events.front(), 1);
            if (previous) layoutEdge(tops, previous, events.front(), "1");
            previous = events.front();
        }
        if (initRank_) layoutEdge(root_, agfstnode(initRank_), threadEvents_.begin()->second.front(), "1");
        // An invisible node whose out-edges Graphviz keeps in the order made
        // (ordering=out): the threads' first events, in (node, thread) order.
        // Crossing minimisation would otherwise reorder threads (SB: P1 left of P0).
        if (nodes_.count("thread_order")) throw std::runtime_error("graph event id 'thread_order' is reserved");
        Agnode_t* order = agnode(root_, cstr("thread_order"), 1);
        set(order, "style", "invis", "");
        set(order, "shape", "point", "box");
        set(order, "label", "", "\\N");
        set(order, "ordering", "out");
        for (const auto& [thread, events] : threadEvents_) layoutEdge(root_, order, events.front(), "1");
    }

    // One sample edge per relation drawn, known relations first, then the
    // highlighted cycle's, if any.
    void addLegend() {
        if (used_.empty()) return;
        std::vector<std::string> legend;
        for (const std::string& r : knownRelations())
            if (std::find(used_.begin(), used_.end(), r) != used_.end()) legend.push_back(r);
        for (const std::string& r : used_)
            if (std::find(legend.begin(), legend.end(), r) == legend.end()) legend.push_back(r);
        const bool highlighted =
            std::any_of(g_.edges.begin(), g_.edges.end(), [](const PictureEdge& e) { return e.highlighted; });
        if (highlighted) legend.push_back(g_.cycleNote.empty() ? "cycle" : g_.cycleNote);
        Agraph_t* cluster = agsubg(root_, cstr("cluster_legend"), 1);
        set(cluster, "label", "legend");
        set(cluster, "style", "dotted");
        // Sample edges side by side in legend order.
        Agraph_t* tails = agsubg(cluster, cstr("legend_tails"), 1);
        set(tails, "rank", "same");
        Agnode_t* previousTail = nullptr;
        for (size_t i = 0; i < legend.size(); ++i) {
            Agnode_t* tail = legendSample(cluster, i, legend[i], highlighted && i + 1 == legend.size());
            agsubnode(tails, tail, 1);
            if (i > 0) layoutEdge(tails, previousTail, tail, "1");
            previousTail = tail;
        }
    }

    // The i-th sample edge of the legend; returns its tail.
    Agnode_t* legendSample(Agraph_t* cluster, size_t i, const std::string& relation, bool cycleSample) {
        const std::string prefix = "legend_" + std::to_string(i);
        Agnode_t* ends[2];
        const char* suffix[2] = {"_from", "_to"};
        for (int k = 0; k < 2; ++k) {
            if (nodes_.count(prefix + suffix[k]))
                throw std::runtime_error("graph event id '" + prefix + suffix[k] + "' is reserved for the legend");
            ends[k] = agnode(cluster, cstr(prefix + suffix[k]), 1);
            set(ends[k], "shape", "point", "box");
            set(ends[k], "width", "0.05", "0.75");
            set(ends[k], "label", "", "\\N");
        }
        const RelationStyle style = relationStyle(relation);
        Agedge_t* e = agedge(cluster, ends[0], ends[1], nullptr, 1);
        set(e, "relation", cycleSample ? "cycle" : relation);
        set(e, "label", labelText(relation));
        set(e, "style", cycleSample ? "solid" : style.style, "solid");
        set(e, "color", cycleSample ? "red" : style.color, "black");
        set(e, "fontcolor", cycleSample ? "red" : style.color, "black");
        if (cycleSample) set(e, "penwidth", "3", "1");
        return ends[0];
    }

    const Picture& g_;
    GraphPtr graph_;
    Agraph_t* root_ = nullptr;
    std::map<std::string, Agnode_t*> nodes_;
    Agraph_t* initRank_ = nullptr;
    std::map<int, Agraph_t*> nodeClusters_;
    std::map<std::pair<int, int>, Agraph_t*> threadClusters_;
    std::map<std::pair<int, int>, std::vector<Agnode_t*>> threadEvents_;
    std::vector<std::string> used_;  // relations in order of first use
    std::set<std::pair<Agnode_t*, Agnode_t*>> poPairs_;
};

GraphPtr build(const Picture& g) { return GraphBuilder(g).build(); }

}  // namespace

std::string toDot(const Picture& g) {
    std::lock_guard<std::mutex> lock(graphvizMutex);
    ErrorCapture errors;
    GraphPtr graph = build(g);
    std::string out;
    if (agwrite(graph.get(), &out) != 0) throw std::runtime_error("Graphviz could not write DOT" + errors.text());
    return out;
}

void writeDot(const Picture& g, const std::string& path) { writeDots({g}, path); }

void writeDots(const std::vector<Picture>& pictures, const std::string& path) {
    std::string text;
    for (const Picture& g : pictures) text += toDot(g);
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot open " + path + " for writing: " + std::strerror(errno));
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path);
}

namespace {

// Why a layout engine could not draw a graph.
struct LayoutFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Lays out with `engine` and renders, in this process.
void renderHere(const Picture& g, const std::string& format, const std::string& path, const char* engine) {
    std::lock_guard<std::mutex> lock(graphvizMutex);
    ErrorCapture errors;
    GVC_t* gvc = context(errors);
    GraphPtr graph = build(g);
    if (gvLayout(gvc, graph.get(), engine) != 0)
        throw LayoutFailure(std::string("Graphviz ") + engine + " layout failed for graph '" + g.name + "'" +
                            errors.text());
    // dot reports a failed ranking ("trouble in init_rank") but returns success.
    if (errors.text().find("trouble") != std::string::npos)
        throw LayoutFailure(std::string("Graphviz ") + engine + " could not rank graph '" + g.name + "'" +
                            errors.text());
    // The layout's records hang off the graph: freed whatever happens, before agclose.
    struct LayoutFreer {
        GVC_t* gvc;
        Agraph_t* graph;
        ~LayoutFreer() { gvFreeLayout(gvc, graph); }
    } layout{gvc, graph.get()};
    if (gvRenderFilename(gvc, graph.get(), format.c_str(), path.c_str()) != 0) {
        // Without the cairo (pango) or gd plugin, Graphviz only says `renderer for png is unavailable`
        // (or `Format: "png" not recognized`).
        const std::string why = errors.text();
        if (format == "png" &&
            (why.find("unavailable") != std::string::npos || why.find("not recognized") != std::string::npos))
            throw std::runtime_error("png rendering needs the Graphviz cairo/gd plugin" + errors.text());
        throw std::runtime_error("Graphviz could not render " + format + " to " + path + errors.text());
    }
    std::error_code ec;
    if (fs::file_size(path, ec) == 0 || ec) throw std::runtime_error("Graphviz wrote nothing to " + path + errors.text());
}

enum class ChildResult { Done, LayoutFailed, Failed };

// A render job as the child reads it: the picture, where and how to draw it.
nlohmann::json jobRecord(const Picture& g, const std::string& format, const std::string& path, const char* engine) {
    nlohmann::json events = nlohmann::json::array(), edges = nlohmann::json::array();
    for (const PictureEvent& e : g.events)
        events.push_back({e.id, e.label, e.node, e.thread, e.threadName, e.call, e.callLabel});
    for (const PictureEdge& e : g.edges) edges.push_back({e.from, e.to, e.relation, e.highlighted});
    return {{"format", format}, {"path", path}, {"engine", engine}, {"name", g.name}, {"caption", g.caption},
            {"cycle_note", g.cycleNote}, {"events", events}, {"edges", edges}};
}

Picture pictureOf(const nlohmann::json& job) {
    Picture g;
    g.name = job.at("name"), g.caption = job.at("caption"), g.cycleNote = job.at("cycle_note");
    for (const nlohmann::json& e : job.at("events"))
        g.events.push_back({e.at(0), e.at(1), e.at(2), e.at(3), e.at(4), e.at(5), e.at(6)});
    for (const nlohmann::json& e : job.at("edges")) g.edges.push_back({e.at(0), e.at(1), e.at(2), e.at(3)});
    return g;
}

// The environment variable that makes a process a render child: the pid of
// the parent that started it, which a stray setting does not match.
constexpr const char* kRenderChild = "RDMACHECK_RENDER_CHILD";

void writeAll(int fd, const std::string& text) {
    for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
}

std::string readAll(int fd) {
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return text;
        text.append(buffer, static_cast<size_t>(n));
    }
}

// The render child, before main: dies with its parent, reads its job on
// stdin, renders it and writes why it failed on stdout; exit 0 (done), 1 (the
// layout failed: another engine may do) or 2.
[[noreturn]] void renderChild() {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (std::to_string(::getppid()) != std::getenv(kRenderChild)) _exit(2);  // the parent died before prctl
    int status = 0;
    std::string message;
    try {
        const nlohmann::json job = nlohmann::json::parse(readAll(0));
        renderHere(pictureOf(job), job.at("format"), job.at("path"), job.at("engine").get<std::string>().c_str());
    } catch (const LayoutFailure& e) {
        message = e.what();
        status = 1;
    } catch (const std::exception& e) {
        message = e.what();
        status = 2;
    }
    writeAll(1, message);
    _exit(status);  // no destructors, no exit handlers: Graphviz's state may be broken
}

__attribute__((constructor)) void startRenderChild() {
    const char* parent = std::getenv(kRenderChild);
    if (parent && std::to_string(::getppid()) == parent) renderChild();
}

struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

// The job's bytes in an anonymous file, the child's stdin: written whole
// before the child starts, so a child that dies early costs no SIGPIPE.
int jobFile(const std::string& job) {
    const int fd = ::memfd_create("rdmacheck-render-job", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
    FdCloser closer{fd};
    writeAll(fd, job);
    if (::lseek(fd, 0, SEEK_SET) != 0) throw std::runtime_error(std::string("lseek: ") + std::strerror(errno));
    closer.fd = -1;
    return fd;
}

// renderHere in a child process: this executable again, started with
// posix_spawn, which is safe in a process with threads (a forked copy could
// inherit a lock another thread held: the Graphviz mutex, the allocator's).
// When Graphviz 2.43's dot fails to rank a graph ("trouble in init_rank":
// loco-fig9c's executions did, before non-po edges got floating labels) it
// corrupts its heap, and a later allocation aborts; such a crash must not take
// the checker with it. `why` gets the child's message.
ChildResult renderInChild(const Picture& g, const std::string& format, const std::string& path,
                          const char* engine, std::string& why) {
    const FdCloser job{jobFile(jobRecord(g, format, path, engine).dump())};
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    FdCloser readEnd{fds[0]}, writeEnd{fds[1]};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, job.fd, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    // Default signal handling and no blocked signal in the child, whatever this thread has.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    std::vector<char*> environment;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, kRenderChild, std::strlen(kRenderChild)) != 0) environment.push_back(*e);
    std::string parent = std::string(kRenderChild) + "=" + std::to_string(::getpid());
    environment.push_back(parent.data());
    environment.push_back(nullptr);
    char name[] = "rdmacheck-render";
    char* argv[] = {name, nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environment.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) throw std::runtime_error(std::string("cannot start the render process: ") + std::strerror(spawned));
    ::close(writeEnd.fd);
    writeEnd.fd = -1;
    why = readAll(readEnd.fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return ChildResult::Done;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2) return ChildResult::Failed;
    if (WIFSIGNALED(status))
        why = std::string("Graphviz ") + engine + " crashed on graph '" + g.name + "' (signal " +
              std::to_string(WTERMSIG(status)) + ")";
    return ChildResult::LayoutFailed;
}

}  // namespace

void renderGraph(const Picture& g, const std::string& format, const std::string& path) {
    if (format != "svg" && format != "png")
        throw std::runtime_error("unsupported graph format '" + format + "' (use svg or png)");
    // Graphviz does not always report a file it cannot open: find out first.
    {
        std::ofstream probe(path, std::ios::binary);
        if (!probe) throw std::runtime_error("cannot open " + path + " for writing: " + std::strerror(errno));
    }
    // No empty or half-written picture is left behind when Graphviz fails.
    struct RemoveUnlessDone {
        const std::string& path;
        bool done = false;
        ~RemoveUnlessDone() {
            std::error_code ec;
            if (!done) fs::remove(path, ec);
        }
    } output{path};
    // dot draws ranked pictures; where it fails, neato still draws the graph.
    std::string why;
    ChildResult result = renderInChild(g, format, path, "dot", why);
    if (result == ChildResult::LayoutFailed) {
        std::string neatoWhy;
        result = renderInChild(g, format, path, "neato", neatoWhy);
        if (result != ChildResult::Done) why += "; then " + neatoWhy;
    }
    if (result != ChildResult::Done) throw std::runtime_error(why);
    output.done = true;
}

void writePicture(const Picture& g, const std::string& dir, const std::string& stem, const std::string& format) {
    fs::create_directories(dir);
    writeDot(g, dir + "/" + stem + ".dot");
    if (!format.empty()) renderGraph(g, format, dir + "/" + stem + "." + format);
}

}  // namespace rdmacheck

// LeakSanitizer: Graphviz 2.42 (Debian 12) leaks inside its own code on every layout, whatever the caller
// frees: dot's cluster handling never frees its virtual nodes and edges (dot_mincross), gvContext keeps no
// pointer to the plugin configuration it read (gvconfig), and the pango plugin's label sizing leaks fontconfig
// patterns (textspan_size). libgvc is built without frame pointers, so with ASan's default fast unwinder
// these stacks stop at Graphviz's allocator (gmalloc/grealloc): that is what must be matched. Memory that
// cgraph allocates (graphs, nodes, edges, attributes: a forgotten agclose) is still reported.
#if defined(__SANITIZE_ADDRESS__)
#define RDMACHECK_LSAN_SUPPRESSIONS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RDMACHECK_LSAN_SUPPRESSIONS 1
#endif
#endif
#ifdef RDMACHECK_LSAN_SUPPRESSIONS
extern "C" const char* __lsan_default_suppressions() {
    return "leak:gmalloc\n"
           "leak:grealloc\n"
           "leak:libgvplugin_pango.so\n"
           "leak:libfontconfig.so\n";
}
#endif
