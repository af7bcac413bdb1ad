// rdmacheck: check RDMA (and x86) litmus tests against a memory model.
#include <CLI/CLI.hpp>
#include <iostream>

#include "rdmacheck/check.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/report.hpp"

int main(int argc, char** argv) {
    using namespace rdmacheck;
    CLI::App app{"rdmacheck: decide RDMA litmus tests under RDMA^TSO and related models, herd7-style"};
    std::vector<std::string> files;
    std::string modelName;
    std::string modelsDir = defaultModelsDir();
    CheckOptions options;
    bool json = false, noTime = false;
    app.add_option("files", files, "litmus test files (RDMA or X86 syntax)")->required();
    app.add_option("--model", modelName,
                   "model name (rdma-tso, rdma-tso-nopcie, tso, sc); default rdma-tso for RDMA tests, tso for X86");
    app.add_option("--models-dir", modelsDir, "directory holding the model files")->capture_default_str();
    app.add_option("--unroll", options.unroll, "loop iterations kept when unrolling")->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--max-executions", options.maxExecutions, "give up past this many consistent executions")
        ->capture_default_str();
    app.add_flag("--json", json, "print one JSON object per test (JSON Lines) instead of herd7 text");
    app.add_flag("--no-time", noTime, "omit the Time line (for diffs)");
    CLI11_PARSE(app, argc, argv);

    int status = 0;
    std::map<std::string, Model> models;
    if (!modelName.empty()) {
        try {
            models.emplace(modelName, loadModel(modelsDir, modelName));
        } catch (const InputError& e) {
            std::cerr << "rdmacheck: error: --model: " << e.detail() << "\n";
            return 2;
        }
    }
    for (const std::string& file : files) {
        try {
            LitmusTest test = parseLitmusFile(file);
            std::string name = modelName.empty() ? (test.arch == Arch::X86 ? "tso" : "rdma-tso") : modelName;
            if (!models.count(name)) models.emplace(name, loadModel(modelsDir, name));
            CheckResult result = check(test, models.at(name), options);
            if (json) {
                std::cout << toJson(test, result).dump() << "\n";
            } else {
                printHerd(std::cout, test, result, ReportOptions{!noTime});
            }
            std::cout.flush();
        } catch (const InputError& e) {
            std::cerr << e.what() << "\n";
            status = 2;
        } catch (const z3::exception& e) {
            std::cerr << file << ": error: solver failure: " << e.msg() << "\n";
            status = 3;
        }
    }
    return status;
}
