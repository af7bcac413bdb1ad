// rdmacheck: check RDMA (and x86) litmus tests against a memory model, with the
// declarative engine or the operational machines; `cross` makes the engines
// check each other, `generate` writes random tests.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "rdmacheck/check.hpp"
#include "rdmacheck/crosscheck.hpp"
#include "rdmacheck/draw.hpp"
#include "rdmacheck/explain.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/progress.hpp"
#include "rdmacheck/refine.hpp"
#include "rdmacheck/report.hpp"
#include "check_run.hpp"
#include "common.hpp"
#include "robust_run.hpp"
#include "suite.hpp"

namespace {

using namespace rdmacheck;
using namespace rdmacheck::cli;

// Why `value` is refused as a negative number, or "".
std::string negative(const std::string& value) {
    const size_t first = value.find_first_not_of(" \t");
    return first == std::string::npos || value[first] != '-' ? std::string() : "must not be negative, got " + value;
}

// For counts and bounds: CLI11 would read "-5" into an unsigned option as 2^64-5.
CLI::Validator notNegative() { return CLI::Validator([](std::string& value) { return negative(value); }, "NOT NEGATIVE"); }

// Every number option refuses what its type cannot hold, whichever command
// has it: CLI11 (2.1) reads 18446744073709551616 into a 64-bit option as
// 2^64-1, and -1 into an unsigned one as 2^64-1; a double takes inf and nan.
CLI::Validator representable(const std::string& type) {
    return CLI::Validator(
        [type](std::string& value) -> std::string {
            const char* text = value.c_str();
            char* end = nullptr;
            errno = 0;
            if (type == "UINT") {
                if (const std::string why = negative(value); !why.empty()) return why;
                std::strtoull(text, &end, 0);
            } else if (type == "INT") {
                std::strtoll(text, &end, 0);
            } else if (!std::isfinite(std::strtod(text, &end)) && end != text) {
                return "must be a finite number, got " + value;
            }
            return errno == ERANGE ? "out of range, got " + value : "";
        },
        "");
}

// Adds representable() to every integer and floating-point option of `app` and its commands.
void refuseUnrepresentable(CLI::App& app) {
    for (CLI::Option* option : app.get_options()) {
        const std::string type = option->get_type_name().substr(0, option->get_type_name().find(':'));
        if (type == "UINT" || type == "INT" || type == "FLOAT") option->check(representable(type));
    }
    for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) refuseUnrepresentable(*command);
}

struct GeneratorFlags {
    GeneratorOptions options;
    std::string mix;

    void add(CLI::App& app) {
        app.add_option("--nodes", options.nodes, "random tests: nodes")->capture_default_str()->check(CLI::Range(1, 9));
        app.add_option("--threads", options.threads, "random tests: threads")->capture_default_str()
            ->check(CLI::Range(1, 9));
        app.add_option("--min-length", options.minLength, "random tests: fewest statements per thread")
            ->capture_default_str()->check(CLI::Range(0, 1000));
        app.add_option("--max-length", options.maxLength, "random tests: most statements per thread")
            ->capture_default_str()->check(CLI::Range(0, 1000));
        app.add_option("--shared", options.sharedPerNode, "random tests: shared locations per node")
            ->capture_default_str()->check(CLI::Range(0, 6));
        app.add_option("--mix", mix,
                       "random tests: statement weights, e.g. put=3,get=3,poll=2,cas=0; wait, svwrite, svread, "
                       "svbcast, svwait or gfence make RDMA^WAIT tests (work identifiers, no polls)");
    }

    // Applies --mix; false after printing an error.
    bool resolve() {
        try {
            if (!mix.empty()) parseMix(mix, options);
            if (options.minLength > options.maxLength) throw std::invalid_argument("--min-length exceeds --max-length");
            // A mix that can draw nothing fails at the first statement, whatever
            // the seed: found here, before cross or generate makes any test.
            generateLitmus(0, options);
            return true;
        } catch (const std::invalid_argument& e) {
            std::cerr << "rdmacheck: error: " << e.what() << "\n";
            return false;
        }
    }
};

