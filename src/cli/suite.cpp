#include "suite.hpp"

#include "options.hpp"
#include "rdmacheck/herd_log.hpp"
#include "rdmacheck/mcompare.hpp"
#include "rdmacheck/progress.hpp"
#include "rdmacheck/text_file.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace rdmacheck::cli {

namespace fs = std::filesystem;

namespace {

// Runs `read`, which reads the arguments of `command`; false after printing
// why one could not be read (at its file and line when the reader says).
template <class Read>
bool readArguments(const char* command, const Read& read) {
    try {
        read();
        return true;
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << command << ": " << e.what() << "\n";
    }
    return false;
}

void addPath(const std::string& path, std::vector<std::string>& out, int depth);

// herd7's index files are the files whose name starts with '@' (diy7 writes
// DIR/@all; `herd7 DIR/@all` reads it). rdmacheck read `@PATH` as "the index
// PATH" before, and still does when no file is named with the '@'.
bool isIndexName(const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    return (!name.empty() && name[0] == '@') || (path.size() > 1 && path[0] == '@');
}

std::string indexFile(const std::string& path) {
    std::error_code ec;
    if (fs::exists(path, ec)) return path;
    const fs::path p(path);
    const std::string name = p.filename().string();
    const std::string bare = !name.empty() && name[0] == '@' ? (p.parent_path() / name.substr(1)).string() : path.substr(1);
    return fs::exists(bare, ec) ? bare : path;
}

// A herd7 index file: one path per line, relative to the index; # comments.
void addIndex(const std::string& index, std::vector<std::string>& out, int depth) {
    if (depth > 16) refuse(index + ": index files nest more than 16 deep");
    std::istringstream in(readTextFile(index, "index file"));
    const fs::path base = fs::path(index).parent_path();
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        const size_t first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
        if (first == std::string::npos) continue;
        const fs::path p(line.substr(first, last - first + 1));
        addPath((p.is_absolute() ? p : base / p).lexically_normal().string(), out, depth);
    }
}

void addPath(const std::string& path, std::vector<std::string>& out, int depth) {
    if (isIndexName(path)) return addIndex(indexFile(path), out, depth + 1);
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        out.push_back(path);  // a missing file is the test's own error, reported in its place
        return;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".litmus" && !it->is_directory()) found.push_back(it->path().string());
    if (ec) refuse("cannot read the directory " + path + ": " + ec.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
}

// A report's place in a merged log: its test's name, or its file's for an error.
const std::string& sortName(const FileReport& r) { return r.test.empty() ? r.file : r.test; }

// Expected verdicts, by test name and by file name.
class Expectations {
public:
    // A herd7 log or rdmacheck's JSON Lines (read as `merge` reads them), else CSV.
    explicit Expectations(const std::string& file) {
        const std::string all = readTextFile(file, "--expect file");
        const size_t first = all.find_first_not_of(" \t\r\n");
        if (first != std::string::npos &&
            (all[first] == '{' || all.rfind("Test ", first) == first || all.find("\nTest ") != std::string::npos)) {
            std::vector<FileReport> reports;
            readLog(file, all, reports);
            for (const FileReport& r : reports)
                if (r.checked) ok_[{r.test, ""}] = r.ok;
        } else {
            readCsv(all, file);
        }
        if (ok_.empty()) refuse("--expect: no verdicts in " + file);
    }

    // The expected Ok/No of a report, if listed: for its model first (the
    // corpus's CSV lists one per model).
    const bool* find(const FileReport& r) const {
        const fs::path p(r.file);
        for (const std::string& model : {r.model, std::string()})
            for (const std::string& key : {r.test, r.file, p.filename().string(), p.stem().string()}) {
                auto it = ok_.find({key, model});
                if (it != ok_.end()) return &it->second;
            }
        return nullptr;
    }

private:
    std::map<std::pair<std::string, std::string>, bool> ok_;  // (test, model or "") -> Ok

