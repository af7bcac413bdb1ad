#include "rdmacheck/robust_report.hpp"

#include "rdmacheck/print.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck {

namespace {

// The warning of a loop the unroll bound cut, in the text and the JSON.
constexpr const char* kRobustUpToBound = "loop unrolled to the bound; robust up to it only";

// As doc/model-notes.md §N25 writes events: "d:lR y=0", "g:nrW y=1", "h:P(1)".
std::string eventText(const RobustnessWitness& w, int e) {
    const Event& ev = w.execution.events[e];
    std::string text = eventName(w.execution, e) + ":" + kindName(ev.kind);
    if (ev.location < 0) return text + (ev.remote ? "(" + std::to_string(ev.remote) + ")" : "");
    const long long value = isRead(ev.kind) ? w.execution.readValues[e] : ev.written.eval(w.execution.readValues);
    return text + " " + w.locations[ev.location].name + "=" + std::to_string(value);
}

std::string boundText(const RobustnessResult& r) {
    return r.cutLoops.empty() ? "" : " (up to unroll " + std::to_string(r.unroll) + ")";
}

std::string observableText(const RobustAnswer& a) {
    const std::string state = a.result.witness->cut() ? "state at the cut" : "final state";
    if (!a.observable) return "unknown (" + a.observableNote + ")";
    return *a.observable ? "yes (this " + state + " is not reachable under sc)"
                         : "no (sc reaches this " + state + " too: the violation is in the trace only)";
}

void printRepaired(std::ostream& out, const Repair& repair) {
    std::vector<std::string> insertions;
    for (const Insertion& i : repair.insertions) insertions.push_back(i.text());
    out << "Repaired " << joined(insertions, "; ") << "\n";
    if (!repair.replaced.empty()) out << "Replaced " << joined(repair.replaced, "; ") << " (nothing left to poll)\n";
    if (repair.file.empty()) {
        out << printLitmus(repair.program);
    } else {
        out << "Written " << repair.file << "\n";
    }
}

// A search a limit stopped says how far it got: no repair is smaller than
// the size it was at, and there may be more of that size than it printed.
void printRepair(std::ostream& out, const std::string& testName, const RepairResult& r) {
    out << "Repair " << testName << " ";
    if (!r.stopped.empty()) {
        out << "stopped (" << r.stopped << ") after " << counted(r.candidates, "candidate") << " checked, at sets of "
            << counted(r.size, "insertion") << ": none smaller";
        if (!r.repairs.empty()) out << "; " << counted(r.repairs.size(), "repair") << " of that size so far";
        out << "\n";
    } else if (r.repairs.empty()) {
        out << "none within " << counted(r.maxInsertions, "insertion") << " (" << counted(r.candidates, "candidate")
            << " checked)\n";
    } else {
        out << counted(r.repairs.front().insertions.size(), "insertion") << ", "
            << counted(r.repairs.size(), "smallest repair") << " (" << counted(r.candidates, "candidate")
            << " checked)\n";
    }
    for (const Repair& repair : r.repairs) printRepaired(out, repair);
}

nlohmann::json witnessJson(const RobustnessWitness& w) {
    nlohmann::json cuts = nlohmann::json::array(), cycle = nlohmann::json::array(),
                   relaxed = nlohmann::json::array();
    for (const ThreadCut& cut : w.cuts) cuts.push_back({{"thread", cut.thread}, {"kept", cut.kept}, {"length", cut.length}});
    auto event = [&](int e) { return eventLabel(w.execution, w.locations, w.addresses, e); };
    for (const RelationEdge& e : w.cycle)
        cycle.push_back({{"from", event(e.from)}, {"to", event(e.to)}, {"relation", e.relation}});
    for (const RelaxedSegment& s : w.relaxed)
        relaxed.push_back({{"from", event(s.entry)}, {"to", event(s.exit)}, {"cell", s.cell}});
    return {{"cuts", cuts}, {"cut", w.cut()}, {"state", stateLine(w.names, w.state, w.addresses)},
            {"cycle", cycle}, {"relaxed", relaxed}};
}

nlohmann::json repairJson(const RepairResult& r) {
    nlohmann::json repairs = nlohmann::json::array();
    for (const Repair& repair : r.repairs) {
        nlohmann::json insertions = nlohmann::json::array();
        for (const Insertion& i : repair.insertions) insertions.push_back(i.text());
        nlohmann::json one = {{"insertions", insertions}, {"program", printLitmus(repair.program)}};
        if (!repair.replaced.empty()) one["replaced"] = repair.replaced;
        if (!repair.file.empty()) one["file"] = repair.file;
        repairs.push_back(std::move(one));
    }
    nlohmann::json j = {{"max_insertions", r.maxInsertions}, {"candidates", r.candidates}, {"repairs", repairs}};
    if (!r.stopped.empty()) {
        j["stopped"] = r.stopped;
        j["size"] = r.size;
    }
    return j;
}

// A robustness record with no answer yet: robust, witness and observable null.
nlohmann::json emptyRecord(const LitmusTest& test, const std::string& modelName, int unroll) {
    return {{"schema", kJsonSchema}, {"type", "robustness"}, {"version", RDMACHECK_VERSION},
            {"test", test.name},     {"file", test.file},    {"model", modelName},
            {"unroll", unroll},      {"robust", nullptr},    {"bound_cut", false},
            {"witness", nullptr},    {"observable", nullptr}, {"warnings", nlohmann::json::array()}};
}

}  // namespace