std::string describeDifference(const std::string& testName, const Difference& d) {
    std::ostringstream out;
    out << "DIFF " << testName << ": " << d.first.label() << " and " << d.second.label() << " differ\n";
    for (const FinalState& s : d.onlyFirst) out << "  only " << d.first.label() << ": " << stateLine(d.names, s) << "\n";
    for (const FinalState& s : d.onlySecond) out << "  only " << d.second.label() << ": " << stateLine(d.names, s) << "\n";
    if (!d.reproducer.empty()) {
        out << "  reproducer:\n";
        std::istringstream lines(d.reproducer);
        for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
    }
    return out.str();
}

int runCross(const std::vector<std::string>& files, const std::string& modelsDir, CrossOptions options,
             const std::string& configs, int randomCount, uint64_t seed, GeneratorFlags& generator,
             const std::string& reproDir, int jobs) {
    std::map<std::string, Model> models;
    try {
        options.configs = parseEngineConfigs(configs);
        models = loadConfigModels(options.configs, modelsDir, options.limits);
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
    auto work = [&](size_t i) -> std::string {
        try {
            LitmusTest test;
            if (i < files.size()) {
                test = parseLitmusFile(files[i]);
            } else {
                const uint64_t s = seed + (i - files.size());
                test = parseLitmus(generateLitmus(s, generator.options), "random-" + std::to_string(s) + ".litmus");
            }
            std::optional<Difference> d = crossCheck(test, models, options);
            if (!d) return "";
            outcomes[i] = Differ;
            std::string text = describeDifference(test.name + " (" + test.file + ")", *d);
            if (!reproDir.empty() && !d->reproducer.empty()) {
                const std::string path = reproDir + "/" + fileStem(test.name) + ".litmus";
                if (!(std::ofstream(path) << d->reproducer)) text += "  (could not write the reproducer to " + path + ")\n";
            }
            return text;
        } catch (...) {
            std::ostringstream err;
            const int code =
                reportError(err, i < files.size() ? files[i] : "random test " + std::to_string(seed + (i - files.size())));
            outcomes[i] = code == 3 ? InternalError : Error;
            return err.str();
        }
    };
    ProgressLine progress("cross", true);
    size_t done = 0, differences = 0;
    forEachInOrder<std::string>(total, jobs, work, [&](size_t i, const std::string& text) {
        (outcomes[i] == Error || outcomes[i] == InternalError ? std::cerr : std::cout) << text << std::flush;
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
    std::cout << "cross: " << total << " tests (" << files.size() << " files, " << randomCount << " random), "
              << options.configs.size() << " configurations: " << differ << " with differences, " << errors
              << " errors, " << std::fixed << std::setprecision(1) << seconds << " s\n";
    if (errors) return internal ? 3 : 2;
    return differ ? 1 : 0;
}

int runGenerate(uint64_t seed, int count, GeneratorFlags& generator, const std::string& outDir) {
    if (!generator.resolve() || !makeDirectory("--out", outDir)) return 2;
    try {
        for (int i = 0; i < count; ++i) {
            const uint64_t s = seed + static_cast<uint64_t>(i);
            const std::string text = generateLitmus(s, generator.options);
            if (outDir.empty()) {
                std::cout << text << "\n";
            } else {
                const std::string path = outDir + "/random-" + std::to_string(s) + ".litmus";
                std::ofstream out(path);
                if (!(out << text)) {
                    std::cerr << "rdmacheck: error: cannot write " << path << "\n";
                    return 2;
                }
            }
        }
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

// One line per test, herd7-like, then each counterexample; exit 1 if any
// implementation outcome is not a specification outcome, 2 on bad input.
int runRefine(const std::vector<std::string>& files, const std::string& implementations, const std::string& modelName,
              const std::string& implModelName, const std::string& modelsDir, const CheckOptions& options,
              bool printImplementation) {
    std::vector<Implementation> chain;
    try {
        chain = parseImplementations(implementations);
    } catch (const InputError& e) {
        std::cerr << "rdmacheck: error: --impl: " << e.detail() << "\n";
        return 2;
    }
    int status = 0;
    ProgressLine progress("refine", true);
    CheckOptions checkOptions = options;
    checkOptions.progress = true;  // a long specification or implementation run says so
    size_t done = 0;
    for (const std::string& file : files) {
        progress.tick([&](double) { return std::to_string(done) + "/" + std::to_string(files.size()) + " tests"; });
        ++done;
        try {
            const LitmusTest test = parseLitmusFile(file);
            const std::string specName = modelName.empty() ? defaultModelName(test) : modelName;
            const std::string implName = implModelName.empty() ? loweredModel(chain, specName) : implModelName;
            const ModelOptions modelOptions{{}, options.limits, file};
            const Model spec = loadModel(modelsDir, specName, modelOptions), impl = loadModel(modelsDir, implName, modelOptions);
            for (const RefinementResult& r : checkRefinement(test, chain, spec, impl, checkOptions)) {
                std::cout << "Refine " << r.test << " " << implementations
                          << (r.placement.empty() ? "" : " [" + r.placement + "]") << ": specification "
                          << r.specModel << " " << r.specOutcomes.size() << " outcomes, implementation "
                          << r.implModel << " " << r.implOutcomes.size()
                          << " outcomes: " << (r.ok() ? "Ok (implementation ⊆ specification)" : "No") << "\n";
                for (const Counterexample& c : r.counterexamples)
                    std::cout << (c.alarm.empty() ? "  not allowed by the specification: "
                                                  : "  implementation check failed (" + c.alarm + " set): ")
                              << stateLine(r.names, c.outcome) << "\n"
                              << "  implementation execution:\n" << c.execution;
                for (const SourceLoc& loop : r.cutLoops)
                    std::cout << "Warning: " << loop.str()
                              << ": loop unrolled to the bound; outcomes past it are not compared\n";
                if (printImplementation) std::cout << r.implementationText;
                if (!r.ok()) status = std::max(status, 1);
            }
        } catch (...) {
            std::cout.flush();
            status = std::max(status, reportError(std::cerr, file));
        }
    }
    return status;
}

// herd7's single-dash options, as rdmacheck's: -model, -show, -o, -unroll,
// -version, -skipchecks A,B and -speedcheck true|false|fast.
std::vector<std::string> herdAliases(int argc, char** argv) {
    const std::map<std::string, std::string> same{{"-model", "--model"},   {"-show", "--show"},
                                                  {"-o", "--dot"},         {"-unroll", "--unroll"},
                                                  {"-version", "--version"}};
    std::vector<std::string> out;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto it = same.find(arg);
        if (it != same.end()) {
            out.push_back(it->second);
        } else if (arg == "-skipchecks" && i + 1 < argc) {
            std::istringstream names(argv[++i]);
            for (std::string name; std::getline(names, name, ',');) out.insert(out.end(), {"--skip", name});
        } else if (arg == "-speedcheck" && i + 1 < argc) {
            const std::string value = argv[++i];
            if (value != "false") out.push_back("--speedcheck");
        } else {
            out.push_back(arg);
        }
    }
    return out;
}

// After "The following argument was not expected: --modle", the closest option.
void suggestOption(const CLI::App& app, const CLI::ParseError& e) {
    const std::string message = e.what();
    const size_t dash = message.find("--");
    if (dash == std::string::npos) return;
    // "--seed: out of range" names a known option too.
    const std::string given = message.substr(dash, message.find_first_of(" :\n", dash) - dash);
    std::vector<std::string> known;
    auto collect = [&known](const CLI::App& command) {
        for (const CLI::Option* o : command.get_options())
            for (const std::string& name : o->get_lnames()) known.push_back("--" + name);
    };
    // The command given first (its options win a tie), then the main command's.
    for (const CLI::App* sub : app.get_subcommands()) collect(*sub);
    collect(app);
    // A known option used wrongly ("--repair-max requires --repair") is no typo.
    if (std::find(known.begin(), known.end(), given) != known.end()) return;
    const std::string hint = didYouMean(given, known);
    if (!hint.empty()) std::cerr << "rdmacheck: " << hint.substr(2, hint.size() - 3) << "\n";  // without " (" and ")"
}

// Every command with a progress line on stderr takes --progress-interval with its limits.
void addLimits(CLI::App& command, ResourceLimits& limits) {
    command.add_option("--timeout", limits.seconds, "stop a test after this many seconds (0: never)")
        ->capture_default_str()->check(notNegative());
    command.add_option("--progress-interval", ProgressLine::interval(),
                       "seconds before the first progress line on stderr and between two (0: one at every step, "
                       "for tests)")
        ->capture_default_str()->check(notNegative());
    command.add_option("--max-memory", limits.megabytes,
                       "stop the tests under way when the process passes this much resident memory, MiB (0: never)")
        ->capture_default_str()->check(notNegative())->check(CLI::Range(size_t(0), kMaxMegabytes));
}

int defaultJobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// The main command's options; `run` and `compare` fall through to them, and
// refine and robust share the model, the models folder and the bounds.
struct CheckFlags {
    std::vector<std::string> files;
    std::string modelName;
    std::string modelsDir = defaultModelsDir();
    ModelOptions modelOptions;
    CheckOptions options;
    MachineOptions machineOptions;
    std::string engine = "declarative";
    bool json = false, noTime = false, noReduction = false, statesOnly = false, speedcheck = false;
    int jobs = 1;
    PictureOptions pictures;

    void add(CLI::App& app, ResourceLimits& limits) {
        app.add_option("files", files, "litmus test files (RDMA or X86 syntax)");
        app.add_option("--model", modelName,
                       "model: a name from --models-dir (rdma-tso, rdma-tso-nopcie, rdma-tso-rmw, rdma-wait, "
                       "rdma-wait-rmw, mowgli-tso-rmw, tso, sc) or the path of a .cat file (models/README.md); "
                       "default tso for X86 tests, rdma-wait-rmw for tests with work identifiers or library calls, "
                       "rdma-tso-rmw for tests with remote RMWs, rdma-tso otherwise");
        app.add_option("--models-dir", modelsDir, "directory holding the model files")->capture_default_str();
        app.add_option("--skip", modelOptions.skip,
                       "drop the model's axiom of this name (herd7's -skipchecks); repeatable. The operational engine "
                       "refuses the variant")
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
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
                     "operational: explore every interleaving (slow; checks the reduction)");
        app.add_flag("--json", json, "print one JSON object per test (JSON Lines) instead of herd7 text");
        app.add_flag("--no-time", noTime, "omit the Time line (for diffs)");
        addPictures(app);
        CLI::Option* statesFlag =
            app.add_flag("--states", statesOnly,
                         "declarative: list the distinct final states and the verdict, without counting executions");
        app.add_flag("--speedcheck", speedcheck,
                     "declarative: only the verdict, from one deciding execution if any (herd7's -speedcheck)")
            ->excludes(statesFlag);
        app.add_option("-j,--jobs", jobs, "files checked in parallel; output stays in input order")
            ->capture_default_str()->check(CLI::Range(1, 256));
        app.add_flag("--explain", pictures.explain,
                     "for an outcome no consistent execution reaches: each candidate execution's shortest cycle");
    }

    void addPictures(CLI::App& app) {
        app.add_option("--dot", pictures.dir,
                       "write each shown execution as DIR/TEST-K.dot (Graphviz); operational: a run per final memory");
        app.add_option("--render", pictures.format, "also draw DIR/TEST-K.svg or .png (needs --dot DIR)")
            ->check(CLI::IsMember({"svg", "png"}));
        app.add_option("--show", pictures.show, "executions drawn, as herd7's -show: all, cond (default), neg, none")
            ->check(CLI::IsMember({"all", "cond", "neg", "none"}));
        app.add_flag("--show-init", pictures.showInit,
                     "draw the initial writes (herd7's -showinitwrites); otherwise only those an explained cycle uses");
        app.add_option("--max-pictures", pictures.maxPictures, "executions drawn per test at most")
            ->capture_default_str()->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}));
        app.add_option("--max-shown", pictures.maxShown, "--explain: candidate executions shown (and drawn) at most")
            ->capture_default_str()->check(CLI::Range(size_t{1}, size_t{1'000'000}));
        app.add_option("--max-candidates", pictures.maxCandidates, "--explain: candidate executions searched at most")
            ->capture_default_str()->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000}));
        app.add_option("--edges", pictures.edges,
                       "relations drawn, e.g. po,rf,mo,rb,pf,nfo (default), or ippo,oppo, or ib,ob");
    }

    // The option combinations CLI11 cannot refuse; an error message, or "".
    std::string misuse() const {
        if (!pictures.format.empty() && pictures.dir.empty()) return "--render needs --dot DIR (where the pictures go)";
        if (engine == "operational" && pictures.explain)
            return "--explain looks for declarative executions; drop --engine operational";
        if (engine == "operational" && (statesOnly || speedcheck))
            return "--states and --speedcheck are modes of the declarative engine; drop --engine operational";
        return "";
    }

    // Sets `run` to these options; `quiet`: no per-test progress line (a
    // suite's line or a table is being made instead).
    void configure(CheckRun& run, bool quiet) const {
        run.modelName = modelName;
        run.modelsDir = modelsDir;
        run.modelOptions = modelOptions;
        run.engine = engine;
        run.options = options;
        run.options.mode = speedcheck ? CheckMode::Speedcheck : statesOnly ? CheckMode::States : CheckMode::Executions;
        run.machineOptions = machineOptions;
        run.machineOptions.reduce = !noReduction;
        run.options.progress = run.machineOptions.progress = jobs == 1 && !quiet;
        run.json = json;
        run.noTime = noTime;
        run.pictures = pictures;
        if (run.pictures.show.empty()) run.pictures.show = "cond";
    }
};

