// The main command and `run`: check files under one set of options, -j at a
// time, each file's report held back so that reports print in input order.
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/check.hpp"
#include "rdmacheck/herd_log.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/report.hpp"
#include "common.hpp"

namespace rdmacheck::cli {

// --dot, --render, --show, --edges, --explain.
struct PictureOptions {
    std::string dir;      // --dot DIR; empty: no files
    std::string format;   // --render svg|png; empty: DOT only
    std::string show;     // herd7's -show: all, prop, cond, wit, neg, none
    bool perTest = false;  // --dot-per-test: DIR/TEST.dot holds every picture of the test (herd7's -o)
    std::string edges;    // --edges list; empty: herd7's relations
    bool explain = false;
    bool showInit = false;       // --show-init (herd7's -showinitwrites)
    uint64_t maxPictures = 1000;  // --max-pictures: executions drawn per test
    size_t maxShown = 3;          // --max-shown: explanation candidates shown (and drawn)
    uint64_t maxCandidates = 100'000;  // --max-candidates: explanation candidates searched
};

// A picture's file stem, TEST-0007: numbered wide enough for `count` so that
// the files sort in order.
std::string numberedStem(const std::string& prefix, uint64_t k, uint64_t count);

class CheckRun {
public:
    std::string modelName;  // empty: each test's default model
    ModelSearchPath modelPath;
    ModelOptions modelOptions;
    std::string engine;
    CheckOptions options;
    MachineOptions machineOptions;
    bool json = false, noTime = false, noWarnings = false, hexa = false, hideUndefined = false;
    PictureOptions pictures;

    // Loads --model, makes --dot's directory and what the reports say of the
    // options; false after printing an error. Call it before run().
    bool prepare();
    // Checks every file, `jobs` at a time; `done` gets each report in input
    // order, to print it (the default) and more. Returns the worst exit code.
    template <class Done>
    int run(const std::vector<std::string>& files, int jobs, const Done& done);
    int run(const std::vector<std::string>& files, int jobs) {
        return run(files, jobs, [](const FileReport& report) { report.flush(); });
    }

    FileReport checkFile(const std::string& file);
    // The error for `later`, a test named as one read before from `earlierFile` with another hash.
    FileReport sameNameError(const FileReport& later, const std::string& earlierFile) const;

private:
    ReportOptions reportOptions_;  // the time line and, for JSON, the options: made by prepare()
    std::mutex modelsMutex_;
    std::map<std::string, Model> models_;  // loaded once, shared by the threads

    // Loaded once; `test`: the test it is loaded for, whose limits stop it ("": --model).
    const Model& model(const std::string& name, const std::string& test);
    CheckResult checkTest(const LitmusTest& test, const Model& m, const std::set<std::string>& relations,
                          std::string& pictureError, uint64_t& notDrawn);
};

// As herd7 does (lib/testHash.ml), an X86 test whose name came before is
// checked once: a copy with the same hash gives no report, another an error.
template <class Done>
int CheckRun::run(const std::vector<std::string>& files, int jobs, const Done& done) {
    int status = 0;
    struct FirstRead {
        std::string hash, file;
    };
    std::map<std::string, FirstRead> first;  // an X86 test's name -> its first hash and file
    forEachInOrder<FileReport>(
        files.size(), jobs, [&](size_t i) { return checkFile(files[i]); },
        [&](size_t, const FileReport& report) {
            auto seen = report.hash.empty() ? first.end() : first.find(report.test);
            if (seen != first.end() && seen->second.hash == report.hash) return;
            auto show = [&](const FileReport& shown) {
                done(shown);
                status = std::max(status, shown.status);
            };
            if (seen != first.end()) return show(sameNameError(report, seen->second.file));
            if (!report.hash.empty()) first.emplace(report.test, FirstRead{report.hash, report.file});
            show(report);
        });
    return status;
}

// The main command's options; `run` and `compare` fall through to them, and
// refine and robust share the model, the models folder and the bounds.
struct CheckFlags {
    std::vector<std::string> files;
    std::string modelName;
    std::vector<std::string> modelsDirs;  // --models-dir, -I: searched before the shipped models
    ModelOptions modelOptions;
    CheckOptions options;
    MachineOptions machineOptions;
    std::string engine = "declarative";
    bool json = false, noTime = false, noWarnings = false, hexa = false, noReduction = false, statesOnly = false,
         speedcheck = false, deciding = false, hideUndefined = false;
    int jobs = 1;
    PictureOptions pictures;

    void add(CLI::App& app, ResourceLimits& limits);
    ModelSearchPath modelPath() const { return ModelSearchPath::withDefaults(modelsDirs); }
    void addPictures(CLI::App& app);

    // The option combinations CLI11 cannot refuse; an error message, or "".
    std::string misuse() const;

    // Sets `run` to these options; `quiet`: no per-test progress line (a
    // suite's line or a table is being made instead).
    void configure(CheckRun& run, bool quiet) const;
};

}  // namespace rdmacheck::cli
