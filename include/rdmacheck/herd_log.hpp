// A test's report as a command prints it, and as read back from a log: herd7
// text blocks (from `Test` to a blank line) or rdmacheck's JSON Lines, for
// merge, compare (mcompare.hpp) and --expect.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// What checking one file printed, in order, on stdout (false) and stderr
// (true), and how it ended, for a suite's summary.
struct FileReport {
    std::vector<std::pair<bool, std::string>> pieces;
    int status = 0;        // the file's exit code
    std::string file;
    std::string test;      // empty when the file could not be read
    std::string model;     // the model it was checked under (reports of this run)
    bool checked = false;  // a verdict came out (then ok, quantifier)
    bool ok = false;
    bool loop = false;     // the verdict says `Loop Ok`/`Loop No`: a loop was cut at the unrolling bound
    bool undefined = false;  // the verdict says `Undef` (CheckResult::undefined); ok: the condition's, false in a text log
    Quantifier quantifier = Quantifier::Exists;
    bool timedOut = false;
    double seconds = 0;
    std::vector<std::string> states;  // the final states' lines, for compare
    std::string hash;                 // herd7's Hash= of a log's X86 test, for compare
    nlohmann::json options;           // a --json log's record: the options it ran with, for merge

    void print(bool toStderr, const std::string& text);
    void flush() const;
};

// The reports of one log of `run` (or of the main command), error records
// included; `path` names it in messages. std::invalid_argument for what is
// not a report.
void readLog(const std::string& path, const std::string& text, std::vector<FileReport>& out);
void readLogFile(const std::string& path, std::vector<FileReport>& out);

}  // namespace rdmacheck
