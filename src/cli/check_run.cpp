#include "check_run.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "common.hpp"
#include "options.hpp"
#include "rdmacheck/draw.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/explain_report.hpp"
#include "rdmacheck/least_kept.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck::cli {

namespace {

// herd7's -show (herd/top_herd.ml): `satisfies` is whether the execution's
// final state satisfies the condition's proposition.
bool shows(const std::string& show, Quantifier q, bool satisfies) {
    if (show == "all") return true;
    if (show == "prop") return satisfies;
    if (show == "neg") return !satisfies;
    if (show == "cond") return q == Quantifier::NotExists ? !satisfies : satisfies;
    if (show == "wit") return q == Quantifier::Forall ? !satisfies : satisfies;
    return false;
}

// Why the outcome is forbidden; with --dot, each candidate drawn with its cycle.
ExplainResult explainOutcome(const LitmusTest& test, const Model& model, const CheckOptions& options,
                             const PictureOptions& pictures, const std::set<std::string>& relations) {
    ExplainOptions explainOptions;
    explainOptions.unroll = options.unroll;
    explainOptions.maxShown = pictures.maxShown;
    explainOptions.maxCandidates = pictures.maxCandidates;
    explainOptions.maxEvents = options.maxEvents;
    explainOptions.limits = options.limits;
    const ExplainResult x = explain(test, model, explainOptions);
    if (pictures.dir.empty()) return x;
    const std::vector<ObservedName> shown = shownNames(test);
    int k = 0;
    for (const Explanation& e : x.shown) {
        ++k;
        for (size_t i = 0; i < e.cycles.size(); ++i) {
            const std::string stem =
                numberedStem(fileStem(test.name) + "-why-", k, pictures.maxShown) +
                (e.cycles.size() > 1 ? "-choice" + numberedStem("", i + 1, e.cycles.size()) : "");
            writePicture(drawExecution(test, x.locations, e.executions[i], model, relations, stem,
                                       test.name + " candidate " + std::to_string(k) + ": " +
                                           stateLine(shown, e.state, test.addresses) + " breaks " + e.cycles[i].axiom,
                                       &e.cycles[i], pictures.showInit),
                         pictures.dir, stem, pictures.format);
        }
    }
    return x;
}

}  // namespace

std::string numberedStem(const std::string& prefix, uint64_t k, uint64_t count) {
    const std::string number = std::to_string(k);
    const size_t width = std::max(std::to_string(count).size(), number.size());
    return prefix + std::string(width - number.size(), '0') + number;
}

bool CheckRun::prepare() {
    reportOptions_.showTime = !noTime;
    reportOptions_.showWarnings = !noWarnings;
    reportOptions_.hexa = hexa;
    reportOptions_.options = {{"engine", engine},
                              {"model", modelName.empty() ? nlohmann::json() : nlohmann::json(modelName)},
                              {"skip", modelOptions.skip},
                              {"unroll", options.unroll},
                              {"mode", modeName(options.mode)},
                              {"max_executions", options.maxExecutions},
                              {"timeout", options.limits.seconds},
                              {"max_memory", options.limits.megabytes}};
    if (!modelName.empty()) {
        try {
            model(modelName, "");
        } catch (const InputError& e) {
            const char* option = e.where().file == "--skip" ? "--skip" : "--model";
            printOptionError(option, e);
            if (json)  // a reader of the JSON stream sees the error too
                std::cout << dumpJson(errorRecord(e.where().line == 0 ? SourceLoc{option, 0, 0} : e.where(), e.detail(), 2))
                          << "\n";
            return false;
        }
    }
    return makeDirectory("--dot", pictures.dir);
}

const Model& CheckRun::model(const std::string& name, const std::string& test) {
    std::lock_guard<std::mutex> lock(modelsMutex_);
    auto it = models_.find(name);
    if (it != models_.end()) return it->second;
    ModelOptions loading = modelOptions;
    loading.test = test;
    it = models_.emplace(name, loadModel(modelPath, name, loading)).first;
    return it->second;
}