struct CrossFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    std::string configs =
        "declarative:rdma-tso,concrete:rdma-tso,simplified:rdma-tso,"
        "declarative:rdma-tso-nopcie,concrete:rdma-tso-nopcie,simplified:rdma-tso-nopcie";
    CrossOptions options;
    int randomCount = 0, jobs = defaultJobs();
    uint64_t seed = 1;
    bool noShrink = false;
    std::string reproDir;
    GeneratorFlags generator;

    void add(CLI::App& app, std::string& modelsDir, ResourceLimits& limits) {
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
        command->add_option("--models-dir", modelsDir, "directory holding the model files");
        command->add_flag("--no-shrink", noShrink, "report differences without shrinking them");
        command->add_option("--repro-dir", reproDir, "write each shrunk reproducer to DIR/TEST.litmus");
        command->add_option("-j,--jobs", jobs, "tests checked in parallel")->capture_default_str()
            ->check(CLI::Range(1, 256));
        generator.add(*command);
    }

    int run(const std::string& modelsDir, const ResourceLimits& limits) {
        options.limits = limits;
        options.shrink = !noShrink;
        return runCross(files, modelsDir, options, configs, randomCount, seed, generator, reproDir, jobs);
    }
};

struct RefineFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    std::string implementations = "sv", implModelName;
    bool printImplementation = false;

    void add(CLI::App& app, CheckFlags& check, ResourceLimits& limits) {
        command = app.add_subcommand("refine", "check that an implementation's outcomes are the specification's");
        command->add_option("files", files, "litmus test files (written against the specification)")->required();
        command->add_option("--impl", implementations,
                            "implementations to inline, in order: sv (I_SV into RDMA^WAIT), wait-polls, "
                            "wait-polls-faithful (wait(d) as polls over RDMA^TSO_RMW), nl (I_NL, ticket node locks "
                            "over RDMA^WAIT_RMW), wl, sl (weak and strong locks), sc (I_SC over nl), bal (barriers "
                            "over sv), rbl (ring buffers over sv); the mutants bal-no-entry-fence and rbl-head-first")
            ->capture_default_str();
        command->add_option("--model", check.modelName, "specification model (default: the test's default model)");
        command->add_option("--impl-model", implModelName,
                            "model of the implementation (default: the specification's for sv, rdma-tso-rmw after "
                            "wait-polls, rdma-wait-rmw after nl)");
        command->add_option("--models-dir", check.modelsDir, "directory holding the model files");
        command->add_option("--unroll", check.options.unroll, "loop iterations kept")->capture_default_str()
            ->check(notNegative());
        command->add_flag("--print", printImplementation, "also print each inlined test");
        addLimits(*command, limits);
    }

    int run(const CheckFlags& check) const {
        return runRefine(files, implementations, check.modelName, implModelName, check.modelsDir, check.options,
                         printImplementation);
    }
};

