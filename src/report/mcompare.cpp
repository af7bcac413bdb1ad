#include "rdmacheck/mcompare.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/report.hpp"

namespace rdmacheck {

namespace {

using Binding = std::pair<std::string, std::string>;  // location, value

// A final state as mcompare7 reads it: bindings sorted by location, then
// what is not a binding (herd7's faults), verbatim.
struct State {
    std::vector<Binding> bindings;
    std::vector<std::string> others;
    bool operator<(const State& o) const { return std::tie(bindings, others) < std::tie(o.bindings, o.others); }
    bool operator==(const State& o) const { return bindings == o.bindings && others == o.others; }
};

struct Outcome {
    std::string kind, validation, hash;
    std::vector<State> states;  // sorted, distinct
};
using Log = std::map<std::string, Outcome>;  // by test name, in byte order as mcompare7 sorts

// Two states of one test over different locations: mcompare7 stops there.
struct LocationMismatch {
    std::string location;
};

std::string trimmed(const std::string& s) {
    const size_t first = s.find_first_not_of(" \t\r"), last = s.find_last_not_of(" \t\r");
    return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

// mcompare7 reads integers as 32-bit ones and prints them in decimal: 0x10
// becomes 16, 0xffffffff -1; what does not fit stays as written.
std::string normalizedValue(const std::string& v) {
    if (v.empty() || !(v[0] == '-' || std::isdigit(static_cast<unsigned char>(v[0])))) return v;
    const bool hex = v.rfind("0x", 0) == 0 || v.rfind("0X", 0) == 0;
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(v.c_str(), &end, hex ? 16 : 10);
    if (errno || *end || end == v.c_str()) return v;
    if (hex ? n > 0xffffffffLL : n < INT32_MIN || n > INT32_MAX) return v;
    return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(n)));
}

// `[x]=1; 0:r0=2;`: mcompare7 drops the brackets around a location.
State parseState(const std::string& line) {
    State s;
    size_t start = 0;
    for (size_t semi; (semi = line.find(';', start)) != std::string::npos; start = semi + 1) {
        const std::string piece = trimmed(line.substr(start, semi - start));
        const size_t eq = piece.find('=');
        if (eq == std::string::npos) {
            if (!piece.empty()) s.others.push_back(piece);
            continue;
        }
        std::string loc = trimmed(piece.substr(0, eq));
        if (loc.size() > 1 && loc.front() == '[' && loc.back() == ']') loc = loc.substr(1, loc.size() - 2);
        s.bindings.emplace_back(loc, normalizedValue(trimmed(piece.substr(eq + 1))));
    }
    std::sort(s.bindings.begin(), s.bindings.end());
    std::sort(s.others.begin(), s.others.end());
    return s;
}

// `[0:r0=1; [x]=2;]`: brackets again around memory locations.
std::string stateText(const std::string& prefix, const State& s) {
    std::vector<std::string> pieces;
    for (const auto& [loc, value] : s.bindings) {
        const bool bare = loc.find(':') != std::string::npos || loc.find('[') != std::string::npos ||
                          value.find('{') != std::string::npos;  // a register, an array item or an array
        pieces.push_back((bare ? loc : "[" + loc + "]") + "=" + value + ";");
    }
    pieces.insert(pieces.end(), s.others.begin(), s.others.end());
    return prefix + "[" + joined(pieces, " ") + "]";
}

// mcompare7's kinds: herd7's Allowed, Forbidden, Required.
std::string kindOf(Quantifier q) {
    const std::string word = kindWord(q);
    return word == "Allowed" ? "Allow" : word == "Forbidden" ? "Forbid" : "Require";
}

std::vector<State> sortedStates(const std::vector<std::string>& lines) {
    std::set<State> states;
    for (const std::string& line : lines) states.insert(parseState(line));
    return {states.begin(), states.end()};
}

// mcompare7 reads herd7's `Undef` as a validation it does not know, "??"
// (herdtools7's tools/lexLog_tools.mll).
std::string validation(const FileReport& r) {
    return std::string(r.loop ? "Loop " : "") + (r.undefined ? "??" : r.ok ? "Ok" : "No");
}

// The checked reports of a column; a test reported twice gets the union of
// its states, as mcompare7 merges a test repeated in one log.
Log logOf(const CompareColumn& column) {
    Log log;
    for (const FileReport& r : column.reports) {
        if (!r.checked) continue;
        auto [it, fresh] = log.try_emplace(r.test, Outcome{kindOf(r.quantifier), validation(r), r.hash, {}});
        std::vector<State> states = sortedStates(r.states);
        if (!fresh) states.insert(states.end(), it->second.states.begin(), it->second.states.end());
        std::sort(states.begin(), states.end());
        states.erase(std::unique(states.begin(), states.end()), states.end());
        it->second.states = std::move(states);
    }
    return log;
}

// mcompare7 stops when one test has two hashes (two different tests).
void checkHashes(const std::vector<std::string>& sources, const std::vector<Log>& logs) {
    std::map<std::string, std::pair<std::string, std::string>> first;  // test -> hash, source
    for (size_t c = 0; c < logs.size(); ++c)
        for (const auto& [test, outcome] : logs[c]) {
            if (outcome.hash.empty() || outcome.hash == "NOHASH") continue;
            auto [it, fresh] = first.try_emplace(test, outcome.hash, sources[c]);
            if (!fresh && it->second.first != outcome.hash)
                throw std::invalid_argument("hash mismatch, test " + test + ", files " + it->second.second + "<>" +
                                            sources[c]);
        }
}

// mcompare7's order of states: location by location, values as strings;
// it meets locations that differ only when the values before them agree.
int compareStates(const State& a, const State& b) {
    for (size_t i = 0;; ++i) {
        if (i == a.bindings.size() || i == b.bindings.size()) {
            if (i < a.bindings.size()) throw LocationMismatch{a.bindings[i].first};
            if (i < b.bindings.size()) throw LocationMismatch{b.bindings[i].first};
            return a.others < b.others ? -1 : b.others < a.others ? 1 : 0;
        }
        const auto& [locA, valueA] = a.bindings[i];
        const auto& [locB, valueB] = b.bindings[i];
        if (locA != locB) throw LocationMismatch{std::min(locA, locB)};
        if (const int c = valueA.compare(valueB)) return c;
    }
}

// The states of `from` not in `than`, walking both sorted lists as mcompare7 does.
std::vector<State> difference(const std::vector<State>& from, const std::vector<State>& than) {
    std::vector<State> out;
    size_t j = 0;
    for (const State& s : from) {
        int c = 1;
        while (j < than.size() && (c = compareStates(s, than[j])) > 0) ++j;
        if (j == than.size() || c < 0) {
            out.push_back(s);
        } else {
            ++j;  // equal: both lists move on
        }
    }
    return out;
}

// No state, or one that observes nothing: mcompare7 does not warn of it.
bool observesNothing(const std::vector<State>& states) {
    return states.empty() ||
           (states.size() == 1 && states[0].bindings.empty() && states[0].others.empty());
}

struct Row {
    std::string test;
    std::vector<std::string> kind;                // kind, then validation
    std::vector<std::vector<std::string>> cells;  // a column's lines
};

struct Differences {
    std::set<std::string> positive, negative;  // tests with states added, or lost, somewhere
    std::set<std::string> equal;               // tests "==" in some column
    size_t rows = 0;                           // tests not "==" everywhere
};

std::vector<std::string> statesText(const std::string& prefix, const std::vector<State>& states) {
    std::vector<std::string> lines;
    for (const State& s : states) lines.push_back(stateText(prefix, s));
    return lines;
}

// A column's cell for one test: "==", the states it adds (+) and lacks (-)
// against the reference, or "---" when it lacks the test.
std::vector<std::string> diffCell(const std::string& test, const Outcome& reference, const Log& log,
                                  Differences& differences) {
    const auto it = log.find(test);
    if (it == log.end()) return {"---"};
    const std::vector<State> more = difference(it->second.states, reference.states);
    const std::vector<State> less = difference(reference.states, it->second.states);
    if (!observesNothing(more)) differences.positive.insert(test);
    if (!observesNothing(less)) differences.negative.insert(test);
    if (more.empty() && less.empty()) {
        differences.equal.insert(test);
        return {"=="};
    }
    std::vector<std::string> lines = statesText("+", more);
    for (std::string& line : statesText("-", less)) lines.push_back(std::move(line));
    return lines;
}

Row rowOf(const std::string& test, const Outcome& reference, const std::vector<Log>& logs, Differences& differences) {
    Row row{test, {reference.kind, reference.validation}, {statesText("", reference.states)}};
    bool same = true;
    for (size_t c = 1; c < logs.size(); ++c) {
        try {
            row.cells.push_back(diffCell(test, reference, logs[c], differences));
        } catch (const LocationMismatch& m) {
            throw std::invalid_argument("state mismatch, test=" + test + ", loc=" + m.location);
        }
        same = same && row.cells.back() == std::vector<std::string>{"=="};
    }
    differences.rows += !same;
    return row;
}

std::string padded(const std::string& s, size_t width) { return s + std::string(width - std::min(width, s.size()), ' '); }

std::string lineOf(const std::vector<std::string>& lines, size_t i) { return i < lines.size() ? lines[i] : ""; }

// mcompare7's text table: the test, its kind and validation in the first
// log, then a column per log, every cell padded to its column's width
// (trailing spaces included), a dashed line above every row.
void printTable(std::ostream& out, const std::vector<std::string>& names, const std::vector<Row>& rows) {
    size_t testWidth = 0, kindWidth = 0;
    std::vector<size_t> widths;
    for (const std::string& name : names) widths.push_back(name.size());
    for (const Row& row : rows) {
        testWidth = std::max(testWidth, row.test.size());
        for (const std::string& line : row.kind) kindWidth = std::max(kindWidth, line.size());
        for (size_t c = 0; c < row.cells.size(); ++c)
            for (const std::string& line : row.cells[c]) widths[c] = std::max(widths[c], line.size());
    }
    size_t width = testWidth + kindWidth + 2 + names.size();
    for (size_t w : widths) width += w;
    const std::string dashes(width, '-');
    out << "*Diffs*\n" << padded("", testWidth) << "|" << padded("Kind", kindWidth) << "|";
    for (size_t c = 0; c < names.size(); ++c) out << " " << padded(names[c], widths[c]);
    out << "\n" << dashes << "\n";
    for (const Row& row : rows) {
        size_t height = row.kind.size();
        for (const auto& cell : row.cells) height = std::max(height, cell.size());
        out << dashes << "\n";
        for (size_t i = 0; i < height; ++i) {
            out << padded(i == 0 ? row.test : "", testWidth) << "|" << padded(lineOf(row.kind, i), kindWidth) << "|";
            for (size_t c = 0; c < row.cells.size(); ++c) out << " " << padded(lineOf(row.cells[c], i), widths[c]);
            out << "\n";
        }
    }
}

void printWarning(std::ostream& out, const char* sign, const std::set<std::string>& tests) {
    if (tests.empty()) return;
    out << "!!! Warning " << (sign[0] == '+' ? "positive" : "negative") << " differences in:";
    for (const std::string& test : tests) out << " " << sign << test;
    out << "\n";
}

// OCaml's Str syntax as ECMAScript: a backslash makes `|`, `(`, `)` operators
// and the other characters literal; bare `|`, `(`, `)`, `{`, `}` are literal.
std::string ecmaScriptOfStr(const std::string& str) {
    std::string out;
    for (size_t i = 0; i < str.size(); ++i) {
        const char c = str[i];
        if (c == '\\' && i + 1 < str.size()) {
            const char next = str[++i];
            out += std::string("|()").find(next) != std::string::npos ? std::string(1, next) : std::string{'\\', next};
        } else if (std::string("|(){}").find(c) != std::string::npos) {
            out += std::string{'\\', c};
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

TestNameFilter::TestNameFilter(const std::string& strRegexp) {
    try {
        regex_.emplace(ecmaScriptOfStr(strRegexp));
    } catch (const std::regex_error& e) {
        throw std::invalid_argument("'" + strRegexp + "' is not a regular expression: " + e.what());
    }
}

bool TestNameFilter::keeps(const std::string& test) const {
    return !regex_ || std::regex_search(test, *regex_, std::regex_constants::match_continuous);
}

McompareResult printMcompareDiffs(std::ostream& out, const std::vector<CompareColumn>& columns, bool hashes,
                                  const TestNameFilter& filter) {
    std::vector<std::string> names, sources;
    std::vector<Log> logs;
    for (const CompareColumn& column : columns) {
        Log log = logOf(column);
        if (log.empty()) continue;  // mcompare7 drops a log without tests
        for (auto it = log.begin(); it != log.end();) it = filter.keeps(it->first) ? std::next(it) : log.erase(it);
        names.push_back(column.name);
        sources.push_back(column.source);
        logs.push_back(std::move(log));
    }
    McompareResult result;
    if (logs.empty()) return result;
    if (hashes) checkHashes(sources, logs);
    Differences differences;
    std::vector<Row> rows;
    for (const auto& [test, reference] : logs[0]) rows.push_back(rowOf(test, reference, logs, differences));
    printTable(out, names, rows);
    out << "\n";
    printWarning(out, "+", differences.positive);
    printWarning(out, "-", differences.negative);
    result.differing = differences.rows;
    result.positive = differences.positive;
    result.negative = differences.negative;
    result.equal = differences.equal;
    for (size_t c = 1; c < logs.size(); ++c)
        for (const auto& entry : logs[c])
            if (!logs[0].count(entry.first)) result.notInFirst.insert(entry.first);
    return result;
}

}  // namespace rdmacheck