std::string cycleText(const RobustnessWitness& w) {
    std::string text;
    for (const RelationEdge& e : w.cycle) text += eventText(w, e.from) + " -" + e.relation + "-> ";
    return text + eventText(w, w.cycle.front().from);
}

std::string relaxedText(const RobustnessWitness& w) {
    std::string text;
    for (const RelaxedSegment& s : w.relaxed)
        text += (text.empty() ? "" : "; ") + eventText(w, s.entry) + " …→ " + eventText(w, s.exit) +
                (s.cell.empty() ? "" : " (" + s.cell + ")");
    return text;
}

std::string cutsText(const RobustnessWitness& w) {
    std::string text;
    for (const ThreadCut& cut : w.cuts)
        text += (text.empty() ? "" : " ") + cut.thread + ":" + std::to_string(cut.kept) + "/" + std::to_string(cut.length);
    return text;
}

void printRobustness(std::ostream& out, const RobustAnswer& a, bool showTime) {
    const RobustnessResult& r = a.result;
    out << "Robustness " << r.test << " " << (r.robust() ? "Robust" + boundText(r) : "NotRobust") << "\n"
        << "Model " << r.model << " against sc (trace robustness; prefixes; unroll " << r.unroll << ")\n";
    if (const auto& w = r.witness) {
        out << "Witness " << cutsText(*w) << "  " << (w->cut() ? "state at cut: " : "")
            << stateLine(w->names, w->state, w->addresses) << "\n"
            << "Cycle " << cycleText(*w) << "\n"
            << "Relaxed " << (w->relaxed.empty() ? "none (no po segment of the cycle is unordered)" : relaxedText(*w))
            << "\n"
            << "Observable " << observableText(a) << "\n";
    }
    if (showTime) out << timeLine(r.test, r.seconds);
    for (const SourceLoc& loop : r.cutLoops) out << "Warning: " << loop.str() << ": " << kRobustUpToBound << "\n";
    if (a.repair) printRepair(out, r.test, *a.repair);
    out << "\n";
}

nlohmann::json robustnessRecord(const LitmusTest& test, const RobustAnswer& a, bool showTime) {
    const RobustnessResult& r = a.result;
    nlohmann::json j = emptyRecord(test, r.model, r.unroll);
    j["robust"] = r.robust();
    j["bound_cut"] = !r.cutLoops.empty();
    j["warnings"] = cutLoopWarnings(r.cutLoops, kRobustUpToBound);
    if (r.witness) j["witness"] = witnessJson(*r.witness);
    if (a.observable) j["observable"] = *a.observable;
    if (a.repair) j["repair"] = repairJson(*a.repair);
    if (showTime) j["time"] = r.seconds;
    return j;
}

void printRobustnessUnknown(std::ostream& out, const LitmusTest& test, const std::string& modelName, int unroll,
                            const std::string& why, bool json) {
    if (!json) {
        out << "Robustness " << test.name << " Unknown (" << why << ")\n\n";
        return;
    }
    nlohmann::json j = emptyRecord(test, modelName, unroll);
    j["reason"] = why;
    out << dumpJson(j) << "\n";
}

}  // namespace rdmacheck
