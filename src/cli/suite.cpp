#include "suite.hpp"

#include "mcompare.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
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

// `message` quotes paths and lines of index files and logs: printable, so never cut at a NUL.
[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(printable(message)); }

void addPath(const std::string& path, std::vector<std::string>& out, int depth);

// A line of a list of tests (`where`: "FILE:LINE"): a path names no file past a
// NUL byte, so a NUL is refused rather than cut at.
void checkEntry(const std::string& line, const std::string& where) {
    if (line.find('\0') != std::string::npos) fail(where + ": NUL byte in '" + line + "': a path has none");
}

// A herd7 index file: one path per line, relative to the index; # comments.
void addIndex(const std::string& index, std::vector<std::string>& out, int depth) {
    if (depth > 16) fail(index + ": index files nest more than 16 deep");
    std::ifstream in(index);
    if (!in) fail("cannot read the index file " + index);
    const fs::path base = fs::path(index).parent_path();
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        checkEntry(line, index + ":" + std::to_string(++lineNo));
        line = line.substr(0, line.find('#'));
        const size_t first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
        if (first == std::string::npos) continue;
        const std::string name = line.substr(first, last - first + 1);
        const bool nested = name[0] == '@';
        const fs::path p = fs::path(nested ? name.substr(1) : name);
        const std::string resolved = (p.is_absolute() ? p : base / p).lexically_normal().string();
        if (nested) {
            addIndex(resolved, out, depth + 1);
        } else {
            addPath(resolved, out, depth);
        }
    }
}

void addPath(const std::string& path, std::vector<std::string>& out, int depth) {
    if (path.size() > 1 && path[0] == '@') return addIndex(path.substr(1), out, depth + 1);
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        out.push_back(path);  // a missing file is the test's own error, reported in its place
        return;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".litmus" && !it->is_directory()) found.push_back(it->path().string());
    if (ec) fail("cannot read the directory " + path + ": " + ec.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
}

// A JSON error record: the report of its file just before it (a picture that
// could not be written) takes it, otherwise it stands for a test that gave no verdict.
void addError(const std::string& line, const nlohmann::json& j, FileReport& r, std::vector<FileReport>& out) {
    FileReport& target = !out.empty() && out.back().checked && out.back().file == r.file ? out.back() : r;
    target.status = std::max(target.status, j.at("exit_code").get<int>());
    target.timedOut = target.timedOut || j.value("timeout", false);
    target.print(false, line + "\n");
    if (&target == &r) out.push_back(std::move(r));
}

// A report's place in a merged log: its test's name, or its file's for an error.
const std::string& sortName(const FileReport& r) { return r.test.empty() ? r.file : r.test; }

// The reports of one log of `run` (or of the main command): herd7 text blocks
// (from `Test` to a blank line) or JSON Lines, error records included.
void readLog(const std::string& path, std::vector<FileReport>& out) {
    std::ifstream in(path);
    if (!in) fail("cannot read the log " + path);
    std::optional<size_t> block;  // the text block being read (an index: `out` grows)
    bool inStates = false;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("{", 0) == 0) {
            FileReport r;
            try {
                const nlohmann::json j = nlohmann::json::parse(line);
                r.file = j.value("file", "");
                if (j.value("type", "") == "error") {
                    addError(line, j, r, out);
                    continue;
                }
                r.test = j.at("test").get<std::string>();
                r.ok = j.at("ok").get<bool>();
                r.quantifier = quantifierOfKind(j.at("kind").get<std::string>());
                r.seconds = j.value("time", 0.0);
                for (const nlohmann::json& state : j.at("states")) r.states.push_back(state.at("line"));
            } catch (const nlohmann::json::exception& e) {
                fail(path + ":" + std::to_string(n) + ": not a report: " + e.what());
            }
            r.checked = true;
            r.print(false, line + "\n");
            out.push_back(std::move(r));
        } else if (line.rfind("Test ", 0) == 0) {
            block = out.size();
            FileReport& r = out.emplace_back();
            std::istringstream words(line.substr(5));
            std::string kind;
            words >> r.test >> kind;
            r.quantifier = quantifierOfKind(kind);
            r.print(false, line + "\n");
        } else if (block) {
            FileReport& r = out[*block];
            r.print(false, line + "\n");
            if (line.rfind("States ", 0) == 0) {
                inStates = true;
            } else if (line == "Ok" || line == "No") {
                inStates = false;
                r.checked = true, r.ok = line == "Ok";
            } else if (inStates) {
                r.states.push_back(line);
            }
            if (line.rfind("Time ", 0) == 0) r.seconds = std::atof(line.substr(line.rfind(' ') + 1).c_str());
            if (line.rfind("Hash=", 0) == 0) r.hash = line.substr(5);
            if (line.empty()) block.reset();
        } else if (!line.empty()) {
            fail(path + ":" + std::to_string(n) + ": expected a report ('Test NAME ...' or a JSON object)");
        }
    }
}

