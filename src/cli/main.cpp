// rdmacheck: check RDMA (and x86) litmus tests against a memory model, with the
// declarative engine or the operational machines; `cross` makes the engines
// check each other, `generate` writes random tests. Each command declares its
// options and runs in its own file; this one only chooses the command.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "check_run.hpp"
#include "common.hpp"
#include "cross_run.hpp"
#include "diy_run.hpp"
#include "generate_run.hpp"
#include "options.hpp"
#include "refine_run.hpp"
#include "robust_run.hpp"
#include "suite.hpp"

using namespace rdmacheck;
using namespace rdmacheck::cli;

int main(int argc, char** argv) {
    CLI::App app{"rdmacheck: decide RDMA litmus tests under RDMA^TSO and related models, herd7-style", "rdmacheck"};
    app.require_subcommand(0, 1);
    ResourceLimits limits;
    CheckFlags check;
    check.add(app, limits);
    CrossFlags cross;
    cross.add(app, check.modelsDirs, limits);
    RefineFlags refine;
    refine.add(app, check, limits);
    RobustFlags robust;
    robust.add(app, check, limits);
    SuiteFlags suite;
    suite.add(app);
    GenerateFlags generate;
    generate.add(app);
    DiyFlags diy;
    diy.add(app);
    bool version = false;
    app.add_flag("--version", version, "print rdmacheck's version and exit (herd7's -version)");
    refuseUnrepresentable(app);

    try {
        std::vector<std::string> args = herdAliases(app, argc, argv);
        std::reverse(args.begin(), args.end());  // CLI11 takes them last first
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        if (code == 0) return finish(0);  // --help is no error; any other usage error is bad input
        suggestOption(app, e);
        return 2;
    } catch (const InputError&) {
        return reportError(std::cerr, "rdmacheck");
    }
    if (version) {
        std::cout << "rdmacheck " << RDMACHECK_VERSION << "\n";
        return finish(0);
    }
    check.options.limits = check.machineOptions.limits = check.modelOptions.limits = limits;

    auto dispatch = [&]() -> int {
        if (*cross.command) return cross.run(check.modelPath(), limits);
        if (*generate.command) return generate.run();
        if (*diy.command) return diy.run(check.modelPath(), limits);
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
        return run.run(expandIndexFiles(check.files), check.jobs);
    };
    try {
        return finish(dispatch());
    } catch (...) {  // each command reports its tests' errors; this is the last net
        return reportError(std::cerr, "rdmacheck");
    }
}