    // `test,verdict` rows (Dat3M's CSV), or a header naming the columns `test`,
    // `expect` and `model` (the corpus's litmus/*/expected.csv); verdicts Ok/No,
    // 1/0 or true/false.
    void readCsv(const std::string& all, const std::string& file) {
        std::istringstream lines(all);
        size_t testAt = 0, verdictAt = 1, modelAt = std::string::npos;
        int n = 0;
        for (std::string line; std::getline(lines, line);) {
            ++n;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) continue;
            const std::vector<std::string> cells = leadingCells(line);
            auto cell = [&](size_t i) { return i < cells.size() ? cells[i] : std::string(); };
            const std::map<std::string, bool> words{{"Ok", true},      {"No", false},       {"Loop Ok", true},
                                                    {"Loop No", false}, {"1", true},        {"0", false},
                                                    {"true", true},     {"false", false}};
            auto w = words.find(cell(verdictAt));
            if (w == words.end()) {
                if (n == 1) {  // a header
                    auto at = [&](const std::string& name, size_t otherwise) {
                        auto it = std::find(cells.begin(), cells.end(), name);
                        return it == cells.end() ? otherwise : static_cast<size_t>(it - cells.begin());
                    };
                    testAt = at("test", testAt), verdictAt = at("expect", verdictAt), modelAt = at("model", modelAt);
                    continue;
                }
                refuse(file + ":" + std::to_string(n) + ": --expect: expected TEST,VERDICT with Ok/No, 1/0 or true/false");
            }
            ok_[{fs::path(cell(testAt)).filename().string(), cell(modelAt)}] = w->second;
        }
    }

    // The cells before the first quoted one (the corpus's `source` column quotes prose with commas).
    static std::vector<std::string> leadingCells(const std::string& line) {
        std::vector<std::string> cells;
        std::istringstream in(line);
        for (std::string cell; std::getline(in, cell, ',') && (cell.empty() || cell[0] != '"');) cells.push_back(cell);
        return cells;
    }
};

// done/total, failures and an estimate on stderr: redrawn in place on a
// terminal, a line every 10 s otherwise (with --progress only, ProgressLine).
class SuiteProgress {
public:
    SuiteProgress(size_t total, bool enabled)
        : total_(total), enabled_(enabled && ProgressLine::shown()), tty_(::isatty(2) != 0) {}

    void clear() {
        if (shown_) std::cerr << "\r\033[K" << std::flush;
        shown_ = false;
    }
    void update(size_t done, size_t failures) {
        if (!enabled_) return;
        const double seconds = elapsed();
        if (!tty_ && seconds - lastLine_ < 10) return;
        lastLine_ = seconds;
        std::ostringstream line;
        line << "run: " << done << "/" << total_ << " tests, " << failures << " failed, " << std::fixed
             << std::setprecision(1) << seconds << " s";
        if (done > 0 && done < total_) line << ", about " << seconds / done * (total_ - done) << " s left";
        std::cerr << (tty_ ? "\r\033[K" : "") << line.str() << (tty_ ? "" : "\n") << std::flush;
        shown_ = tty_;
    }
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    size_t total_;
    bool enabled_, tty_, shown_ = false;
    double lastLine_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Expected against actual verdicts, each mismatch reported on stderr.
struct ExpectationTally {
    size_t mismatches = 0, unlisted = 0;