FileReport CheckRun::checkFile(const std::string& file) {
    FileReport report;
    report.file = file;
    std::ostringstream out, warnings;  // herd7 prints its warnings on stderr
    const auto start = std::chrono::steady_clock::now();
    try {
        LitmusTest test = parseLitmusFile(file);
        report.test = test.name;
        if (test.arch == Arch::X86) report.hash = herdHash(test);
        const Model& m = model(modelName.empty() ? defaultModelName(test) : modelName, file);
        report.model = m.name;
        const std::set<std::string> relations =
            pictures.edges.empty() ? defaultDrawnRelations(m) : parseDrawnRelations(pictures.edges, m);
        std::string pictureError;  // the first picture that could not be written
        uint64_t notDrawn = 0;     // executions past --max-pictures
        const CheckResult result = checkTest(test, m, relations, pictureError, notDrawn);
        report.checked = true;
        report.ok = result.ok;
        report.undefined = result.undefined;
        report.loop = !result.cutLoops.empty();
        report.quantifier = result.quantifier;
        report.seconds = result.seconds;
        for (const auto& [state, satisfies] : result.states) report.states.push_back(stateLine(result.shown, state, test.addresses));
        const bool shown = !(hideUndefined && result.undefined);  // herd7's -badexecs false: no report
        const std::optional<ExplainResult> explanation =
            shown && pictures.explain
                ? std::optional(explainOutcome(test, m, withTimeLeft(options, start), pictures, relations))
                : std::nullopt;
        if (shown && json) {
            nlohmann::json record = toJson(test, result, reportOptions_);
            if (explanation) record["explanation"] = explanationJson(test, m.name, *explanation);
            out << dumpJson(record) << "\n";
        } else if (shown) {
            printHerd(out, warnings, test, result, reportOptions_);
            if (explanation) printExplanation(out, test, m.name, *explanation);
        }
        report.print(false, out.str());
        report.print(true, warnings.str());
        out.str("");
        if (notDrawn > 0)
            report.print(true, printable(file) + ": note: " + std::to_string(notDrawn) + " more executions not drawn (--max-pictures " +
                                   std::to_string(pictures.maxPictures) + ")\n");
        if (!pictureError.empty()) {
            const std::string message = "picture: " + pictureError;
            report.print(true, printable(file + ": error: " + message) + "\n");
            if (json) report.print(false, dumpJson(errorRecord(SourceLoc{file, 0, 0}, message, 2)) + "\n");
            report.status = 2;
        }
    } catch (...) {
        report.print(false, out.str());
        const TestError error = describeError(file);
        report.timedOut = error.timeout;
        report.status = std::max(report.status, error.exitCode);
        report.print(true, error.text() + "\n");
        if (json) report.print(false, dumpJson(error.record()) + "\n");
    }
    return report;
}

FileReport CheckRun::sameNameError(const FileReport& later, const std::string& earlierFile) const {
    FileReport out;
    out.file = later.file;
    out.test = later.test;
    out.status = 2;
    const std::string message = "test " + later.test + " was read before from " + earlierFile +
                                " with another hash; as herd7 does, a test's name is checked once";
    out.print(true, printable(later.file + ":1:1: error: " + message) + "\n");
    if (json) out.print(false, dumpJson(errorRecord(SourceLoc{later.file, 1, 1}, message, 2)) + "\n");
    return out;
}

