#include "rdmacheck/names.hpp"

#include <algorithm>
#include "rdmacheck/choices.hpp"

namespace rdmacheck {

namespace {

std::string condBody(const Cond& c, Cond::Kind parent, const std::vector<std::string>& addresses, int hexBits) {
    switch (c.kind) {
        case Cond::Kind::True: return "true";
        case Cond::Kind::False: return "false";
        // Negations as herd7 prints them: `x!=1` and `~x=1` are `not (x=1)`.
        case Cond::Kind::Atom: {
            const std::string atom = shownName(ObservedName{c.loc, c.thread, c.where}) + "=" +
                                     (c.sameAs ? shownName(*c.sameAs) : valueText(c.value, addresses, hexBits));
            return c.equal ? atom : "not (" + atom + ")";
        }
        case Cond::Kind::Not: return "not (" + condBody(c.args[0], Cond::Kind::True, addresses, hexBits) + ")";
        case Cond::Kind::Or:
            if (c.implication) {  // as herd7 prints it: /\ and \/ chains on either side parenthesised
                auto side = [&](const Cond& d) {
                    const bool chain = (d.kind == Cond::Kind::And || d.kind == Cond::Kind::Or) && !d.implication;
                    return chain ? "(" + condBody(d, Cond::Kind::True, addresses, hexBits) + ")"
                                 : condBody(d, Cond::Kind::True, addresses, hexBits);
                };
                const std::string s = side(c.args[0].args[0]) + " => " + side(c.args[1]);
                return parent == Cond::Kind::And || parent == Cond::Kind::Or ? "(" + s + ")" : s;
            }
            [[fallthrough]];
        case Cond::Kind::And: {
            std::string sep = c.kind == Cond::Kind::And ? " /\\ " : " \\/ ";
            std::string s;
            for (size_t i = 0; i < c.args.size(); ++i) s += (i ? sep : "") + condBody(c.args[i], c.kind, addresses, hexBits);
            // `\/` inside `/\`, and explicitly grouped same-operator chains, keep their parentheses.
            bool paren = parent == Cond::Kind::And || (parent == Cond::Kind::Or && c.kind == Cond::Kind::Or);
            return paren ? "(" + s + ")" : s;
        }
    }
    return "";
}

const char* quantifierWord(Quantifier q) {
    switch (q) {
        case Quantifier::Exists: return "exists";
        case Quantifier::NotExists: return "~exists";
        case Quantifier::Forall: return "forall";
    }
    return "";
}

std::string letters(int k) {
    std::string s;
    do {
        s.insert(s.begin(), static_cast<char>('a' + k % 26));
        k = k / 26 - 1;
    } while (k >= 0);
    return s;
}

std::string locationText(const std::vector<Location>& locations, const Event& e) {
    if (e.location < 0) return "";
    return locations[e.location].name;
}

}  // namespace

std::string shownName(const ObservedName& n) {
    if (n.thread >= 0) return std::to_string(n.thread) + ":" + n.name;
    // An SV copy x@2 prints as x.2: herdtools' log lexer takes '.' in names, not
    // '@', and no litmus location has a '.'.
    std::string name = n.name;
    std::replace(name.begin(), name.end(), '@', '.');
    return "[" + name + "]";
}

std::string conditionText(Quantifier q, const Cond& c, const std::vector<std::string>& addresses, int hexBits) {
    return std::string(quantifierWord(q)) + " (" + condBody(c, Cond::Kind::True, addresses, hexBits) + ")";
}

std::string stateLine(const std::vector<ObservedName>& shown, const FinalState& s,
                      const std::vector<std::string>& addresses, int hexBits) {
    std::string line;
    for (size_t i = 0; i < shown.size(); ++i)
        line += (i ? " " : "") + shownName(shown[i]) + "=" + valueText(s[i], addresses, hexBits) + ";";
    return line;
}

std::string eventName(const ExecutionGraph& ex, int event) {
    if (isInitEvent(ex.events[event])) return "init";
    int firstThreadEvent = 0;
    while (isInitEvent(ex.events[firstThreadEvent])) ++firstThreadEvent;
    return letters(event - firstThreadEvent);
}

std::string eventLabel(const ExecutionGraph& ex, const std::vector<Location>& locations,
                       const std::vector<std::string>& addresses, int event) {
    const Event& e = ex.events[event];
    const std::string loc = locationText(locations, e);
    auto text = [&](long long v) { return valueText(v, addresses); };
    if (isInitEvent(e)) return "init " + loc + "=" + text(e.written.eval(ex.readValues));
    std::string label = eventName(ex, event) + ": " + kindName(e.kind);
    if (e.kind == EventKind::CAS) {
        label += " " + loc + " " + text(ex.readValues[event]) + "→" + text(e.written.eval(ex.readValues));
    } else if (isWrite(e.kind)) {
        label += " " + loc + "=" + text(e.written.eval(ex.readValues));
    } else if (isRead(e.kind)) {
        label += " " + loc + "=" + text(ex.readValues[event]);
    }
    if (e.remote != 0) label += " →" + std::to_string(e.remote);
    return label;
}

std::string choiceText(const ExecutionGraph& ex) {
    std::string nfo;
    for (auto [a, b] : ex.nfo) nfo += (nfo.empty() ? "" : ", ") + eventName(ex, a) + "→" + eventName(ex, b);
    std::string text = nfo.empty() ? "" : "nfo " + nfo;
    for (const ChosenRelation& c : chosenRelations()) {
        std::string chain;
        for (const auto& [group, order] : ex.orderOf(c.name)) {
            if (order.size() < 2) continue;
            if (!chain.empty()) chain += "; ";
            for (size_t i = 0; i < order.size(); ++i) chain += (i ? "→" : "") + eventName(ex, order[i]);
        }
        if (!chain.empty()) text += (text.empty() ? "" : ", ") + c.name + " " + chain;
    }
    return text;
}

// herd7's X86 notation: `b: R[y]=0 (EAX)`, `a: W[x]=1`, `c: MFENCE`, an
// XCHG's `RMW[x]=0→1`; a read names the register that keeps its value.
std::string x86Label(const ExecutionGraph& ex, const std::vector<Location>& locations,
                     const std::vector<std::string>& addresses, int event) {
    const Event& e = ex.events[event];
    if (isInitEvent(e)) return eventLabel(ex, locations, addresses, event);
    auto text = [&](long long v) { return valueText(v, addresses); };
    const std::string loc = "[" + locations[e.location < 0 ? 0 : e.location].name + "]";
    std::string label = eventName(ex, event) + ": ";
    if (e.kind == EventKind::F)
        return label + (e.weakFence == WeakFence::Store ? "SFENCE" : e.weakFence == WeakFence::Load ? "LFENCE" : "MFENCE");
    if (e.kind == EventKind::CAS) {
        label += "RMW" + loc + "=" + text(ex.readValues[event]) + "→" + text(e.written.eval(ex.readValues));
    } else if (isRead(e.kind)) {
        label += "R" + loc + "=" + text(ex.readValues[event]);
    } else {
        return label + "W" + loc + "=" + text(e.written.eval(ex.readValues));
    }
    for (const auto& [reg, value] : ex.registers[e.thread])  // a '@' names one of rdmacheck's own (CMP@left)
        if (value.kind == Value::Kind::Read && value.event == event && !value.isReceived() &&
            reg.find('@') == std::string::npos)
            label += " (" + reg + ")";
    return label;
}

std::string herdRelationName(const std::string& relation) {
    return relation == "mo" ? "co" : relation == "rb" ? "fr" : relation;
}

namespace {

void spellMoAsCo(ModelExpr& e, const Model& model) {
    if (e.op == ModelExpr::Op::Name && e.name == "mo" && !model.definition(e.name)) e.name = "co";
    for (ModelExpr& a : e.args) spellMoAsCo(a, model);
}

}  // namespace

std::string relationText(const ModelExpr& e, const Model& model) {
    if (!model.generatesCo) return e.text();
    ModelExpr spelled = e;
    spellMoAsCo(spelled, model);
    return spelled.text();
}

std::string cycleText(const ExecutionGraph& ex, const std::vector<Location>& locations, const Cycle& cycle,
                      const std::vector<std::string>* x86Addresses) {
    if (cycle.edges.empty()) return "(a negated check: no pair, cycle or loop where one is required)";
    std::string text;
    for (const RelationEdge& e : cycle.edges) {
        if (x86Addresses) {
            text += x86Label(ex, locations, *x86Addresses, e.from) + " →" + herdRelationName(e.relation) + " ";
            continue;
        }
        const Event& ev = ex.events[e.from];
        text += eventName(ex, e.from) + ":" + kindName(ev.kind);
        const std::string loc = locationText(locations, ev);
        if (!loc.empty()) text += " " + loc;
        text += " →" + e.relation + " ";
    }
    return text + eventName(ex, cycle.closed ? cycle.edges.front().from : cycle.edges.back().to);
}

}  // namespace rdmacheck
