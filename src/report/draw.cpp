#include "rdmacheck/draw.hpp"

#include <set>
#include <sstream>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

const std::set<std::string>& herdRelations() {
    static const std::set<std::string> names = {"po", "rf", "mo", "rb", "pf", "nfo", "rao"};
    return names;
}

std::string eventId(int event) { return "e" + std::to_string(event); }

}  // namespace

std::set<std::string> defaultDrawnRelations() { return herdRelations(); }

std::set<std::string> parseDrawnRelations(const std::string& list, const Model& model) {
    std::set<std::string> known = herdRelations();
    for (const Clock& c : model.clocks) {
        known.insert(c.axiom);
        for (const ClockEdge& e : c.edges) known.insert(e.text);
    }
    std::set<std::string> chosen;
    std::istringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        if (!known.count(name)) {
            std::string all;
            for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
            throw InputError(SourceLoc{"--edges", 0, 0},
                             "unknown relation '" + name + "' for model " + model.name + " (known: " + all + ")");
        }
        chosen.insert(name);
    }
    return chosen;
}

namespace {

// The box label of ev's call, which its library gives from the call's stamps
// (MOWGLI.md §4.2, §5.1, §6.1); "" for a call of one event, which gets no box.
std::string callLabel(const Skeleton& sk, const Event& ev) {
    std::set<EventKind> kinds;
    int size = 0;
    for (int e : sk.threadEvents[ev.thread])
        if (sk.events[e].call == ev.call) {
            kinds.insert(sk.events[e].kind);
            ++size;
        }
    return size < 2 ? "" : libraryDescriptor(ev.library).callLabel(kinds);
}

}  // namespace

ExecutionGraph drawExecution(const LitmusTest& test, const std::vector<Location>& locations, const Skeleton& sk,
                             const Execution& ex, const Model& model, const std::set<std::string>& relations,
                             const std::string& name, const std::string& caption, const Cycle* cycle) {
    ExecutionGraph g;
    g.name = name;
    g.caption = caption;
    // The constants of puts are hidden locations: their initial writes are not drawn.
    auto drawn = [&](int event) { return !isInitEvent(sk.events[event]) || !locations[sk.events[event].location].hidden; };
    for (size_t e = 0; e < sk.events.size(); ++e) {
        const Event& ev = sk.events[e];
        if (!drawn(static_cast<int>(e))) continue;
        GraphEvent ge;
        ge.id = eventId(static_cast<int>(e));
        ge.label = eventLabel(sk, ex, locations, static_cast<int>(e));
        if (!isInitEvent(ev)) {
            ge.thread = ev.thread;
            ge.node = test.threads[ev.thread].node;
            ge.threadName = test.threads[ev.thread].name;
            if (model.stamped) {
                ge.callLabel = callLabel(sk, ev);
                if (!ge.callLabel.empty()) ge.call = ev.call;
            }
        }
        g.events.push_back(ge);
    }
    auto add = [&](const RelationEdge& e, bool highlighted) {
        if (drawn(e.from) && drawn(e.to)) g.edges.push_back({eventId(e.from), eventId(e.to), e.relation, highlighted});
    };
    for (const RelationEdge& e : executionEdges(sk, ex))
        if (relations.count(e.relation)) add(e, false);
    for (RelationEdge e : clockEdges(sk, ex, model)) {
        const std::string& axiom = model.clocks[e.clock].axiom;
        if (relations.count(axiom)) {
            e.relation = axiom;
            add(e, false);
        } else if (relations.count(e.relation) && !herdRelations().count(e.relation)) {
            add(e, false);
        }
    }
    if (cycle)
        for (const RelationEdge& e : cycle->edges) add(e, true);
    return g;
}

}  // namespace rdmacheck
