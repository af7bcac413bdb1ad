#include "robust_run.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "rdmacheck/draw.hpp"
#include "rdmacheck/herd_log.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/report.hpp"
#include "rdmacheck/robust_report.hpp"
#include "common.hpp"
#include "options.hpp"

namespace rdmacheck::cli {

namespace {

// sc has no events for some programs (remote RMWs), or no answer in the time
// left: then observability is unknown, and the verdict stands.
void decideObservable(const LitmusTest& test, const RobustRunOptions& options, const CheckOptions& check,
                      RobustAnswer& a) {
    try {
        const Model sc = loadModel(options.modelPath, "sc", ModelOptions{{}, check.limits, test.file});
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
    if (!options.dotDir.empty())
        writePicture(drawRobustnessWitness(test, model, *a.result.witness), options.dotDir, test.name + "-witness",
                     options.renderFormat);
    if (options.repair)
        a.repair = repairRobustness(test, model, withTimeLeft(options.check, start), *a.result.witness,
                                    options.repairMax);
    return a;
}

// Each repaired program to DIR/NAME.litmus (NAME: Fig3b-repaired, ...), as a
// file the user can check; the report names the files.
void writeRepairs(RepairResult& r, const std::string& dir) {
    for (Repair& repair : r.repairs) {
        repair.file = dir + "/" + fileStem(repair.program.name) + ".litmus";
        std::ofstream out(repair.file);
        out << printLitmus(repair.program);
        if (!out.flush())
            throw InputError(SourceLoc{repair.file, 0, 0}, std::string("cannot write: ") + std::strerror(errno));
    }
}

// One file's report: exit 0 robust (or repaired under --repair), 1 not, 2 an error.
int runOne(const std::string& file, const RobustRunOptions& options, std::ostream& out, std::ostream& err) {
    const LitmusTest test = parseLitmusFile(file);
    const std::string name = !options.modelName.empty() ? options.modelName
                             : test.arch == Arch::X86     ? "tso"
                                                          : "rdma-sc";
    try {
        const Model model = loadModel(options.modelPath, name, ModelOptions{{}, options.check.limits, file});
        RobustAnswer a = answer(test, model, options);
        if (a.repair) writeRepairs(*a.repair, options.repairDir);
        if (options.json) {
            out << dumpJson(robustnessRecord(test, a, !options.noTime)) << "\n";
        } else {
            printRobustness(out, a, !options.noTime);
        }
        if (a.repair && !a.repair->stopped.empty()) {  // the answer is incomplete: say so, as any limit does
            err << SourceLoc{test.file, 1, 1}.str() << ": error: --repair stopped: " << a.repair->stopped << "\n";
            return 2;
        }
        return a.result.robust() || (a.repair && !a.repair->repairs.empty()) ? 0 : 1;
    } catch (const LimitError& e) {
        printRobustnessUnknown(out, test, name, options.check.unroll, e.detail(), options.json);
        err << describeError(file).text() << "\n";
        return 2;
    }
}

FileReport robustFile(const std::string& file, const RobustRunOptions& options) {
    FileReport report;
    std::ostringstream out, err;
    try {
        report.status = runOne(file, options, out, err);
    } catch (...) {
        const TestError e = describeError(file);
        err << e.text() << "\n";
        if (options.json) out << dumpJson(e.record()) << "\n";
        report.status = e.exitCode;
    }
    report.print(false, out.str());
    report.print(true, err.str());
    return report;
}

}  // namespace

int runRobust(const std::vector<std::string>& files, const RobustRunOptions& options, int jobs) {
    if (options.repair && !makeDirectory("--repair-dir", options.repairDir)) return 2;
    int status = 0;
    forEachInOrder<FileReport>(
        files.size(), jobs, [&](size_t i) { return robustFile(files[i], options); },
        [&](size_t, const FileReport& report) {
            report.flush();
            status = std::max(status, report.status);
        });
    return status;
}

void RobustFlags::add(CLI::App& app, CheckFlags& check, ResourceLimits& limits) {
    command = app.add_subcommand("robust", "is every trace of the program sequentially consistent? "
                                           "(robustness against SC, doc/model-notes.md §N21)");
    command->add_option("files", files, "litmus test files")->required();
    command->add_option("--model", check.modelName,
                        "the weak model (default: rdma-sc for RDMA tests, tso for X86 tests)");
    addModelsDirs(*command, check.modelsDirs);
    command->add_option("--unroll", check.options.unroll, "loop iterations kept")->capture_default_str()
        ->check(notNegative());
    command->add_option("--max-events", check.options.maxEvents,
                        "give up on a combination of thread paths with more events")
        ->capture_default_str()->check(notNegative());
    CLI::Option* dot = command->add_option("--dot", options.dotDir,
                                           "draw each witness in DIR as TEST-witness.dot, its cycle highlighted");
    command->add_option("--render", options.renderFormat, "also render each witness picture: svg or png")
        ->check(CLI::IsMember({"svg", "png"}))
        ->needs(dot);
    command->add_flag("--json", check.json, "print one JSON record per test (JSON Lines, doc/output.schema.json)");
    command->add_flag("--no-time", check.noTime, "omit the Time line (for diffs)");
    CLI::Option* repair = command->add_flag(
        "--repair", options.repair,
        "search the fewest insertions (poll, rfence, mfence, flush) that make a non-robust test robust "
        "(doc/model-notes.md §N25), and write each repaired program to --repair-dir; exit 0 when every "
        "test is robust or repaired");
    command->add_option("--repair-dir", options.repairDir, "--repair: where the repaired programs go, as NAME.litmus")
        ->capture_default_str()->needs(repair);
    command->add_option("-j,--jobs", jobs, "files checked in parallel; output stays in input order")
        ->capture_default_str()->check(CLI::Range(1, 256));
    command->add_option("--repair-max", options.repairMax, "--repair: insertions tried at most")
        ->capture_default_str()->check(CLI::Range(1, 8))->needs(repair);
    addLimits(*command, limits);
}

int RobustFlags::run(const CheckFlags& check) {
    options.modelName = check.modelName;
    options.modelPath = check.modelPath();
    options.check = check.options;
    options.check.progress = jobs == 1;  // a long check or repair search says so on stderr
    options.json = check.json;
    options.noTime = check.noTime;
    return runRobust(files, options, jobs);
}

}  // namespace rdmacheck::cli
