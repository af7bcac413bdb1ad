#include "rdmacheck/draw.hpp"

#include <climits>
#include <map>
#include <set>
#include <sstream>

#include "rdmacheck/choices.hpp"
#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

// po, pf and every chosen relation (choices.hpp).
const std::set<std::string>& herdRelations() {
    static const std::set<std::string> names = [] {
        std::set<std::string> drawn = {"po", "pf"};
        for (const ChosenRelation& c : chosenRelations()) drawn.insert(c.name);
        return drawn;
    }();
    return names;
}

std::string eventId(int event) { return "e" + std::to_string(event); }

// An X86 test's picture names mo and rb as herd7's do: co and fr.
std::string shownRelation(const LitmusTest& test, const std::string& relation) {
    return test.arch == Arch::X86 ? herdRelationName(relation) : relation;
}

}  // namespace

std::set<std::string> defaultDrawnRelations(const Model& model) {
    std::set<std::string> names = herdRelations();
    for (const Definition& d : model.definitions)
        if (d.type == ExprType::Relation && d.name.size() > 3 && d.name.compare(d.name.size() - 3, 3, "-so") == 0)
            names.insert(d.name);
    return names;
}

namespace {

// What --edges can name beyond herd7's relations: the axioms, the clocks'
// members as the model writes them, and the model's definitions.
std::map<std::string, std::vector<ModelExpr>> modelRelations(const Model& model) {
    std::map<std::string, std::vector<ModelExpr>> named;
    for (const Clock& c : model.plan.clocks) {
        for (const ModelExpr& m : c.members) {
            named[relationText(m, model)] = {m};
            named[c.axiom].push_back(m);
        }
    }
    for (const Axiom& a : model.plan.general) named[a.name] = {a.expr};
    for (const Definition& d : model.definitions) {
        ModelExpr name;
        name.name = d.name;
        if (d.type == ExprType::Relation) named.emplace(d.name, std::vector<ModelExpr>{name});
    }
    return named;
}

}  // namespace

namespace {

bool isLibraryOrder(const std::string& name) {
    const ChosenRelation* c = findChosenRelation(name);
    return c && c->kind == ChoiceKind::GroupOrder;
}

// The names --edges takes, as a user reads them: a model in herd7's terms
// with co and fr for mo and rb and without RDMA's relations; a clock member
// (written as an expression) and a shadowed definition's inner name aside.
std::string knownNames(const std::set<std::string>& known, const Model& model) {
    std::set<std::string> shown;
    bool members = false;
    for (const std::string& k : known) {
        if (k.find('#') != std::string::npos) continue;
        if (k.find_first_of(" ;|&[]()^*+?\\") != std::string::npos) {
            members = true;
            continue;
        }
        if (model.herdEvents && (k == "pf" || k == "nfo" || isLibraryOrder(k))) continue;
        shown.insert(model.herdEvents ? herdRelationName(k) : k);
    }
    std::string all;
    for (const std::string& k : shown) all += (all.empty() ? "" : ", ") + k;
    return "known: " + all + (members ? "; or a member of an axiom's union, written as the model writes it" : "");
}

}  // namespace

std::set<std::string> parseDrawnRelations(const std::string& list, const Model& model) {
    std::set<std::string> known = herdRelations();
    for (const auto& [name, exprs] : modelRelations(model)) known.insert(name);
    std::set<std::string> chosen;
    std::istringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        const std::string herdName = name == "co" ? "mo" : name == "fr" ? "rb" : "";  // as X86 pictures label them
        if (!known.count(name) && known.count(herdName)) name = herdName;
        if (!known.count(name))
            throw InputError(SourceLoc{"--edges", 0, 0},
                             "unknown relation '" + name + "' for model " + model.name + " (" + knownNames(known, model) + ")");
        chosen.insert(name);
    }
    return chosen;
}

namespace {

// The box label of ev's call, which its library gives from the call's stamps
// (LOCO §3.3, §3.4, Def. 4.1); "" for a call of one event, which gets no box.
std::string callLabel(const ExecutionGraph& ex, const Event& ev) {
    std::set<EventKind> kinds;
    int size = 0;
    for (int e : ex.threadEvents[ev.thread])
        if (ex.events[e].call == ev.call) {
            kinds.insert(ex.events[e].kind);
            ++size;
        }
    return size < 2 ? "" : libraryDescriptor(ev.library).callLabel(kinds);
}

// herd7's transitivity removal (lib/innerRel.ml): each edge in turn is dropped
// when its ends stay connected without it. --edges ob drew all of ob's closure.
std::set<std::pair<int, int>> withoutTransitiveEdges(std::set<std::pair<int, int>> pairs) {
    auto connected = [&](int from, int to) {
        std::set<int> seen{from};
        std::vector<int> stack{from};
        while (!stack.empty()) {
            const int at = stack.back();
            stack.pop_back();
            for (auto it = pairs.lower_bound({at, INT_MIN}); it != pairs.end() && it->first == at; ++it) {
                if (it->second == to) return true;
                if (seen.insert(it->second).second) stack.push_back(it->second);
            }
        }
        return false;
    };
    for (const std::pair<int, int>& edge : std::set<std::pair<int, int>>(pairs)) {  // a copy: pairs shrinks
        pairs.erase(edge);
        if (!connected(edge.first, edge.second)) pairs.insert(edge);
    }
    return pairs;
}

}  // namespace