    void compare(const Expectations& expected, const FileReport& report, const char* command) {
        if (!report.checked) return;
        const bool* ok = expected.find(report);
        if (!ok) {
            ++unlisted;
        } else if (*ok != report.ok) {
            ++mismatches;
            std::cerr << command << ": " << report.test << (report.file.empty() ? "" : " (" + report.file + ")")
                      << ": expected " << (*ok ? "Ok" : "No") << ", got " << (report.ok ? "Ok" : "No") << "\n";
        }
    }
};

void printSummary(const char* command, const std::vector<FileReport>& reports, double seconds,
                  const std::string& how, const ExpectationTally& tally, bool expecting) {
    std::map<std::string, std::pair<size_t, size_t>> byKind;  // kind -> (Ok, No)
    size_t errors = 0, timeouts = 0;
    for (const FileReport& r : reports) {
        if (r.checked) {
            auto& [ok, no] = byKind[kindWord(r.quantifier)];
            ++(r.ok ? ok : no);
        }
        timeouts += r.timedOut;
        errors += !r.checked && !r.timedOut;
    }
    std::ostringstream out;
    out << std::fixed << std::setprecision(2);
    out << command << ": " << counted(reports.size(), "test") << " in " << seconds << " s " << how << "\n";
    for (const auto& [kind, counts] : byKind)
        out << "  " << std::left << std::setw(10) << kind << std::right << " Ok " << std::setw(6) << counts.first
            << "   No " << std::setw(6) << counts.second << "\n";
    out << "  errors " << errors << ", timeouts " << timeouts << "\n";
    if (expecting)
        out << "  expectations: " << tally.mismatches << " mismatched, " << tally.unlisted << " tests not listed\n";
    std::vector<const FileReport*> slowest;
    for (const FileReport& r : reports)
        if (r.checked && r.seconds > 0) slowest.push_back(&r);
    std::sort(slowest.begin(), slowest.end(), [](auto a, auto b) { return a->seconds > b->seconds; });
    if (slowest.size() > 5) slowest.resize(5);
    if (!slowest.empty()) {
        out << "  slowest:";
        for (const FileReport* r : slowest) out << " " << r->test << " " << r->seconds << " s" << (r == slowest.back() ? "" : ",");
        out << "\n";
    }
    std::cerr << out.str() << std::flush;
}

}  // namespace

namespace {

// What merge refuses: a test in two logs (the same log twice, overlapping
// shards), and reports of runs with other options (--json records name them;
// a herd7 text log does not) or in the other format.
class MergeChecks {
public:
    // The reports of the next log, `log`.
    void add(const std::string& log, const std::vector<FileReport>& reports) {
        logs_.push_back(log);
        for (const FileReport& r : reports) {
            if (!r.test.empty()) claim("test " + r.test);
            if (!r.file.empty()) claim("file " + r.file);
            if (r.checked) compareRun(log, r);
        }
    }

private:
    std::vector<std::string> logs_;
    std::map<std::string, size_t> logOf_;       // "test NAME" or "file PATH" -> the log (index) that has it
    std::string firstLog_, firstTest_;          // the first report, which the others must match
    nlohmann::json firstOptions_;               // null: a herd7 text report

    void claim(const std::string& key) {
        const auto [it, isNew] = logOf_.emplace(key, logs_.size() - 1);
        if (!isNew && it->second != logs_.size() - 1)
            refuse(key + " is in two logs, " + logs_[it->second] + " and " + logs_.back());
    }

    void compareRun(const std::string& log, const FileReport& r) {
        if (firstLog_.empty()) {
            firstLog_ = log, firstTest_ = r.test, firstOptions_ = r.options;
            return;
        }
        auto format = [](const nlohmann::json& options) { return options.is_null() ? "herd7 text" : "a --json record"; };
        if (r.options.is_null() != firstOptions_.is_null())
            refuse("test " + r.test + " of " + log + " is " + format(r.options) + ", test " + firstTest_ + " of " +
                 firstLog_ + " " + format(firstOptions_));
        if (r.options != firstOptions_)
            refuse("test " + r.test + " of " + log + " ran with other options than test " + firstTest_ + " of " +
                 firstLog_ + ": " + optionDifferences(firstOptions_, r.options));
    }

    static std::string text(const nlohmann::json& value) { return value.is_null() ? "unset" : value.dump(); }

    // "model \"tso\" against \"rdma-tso\", ...": the options that differ.
    static std::string optionDifferences(const nlohmann::json& a, const nlohmann::json& b) {
        std::vector<std::string> differ;
        nlohmann::json keys = a;
        keys.update(b);
        for (const auto& [key, value] : keys.items()) {
            const nlohmann::json none;
            const nlohmann::json& x = a.contains(key) ? a.at(key) : none;
            const nlohmann::json& y = b.contains(key) ? b.at(key) : none;
            if (x != y) differ.push_back(key + " " + text(y) + " against " + text(x));
        }
        return joined(differ);
    }
};

}  // namespace

