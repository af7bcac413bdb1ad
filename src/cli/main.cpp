// rdmacheck: check RDMA (and x86) litmus tests against a memory model, with the
// declarative engine or the operational machines; `cross` makes the engines
// check each other, `generate` writes random tests.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
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

// For counts and bounds: CLI11 would read "-5" into an unsigned option as 2^64-5.
CLI::Validator notNegative() {
    return CLI::Validator(
        [](std::string& value) {
            const size_t first = value.find_first_not_of(" \t");
            return first == std::string::npos || value[first] != '-' ? std::string()
                                                                      : "must not be negative, got " + value;
        },
        "NOT NEGATIVE");
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
        models = loadConfigModels(options.configs, modelsDir);
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
            const Model spec = loadModel(modelsDir, specName), impl = loadModel(modelsDir, implName);
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
                    std::cout << "Warning: " << loop.file << ":" << loop.line << ":" << loop.column
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
    const std::string given = message.substr(dash, message.find_first_of(" \n", dash) - dash);
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

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"rdmacheck: decide RDMA litmus tests under RDMA^TSO and related models, herd7-style"};
    app.require_subcommand(0, 1);
    std::vector<std::string> files;
    std::string modelName;
    std::string modelsDir = defaultModelsDir();
    CheckOptions options;
    MachineOptions machineOptions;
    std::string engine = "declarative";
    bool json = false, noTime = false;
    app.add_option("files", files, "litmus test files (RDMA or X86 syntax)");
    app.add_option("--model", modelName,
                   "model: a name from --models-dir (rdma-tso, rdma-tso-nopcie, rdma-tso-rmw, rdma-wait, rdma-wait-rmw, "
                   "mowgli-tso-rmw, tso, sc) or the path of a .cat file (models/README.md); "
                   "default tso for X86 tests, rdma-wait-rmw for tests with work identifiers or library calls, "
                   "rdma-tso-rmw for tests with remote RMWs, rdma-tso otherwise");
    app.add_option("--models-dir", modelsDir, "directory holding the model files")->capture_default_str();
    ModelOptions modelOptions;
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
    ResourceLimits limits;
    auto addLimits = [&limits](CLI::App& command) {
        command.add_option("--timeout", limits.seconds, "stop a test after this many seconds (0: never)")
            ->capture_default_str()->check(notNegative());
        command.add_option("--max-memory", limits.megabytes, "stop a test past this much resident memory, MiB (0: never)")
            ->capture_default_str()->check(notNegative());
    };
    addLimits(app);
    bool noReduction = false;
    app.add_flag("--no-reduction", noReduction, "operational: explore every interleaving (slow; checks the reduction)");
    app.add_flag("--json", json, "print one JSON object per test (JSON Lines) instead of herd7 text");
    app.add_flag("--no-time", noTime, "omit the Time line (for diffs)");
    PictureOptions pictures;
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
    bool statesOnly = false, speedcheck = false;
    CLI::Option* statesFlag = app.add_flag(
        "--states", statesOnly, "declarative: list the distinct final states and the verdict, without counting executions");
    app.add_flag("--speedcheck", speedcheck,
                 "declarative: only the verdict, from one deciding execution if any (herd7's -speedcheck)")
        ->excludes(statesFlag);
    int checkJobs = 1;
    app.add_option("-j,--jobs", checkJobs, "files checked in parallel; output stays in input order")
        ->capture_default_str()->check(CLI::Range(1, 256));
    app.add_flag("--explain", pictures.explain,
                 "for an outcome no consistent execution reaches: each candidate execution's shortest cycle");

    CLI::App* cross = app.add_subcommand("cross", "run several engine:model configurations and report differences");
    std::vector<std::string> crossFiles;
    std::string configs =
        "declarative:rdma-tso,concrete:rdma-tso,simplified:rdma-tso,"
        "declarative:rdma-tso-nopcie,concrete:rdma-tso-nopcie,simplified:rdma-tso-nopcie";
    CrossOptions crossOptions;
    int randomCount = 0, jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    uint64_t seed = 1;
    bool noShrink = false;
    std::string reproDir;
    GeneratorFlags crossGenerator;
    cross->add_option("files", crossFiles, "litmus test files");
    cross->add_option("--configs", configs,
                      "ENGINE:MODEL list (engines: declarative, concrete, simplified); each is compared with the "
                      "first config of the same model")
        ->capture_default_str();
    cross->add_flag("--against-first", crossOptions.againstFirst,
                    "compare every config with the first, across models (e.g. rdma-tso vs tso on CPU-only tests)");
    cross->add_option("--random", randomCount, "also cross-check this many random tests")->check(CLI::Range(0, 10'000'000));
    cross->add_option("--seed", seed, "seed of the first random test (then seed+1, ...)")->capture_default_str()
        ->check(notNegative());
    cross->add_option("--unroll", crossOptions.unroll, "loop iterations kept")->capture_default_str()
        ->check(notNegative());
    cross->add_option("--max-states", crossOptions.maxStates, "operational: give up past this many machine states")
        ->capture_default_str()->check(notNegative());
    addLimits(*cross);
    cross->add_option("--models-dir", modelsDir, "directory holding the model files");
    cross->add_flag("--no-shrink", noShrink, "report differences without shrinking them");
    cross->add_option("--repro-dir", reproDir, "write each shrunk reproducer to DIR/TEST.litmus");
    cross->add_option("-j,--jobs", jobs, "tests checked in parallel")->capture_default_str()->check(CLI::Range(1, 256));
    crossGenerator.add(*cross);

    CLI::App* refine = app.add_subcommand("refine", "check that an implementation's outcomes are the specification's");
    std::vector<std::string> refineFiles;
    std::string implementations = "sv", implModelName;
    bool printImplementation = false;
    refine->add_option("files", refineFiles, "litmus test files (written against the specification)")->required();
    refine->add_option("--impl", implementations,
                       "implementations to inline, in order: sv (I_SV into RDMA^WAIT), wait-polls, "
                       "wait-polls-faithful (wait(d) as polls over RDMA^TSO_RMW), nl (I_NL, ticket node locks "
                       "over RDMA^WAIT_RMW), wl, sl (weak and strong locks), sc (I_SC over nl), bal (barriers "
                       "over sv), rbl (ring buffers over sv); the mutants bal-no-entry-fence and rbl-head-first")
        ->capture_default_str();
    refine->add_option("--model", modelName, "specification model (default: the test's default model)");
    refine->add_option("--impl-model", implModelName,
                       "model of the implementation (default: the specification's for sv, rdma-tso-rmw after "
                       "wait-polls, rdma-wait-rmw after nl)");
    refine->add_option("--models-dir", modelsDir, "directory holding the model files");
    refine->add_option("--unroll", options.unroll, "loop iterations kept")->capture_default_str()
        ->check(notNegative());
    refine->add_flag("--print", printImplementation, "also print each inlined test");
    addLimits(*refine);

    CLI::App* robust = app.add_subcommand("robust", "is every trace of the program sequentially consistent? "
                                                    "(robustness against SC, ROBUSTNESS.md)");
    std::vector<std::string> robustFiles;
    robust->add_option("files", robustFiles, "litmus test files")->required();
    robust->add_option("--model", modelName, "the weak model (default: rdma-sc for RDMA tests, tso for X86 tests)");
    robust->add_option("--models-dir", modelsDir, "directory holding the model files");
    robust->add_option("--unroll", options.unroll, "loop iterations kept")->capture_default_str()->check(notNegative());
    robust->add_option("--max-events", options.maxEvents, "give up on a combination of thread paths with more events")
        ->capture_default_str()->check(notNegative());
    RobustRunOptions robustOptions;
    CLI::Option* robustDot = robust->add_option("--dot", robustOptions.dotDir,
                                                "draw each witness in DIR as TEST-witness.dot, its cycle highlighted");
    robust->add_option("--render", robustOptions.renderFormat, "also render each witness picture: svg or png")
        ->check(CLI::IsMember({"svg", "png"}))
        ->needs(robustDot);
    robust->add_flag("--json", json, "print one JSON record per test (JSON Lines, doc/output.schema.json)");
    robust->add_flag("--no-time", noTime, "omit the Time line (for diffs)");
    CLI::Option* repair = robust->add_flag(
        "--repair", robustOptions.repair,
        "search the fewest insertions (poll, rfence, mfence, flush) that make a non-robust test robust "
        "(ROBUSTNESS.md §5) and print each repaired program");
    robust->add_option("--repair-max", robustOptions.repairMax, "--repair: insertions tried at most")
        ->capture_default_str()->check(CLI::Range(1, 8))->needs(repair);
    addLimits(*robust);

    // Takes the main command's options too (fallthrough): rdmacheck run --model tso DIR.
    CLI::App* suiteCommand = app.add_subcommand(
        "run", "check a suite in parallel, with progress and a summary on stderr and the reports on stdout");
    suiteCommand->fallthrough();
    std::vector<std::string> suiteArgs;
    SuiteOptions suite;
    suite.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    suiteCommand->add_option("suite", suiteArgs,
                             "directories (their .litmus files, recursively), @INDEX files (herd7's: a path per line), "
                             "- (paths on standard input) or files")
        ->required();
    suiteCommand->add_option("-j,--jobs", suite.jobs, "tests checked in parallel")->capture_default_str()
        ->check(CLI::Range(1, 256));
    suiteCommand->add_option("--shard", suite.shard, "check only part I of N (I/N): every N-th test from the I-th");
    suiteCommand->add_option("--expect", suite.expect,
                             "expected verdicts: a herd7 log, rdmacheck --json output or CSV TEST,VERDICT (Ok/No, 1/0); "
                             "each mismatch is reported and the exit code is 1");
    bool noProgress = false;
    suiteCommand->add_flag("--no-progress", noProgress, "no progress line on stderr");

    CLI::App* merge = app.add_subcommand("merge", "join the logs of several runs (e.g. shards) into one log and summary");
    std::vector<std::string> mergeLogsArgs;
    std::string mergeExpect;
    merge->add_option("logs", mergeLogsArgs, "logs of rdmacheck run (herd7 text or --json)")->required();
    merge->add_option("--expect", mergeExpect, "expected verdicts, as for run --expect");

    // Takes the main command's options too (fallthrough), for --models runs.
    CLI::App* compare = app.add_subcommand(
        "compare", "mcompare7's table of several logs, or of several models run on a suite (--models a,b)");
    compare->fallthrough();
    std::vector<std::string> compareArgs, compareModelNames;
    compare->add_option("inputs", compareArgs, "logs of rdmacheck (text or --json); with --models, the suite")
        ->required();
    compare->add_option("--models", compareModelNames, "run these models on the suite and compare them")
        ->delimiter(',');

    CLI::App* generate = app.add_subcommand("generate", "write random RDMA litmus tests");
    int count = 1;
    std::string outDir;
    GeneratorFlags generator;
    generate->add_option("--seed", seed, "seed of the first test (then seed+1, ...)")->capture_default_str()
        ->check(notNegative());
    generate->add_option("--count", count, "how many tests")->capture_default_str()->check(CLI::Range(0, 10'000'000));
    generate->add_option("--out", outDir, "write DIR/random-SEED.litmus files instead of printing");
    generator.add(*generate);

    bool version = false;
    app.add_flag("--version", version, "print rdmacheck's version and exit (herd7's -version)");
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
    options.limits = machineOptions.limits = crossOptions.limits = limits;
    // Z3 stops at the same bound inside one solver call (a z3::exception about memory).
    if (limits.megabytes > 0) z3::set_param("memory_max_size", std::to_string(limits.megabytes).c_str());

    auto dispatch = [&]() -> int {
        if (*cross) {
            crossOptions.shrink = !noShrink;
            return runCross(crossFiles, modelsDir, crossOptions, configs, randomCount, seed, crossGenerator, reproDir,
                            jobs);
        }
        if (*generate) return runGenerate(seed, count, generator, outDir);
        if (*merge) return mergeLogs(mergeLogsArgs, mergeExpect);
        if (*compare && compareModelNames.empty()) return compareLogs(compareArgs);
        if (*refine)
            return runRefine(refineFiles, implementations, modelName, implModelName, modelsDir, options, printImplementation);
        if (*robust) {
            robustOptions.modelName = modelName;
            robustOptions.modelsDir = modelsDir;
            robustOptions.check = options;
            robustOptions.json = json;
            robustOptions.noTime = noTime;
            return runRobust(robustFiles, robustOptions);
        }
        if (files.empty() && !*suiteCommand && !*compare) {
            std::cerr << "rdmacheck: error: no test files given\nRun with --help for more information.\n";
            return 2;
        }
        machineOptions.reduce = !noReduction;
        if (!pictures.format.empty() && pictures.dir.empty()) {
            std::cerr << "rdmacheck: error: --render needs --dot DIR (where the pictures go)\n";
            return 2;
        }
        if (pictures.show.empty()) pictures.show = "cond";
        if (engine == "operational" && pictures.explain) {
            std::cerr << "rdmacheck: error: --explain looks for declarative executions; drop --engine operational\n";
            return 2;
        }
        if (engine == "operational" && (statesOnly || speedcheck)) {
            std::cerr << "rdmacheck: error: --states and --speedcheck are modes of the declarative engine; drop "
                         "--engine operational\n";
            return 2;
        }
        options.mode = speedcheck ? CheckMode::Speedcheck : statesOnly ? CheckMode::States : CheckMode::Executions;
        CheckRun run;
        run.modelName = modelName;
        run.modelsDir = modelsDir;
        run.modelOptions = modelOptions;
        run.engine = engine;
        run.options = options;
        run.machineOptions = machineOptions;
        // A test's own progress line only when tests run one at a time and no
        // suite line (run) or table (compare) is being made.
        run.options.progress = run.machineOptions.progress = checkJobs == 1 && !*suiteCommand && !*compare;
        run.json = json;
        run.noTime = noTime;
        run.pictures = pictures;
        suite.progress = !noProgress;
        if (*suiteCommand) return runSuite(run, suiteArgs, suite);
        if (*compare) return compareModels(run, compareModelNames, compareArgs, checkJobs);
        if (!run.prepare()) return 2;
        return run.run(files, checkJobs);
    };
    try {
        return dispatch();
    } catch (...) {  // each command reports its tests' errors; this is the last net
        return reportError(std::cerr, "rdmacheck");
    }
}
