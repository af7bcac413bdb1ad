#include "refine_run.hpp"

#include <algorithm>
#include <iostream>

#include "rdmacheck/cross_report.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/progress.hpp"
#include "rdmacheck/refine.hpp"
#include "rdmacheck/report.hpp"
#include "common.hpp"
#include "options.hpp"

namespace rdmacheck::cli {

namespace {

// One line per test, herd7-like, then each counterexample; exit 1 if any
// implementation outcome is not a specification outcome, 2 on bad input.
int runRefine(const std::vector<std::string>& files, const std::string& implementations, const std::string& modelName,
              const std::string& implModelName, const ModelSearchPath& modelPath, const CheckOptions& options,
              bool printImplementation, bool json) {
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
            const Model spec = loadModel(modelPath, specName, modelOptions), impl = loadModel(modelPath, implName, modelOptions);
            for (const RefinementResult& r : checkRefinement(test, chain, spec, impl, checkOptions)) {
                if (json) {
                    std::cout << dumpJson(refinementJson(test, implementations, r, printImplementation)) << "\n";
                } else {
                    printRefinement(std::cout, implementations, r, printImplementation);
                }
                if (!r.ok()) status = std::max(status, 1);
            }
        } catch (...) {
            std::cout.flush();
            const TestError e = describeError(file);
            std::cerr << e.text() << "\n";
            if (json) std::cout << dumpJson(e.record()) << "\n";
            status = std::max(status, e.exitCode);
        }
    }
    return status;
}

}  // namespace

void RefineFlags::add(CLI::App& app, CheckFlags& check, ResourceLimits& limits) {
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
    addModelsDirs(*command, check.modelsDirs);
    command->add_option("--unroll", check.options.unroll, "loop iterations kept")->capture_default_str()
        ->check(notNegative());
    command->add_flag("--print", printImplementation, "also print each inlined test");
    command->add_flag("--json", check.json, "one JSON record per result or error (JSON Lines, doc/output.schema.json)");
    addLimits(*command, limits);
}

int RefineFlags::run(const CheckFlags& check) const {
    return runRefine(files, implementations, check.modelName, implModelName, check.modelPath(), check.options,
                     printImplementation, check.json);
}

}  // namespace rdmacheck::cli