struct RobustFlags {
    CLI::App* command = nullptr;
    std::vector<std::string> files;
    RobustRunOptions options;

    void add(CLI::App& app, CheckFlags& check, ResourceLimits& limits) {
        command = app.add_subcommand("robust", "is every trace of the program sequentially consistent? "
                                               "(robustness against SC, ROBUSTNESS.md)");
        command->add_option("files", files, "litmus test files")->required();
        command->add_option("--model", check.modelName,
                            "the weak model (default: rdma-sc for RDMA tests, tso for X86 tests)");
        command->add_option("--models-dir", check.modelsDir, "directory holding the model files");
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
            "(ROBUSTNESS.md §5) and print each repaired program");
        command->add_option("--repair-max", options.repairMax, "--repair: insertions tried at most")
            ->capture_default_str()->check(CLI::Range(1, 8))->needs(repair);
        addLimits(*command, limits);
    }

    int run(const CheckFlags& check) {
        options.modelName = check.modelName;
        options.modelsDir = check.modelsDir;
        options.check = check.options;
        options.check.progress = true;  // a long check or repair search says so on stderr
        options.json = check.json;
        options.noTime = check.noTime;
        return runRobust(files, options);
    }
};

// run, merge and compare: suites, their logs and their tables.
struct SuiteFlags {
    CLI::App *runCommand = nullptr, *mergeCommand = nullptr, *compareCommand = nullptr;
    std::vector<std::string> args, mergeLogsArgs, compareArgs, compareModelNames;
    SuiteOptions suite;
    bool noProgress = false;
    std::string mergeExpect;

