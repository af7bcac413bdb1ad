#include "rdmacheck/report.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "md5.hpp"

namespace rdmacheck {

namespace {

// The warning of a test none of whose executions completes (a deadlock, for a
// protocol): herd7's verdict stands, but it speaks of no execution.
constexpr const char* kNoneCompletes =
    "no execution completes: every one stops at an assume, a wait or the unroll bound (or the model allows "
    "none); the verdict holds of no execution";

// A location as herd7's digests order it (registers first, by thread then
// name; then memory by name) and print it (0:EAX, x).
struct HerdLocation {
    bool memory;
    int thread;
    std::string name;

    bool operator<(const HerdLocation& o) const {
        return std::tie(memory, thread, name) < std::tie(o.memory, o.thread, o.name);
    }
    std::string text() const { return memory ? name : std::to_string(thread) + ":" + name; }
};

void conditionLocations(const Cond& c, std::set<HerdLocation>& out) {
    forEachAtomName(c, [&](const ObservedName& n) {
        out.insert(HerdLocation{n.thread < 0, n.thread < 0 ? 0 : n.thread, n.name});
    });
}

// The threads' code as columns, herd7's Misc.string_of_prog: " %-*s " cells
// joined by '|', each row ended by ";\n".
std::string herdCodeText(const std::vector<std::vector<std::string>>& code) {
    std::vector<size_t> width;
    size_t rows = 0;
    for (const auto& column : code) {
        size_t w = 0;
        for (const std::string& i : column) w = std::max(w, i.size());
        width.push_back(w);
        rows = std::max(rows, column.size());
    }
    std::string out;
    for (size_t r = 0; r < rows; ++r) {
        std::vector<std::string> cells;
        for (size_t c = 0; c < code.size(); ++c) {
            std::string cell = r < code[c].size() ? code[c][r] : "";
            cells.push_back(" " + cell + std::string(width[c] - cell.size(), ' ') + " ");
        }
        out += joined(cells, "|") + ";\n";
    }
    return out;
}

}  // namespace

std::string herdHash(const LitmusTest& test) {
    std::map<HerdLocation, std::string> init;  // sorted; a location given twice is one entry
    // herd7 hashes each value as written (0x10), an address by its name.
    auto text = [&](const std::string& name, long long value) {
        auto it = test.initText.find(name);
        return it != test.initText.end() ? it->second : valueText(value, test.addresses);
    };
    for (const LocationDecl& l : test.locations) init.emplace(HerdLocation{true, 0, l.name}, text(l.name, l.init));
    auto registerLocation = [](const std::string& key) {
        const size_t colon = key.find(':');
        return HerdLocation{false, std::stoi(key.substr(0, colon)), key.substr(colon + 1)};
    };
    for (const auto& [key, value] : test.registerInit) init.emplace(registerLocation(key), text(key, value));
    std::vector<std::string> initText;
    for (const auto& [loc, value] : init) {
        // herd7 hashes `int x=0` typed, and a pointer as `int *p=x` or `*p=x`
        auto type = test.initType.find(loc.text());
        const std::string typed = type == test.initType.end() ? ""
                                  : LitmusTest::isPointerType(type->second) ? type->second
                                                               : type->second + " ";
        initText.push_back(typed + loc.text() + "=" + value);
    }
    std::set<HerdLocation> observed;
    conditionLocations(test.condition, observed);
    for (const ObservedName& n : test.shown) observed.insert(HerdLocation{n.thread < 0, std::max(n.thread, 0), n.name});
    std::vector<std::string> observedText;
    for (const HerdLocation& l : observed) observedText.push_back(l.text());
    return hex(md5(md5(joined(initText, "; ")) + md5(herdCodeText(test.x86Code)) + md5(joined(observedText, "; "))));
}

const char* kindWord(Quantifier q) {
    switch (q) {
        case Quantifier::Exists: return "Allowed";
        case Quantifier::NotExists: return "Forbidden";
        case Quantifier::Forall: return "Required";
    }
    return "";
}

Quantifier quantifierOfKind(const std::string& kind) {
    return kind == "Forbidden" ? Quantifier::NotExists : kind == "Required" ? Quantifier::Forall : Quantifier::Exists;
}

namespace {

// The machine that ran, and how much of it the search visited: configurations,
// and for the reduced search the runs it followed to their end.
std::string machineNote(const CheckResult& r) {
    if (r.engine == "declarative") return "";
    std::string note = " (" + r.engine + " machine: " + std::to_string(r.machineStates) + " states";
    if (r.machineRuns > 0) note += ", " + std::to_string(r.machineRuns) + " runs";
    return note + ")";
}

}  // namespace

void printHerd(std::ostream& out, std::ostream& warnings, const LitmusTest& test, const CheckResult& r,
               const ReportOptions& options) {
    out << "Test " << r.test << " " << kindWord(r.quantifier) << "\n";
    // Which model ran (the default depends on the test); herdtools' log readers
    // skip lines between Test and States.
    out << "Model " << r.model << machineNote(r) << "\n";
    out << "States " << r.states.size() << "\n";
    const int hexBits = !options.hexa ? 0 : test.arch == Arch::X86 ? 32 : 64;
    for (const auto& [state, satisfies] : r.states) out << stateLine(r.shown, state, test.addresses, hexBits) << "\n";
    // herd7 marks the verdict of a test whose unrolling bound cut a candidate (herd/top_herd.ml).
    out << (r.cutLoops.empty() ? "" : "Loop ") << (r.undefined ? "Undef" : r.ok ? "Ok" : "No") << "\n";
    // --states counts no executions: it prints no counts; --speedcheck counts the one execution it stopped
    // at, as herd7's -speedcheck fast does, --deciding-executions those it found.
    const bool counted = r.mode != CheckMode::States;
    // herd7 counts the witnesses of ~exists C against ~C, its Observation against C.
    const bool negated = r.quantifier == Quantifier::NotExists;
    if (counted)
        out << "Witnesses\nPositive: " << (negated ? r.negative : r.positive)
            << " Negative: " << (negated ? r.positive : r.negative) << "\n";
    for (const std::string& flag : r.flags) out << "Flag " << flag << "\n";
    out << "Condition " << conditionText(r.quantifier, test.condition, test.addresses, hexBits) << "\n";
    if (counted) {
        out << "Observation " << r.test << " " << r.observation() << " " << r.positive << " " << r.negative << "\n";
    } else {
        out << "Mode " << modeName(r.mode) << "\n";
    }
    if (options.showTime) out << timeLine(r.test, r.seconds);
    if (test.arch == Arch::X86) out << "Hash=" << herdHash(test) << "\n";
    out << "\n";
    if (!options.showWarnings) return;
    for (const SourceLoc& loop : r.cutLoops) warnings << "Warning: " << loop.str() << ": " << kUnrollCut << "\n";
    if (!r.completes) warnings << "Warning: " << SourceLoc{test.file, 0, 0}.str() << ": " << kNoneCompletes << "\n";
}

nlohmann::json toJson(const LitmusTest& test, const CheckResult& r, const ReportOptions& options) {
    nlohmann::json j;
    j["schema"] = kJsonSchema;
    j["type"] = "report";
    j["version"] = RDMACHECK_VERSION;
    j["options"] = options.options;
    j["test"] = r.test;
    j["file"] = test.file;
    j["model"] = r.model;
    j["engine"] = r.engine;
    j["kind"] = kindWord(r.quantifier);
    j["condition"] = conditionText(r.quantifier, test.condition, test.addresses);
    if (test.arch == Arch::X86) j["hash"] = herdHash(test);
    j["ok"] = r.ok;
    j["mode"] = modeName(r.mode);
    if (r.mode == CheckMode::Executions || r.mode == CheckMode::Deciding) {
        j["observation"] = r.observation();
        j["positive"] = r.positive;
        j["negative"] = r.negative;
        j["flags"] = r.flags;
        j["undefined"] = r.undefined;
    }
    nlohmann::json names = nlohmann::json::array();
    for (const ObservedName& n : r.shown) names.push_back(shownName(n));
    j["shown"] = names;
    nlohmann::json states = nlohmann::json::array();
    for (const auto& [state, satisfies] : r.states) {
        nlohmann::json s;
        nlohmann::json values = nlohmann::json::array();
        for (long long v : state) {
            const std::string* address = addressName(v, test.addresses);
            values.push_back(address ? nlohmann::json(*address) : nlohmann::json(v));
        }
        s["values"] = values;
        s["line"] = stateLine(r.shown, state, test.addresses);
        s["satisfies"] = satisfies;
        states.push_back(s);
    }
    j["states"] = states;
    j["warnings"] = cutLoopWarnings(r.cutLoops, kUnrollCut);
    if (!r.completes) j["warnings"].push_back({{"file", test.file}, {"line", 0}, {"column", 0}, {"message", kNoneCompletes}});
    if (r.engine != "declarative") j["machine_states"] = r.machineStates;
    if (r.machineRuns > 0) j["machine_runs"] = r.machineRuns;
    if (options.showTime) j["time"] = r.seconds;
    return j;
}

std::string timeLine(const std::string& test, double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", seconds);
    return "Time " + test + " " + buf + "\n";
}

nlohmann::json cutLoopWarnings(const std::vector<SourceLoc>& loops, const std::string& message) {
    nlohmann::json warnings = nlohmann::json::array();
    for (const SourceLoc& loop : loops)
        warnings.push_back({{"file", loop.file}, {"line", loop.line}, {"column", loop.column}, {"message", message}});
    return warnings;
}

nlohmann::json errorRecord(const SourceLoc& where, const std::string& message, int exitCode, bool timeout) {
    return {{"schema", kJsonSchema}, {"type", "error"},       {"version", RDMACHECK_VERSION},
            {"file", where.file},    {"line", where.line},    {"column", where.column},
            {"message", message},    {"exit_code", exitCode}, {"timeout", timeout}};
}

std::string dumpJson(const nlohmann::json& record) {
    return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rdmacheck
