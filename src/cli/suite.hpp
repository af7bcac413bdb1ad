// `rdmacheck run`: a suite of tests (directories, herd7 index files, names on
// standard input), optionally one shard of it, checked in parallel with
// progress on stderr, a summary at the end and expected verdicts compared.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "check_run.hpp"

namespace rdmacheck::cli {

struct SuiteOptions {
    int jobs = 1;
    std::string shard;   // "I/N": the I-th of N parts (1-based); empty: all
    std::string expect;  // herd7 log, rdmacheck JSON Lines or CSV test,verdict
    bool progress = true;
};

// The files `args` name, in order: a directory's .litmus files (recursively,
// sorted), an index file's lines (a name starting with '@'; relative to it; # comments), `-` for names
// on standard input, or a file. Throws InputError for what cannot be read.
std::vector<std::string> collectSuite(const std::vector<std::string>& args);

// `args` with each index file (a name starting with '@', as herd7's) replaced
// by the paths it lists, as the main command reads them, as herd7 does.
// Throws InputError for an index that cannot be read.
std::vector<std::string> expandIndexFiles(const std::vector<std::string>& args);

// The files of shard "I/N": every N-th file from the I-th. Throws InputError
// for a malformed shard.
std::vector<std::string> shardOf(const std::vector<std::string>& files, const std::string& shard);

// Runs the suite; exit code 0, 1 (an expectation failed) or 2 (a test had an
// error or timed out, or a bad argument).
int runSuite(CheckRun& run, const std::vector<std::string>& args, const SuiteOptions& options);

// `rdmacheck merge`: the reports of several logs of `run` (shards, or
// several machines) as one log, sorted by test name, with run's summary;
// exit 1 when an expected verdict differs, 2 when a log cannot be read.
int mergeLogs(const std::vector<std::string>& logs, const std::string& expect);

// `rdmacheck compare`: mcompare7's table (mcompare.hpp) of several logs, or
// of several models run on the same suite; exit 1 when some test differs or
// is missing from the first log, 2 on a bad log or test, or where mcompare7
// stops (a hash or state-location mismatch).
struct CompareOptions {
    bool checkHashes = true;  // false: mcompare7's -nohash
    std::string filter;       // tests whose names this matches (empty: all)
    std::string positive, negative, equal;  // mcompare7's -pos, -neg, -eq: files of those tests' names
};
int compareLogs(const std::vector<std::string>& logs, const CompareOptions& options);
int compareModels(CheckRun& run, const std::vector<std::string>& models, const std::vector<std::string>& args,
                  int jobs, const CompareOptions& options);

// run, merge and compare: suites, their logs and their tables.
struct SuiteFlags {
    CLI::App *runCommand = nullptr, *mergeCommand = nullptr, *compareCommand = nullptr;
    std::vector<std::string> args, mergeLogsArgs, compareArgs, compareModelNames;
    SuiteOptions suite;
    bool noProgress = false;
    CompareOptions compare;
    std::string mergeExpect;

    void add(CLI::App& app);

    // merge, and compare of logs: they check no test.
    bool readsLogs() const { return *mergeCommand || (*compareCommand && compareModelNames.empty()); }
    int runOnLogs() const;
    bool checksSuite() const { return *runCommand || *compareCommand; }
    int runOnSuite(CheckRun& run, int jobs);
};

}  // namespace rdmacheck::cli