int mergeLogs(const std::vector<std::string>& logs, const std::string& expect) {
    std::vector<std::vector<FileReport>> inputs(logs.size());
    std::optional<Expectations> expected;
    const bool read = readArguments("merge", [&] {
        MergeChecks checks;
        for (size_t i = 0; i < logs.size(); ++i) {
            readLogFile(logs[i], inputs[i]);
            checks.add(logs[i], inputs[i]);
        }
        if (!expect.empty()) expected.emplace(expect);
    });
    if (!read) return 2;
    std::vector<FileReport> reports;
    for (std::vector<FileReport>& input : inputs)
        for (FileReport& r : input) reports.push_back(std::move(r));
    if (reports.empty()) {
        std::cerr << "rdmacheck: error: merge: no reports in " << joined(logs) << "\n";
        return 2;
    }
    std::stable_sort(reports.begin(), reports.end(),
                     [](const FileReport& a, const FileReport& b) { return sortName(a) < sortName(b); });
    ExpectationTally tally;
    double seconds = 0;
    for (const FileReport& r : reports) {
        r.flush();
        if (expected) tally.compare(*expected, r, "merge");
        seconds += r.seconds;
    }
    printSummary("merge", reports, seconds, "(merged from " + std::to_string(logs.size()) + " logs; time summed)", tally,
                 expected.has_value());
    int status = tally.mismatches ? 1 : 0;
    for (const FileReport& r : reports) status = std::max(status, r.status);
    return status;
}

namespace {

// mcompare7's table on stdout; exit 1 when some test differs, including a
// test the table leaves out for missing from the first column.
int printComparison(const std::vector<CompareColumn>& columns, const CompareOptions& options) {
    const TestNameFilter filter = options.filter.empty() ? TestNameFilter() : TestNameFilter(options.filter);
    const McompareResult result = printMcompareDiffs(std::cout, columns, options.checkHashes, filter);
    for (const auto& [file, tests] : {std::pair{options.positive, result.positive},
                                      std::pair{options.negative, result.negative},
                                      std::pair{options.equal, result.equal}}) {
        if (file.empty()) continue;
        std::ofstream out(file);
        for (const std::string& test : tests) out << test << "\n";
        if (!out) throw std::invalid_argument("cannot write " + file);
    }
    if (!result.notInFirst.empty()) {
        std::cerr << "compare: not in the first log, so not in the table:";
        for (const std::string& test : result.notInFirst) std::cerr << " " << test;
        std::cerr << "\n";
    }
    return result.differing || !result.notInFirst.empty() ? 1 : 0;
}

}  // namespace

int compareLogs(const std::vector<std::string>& logs, const CompareOptions& options) {
    std::vector<CompareColumn> columns;
    int status = 2;
    readArguments("compare", [&] {
        for (const std::string& log : logs) {
            columns.push_back({fs::path(log).filename().string(), log, {}});
            readLogFile(log, columns.back().reports);
        }
        status = printComparison(columns, options);
    });
    return status;
}

int compareModels(CheckRun& run, const std::vector<std::string>& models, const std::vector<std::string>& args,
                  int jobs, const CompareOptions& options) {
    std::vector<std::string> files;
    if (!readArguments("compare", [&] { files = collectSuite(args); })) return 2;
    std::vector<CompareColumn> columns;
    int status = 0;
    for (const std::string& model : models) {
        run.modelName = model;
        if (!run.prepare()) return 2;
        columns.push_back({model, model, {}});
        status = std::max(status, run.run(files, jobs, [&](const FileReport& r) {
            for (const auto& [toStderr, text] : r.pieces)
                if (toStderr) std::cerr << text;  // errors still show; the reports become the table
            columns.back().reports.push_back(r);
        }));
    }
    int compared = 2;
    readArguments("compare", [&] { compared = printComparison(columns, options); });
    return std::max(status, compared);
}