    void add(CLI::App& app) {
        // Takes the main command's options too (fallthrough): rdmacheck run --model tso DIR.
        runCommand = app.add_subcommand(
            "run", "check a suite in parallel, with progress and a summary on stderr and the reports on stdout");
        runCommand->fallthrough();
        suite.jobs = defaultJobs();
        runCommand->add_option("suite", args,
                               "directories (their .litmus files, recursively), @INDEX files (herd7's: a path per "
                               "line), - (paths on standard input) or files")
            ->required();
        runCommand->add_option("-j,--jobs", suite.jobs, "tests checked in parallel")->capture_default_str()
            ->check(CLI::Range(1, 256));
        runCommand->add_option("--shard", suite.shard, "check only part I of N (I/N): every N-th test from the I-th");
        runCommand->add_option("--expect", suite.expect,
                               "expected verdicts: a herd7 log, rdmacheck --json output or CSV TEST,VERDICT (Ok/No, "
                               "1/0); each mismatch is reported and the exit code is 1");
        runCommand->add_flag("--no-progress", noProgress, "no progress line on stderr");

        mergeCommand =
            app.add_subcommand("merge", "join the logs of several runs (e.g. shards) into one log and summary");
        mergeCommand->add_option("logs", mergeLogsArgs, "logs of rdmacheck run (herd7 text or --json)")->required();
        mergeCommand->add_option("--expect", mergeExpect, "expected verdicts, as for run --expect");

        // Takes the main command's options too (fallthrough), for --models runs.
        compareCommand = app.add_subcommand(
            "compare", "mcompare7's table of several logs, or of several models run on a suite (--models a,b)");
        compareCommand->fallthrough();
        compareCommand->add_option("inputs", compareArgs, "logs of rdmacheck (text or --json); with --models, the suite")
            ->required();
        compareCommand->add_option("--models", compareModelNames, "run these models on the suite and compare them")
            ->delimiter(',');
    }

