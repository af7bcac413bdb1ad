#include "check_run.hpp"

#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "common.hpp"
#include "rdmacheck/draw.hpp"
#include "rdmacheck/explain.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck::cli {

namespace {

void writePicture(const Picture& g, const PictureOptions& pictures, const std::string& stem) {
    std::filesystem::create_directories(pictures.dir);
    writeDot(g, pictures.dir + "/" + stem + ".dot");
    if (!pictures.format.empty()) renderGraph(g, pictures.format, pictures.dir + "/" + stem + "." + pictures.format);
}

bool shows(const std::string& show, bool satisfies) {
    return show == "all" || (show == "cond" && satisfies) || (show == "neg" && !satisfies);
}

// Why the outcome is forbidden, as a record (the JSON report's "explanation");
// with --dot, draws each candidate with its cycle.
nlohmann::json explanationRecord(const LitmusTest& test, const Model& model, const CheckOptions& options,
                                 const PictureOptions& pictures, const std::set<std::string>& relations) {
    ExplainOptions explainOptions;
    explainOptions.unroll = options.unroll;
    explainOptions.maxShown = pictures.maxShown;
    explainOptions.maxCandidates = pictures.maxCandidates;
    explainOptions.limits = options.limits;
    const ExplainResult x = explain(test, model, explainOptions);
    nlohmann::json record{{"test", test.name}, {"model", model.name}, {"outcome", x.outcome},
                          {"forbidden", x.applicable}, {"candidates", x.candidates}, {"truncated", x.truncated},
                          {"shown", nlohmann::json::array()}};
    const std::vector<ObservedName> shown = shownNames(test);
    int k = 0;
    for (const Explanation& e : x.shown) {
        ++k;
        nlohmann::json candidate{{"state", stateLine(shown, e.state)}, {"cycles", nlohmann::json::array()}};
        for (size_t i = 0; i < e.cycles.size(); ++i) {
            candidate["cycles"].push_back({{"choice", choiceText(e.executions[i])},
                                           {"axiom", e.cycles[i].axiom},
                                           {"cycle", cycleText(e.executions[i], x.locations, e.cycles[i])}});
            if (pictures.dir.empty()) continue;
            const std::string stem =
                numberedStem(fileStem(test.name) + "-why-", k, pictures.maxShown) +
                (e.cycles.size() > 1 ? "-choice" + numberedStem("", i + 1, e.cycles.size()) : "");
            writePicture(drawExecution(test, x.locations, e.executions[i], model, relations, stem,
                                       test.name + " candidate " + std::to_string(k) + ": " +
                                           stateLine(shown, e.state) + " breaks " + e.cycles[i].axiom,
                                       &e.cycles[i], pictures.showInit),
                         pictures, stem);
        }
        record["shown"].push_back(candidate);
    }
    return record;
}

// The explanation as text, after the herd7 report.
void printExplanation(std::ostream& out, const nlohmann::json& x) {
    const std::string test = x["test"];
    if (!x["forbidden"].get<bool>()) {
        out << "Explanation " << test << ": some consistent execution reaches " << x["outcome"].get<std::string>()
            << "; nothing is forbidden\n\n";
        return;
    }
    const uint64_t candidates = x["candidates"];
    out << "Explanation " << test << ": " << candidates << (x["truncated"].get<bool>() ? "+" : "")
        << " candidate execution(s) reach " << x["outcome"].get<std::string>() << "; none is consistent under "
        << x["model"].get<std::string>() << "\n";
    int k = 0;
    for (const nlohmann::json& candidate : x["shown"]) {
        out << "Candidate " << ++k << ": " << candidate["state"].get<std::string>() << "\n";
        for (const nlohmann::json& c : candidate["cycles"]) {
            const std::string choice = c["choice"];
            out << "  " << (choice.empty() ? "" : "with " + choice + ": ") << "cycle breaks "
                << c["axiom"].get<std::string>() << ": " << c["cycle"].get<std::string>() << "\n";
        }
    }
    if (x["shown"].size() < candidates) out << "(" << candidates - x["shown"].size() << " more candidates not shown)\n";
    out << "\n";
}

}  // namespace