// Expected verdicts, by test name and by file name.
class Expectations {
public:
    // A herd7 log or rdmacheck's JSON Lines (read as `merge` reads them), else CSV.
    explicit Expectations(const std::string& file) {
        std::ifstream in(file);
        if (!in) fail("--expect: cannot read " + file);
        std::stringstream text;
        text << in.rdbuf();
        const std::string all = text.str();
        const size_t first = all.find_first_not_of(" \t\r\n");
        if (first != std::string::npos &&
            (all[first] == '{' || all.rfind("Test ", first) == first || all.find("\nTest ") != std::string::npos)) {
            std::vector<FileReport> reports;
            readLog(file, reports);
            for (const FileReport& r : reports)
                if (r.checked) ok_[r.test] = r.ok;
        } else {
            readCsv(all, file);
        }
        if (ok_.empty()) fail("--expect: no verdicts in " + file);
    }

    // The expected Ok/No of a report, if listed.
    const bool* find(const FileReport& r) const {
        const fs::path p(r.file);
        for (const std::string& key : {r.test, r.file, p.filename().string(), p.stem().string()}) {
            auto it = ok_.find(key);
            if (it != ok_.end()) return &it->second;
        }
        return nullptr;
    }

private:
    std::map<std::string, bool> ok_;

    // `test,verdict` rows (Dat3M's CSV): Ok/No, 1/0 or true/false; a header is skipped.
    void readCsv(const std::string& all, const std::string& file) {
        std::istringstream lines(all);
        int n = 0;
        for (std::string line; std::getline(lines, line);) {
            ++n;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) continue;
            const size_t comma = line.find(',');
            const std::string verdict = comma == std::string::npos ? "" : line.substr(comma + 1, line.find(',', comma + 1) - comma - 1);
            const std::map<std::string, bool> words{{"Ok", true}, {"No", false}, {"1", true},
                                                    {"0", false}, {"true", true}, {"false", false}};
            auto w = words.find(verdict);
            if (w == words.end()) {
                if (n == 1) continue;  // a header
                fail(file + ":" + std::to_string(n) + ": --expect: expected TEST,VERDICT with Ok/No, 1/0 or true/false");
            }
            ok_[fs::path(line.substr(0, comma)).filename().string()] = w->second;
        }
    }
};

// done/total, failures and an estimate on stderr: redrawn in place on a
// terminal, a line every 10 s otherwise.
class ProgressLine {
public:
    ProgressLine(size_t total, bool enabled) : total_(total), enabled_(enabled), tty_(::isatty(2) != 0) {}

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
    out << command << ": " << reports.size() << " tests in " << seconds << " s " << how << "\n";
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

int mergeLogs(const std::vector<std::string>& logs, const std::string& expect) {
    std::vector<FileReport> reports;
    std::optional<Expectations> expected;
    try {
        for (const std::string& log : logs) readLog(log, reports);
        if (!expect.empty()) expected.emplace(expect);
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: merge: " << e.what() << "\n";
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
int printComparison(const std::vector<CompareColumn>& columns) {
    const McompareResult result = printMcompareDiffs(std::cout, columns);
    if (!result.notInFirst.empty()) {
        std::cerr << "compare: not in the first log, so not in the table:";
        for (const std::string& test : result.notInFirst) std::cerr << " " << test;
        std::cerr << "\n";
    }
    return result.differing || !result.notInFirst.empty() ? 1 : 0;
}

}  // namespace

int compareLogs(const std::vector<std::string>& logs) {
    std::vector<CompareColumn> columns;
    try {
        for (const std::string& log : logs) {
            columns.push_back({fs::path(log).filename().string(), log, {}});
            readLog(log, columns.back().reports);
        }
        return printComparison(columns);
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: compare: " << e.what() << "\n";
        return 2;
    }
}

int compareModels(CheckRun& run, const std::vector<std::string>& models, const std::vector<std::string>& args,
                  int jobs) {
    std::vector<std::string> files;
    try {
        files = collectSuite(args);
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: compare: " << e.what() << "\n";
        return 2;
    }
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
    try {
        return std::max(status, printComparison(columns));
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: compare: " << e.what() << "\n";
        return 2;
    }
}

std::vector<std::string> collectSuite(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    for (const std::string& arg : args) {
        if (arg != "-") {
            addPath(arg, files, 0);
            continue;
        }
        int lineNo = 0;
        for (std::string line; std::getline(std::cin, line);) {
            checkEntry(line, "-:" + std::to_string(++lineNo));
            if (line.find_first_not_of(" \t\r") != std::string::npos) addPath(line, files, 0);
        }
    }
    return files;
}

std::vector<std::string> shardOf(const std::vector<std::string>& files, const std::string& shard) {
    if (shard.empty()) return files;
    size_t i = 0, n = 0;
    char slash = 0, extra = 0;
    if (std::sscanf(shard.c_str(), "%zu%c%zu%c", &i, &slash, &n, &extra) != 3 || slash != '/' || i < 1 || i > n)
        fail("--shard: expected I/N with 1 <= I <= N, got '" + shard + "'");
    std::vector<std::string> part;
    for (size_t k = i - 1; k < files.size(); k += n) part.push_back(files[k]);
    return part;
}

int runSuite(CheckRun& run, const std::vector<std::string>& args, const SuiteOptions& options) {
    std::vector<std::string> files;
    std::optional<Expectations> expected;
    try {
        files = shardOf(collectSuite(args), options.shard);
        if (!options.expect.empty()) expected.emplace(options.expect);
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: run: " << e.what() << "\n";
        return 2;
    }
    if (!run.prepare()) return 2;
    ProgressLine progress(files.size(), options.progress);
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

}  // namespace rdmacheck::cli