// Runs the chosen engine; both draw alike: the declarative one each consistent
// execution, the operational one a run per distinct final memory. The first
// --max-pictures in the canonical order are drawn, so the pictures do not
// depend on the order the engine found the executions in; a declarative one
// with its least nfo (withLeastFlushes), which the solver otherwise picks.
CheckResult CheckRun::checkTest(const LitmusTest& test, const Model& m, const std::set<std::string>& relations,
                                std::string& pictureError, uint64_t& notDrawn) {
    struct Shown {
        ExecutionGraph ex;
        FinalState state;
    };
    auto before = [](const Shown& a, const Shown& b) { return canonicallyBefore(a.ex, b.ex); };
    LeastKept<Shown, decltype(before)> kept(pictures.maxPictures, before);
    std::vector<Location> locations;
    ExecutionVisitor draw;
    if (!pictures.dir.empty() && pictures.show != "none")
        draw = [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState& state, bool satisfies) {
            if (!shows(pictures.show, test.quantifier, satisfies)) return;
            if (locations.empty()) locations = program.locations;
            kept.offer(Shown{ex, state});
        };
    CheckResult result;
    if (engine != "operational") {
        result = check(test, m, options, draw);
    } else {
        MachineOptions machine = machineOptions;
        machine.unroll = options.unroll;
        result = explore(test, m, machine, draw);
    }
    const std::vector<ObservedName> shown = shownNames(test);
    std::vector<Shown> drawn = kept.sorted();
    notDrawn = kept.offered() - drawn.size();
    if (engine != "operational")
        for (Shown& picture : drawn) picture.ex = withLeastFlushes(picture.ex, m, locations.size());
    std::vector<Picture> all;  // --dot-per-test
    try {
        for (size_t k = 1; k <= drawn.size(); ++k) {
            const std::string stem = numberedStem(fileStem(test.name) + "-", k, pictures.maxPictures);
            Picture picture = drawExecution(test, locations, drawn[k - 1].ex, m, relations, stem,
                                            test.name + " execution " + std::to_string(k) + ": " +
                                                stateLine(shown, drawn[k - 1].state, test.addresses),
                                            nullptr, pictures.showInit);
            if (!pictures.perTest) {
                writePicture(picture, pictures.dir, stem, pictures.format);
                continue;
            }
            if (!pictures.format.empty())
                renderGraph(picture, pictures.format, pictures.dir + "/" + stem + "." + pictures.format);
            all.push_back(std::move(picture));
        }
        // herd7 writes the file of a test with nothing to show too.
        if (pictures.perTest && !pictures.dir.empty())
            writeDots(all, pictures.dir + "/" + std::filesystem::path(test.file).stem().string() + ".dot");
    } catch (const std::runtime_error& e) {  // the verdict comes first, then this
        pictureError = e.what();
    }
    return result;
}

void CheckFlags::add(CLI::App& app, ResourceLimits& limits) {
    app.add_option("files", files, "litmus test files (RDMA or X86 syntax)");
    app.add_option("--model", modelName,
                   "model: a name (" + joined(ModelSearchPath::withDefaults().modelNames()) +
                       ", and those of --models-dir) or a .cat file (models/README.md); "
                   "default tso for X86 tests, rdma-wait-rmw for tests with work identifiers or library calls, "
                   "rdma-tso-rmw for tests with remote RMWs, rdma-tso otherwise");
    addModelsDirs(app, modelsDirs);
    app.add_option("--skip", modelOptions.skip,
                   "drop the model's axiom of this name (herd7's -skipchecks); repeatable. The operational engine "
                   "refuses the variant")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_flag("--skip-only-present", modelOptions.skipOnlyPresent,
                 "ignore a --skip name the model has no axiom of (herd7's -skipchecks ignores it)");
    app.add_option("--bad-flag", options.badFlag,
                   "a flag of the model whose executions are bad: raised, the verdict prints Undef, as an "
                   "undefined_unless test's does (herd7's -badflag; the last given counts)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_flag("--hide-undefined", hideUndefined,
                 "print no report for a test whose verdict is Undef (herd7's -badexecs false)");
    app.add_option("--unroll", options.unroll, "loop iterations kept when unrolling")->capture_default_str()
        ->check(notNegative());
    app.add_option("--max-executions", options.maxExecutions, "give up past this many consistent executions")
        ->capture_default_str()->check(notNegative());
    app.add_option("--max-events", options.maxEvents,
                   "declarative: give up on a combination of thread paths with more events")
        ->capture_default_str()->check(notNegative());
    app.add_option("--engine", engine, "declarative (Z3 over the axioms) or operational (explore the machine)")
        ->capture_default_str()
        ->check(CLI::IsMember({"declarative", "operational"}));
    const std::map<std::string, MachineKind> machineKinds{{"concrete", MachineKind::Concrete},
                                                          {"simplified", MachineKind::Simplified}};
    app.add_option("--machine", machineOptions.kind,
                   "operational machine: concrete (six buffers) or simplified; default simplified for a model "
                   "with remote RMWs, else concrete")
        ->transform(CLI::CheckedTransformer(machineKinds));
    app.add_option("--max-states", machineOptions.maxStates, "operational: give up past this many machine states")
        ->capture_default_str()->check(notNegative());
    addLimits(app, limits);
    app.add_flag("--no-reduction", noReduction,
                 "operational: explore every interleaving over hashed configurations instead of the reduced "
                 "search (slow; the oracle that checks the reduction)");
    app.add_flag("--json", json, "print one JSON object per test (JSON Lines) instead of herd7 text");
    app.add_flag("--no-time", noTime, "omit the Time line (for diffs)");
    app.add_flag("--quiet", noWarnings, "no Warning lines in the text report (herd7's -q); --json keeps them");
    app.add_flag("--hexa", hexa, "values in hexadecimal in the text report's states and condition (herd7's -hexa)");
    addPictures(app);
    CLI::Option* statesFlag =
        app.add_flag("--states", statesOnly,
                     "declarative: list the distinct final states and the verdict, without counting executions");
    CLI::Option* speedcheckFlag =
        app.add_flag("--speedcheck", speedcheck,
                     "declarative: only the verdict, from one deciding execution if any (herd7's -speedcheck fast)")
            ->excludes(statesFlag);
    app.add_flag("--deciding-executions", deciding,
                 "declarative: count and list only the executions that decide the verdict (satisfy exists' or "
                 "~exists' condition, break forall's), herd7's -speedcheck true")
        ->excludes(statesFlag)->excludes(speedcheckFlag);
    app.add_option("-j,--jobs", jobs, "files checked in parallel; output stays in input order")
        ->capture_default_str()->check(CLI::Range(1, 256));
    app.add_flag("--explain", pictures.explain,
                 "for an outcome no consistent execution reaches: each candidate execution's shortest cycle");
}