std::string numberedStem(const std::string& prefix, uint64_t k, uint64_t count) {
    const std::string number = std::to_string(k);
    const size_t width = std::max(std::to_string(count).size(), number.size());
    return prefix + std::string(width - number.size(), '0') + number;
}

void FileReport::print(bool toStderr, const std::string& text) {
    if (!text.empty()) pieces.emplace_back(toStderr, text);
}

void FileReport::flush() const {
    for (const auto& [toStderr, text] : pieces) (toStderr ? std::cerr : std::cout) << text << std::flush;
}

bool CheckRun::prepare() {
    reportOptions_.showTime = !noTime;
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
            printOptionError(e.where().file == "--skip" ? "--skip" : "--model", e);
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
    it = models_.emplace(name, loadModel(modelsDir, name, loading)).first;
    return it->second;
}

FileReport CheckRun::checkFile(const std::string& file) {
    FileReport report;
    report.file = file;
    std::ostringstream out;
    const auto start = std::chrono::steady_clock::now();
    try {
        LitmusTest test = parseLitmusFile(file);
        report.test = test.name;
        const Model& m = model(modelName.empty() ? defaultModelName(test) : modelName, file);
        const std::set<std::string> relations =
            pictures.edges.empty() ? defaultDrawnRelations(m) : parseDrawnRelations(pictures.edges, m);
        std::string pictureError;  // the first picture that could not be written
        uint64_t notDrawn = 0;     // executions past --max-pictures
        const CheckResult result = checkTest(test, m, relations, pictureError, notDrawn);
        report.checked = true;
        report.ok = result.ok;
        report.quantifier = result.quantifier;
        report.seconds = result.seconds;
        for (const auto& [state, satisfies] : result.states) report.states.push_back(stateLine(result, state));
        const nlohmann::json explanation =
            pictures.explain ? explanationRecord(test, m, withTimeLeft(options, start), pictures, relations)
                             : nlohmann::json();
        if (json) {
            nlohmann::json record = toJson(test, result, reportOptions_);
            if (pictures.explain) record["explanation"] = explanation;
            out << dumpJson(record) << "\n";
        } else {
            printHerd(out, test, result, reportOptions_);
            if (pictures.explain) printExplanation(out, explanation);
        }
        report.print(false, out.str());
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

// Runs the chosen engine; both draw alike: the declarative one each consistent
// execution, the operational one a run per distinct final memory.
CheckResult CheckRun::checkTest(const LitmusTest& test, const Model& m, const std::set<std::string>& relations,
                                std::string& pictureError, uint64_t& notDrawn) {
    uint64_t drawn = 0;
    const std::vector<ObservedName> shown = shownNames(test);
    ExecutionVisitor draw;
    if (!pictures.dir.empty() && pictures.show != "none")
        draw = [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState& state, bool satisfies) {
            if (!shows(pictures.show, satisfies) || !pictureError.empty()) return;
            if (drawn == pictures.maxPictures) {
                ++notDrawn;
                return;
            }
            const std::string stem = numberedStem(fileStem(test.name) + "-", ++drawn, pictures.maxPictures);
            try {
                writePicture(drawExecution(test, program.locations, ex, m, relations, stem,
                                           test.name + " execution " + std::to_string(drawn) + ": " +
                                               stateLine(shown, state),
                                           nullptr, pictures.showInit),
                             pictures, stem);
            } catch (const std::runtime_error& e) {  // the verdict comes first, then this
                pictureError = e.what();
            }
        };
    if (engine != "operational") return check(test, m, options, draw);
    MachineOptions machine = machineOptions;
    machine.unroll = options.unroll;
    return explore(test, m, machine, draw);
}

}  // namespace rdmacheck::cli