    // merge, and compare of logs: they check no test.
    bool readsLogs() const { return *mergeCommand || (*compareCommand && compareModelNames.empty()); }
    int runOnLogs() const {
        return *mergeCommand ? mergeLogs(mergeLogsArgs, mergeExpect) : compareLogs(compareArgs);
    }

    bool checksSuite() const { return *runCommand || *compareCommand; }
    int runOnSuite(CheckRun& run, int jobs) {
        if (*compareCommand) return compareModels(run, compareModelNames, compareArgs, jobs);
        suite.progress = !noProgress;
        return runSuite(run, args, suite);
    }
};

struct GenerateFlags {
    CLI::App* command = nullptr;
    uint64_t seed = 1;
    int count = 1;
    std::string outDir;
    GeneratorFlags generator;

    void add(CLI::App& app) {
        command = app.add_subcommand("generate", "write random RDMA litmus tests");
        command->add_option("--seed", seed, "seed of the first test (then seed+1, ...)")->capture_default_str()
            ->check(notNegative());
        command->add_option("--count", count, "how many tests")->capture_default_str()->check(CLI::Range(0, 10'000'000));
        command->add_option("--out", outDir, "write DIR/random-SEED.litmus files instead of printing");
        generator.add(*command);
    }

    int run() { return runGenerate(seed, count, generator, outDir); }
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"rdmacheck: decide RDMA litmus tests under RDMA^TSO and related models, herd7-style"};
    app.require_subcommand(0, 1);
    ResourceLimits limits;
    CheckFlags check;
    check.add(app, limits);
    CrossFlags cross;
    cross.add(app, check.modelsDir, limits);
    RefineFlags refine;
    refine.add(app, check, limits);
    RobustFlags robust;
    robust.add(app, check, limits);
    SuiteFlags suite;
    suite.add(app);
    GenerateFlags generate;
    generate.add(app);
    bool version = false;
    app.add_flag("--version", version, "print rdmacheck's version and exit (herd7's -version)");
    refuseUnrepresentable(app);

    std::vector<std::string> args = herdAliases(argc, argv);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        if (code == 0) return 0;  // --help is no error; any other usage error is bad input
        suggestOption(app, e);
        return 2;
    }
    if (version) {
        std::cout << "rdmacheck " << RDMACHECK_VERSION << "\n";
        return 0;
    }
    check.options.limits = check.machineOptions.limits = check.modelOptions.limits = limits;

    auto dispatch = [&]() -> int {
        if (*cross.command) return cross.run(check.modelsDir, limits);
        if (*generate.command) return generate.run();
        if (*refine.command) return refine.run(check);
        if (*robust.command) return robust.run(check);
        if (suite.readsLogs()) return suite.runOnLogs();
        if (check.files.empty() && !suite.checksSuite()) {
            std::cerr << "rdmacheck: error: no test files given\nRun with --help for more information.\n";
            return 2;
        }
        if (const std::string misuse = check.misuse(); !misuse.empty()) {
            std::cerr << "rdmacheck: error: " << misuse << "\n";
            return 2;
        }
        CheckRun run;
        check.configure(run, suite.checksSuite());
        if (suite.checksSuite()) return suite.runOnSuite(run, check.jobs);
        if (!run.prepare()) return 2;
        return run.run(check.files, check.jobs);
    };
    try {
        return dispatch();
    } catch (...) {  // each command reports its tests' errors; this is the last net
        return reportError(std::cerr, "rdmacheck");
    }
}