void CheckFlags::addPictures(CLI::App& app) {
    app.add_option("--dot", pictures.dir,
                   "write each shown execution as DIR/TEST-K.dot (Graphviz); operational: a run per final memory");
    app.add_option("--render", pictures.format, "also draw DIR/TEST-K.svg or .png (needs --dot DIR)")
        ->check(CLI::IsMember({"svg", "png"}));
    app.add_flag("--dot-per-test", pictures.perTest,
                 "--dot DIR: one DIR/TEST.dot per test, its pictures one digraph after another (herd7's -o DIR)");
    app.add_option("--show", pictures.show,
                   "executions drawn, as herd7's -show: prop (the condition's proposition holds), neg (it does not), "
                   "cond (the verdict's: neg for ~exists, else prop; default), wit (neg for forall, else prop), "
                   "all, none")
        ->check(CLI::IsMember({"all", "prop", "cond", "wit", "neg", "none"}));
    app.add_flag("--show-init", pictures.showInit,
                 "draw the initial writes (herd7's -showinitwrites); otherwise only those an explained cycle uses");
    app.add_option("--max-pictures", pictures.maxPictures, "executions drawn per test at most (the last given counts)")
        ->capture_default_str()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}));
    app.add_option("--max-shown", pictures.maxShown, "--explain: candidate executions shown (and drawn) at most")
        ->capture_default_str()->check(CLI::Range(size_t{1}, size_t{1'000'000}));
    app.add_option("--max-candidates", pictures.maxCandidates, "--explain: candidate executions searched at most")
        ->capture_default_str()->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000}));
    app.add_option("--edges", pictures.edges,
                   "relations drawn, e.g. po,rf,mo,rb,pf,nfo (default), or ippo,oppo, or ib,ob");
}

std::string CheckFlags::misuse() const {
    if (!pictures.format.empty() && pictures.dir.empty()) return "--render needs --dot DIR (where the pictures go)";
    if (pictures.perTest && pictures.dir.empty()) return "--dot-per-test needs --dot DIR (where the pictures go)";
    if (engine == "operational" && pictures.explain)
        return "--explain looks for declarative executions; drop --engine operational";
    if (engine == "operational" && (statesOnly || speedcheck || deciding))
        return "--states, --speedcheck and --deciding-executions are modes of the declarative engine; drop "
               "--engine operational";
    return "";
}

void CheckFlags::configure(CheckRun& run, bool quiet) const {
    run.modelName = modelName;
    run.modelPath = modelPath();
    run.modelOptions = modelOptions;
    run.engine = engine;
    run.options = options;
    run.options.mode = speedcheck ? CheckMode::Speedcheck
                       : deciding ? CheckMode::Deciding
                       : statesOnly ? CheckMode::States
                                    : CheckMode::Executions;
    run.machineOptions = machineOptions;
    run.machineOptions.reduce = !noReduction;
    run.options.progress = run.machineOptions.progress = jobs == 1 && !quiet;
    run.json = json;
    run.noTime = noTime;
    run.noWarnings = noWarnings;
    run.hexa = hexa;
    run.hideUndefined = hideUndefined;
    run.pictures = pictures;
    if (run.pictures.show.empty()) run.pictures.show = "cond";
}

}  // namespace rdmacheck::cli
