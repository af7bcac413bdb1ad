#include "robust_run.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "rdmacheck/draw.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/repair.hpp"
#include "rdmacheck/report.hpp"
#include "common.hpp"

namespace rdmacheck::cli {

namespace {

// The warning of a loop the unroll bound cut, in the text and the JSON.
constexpr const char* kRobustUpToBound = "loop unrolled to the bound; robust up to it only";

// One test's answers, for the text block and the JSON record alike.
struct RobustAnswer {
    RobustnessResult result;
    std::optional<bool> observable;  // the witness's state is out of sc's reach; none: sc could not tell
    std::string observableNote;      // why sc could not tell
    std::optional<RepairResult> repair;
};

void drawWitness(const LitmusTest& test, const Model& model, const RobustnessWitness& w, const std::string& dir,
                 const std::string& format) {
    const Cycle cycle{"sc", w.cycle, true};
    Picture g =
        drawExecution(test, w.locations, w.execution, model, defaultDrawnRelations(model), test.name + "-witness",
                      test.name + ": not robust against SC under " + model.name, &cycle);
    for (const RelaxedSegment& s : w.relaxed) addRelaxedSegment(g, s.entry, s.exit, s.cell);
    std::filesystem::create_directories(dir);
    writeDot(g, dir + "/" + test.name + "-witness.dot");
    if (!format.empty()) renderGraph(g, format, dir + "/" + test.name + "-witness." + format);
}

// sc has no events for some programs (remote RMWs), or no answer in the time
// left: then observability is unknown, and the verdict stands.
void decideObservable(const LitmusTest& test, const RobustRunOptions& options, const CheckOptions& check,
                      RobustAnswer& a) {
    try {
        const Model sc = loadModel(options.modelsDir, "sc", ModelOptions{{}, check.limits, test.file});
        a.observable = !scReachesState(test, *a.result.witness, sc, check);
    } catch (const InputError& e) {  // TimeoutError included
        a.observableNote = e.detail();
    }
}

// One --timeout per test: what the verdict leaves goes to the Observable query,
// then to the repair search.
RobustAnswer answer(const LitmusTest& test, const Model& model, const RobustRunOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    RobustAnswer a{checkRobustness(test, model, options.check), std::nullopt, "", std::nullopt};
    if (a.result.robust()) return a;
    decideObservable(test, options, withTimeLeft(options.check, start), a);
    if (!options.dotDir.empty()) drawWitness(test, model, *a.result.witness, options.dotDir, options.renderFormat);
    if (options.repair)
        a.repair = repairRobustness(test, model, withTimeLeft(options.check, start), *a.result.witness,
                                    options.repairMax);
    return a;
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
    out << printLitmus(repair.program);
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

void printText(std::ostream& out, const RobustAnswer& a, bool showTime) {
    const RobustnessResult& r = a.result;
    out << "Robustness " << r.test << " " << (r.robust() ? "Robust" + boundText(r) : "NotRobust") << "\n"
        << "Model " << r.model << " against sc (trace robustness; prefixes; unroll " << r.unroll << ")\n";
    if (const auto& w = r.witness) {
        out << "Witness " << cutsText(*w) << "  " << (w->cut() ? "state at cut: " : "")
            << stateLine(w->names, w->state) << "\n"
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

nlohmann::json witnessJson(const RobustnessWitness& w) {
    nlohmann::json cuts = nlohmann::json::array(), cycle = nlohmann::json::array(),
                   relaxed = nlohmann::json::array();
    for (size_t t = 0; t < w.cuts.size(); ++t)
        cuts.push_back({{"thread", "P" + std::to_string(t)}, {"kept", w.cuts[t].kept}, {"length", w.cuts[t].length}});
    auto event = [&](int e) { return eventLabel(w.execution, w.locations, e); };
    for (const RelationEdge& e : w.cycle)
        cycle.push_back({{"from", event(e.from)}, {"to", event(e.to)}, {"relation", e.relation}});
    for (const RelaxedSegment& s : w.relaxed)
        relaxed.push_back({{"from", event(s.entry)}, {"to", event(s.exit)}, {"cell", s.cell}});
    return {{"cuts", cuts}, {"cut", w.cut()}, {"state", stateLine(w.names, w.state)},
            {"cycle", cycle}, {"relaxed", relaxed}};
}

nlohmann::json repairJson(const RepairResult& r) {
    nlohmann::json repairs = nlohmann::json::array();
    for (const Repair& repair : r.repairs) {
        nlohmann::json insertions = nlohmann::json::array();
        for (const Insertion& i : repair.insertions) insertions.push_back(i.text());
        nlohmann::json one = {{"insertions", insertions}, {"program", printLitmus(repair.program)}};
        if (!repair.replaced.empty()) one["replaced"] = repair.replaced;
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

nlohmann::json record(const LitmusTest& test, const RobustAnswer& a, bool showTime) {
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

// A limit stopped the test: neither robust nor not (ROBUSTNESS.md §4.4).
void printUnknown(const LitmusTest& test, const std::string& modelName, const std::string& why,
                  const RobustRunOptions& options) {
    if (!options.json) {
        std::cout << "Robustness " << test.name << " Unknown (" << why << ")\n\n";
        return;
    }
    nlohmann::json j = emptyRecord(test, modelName, options.check.unroll);
    j["reason"] = why;
    std::cout << dumpJson(j) << "\n";
}

int runOne(const std::string& file, const RobustRunOptions& options) {
    const LitmusTest test = parseLitmusFile(file);
    const std::string name = !options.modelName.empty() ? options.modelName
                             : test.arch == Arch::X86     ? "tso"
                                                          : "rdma-sc";
    try {
        const Model model = loadModel(options.modelsDir, name, ModelOptions{{}, options.check.limits, file});
        const RobustAnswer a = answer(test, model, options);
        if (options.json) {
            std::cout << dumpJson(record(test, a, !options.noTime)) << "\n";
        } else {
            printText(std::cout, a, !options.noTime);
        }
        if (a.repair && !a.repair->stopped.empty()) {  // the answer is incomplete: say so, as any limit does
            std::cerr << SourceLoc{test.file, 1, 1}.str() << ": error: --repair stopped: " << a.repair->stopped << "\n";
            return 2;
        }
        return a.result.robust() ? 0 : 1;
    } catch (const LimitError& e) {
        printUnknown(test, name, e.detail(), options);
        std::cerr << describeError(file).text() << "\n";
        return 2;
    }
}

}  // namespace

int runRobust(const std::vector<std::string>& files, const RobustRunOptions& options) {
    int status = 0;
    for (const std::string& file : files) {
        try {
            status = std::max(status, runOne(file, options));
        } catch (...) {
            std::cout.flush();
            const TestError e = describeError(file);
            std::cerr << e.text() << "\n";
            if (options.json) std::cout << dumpJson(e.record()) << "\n";
            status = std::max(status, e.exitCode);
        }
    }
    return status;
}

}  // namespace rdmacheck::cli