Picture drawExecution(const LitmusTest& test, const std::vector<Location>& locations, const ExecutionGraph& ex,
                      const Model& model, const std::set<std::string>& relations, const std::string& name,
                      const std::string& caption, const Cycle* cycle, bool showInit) {
    Picture g;
    g.name = name;
    g.caption = caption;
    std::set<int> onCycle;
    if (cycle) {
        g.cycleNote = "cycle: breaks " + cycle->axiom;
        for (const RelationEdge& e : cycle->edges) onCycle.insert({e.from, e.to});
    }
    // The constants of puts are hidden locations: their initial writes are never drawn.
    auto drawn = [&](int event) {
        const Event& ev = ex.events[event];
        return !isInitEvent(ev) || (!locations[ev.location].hidden && (showInit || onCycle.count(event)));
    };
    for (size_t e = 0; e < ex.events.size(); ++e) {
        const Event& ev = ex.events[e];
        if (!drawn(static_cast<int>(e))) continue;
        PictureEvent ge;
        ge.id = eventId(static_cast<int>(e));
        const bool x86 = test.arch == Arch::X86;
        ge.label = x86 ? x86Label(ex, locations, test.addresses, static_cast<int>(e))
                       : eventLabel(ex, locations, test.addresses, static_cast<int>(e));
        if (!isInitEvent(ev)) {
            ge.thread = ev.thread;
            ge.node = x86 ? 0 : test.threads[ev.thread].node;  // X86 has no nodes: no node box
            ge.threadName = test.threads[ev.thread].name;
            if (model.stamped) {
                ge.callLabel = callLabel(ex, ev);
                if (!ge.callLabel.empty()) ge.call = ev.call;
            }
        }
        g.events.push_back(ge);
    }
    auto add = [&](const RelationEdge& e, bool highlighted) {
        if (drawn(e.from) && drawn(e.to))
            g.edges.push_back({eventId(e.from), eventId(e.to), shownRelation(test, e.relation), highlighted});
    };
    for (const RelationEdge& e : executionEdges(ex))
        if (relations.count(e.relation)) add(e, false);
    const auto named = modelRelations(model);
    for (const std::string& relation : relations) {
        if (herdRelations().count(relation)) continue;
        std::set<std::pair<int, int>> pairs;
        for (const ModelExpr& e : named.at(relation)) {
            const auto more = evaluateRelation(model, e, ex);
            pairs.insert(more.begin(), more.end());
        }
        for (auto [from, to] : withoutTransitiveEdges(pairs))
            if (!isInitEvent(ex.events[from]) && !isInitEvent(ex.events[to])) add({from, to, relation}, false);
    }
    if (cycle)
        for (const RelationEdge& e : cycle->edges) add(e, true);
    return g;
}

Picture drawRobustnessWitness(const LitmusTest& test, const Model& model, const RobustnessWitness& w) {
    const Cycle cycle{"sc", w.cycle, true};
    Picture g = drawExecution(test, w.locations, w.execution, model, defaultDrawnRelations(model),
                              test.name + "-witness", test.name + ": not robust against SC under " + model.name, &cycle);
    for (const RelaxedSegment& s : w.relaxed)
        g.edges.push_back({eventId(s.entry), eventId(s.exit), "relaxed " + s.cell, false});
    return g;
}

RelationStyle relationStyle(const std::string& relation) {
    // The chosen relations are drawn as their registry entries say (choices.hpp).
    static const std::map<std::string, RelationStyle> styles = [] {
        std::map<std::string, RelationStyle> fixed{
            {"po", {"black", "solid"}},     {"pf", {"darkgreen", "dashed"}},
            {"ar;rao", {"brown", "dashed"}}, {"ippo", {"grey", "dashed"}}, {"ib", {"grey", "dashed"}},
            {"oppo", {"darkcyan", "dotted"}}, {"ob", {"darkcyan", "dotted"}},
        };
        for (const ChosenRelation& c : chosenRelations()) fixed[c.name] = {c.drawing.colour, c.drawing.style};
        fixed["co"] = fixed.at("mo");  // herd7's names (shownRelation)
        fixed["fr"] = fixed.at("rb");
        return fixed;
    }();
    auto it = styles.find(relation);
    if (it != styles.end()) return it->second;
    // A robustness witness's relaxed segments, "relaxed G1 ✗" (drawRobustnessWitness).
    return relation.rfind("relaxed", 0) == 0 ? RelationStyle{"red", "dashed"} : RelationStyle{"darkslategray", "solid"};
}

}  // namespace rdmacheck
