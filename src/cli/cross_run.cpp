#include "cross_run.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "rdmacheck/cross_report.hpp"
#include "rdmacheck/herd_log.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/report.hpp"
#include "rdmacheck/progress.hpp"
#include "common.hpp"

namespace rdmacheck::cli {

namespace {

int runCross(const std::vector<std::string>& files, const ModelSearchPath& modelPath, CrossOptions options,
             const std::string& configs, int randomCount, uint64_t seed, GeneratorFlags& generator,
             const std::string& reproDir, int jobs, bool json) {
    std::map<std::string, Model> models;
    try {
        options.configs = parseEngineConfigs(configs);
        models = loadConfigModels(options.configs, modelPath, options.limits);
    } catch (const InputError& e) {
        printOptionError("--configs", e);
        return 2;
    }
    if (options.configs.size() < 2) {
        std::cerr << "rdmacheck: error: need at least two configurations\n";
        return 2;
    }
    if (!makeDirectory("--repro-dir", reproDir)) return 2;
    if (!generator.resolve()) return 2;
    const auto start = std::chrono::steady_clock::now();
    const size_t total = files.size() + static_cast<size_t>(randomCount);
    enum Outcome { Agree, Differ, Error, InternalError };
    std::vector<Outcome> outcomes(total, Agree);
    auto work = [&](size_t i) -> FileReport {
        FileReport report;
        try {
            LitmusTest test;
            if (i < files.size()) {
                test = parseLitmusFile(files[i]);
            } else {
                const uint64_t s = seed + (i - files.size());
                test = parseLitmus(generateLitmus(s, generator.options), "random-" + std::to_string(s) + ".litmus");
            }
            std::optional<Difference> d = crossCheck(test, models, options);
            if (!d) return report;
            outcomes[i] = Differ;
            report.print(false, json ? dumpJson(differenceJson(test, *d)) + "\n"
                                     : differenceText(test.name + " (" + test.file + ")", *d));
            if (!reproDir.empty() && !d->reproducer.empty()) {
                const std::string path = reproDir + "/" + fileStem(test.name) + ".litmus";
                if (!(std::ofstream(path) << d->reproducer))
                    report.print(true, "rdmacheck: could not write the reproducer to " + path + "\n");
            }
        } catch (...) {
            const TestError e =
                describeError(i < files.size() ? files[i] : "random test " + std::to_string(seed + (i - files.size())));
            outcomes[i] = e.exitCode == 3 ? InternalError : Error;
            report.print(true, e.text() + "\n");
            if (json) report.print(false, dumpJson(e.record()) + "\n");
        }
        return report;
    };
    ProgressLine progress("cross", true);
    size_t done = 0, differences = 0;
    forEachInOrder<FileReport>(total, jobs, work, [&](size_t i, const FileReport& report) {
        report.flush();
        ++done;
        differences += outcomes[i] == Differ;
        progress.tick([&](double seconds) {
            return std::to_string(done) + "/" + std::to_string(total) + " tests, " + std::to_string(differences) +
                   " with differences, about " + std::to_string(static_cast<int>(seconds / done * (total - done))) +
                   " s left";
        });
    });
    const size_t differ = std::count(outcomes.begin(), outcomes.end(), Differ);
    const size_t internal = std::count(outcomes.begin(), outcomes.end(), InternalError);
    const size_t errors = std::count(outcomes.begin(), outcomes.end(), Error) + internal;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream summary;
    summary << "cross: " << counted(total, "test") << " (" << counted(files.size(), "file") << ", " << randomCount
            << " random), " << counted(options.configs.size(), "configuration") << ": " << differ
            << " with differences, " << errors << " errors, " << std::fixed << std::setprecision(1) << seconds << " s\n";
    (json ? std::cerr : std::cout) << summary.str();  // JSON Lines on stdout hold records only
    if (errors) return internal ? 3 : 2;
    return differ ? 1 : 0;
}

}  // namespace

void CrossFlags::add(CLI::App& app, std::vector<std::string>& modelsDirs, ResourceLimits& limits) {
    command = app.add_subcommand("cross", "run several engine:model configurations and report differences");
    command->add_option("files", files, "litmus test files");
    command->add_option("--configs", configs,
                        "ENGINE:MODEL list (engines: declarative, concrete, simplified); each is compared with the "
                        "first config of the same model")
        ->capture_default_str();
    command->add_flag("--against-first", options.againstFirst,
                      "compare every config with the first, across models (e.g. rdma-tso vs tso on CPU-only tests)");
    command->add_option("--random", randomCount, "also cross-check this many random tests")
        ->check(CLI::Range(0, 10'000'000));
    command->add_option("--seed", seed, "seed of the first random test (then seed+1, ...)")->capture_default_str()
        ->check(notNegative());
    command->add_option("--unroll", options.unroll, "loop iterations kept")->capture_default_str()
        ->check(notNegative());
    command->add_option("--max-states", options.maxStates, "operational: give up past this many machine states")
        ->capture_default_str()->check(notNegative());
    addLimits(*command, limits);
    addModelsDirs(*command, modelsDirs);
    command->add_flag("--no-shrink", noShrink, "report differences without shrinking them");
    command->add_flag("--json", json, "one JSON record per difference or error (JSON Lines, doc/output.schema.json); "
                                      "the summary goes to stderr");
    command->add_option("--repro-dir", reproDir, "write each shrunk reproducer to DIR/TEST.litmus");
    command->add_option("-j,--jobs", jobs, "tests checked in parallel")->capture_default_str()
        ->check(CLI::Range(1, 256));
    generator.add(*command);
}

int CrossFlags::run(const ModelSearchPath& modelPath, const ResourceLimits& limits) {
    options.limits = limits;
    options.shrink = !noShrink;
    return runCross(files, modelPath, options, configs, randomCount, seed, generator, reproDir, jobs, json);
}

}  // namespace rdmacheck::cli