std::vector<std::string> expandIndexFiles(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    for (const std::string& arg : args) {
        if (isIndexName(arg)) {
            addIndex(indexFile(arg), files, 1);
        } else {
            files.push_back(arg);
        }
    }
    return files;
}

std::vector<std::string> collectSuite(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    for (const std::string& arg : args) {
        if (arg != "-") {
            addPath(arg, files, 0);
            continue;
        }
        std::istringstream lines(readStandardInput("list of paths"));
        for (std::string line; std::getline(lines, line);) {
            if (line.find_first_not_of(" \t\r") != std::string::npos) addPath(line, files, 0);
        }
    }
    return files;
}

// A shard's I or N: digits only, at most nine (sscanf's %zu took a minus sign
// and wrapped what overflows).
bool readShardNumber(const std::string& text, size_t& out) {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoul(text);
    return true;
}

std::vector<std::string> shardOf(const std::vector<std::string>& files, const std::string& shard) {
    if (shard.empty()) return files;
    const size_t slash = shard.find('/');
    size_t i = 0, n = 0;
    if (slash == std::string::npos || !readShardNumber(shard.substr(0, slash), i) ||
        !readShardNumber(shard.substr(slash + 1), n) || i < 1 || i > n)
        refuse("--shard: expected I/N with 1 <= I <= N < 10^9, got '" + shard + "'");
    std::vector<std::string> part;
    for (size_t k = i - 1; k < files.size(); k += n) part.push_back(files[k]);
    return part;
}

int runSuite(CheckRun& run, const std::vector<std::string>& args, const SuiteOptions& options) {
    std::vector<std::string> files;
    std::optional<Expectations> expected;
    const bool read = readArguments("run", [&] {
        files = shardOf(collectSuite(args), options.shard);
        if (!options.expect.empty()) expected.emplace(options.expect);
    });
    if (!read) return 2;
    if (!run.prepare()) return 2;
    SuiteProgress progress(files.size(), options.progress);
    std::vector<FileReport> reports;
    size_t failures = 0;
    ExpectationTally tally;
    int status = run.run(files, options.jobs, [&](const FileReport& report) {
        progress.clear();
        report.flush();
        failures += report.status != 0;
        if (expected) tally.compare(*expected, report, "run");
        reports.push_back(report);
        progress.update(reports.size(), failures + tally.mismatches);
    });
    progress.clear();
    printSummary("run", reports, progress.elapsed(), "(-j " + std::to_string(options.jobs) + ")", tally, expected.has_value());
    if (tally.mismatches) status = std::max(status, 1);
    return status;
}

void SuiteFlags::add(CLI::App& app) {
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
    compareCommand->add_flag("--no-hash{false}", compare.checkHashes,
                             "do not stop at a test with two hashes (mcompare7's -nohash)");
    compareCommand->add_option("--pos", compare.positive,
                               "write the names of the tests with positive differences to this file, one a line "
                               "(mcompare7's -pos)");
    compareCommand->add_option("--neg", compare.negative,
                               "the same for negative differences (mcompare7's -neg)");
    compareCommand->add_option("--eq", compare.equal,
                               "the same for the tests some column has the first's states for (mcompare7's -eq)");
    compareCommand->add_option("--filter", compare.filter,
                               "only the tests whose names this regular expression matches from their start, in "
                               "OCaml's Str syntax as mcompare7's -e reads it (which leaves this table whole)");
}

int SuiteFlags::runOnLogs() const {
    return *mergeCommand ? mergeLogs(mergeLogsArgs, mergeExpect) : compareLogs(compareArgs, compare);
}

int SuiteFlags::runOnSuite(CheckRun& run, int jobs) {
    if (*compareCommand) return compareModels(run, compareModelNames, compareArgs, jobs, compare);
    suite.progress = !noProgress;
    return runSuite(run, args, suite);
}

}  // namespace rdmacheck::cli
