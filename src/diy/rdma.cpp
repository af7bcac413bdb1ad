// RDMA cycles (doc/diy.md, "RDMA"): an event of a cycle is one of RDMA^TSO's
// memory events (the RDMA^TSO paper, §3): a CPU read or write of the thread's
// node (lR, lW), a put's local read and remote write (nlR, nrW), a get's remote
// read and local write (nrR, nlW). Program-order edges name both events, the
// same or another location (s, d: between two operations' events, one queue
// pair; n: two operations towards two nodes, two queue pairs) and what stands
// between them (nothing, mfence, the polls that complete the first event's
// operation, an rfence towards its node); Put and Get join an operation's
// halves. Nodes follow from who accesses what.
#include "rdma.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include "cycle.hpp"

namespace rdmacheck::diy {

namespace {

char directionOf(const std::string& kind) { return kind.back(); }
bool isRemote(const std::string& kind) { return kind == "nrW" || kind == "nrR"; }
bool isNic(const std::string& kind) { return kind[0] == 'n'; }
bool isCpu(const std::string& kind) { return kind == "lR" || kind == "lW"; }

// Which pairs of events a program-order edge of `place` (s, d, n) relates.
bool placeFits(char place, const std::string& a, const std::string& b) {
    if (place == 's') return isRemote(a) == isRemote(b);  // one location: one side of the network
    if (place == 'n') return isNic(a) && isNic(b);
    return true;
}

using Order = std::pair<const char*, DiyEdge::Kind>;
const Order kOrders[] = {{"Po", DiyEdge::Kind::Po},
                         {"MFence", DiyEdge::Kind::Fence},
                         {"Poll", DiyEdge::Kind::Poll},
                         {"Rfence", DiyEdge::Kind::Rfence}};

// The program-order edge `order` at `place` from kind a to kind b, where it
// fits: polls and rfences follow an operation's event.
std::optional<DiyEdge> programOrder(const Order& order, char place, const std::string& a, const std::string& b) {
    const bool afterOperation = order.second == DiyEdge::Kind::Poll || order.second == DiyEdge::Kind::Rfence;
    if (!placeFits(place, a, b) || (afterOperation && !isNic(a))) return std::nullopt;
    return DiyEdge{order.first + std::string(1, place) + a + b, order.second, false, place == 's', directionOf(a),
                   directionOf(b), a, b, place == 'n'};
}

// The kinds of the cycle's events: the memory events, and a CPU
// compare-and-swap's read and write (aR, aW), joined by Rmw into one CAS.
std::vector<std::string> allKinds() {
    std::vector<std::string> out = rdmaMemoryKinds();
    out.insert(out.end(), {"aR", "aW"});
    return out;
}

bool isCas(const std::string& kind) { return kind == "aR" || kind == "aW"; }

}  // namespace

std::optional<DiyEdge> edgeBeyondPool(const std::string& name) {
    if (name == "Rmw") return DiyEdge{"Rmw", DiyEdge::Kind::Rmw, false, true, 'R', 'W', "aR", "aW"};
    for (DiyEdge e : communicationEdges())
        for (const std::string& a : allKinds())
            for (const std::string& b : allKinds())
                if (name == e.name + a + b && directionOf(a) == e.from && directionOf(b) == e.to) {
                    e.name = name;
                    e.fromEvent = a;
                    e.toEvent = b;
                    return e;
                }
    for (const Order& order : kOrders)
        for (char place : {'s', 'd', 'n'})
            for (const std::string& a : allKinds())
                for (const std::string& b : allKinds())
                    if (isCas(a) || isCas(b))
                        if (std::optional<DiyEdge> e = programOrder(order, place, a, b); e && e->name == name) return e;
    return std::nullopt;
}

std::vector<DiyEdge> rdmaEdges() {
    std::vector<DiyEdge> out;
    for (const Order& order : kOrders)
        for (char place : {'s', 'd', 'n'})
            for (const std::string& a : rdmaMemoryKinds())
                for (const std::string& b : rdmaMemoryKinds())
                    if (std::optional<DiyEdge> e = programOrder(order, place, a, b)) out.push_back(*e);
    for (const DiyEdge& e : communicationEdges()) out.push_back(e);
    out.push_back({"Put", DiyEdge::Kind::Put, false, false, 'R', 'W', "nlR", "nrW"});
    out.push_back({"Get", DiyEdge::Kind::Get, false, false, 'R', 'W', "nrR", "nlW"});
    return out;
}

namespace {

// Event i's kind: as an edge around it names it, else a CPU access.
std::string eventKind(const CycleShape& s, size_t i) {
    if (!s.edge(i).fromEvent.empty()) return s.edge(i).fromEvent;
    if (!s.edge(i - 1).toEvent.empty()) return s.edge(i - 1).toEvent;
    return s.event(i).dir == 'W' ? "lW" : "lR";
}

bool copies(const DiyEdge& into) { return into.kind == DiyEdge::Kind::Put || into.kind == DiyEdge::Kind::Get; }

// A thread's internal edge in a test's name: diy7's word between CPU events
// and for rfi, fri, wsi; an RDMA edge by its own name.
std::string rdmaWord(const DiyEdge& e) {
    const bool programOrder = e.kind == DiyEdge::Kind::Po || e.kind == DiyEdge::Kind::Fence;
    const bool communication = e.kind == DiyEdge::Kind::Rf || e.kind == DiyEdge::Kind::Fr || e.kind == DiyEdge::Kind::Ws;
    const bool cpu = e.fromEvent.empty() || (isCpu(e.fromEvent) && isCpu(e.toEvent));
    return (communication || programOrder) && cpu ? diy7Word(e) : e.name;
}

// Sets of nodes joined (one node) or kept apart (two nodes).
class NodeClasses {
public:
    explicit NodeClasses(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
    size_t find(size_t a) { return parent_[a] == a ? a : parent_[a] = find(parent_[a]); }
    void join(size_t a, size_t b) { parent_[find(a)] = find(b); }
    void keepApart(size_t a, size_t b, std::string why) { apart_.push_back({a, b, std::move(why)}); }
    // False, with the reason, when two kept apart were joined.
    bool consistent(std::string& why) {
        for (const Apart& p : apart_)
            if (find(p.a) == find(p.b)) {
                why = p.why;
                return false;
            }
        return true;
    }
    // Nodes 1, 2, ... in the order of the used elements' first appearance
    // (0 for the others).
    std::vector<int> numbered(const std::vector<bool>& used) {
        std::map<size_t, int> number;
        std::vector<int> out;
        for (size_t e = 0; e < parent_.size(); ++e)
            out.push_back(used[e] ? number.emplace(find(e), static_cast<int>(number.size()) + 1).first->second : 0);
        return out;
    }

private:
    struct Apart {
        size_t a, b;
        std::string why;
    };
    std::vector<size_t> parent_;
    std::vector<Apart> apart_;
};

// The RDMA test of a shape: its nodes, then each thread's statements and the
// condition's atoms.
class RdmaWriter {
public:
    explicit RdmaWriter(const CycleShape& shape) : s_(shape) {}

    bool placeNodes(std::string& why);
    std::string text(const std::string& name);

private:
    std::string kindOf(size_t i) const;
    size_t targetElement(size_t i, size_t threads, size_t own) const;
    void statement(size_t i, std::vector<std::string>& out);
    void fenceAfter(size_t i, std::vector<std::string>& out);
    // A location of the test's own (a register, a put's target, a get's source).
    std::string fresh(const std::string& stem, int node, const std::string& init);
    std::string remote(int location) const {
        return locationName(location) + "^" + std::to_string(home_[location]);
    }
    // Event i's operation goes to `node` (and so does its second half, if in the cycle).
    void operation(size_t i, int node) {
        target_[i] = node;
        if (copies(s_.edge(i))) target_[(i + 1) % s_.size()] = node;
        ++pending_[s_.event(i).thread][node];
    }

    const CycleShape& s_;
    std::vector<int> nodeOf_, home_;  // per thread, per location of the cycle
    std::vector<int> ownTarget_;  // per event of an operation whose other half is not in the cycle: its node
    std::vector<int> target_;  // per event of an operation: the node it goes to
    std::vector<std::map<int, int>> pending_;  // per thread, per node: operations not polled
    std::vector<std::string> declarations_, atoms_;
    std::map<std::string, int> freshCount_;  // by stem: r, u, s
};

std::string RdmaWriter::kindOf(size_t i) const { return eventKind(s_, i); }

// Where event i's operation goes: the location of its remote half, or (that
// half not in the cycle) a node of its own, element `own`.
size_t RdmaWriter::targetElement(size_t i, size_t threads, size_t own) const {
    const std::string kind = kindOf(i);
    if (isRemote(kind)) return threads + static_cast<size_t>(s_.event(i).location);
    if (kind == "nlR" && s_.edge(i).kind == DiyEdge::Kind::Put) return threads + static_cast<size_t>(s_.event(i + 1).location);
    if (kind == "nlW" && s_.edge(i - 1).kind == DiyEdge::Kind::Get) return threads + static_cast<size_t>(s_.event(i - 1).location);
    return own;
}

// A CPU access, a put's read or a get's write is on the thread's node; a
// remote access, and an operation's target, on another. Two operations of a
// thread joined by a `d` edge go to one node (one queue pair), by an `n` edge
// to two.
bool RdmaWriter::placeNodes(std::string& why) {
    const size_t threads = s_.threads(), n = s_.size(), locations = static_cast<size_t>(s_.locations());
    NodeClasses nodes(threads + locations + n);
    auto target = [&](size_t i) { return targetElement(i % n, threads, threads + locations + i % n); };
    std::vector<bool> used(threads + locations, true);
    used.resize(threads + locations + n, false);
    for (size_t i = 0; i < n; ++i) used[target(i)] = used[target(i)] || isNic(kindOf(i));
    for (size_t i = 0; i < n; ++i) {
        const CycleEvent& e = s_.event(i);
        const size_t thread = static_cast<size_t>(e.thread), location = threads + static_cast<size_t>(e.location);
        const std::string who = kindOf(i) + " of " + locationName(e.location) + " by P" + std::to_string(e.thread);
        if (!isRemote(kindOf(i))) nodes.join(thread, location);
        else nodes.keepApart(thread, location, who + " would access its own node");
        if (isNic(kindOf(i)) && !isRemote(kindOf(i))) nodes.keepApart(thread, target(i), who + " would go to its own node");
        const DiyEdge& next = s_.edge(i);
        if (next.external || next.sameLocation || copies(next) || !isNic(kindOf(i)) || !isNic(kindOf(i + 1))) continue;
        if (next.otherNode) nodes.keepApart(target(i), target(i + 1), next.name + " would go to one node");
        else nodes.join(target(i), target(i + 1));
    }
    if (!nodes.consistent(why)) return false;
    const std::vector<int> number = nodes.numbered(used);
    nodeOf_.assign(number.begin(), number.begin() + static_cast<long>(threads));
    home_.assign(number.begin() + static_cast<long>(threads), number.begin() + static_cast<long>(threads + locations));
    ownTarget_.assign(number.begin() + static_cast<long>(threads + locations), number.end());
    return true;
}

std::string RdmaWriter::fresh(const std::string& stem, int node, const std::string& init) {
    const std::string name = stem + std::to_string(freshCount_[stem]++);
    declarations_.push_back(name + "@" + std::to_string(node) + init);
    return name;
}

// The statement of event i (a put or a get with both halves in the cycle is
// written at its first), its atom if it reads a value the cycle fixes.
void RdmaWriter::statement(size_t i, std::vector<std::string>& out) {
    const CycleEvent& e = s_.event(i);
    const std::string kind = kindOf(i), loc = locationName(e.location), value = std::to_string(e.value);
    const int node = nodeOf_[e.thread];
    auto observe = [&](const std::string& where) {
        if (e.value >= 0) atoms_.push_back(where + " = " + value);
    };
    if (copies(s_.edge(i - 1)) || kind == "aW") return;  // written with its read
    if (kind == "aR") {  // with its write (Rmw): a CAS that succeeds where the cycle reads the value expected
        const std::string r = fresh("r", node, "");
        out.push_back(r + " := CAS(" + loc + ", " + value + ", " + std::to_string(s_.event(i + 1).value) + ")");
        observe(r);
    } else if (kind == "lW") {
        out.push_back(loc + " := " + value);
    } else if (kind == "lR") {
        const std::string r = fresh("r", node, "");
        out.push_back(r + " := " + loc);
        observe(r);
    } else if (kind == "nlR") {
        const bool whole = s_.edge(i).kind == DiyEdge::Kind::Put;
        const int to = whole ? home_[s_.event(i + 1).location] : ownTarget_[i];
        const std::string target = whole ? locationName(s_.event(i + 1).location) : fresh("u", to, " = 0");
        if (!whole) observe(target);
        out.push_back(target + "^" + std::to_string(to) + " := " + loc);
        operation(i, to);
    } else if (kind == "nrW") {
        out.push_back(remote(e.location) + " := " + value);
        operation(i, home_[e.location]);
    } else if (kind == "nrR") {
        const bool whole = s_.edge(i).kind == DiyEdge::Kind::Get;
        const std::string into = whole ? locationName(s_.event(i + 1).location) : fresh("r", node, "");
        if (!whole) observe(into);
        out.push_back(into + " := " + remote(e.location));
        operation(i, home_[e.location]);
    } else {  // nlW: a get from a location of its own that holds the value
        const int from = ownTarget_[i];
        out.push_back(loc + " := " + fresh("s", from, " = " + value) + "^" + std::to_string(from));
        operation(i, from);
    }
}

// What an internal edge puts between its events: mfence, the polls that
// complete every operation of the thread to the first event's node so far
// (poll(n) completes the oldest one), or an rfence towards that node.
void RdmaWriter::fenceAfter(size_t i, std::vector<std::string>& out) {
    const DiyEdge& e = s_.edge(i);
    if (e.external) return;
    if (e.kind == DiyEdge::Kind::Fence) out.push_back("mfence");
    if (e.kind != DiyEdge::Kind::Poll && e.kind != DiyEdge::Kind::Rfence) return;
    const int node = target_[i];
    const std::string n = std::to_string(node);
    if (e.kind == DiyEdge::Kind::Rfence) {
        out.push_back("rfence(" + n + ")");
        return;
    }
    for (int& left = pending_[s_.event(i).thread][node]; left > 0; --left) out.push_back("poll(" + n + ")");
}

std::string RdmaWriter::text(const std::string& name) {
    target_.assign(s_.size(), 0);
    pending_.assign(s_.threads(), {});
    std::vector<std::vector<std::string>> code(s_.threads());
    for (size_t i = 0; i < s_.size(); ++i) {
        statement(i, code[s_.event(i).thread]);
        fenceAfter(i, code[s_.event(i).thread]);
    }
    std::vector<std::string> finals;
    for (const auto& [location, value] : s_.finals()) finals.push_back(locationName(location) + " = " + std::to_string(value));
    for (int l = 0; l < s_.locations(); ++l)  // a location whose one write is a copy: what the copy read
        if (s_.coherence(l).size() == 1 && copies(s_.edge(s_.coherence(l)[0] - 1)))
            finals.push_back(locationName(l) + " = " + std::to_string(s_.event(s_.coherence(l)[0]).value));
    std::sort(finals.begin(), finals.end());
    finals.insert(finals.end(), atoms_.begin(), atoms_.end());
    std::ostringstream out;
    out << "RDMA " << name << "\n\"" << s_.edgeList() << "\"\n{ ";
    for (int l = 0; l < s_.locations(); ++l) out << locationName(l) << "@" << home_[l] << " = 0; ";
    for (const std::string& d : declarations_) out << d << "; ";
    out << "}\n";
    for (size_t t = 0; t < code.size(); ++t) {
        out << "\nP" << t << "@" << nodeOf_[t] << " {\n";
        for (const std::string& line : code[t]) out << "  " << line << ";\n";
        out << "}\n";
    }
    out << "\nexists (";
    for (size_t a = 0; a < finals.size(); ++a) out << (a ? " /\\ " : "") << finals[a];
    out << ")\n";
    return out.str();
}

}  // namespace

std::optional<DiyTest> rdmaTest(const std::vector<DiyEdge>& cycle, std::string& why) {
    CycleShape shape;
    if (!shape.build(cycle, why, copies)) return std::nullopt;
    for (size_t i = 0; i < shape.size(); ++i)
        if ((eventKind(shape, i) == "aR") != (shape.edge(i).kind == DiyEdge::Kind::Rmw) ||
            (eventKind(shape, i) == "aW") != (shape.edge(i - 1).kind == DiyEdge::Kind::Rmw)) {
            why = "a CAS's read aR and write aW go together, joined by Rmw";
            return std::nullopt;
        }
    RdmaWriter writer(shape);
    if (!writer.placeNodes(why)) return std::nullopt;
    // A thread of one operation's half is named by its kind (WRC+nrW+po+po), not as the CPU access.
    const std::string name = shape.name(rdmaWord, [&](size_t i) {
        const std::string kind = eventKind(shape, i);
        return isNic(kind) ? kind : "";
    });
    return DiyTest{name, shape.edgeList(), writer.text(name), shape.size()};
}

}  // namespace rdmacheck::diy
