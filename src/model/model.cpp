#include "rdmacheck/model.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "rdmacheck/library.hpp"

#ifndef RDMACHECK_MODELS_DIR
#define RDMACHECK_MODELS_DIR "models"
#endif

namespace rdmacheck {

namespace {

std::vector<std::string> splitWords(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

const std::map<std::string, Relation>& relationNames() {
    static const std::map<std::string, Relation> names = {
        {"po", Relation::Po},         {"po-loc", Relation::PoLoc},        {"rf", Relation::Rf},
        {"rf-i", Relation::RfInternal}, {"rf-e", Relation::RfExternal},   {"rfe", Relation::RfOtherThread},
        {"pf", Relation::Pf},         {"[nlW];pf", Relation::PfFromNlW},  {"nfo", Relation::Nfo},
        {"rb", Relation::Rb},         {"rb-i", Relation::RbInternal},     {"mo", Relation::Mo},
        {"rao", Relation::Rao},       {"ar;rao", Relation::ArRao},        {"iso", Relation::Iso},
        {"pfg", Relation::Pfg},       {"pfp", Relation::Pfp},             {"pfr", Relation::Pfr},
        {"ar-nlW", Relation::ArResult}, {"round", Relation::Round},
    };
    return names;
}

std::optional<Library> libraryFromName(const std::string& name) {
    return findLibrary(name);
}

}  // namespace

namespace {

// A grid file: a header of column names, then one row `NAME CELL...` per
// column; `#` starts a comment. Cells are checked against `cells`.
struct Grid {
    SourceLoc header;
    std::vector<std::string> columns;
    std::map<std::string, std::pair<SourceLoc, std::vector<Cell>>> rows;
};

Grid readGrid(const std::string& path, const std::map<std::string, Cell>& cells) {
    std::ifstream in(path);
    if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot open order table");
    std::string known;
    for (const auto& [text, cell] : cells) known += " " + text;
    Grid grid;
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        SourceLoc at{path, lineNo, 1};
        std::vector<std::string> words = splitWords(line.substr(0, line.find('#')));
        if (words.empty()) continue;
        if (grid.columns.empty()) {
            grid.header = at;
            grid.columns = words;
            continue;
        }
        if (std::find(grid.columns.begin(), grid.columns.end(), words[0]) == grid.columns.end())
            throw InputError(at, "row '" + words[0] + "' is not a column of the header");
        if (words.size() != grid.columns.size() + 1)
            throw InputError(at, "row " + words[0] + " has " + std::to_string(words.size() - 1) +
                                     " cells, the header has " + std::to_string(grid.columns.size()));
        std::vector<Cell> row;
        for (size_t c = 1; c < words.size(); ++c) {
            auto cell = cells.find(words[c]);
            if (cell == cells.end()) throw InputError(at, "cell '" + words[c] + "' is not one of" + known);
            row.push_back(cell->second);
        }
        const auto [first, isNew] = grid.rows.emplace(words[0], std::make_pair(at, std::move(row)));
        if (!isNew)
            throw InputError(at, "row " + words[0] + " given twice (first at line " +
                                     std::to_string(first->second.first.line) + ")");
    }
    if (grid.columns.empty()) throw InputError(SourceLoc{path, lineNo, 1}, "empty table: expected a header of columns");
    for (const std::string& c : grid.columns)
        if (!grid.rows.count(c)) throw InputError(SourceLoc{path, lineNo, 1}, "no row for " + c);
    return grid;
}

// A model file's text, to put a line and column on what the JSON parser reports
// by byte offset and on the values the model loader rejects.
class JsonText {
public:
    JsonText(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

    SourceLoc atOffset(size_t offset) const {
        offset = std::min(offset, text_.size());
        const size_t lineStart = text_.rfind('\n', offset == 0 ? 0 : offset - 1);
        const int line = 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + offset, '\n'));
        const size_t column = lineStart == std::string::npos || offset == 0 ? offset + 1 : offset - lineStart;
        return SourceLoc{path_, line, static_cast<int>(column)};
    }
    // Where the string "value" is written (its occurrence-th time), else the file's start.
    SourceLoc at(const std::string& value, int occurrence = 1) const {
        size_t pos = std::string::npos;
        for (size_t from = 0; occurrence-- > 0; from = pos + 1)
            if ((pos = text_.find("\"" + value + "\"", from)) == std::string::npos) return SourceLoc{path_, 1, 1};
        return atOffset(pos);
    }
    const std::string& text() const { return text_; }

private:
    std::string path_;
    std::string text_;
};

// Parses, refusing a key given twice in one object (nlohmann keeps the last one silently).
nlohmann::json parseModelJson(const JsonText& json) {
    std::vector<std::set<std::string>> keys;
    std::map<std::string, int> seen;  // how often each key was read, to find the repeated one
    auto callback = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::object_start) keys.emplace_back();
        if (event == nlohmann::json::parse_event_t::object_end) keys.pop_back();
        if (event == nlohmann::json::parse_event_t::key) {
            const std::string key = parsed.get<std::string>();
            ++seen[key];
            if (!keys.back().insert(key).second) throw InputError(json.at(key, seen[key]), "key \"" + key + "\" given twice");
        }
        return true;
    };
    try {
        return nlohmann::json::parse(json.text(), callback);
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: what".
        const std::string what = e.what();
        const size_t colon = what.find(": ", what.find("parse error"));
        throw InputError(json.atOffset(e.byte == 0 ? 0 : e.byte - 1),
                         "malformed JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
    }
}

// Every key of `object` is one of `known`: a misspelt key is an error, not a default.
void checkKeys(const JsonText& json, const nlohmann::json& object, const std::set<std::string>& known,
               const std::string& where) {
    if (!object.is_object()) throw InputError(json.at(where), where + " must be a JSON object");
    for (const auto& [key, value] : object.items()) {
        if (known.count(key)) continue;
        std::string names;
        for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
        throw InputError(json.at(key), "unknown key \"" + key + "\" in " + where + " (known: " + names + ")");
    }
}

}  // namespace

OrderTable loadOrderTable(const std::string& path, const std::string& name) {
    const Grid grid = readGrid(path, {{"✓", Cell::Ordered}, {"✗", Cell::Unordered}, {"sqp", Cell::SameQueuePair}});
    std::vector<EventKind> kinds;
    for (const std::string& w : grid.columns) {
        EventKind k;
        if (!kindFromName(w, k)) throw InputError(grid.header, "unknown event kind '" + w + "' in table header");
        kinds.push_back(k);
    }
    OrderTable table;
    table.name = name;
    for (size_t r = 0; r < kinds.size(); ++r) {
        const std::vector<Cell>& row = grid.rows.at(grid.columns[r]).second;
        for (size_t c = 0; c < kinds.size(); ++c)
            table.cells[static_cast<int>(kinds[r])][static_cast<int>(kinds[c])] = row[c];
        table.covers[static_cast<int>(kinds[r])] = true;
    }
    return table;
}

OrderTable loadStampTable(const std::string& path, const std::string& name,
                          const std::map<std::string, std::string>& stampOf) {
    const Grid grid = readGrid(path, {{"Y", Cell::Ordered}, {"N", Cell::Unordered}, {"SN", Cell::SameQueuePair}});
    auto column = [&](const std::string& stamp) {
        return std::find(grid.columns.begin(), grid.columns.end(), stamp) - grid.columns.begin();
    };
    OrderTable table;
    table.name = name;
    table.betweenCallsOnly = true;
    for (const auto& [kindText, stamp] : stampOf) {
        EventKind k;
        if (!kindFromName(kindText, k)) throw InputError(grid.header, "unknown event kind '" + kindText + "'");
        if (!grid.rows.count(stamp)) throw InputError(grid.header, "no stamp '" + stamp + "' in the table");
        table.covers[static_cast<int>(k)] = true;
        for (const auto& [laterText, laterStamp] : stampOf) {
            EventKind later;
            if (kindFromName(laterText, later) && grid.rows.count(laterStamp))
                table.cells[static_cast<int>(k)][static_cast<int>(later)] = grid.rows.at(stamp).second[column(laterStamp)];
        }
    }
    return table;
}

Model loadModel(const std::string& dir, const std::string& name) {
    const std::string path = dir + "/" + name + ".json";
    std::ifstream in(path);
    if (!in) {
        std::string known;
        for (const std::string& m : availableModels(dir)) known += (known.empty() ? "" : ", ") + m;
        throw InputError(SourceLoc{"rdmacheck", 0, 0}, "unknown model '" + name + "' (known: " + known + ")");
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const JsonText json(path, buffer.str());
    const nlohmann::json j = parseModelJson(json);
    SourceLoc at{path, 1, 1};
    Model m;
    try {
        checkKeys(json, j,
                  {"name", "description", "tables", "nfo", "nic-buffers-internal", "stamps", "events", "clocks",
                   "libraries", "machine", "mo-clock", "issue-before-observe", "mixed-cycle-axiom"},
                  "the model");
        m.name = j.at("name").get<std::string>();
        m.description = j.value("description", "");
        m.nfo = j.value("nfo", false);
        m.nicBuffersInternal = j.value("nic-buffers-internal", false);
        m.supports.fill(true);
        m.stamped = j.contains("stamps");
        std::map<std::string, std::string> stampOf;
        if (m.stamped) stampOf = j["stamps"].get<std::map<std::string, std::string>>();
        for (const auto& [key, file] : j.at("tables").items()) {
            const std::string path = dir + "/" + file.get<std::string>();
            if (!std::ifstream(path)) throw InputError(json.at(file.get<std::string>()), "cannot open order table " + path);
            OrderTable t = m.stamped ? loadStampTable(path, key, stampOf) : loadOrderTable(path, key);
            for (int k = 0; k < kEventKindCount; ++k) m.supports[k] = m.supports[k] && t.covers[k];
            m.tables.emplace(key, std::move(t));
        }
        if (m.tables.empty()) m.supports.fill(true);
        if (j.contains("events")) {  // a model without tables lists the events it knows
            m.supports.fill(false);
            for (const auto& je : j["events"]) {
                EventKind k;
                if (!kindFromName(je.get<std::string>(), k))
                    throw InputError(json.at(je.get<std::string>()),
                                     "unknown event kind '" + je.get<std::string>() + "' in \"events\"");
                m.supports[static_cast<int>(k)] = true;
            }
        }
        for (const auto& jc : j.at("clocks")) {
            checkKeys(json, jc, {"name", "axiom", "edges"}, "a clock");
            Clock c;
            c.name = jc.at("name").get<std::string>();
            c.axiom = jc.value("axiom", c.name);
            for (const auto& je : jc.at("edges")) {
                const std::string text = je.get<std::string>();
                ClockEdge e{Relation::Table, nullptr, text, std::nullopt};
                std::string relation = text;
                const size_t colon = text.find(':');
                if (colon != std::string::npos) {
                    const std::string library = text.substr(0, colon);
                    relation = text.substr(colon + 1);
                    e.scope = libraryFromName(library);
                    if (!e.scope)
                        throw InputError(json.at(text), "clock '" + c.name + "': unknown library '" + library + "'");
                }
                auto rel = relationNames().find(relation);
                if (rel != relationNames().end()) {
                    e.relation = rel->second;
                    m.rao = m.rao || e.relation == Relation::Rao || e.relation == Relation::ArRao;
                } else if (m.tables.count(relation)) {
                    e.table = &m.tables.at(relation);
                } else {
                    std::string names;
                    for (const auto& [known, relation] : relationNames()) names += " " + known;
                    for (const auto& [table, content] : m.tables) names += " " + table;
                    throw InputError(json.at(text), "clock '" + c.name + "': unknown relation '" + text +
                                                        "' (known:" + names + ")");
                }
                c.edges.push_back(e);
            }
            m.clocks.push_back(std::move(c));
        }
        for (const auto& jl : j.value("libraries", nlohmann::json::array())) {
            const auto library = libraryFromName(jl.get<std::string>());
            if (!library) throw InputError(json.at(jl.get<std::string>()), "unknown library '" + jl.get<std::string>() + "'");
            m.libraries.insert(*library);
        }
        if (j.contains("machine")) {
            const auto& jm = j["machine"];
            checkKeys(json, jm, {"family", "pcie", "remote-atomics"}, "machine");
            const std::string family = jm.at("family").get<std::string>();
            if (family == "queue-pairs") {
                m.machine.family = MachineFamily::QueuePairs;
            } else if (family == "sequential") {
                m.machine.family = MachineFamily::Sequential;
            } else {
                throw InputError(json.at(family), "unknown machine family '" + family + "' (known: queue-pairs, sequential)");
            }
            m.machine.pcie = jm.value("pcie", true);
            m.machine.remoteAtomics = jm.value("remote-atomics", false);
            if (m.machine.remoteAtomics && !(m.machine.family == MachineFamily::QueuePairs && m.machine.pcie))
                throw InputError(at, "remote atomics exist only on the queue-pair machine with PCIe "
                                     "(OPERATIONAL.md §6)");
        }
        auto clockIndex = [&](const std::string& n) {
            for (size_t i = 0; i < m.clocks.size(); ++i)
                if (m.clocks[i].name == n) return static_cast<int>(i);
            throw InputError(json.at(n), "unknown clock '" + n + "'");
        };
        m.moClock = clockIndex(j.at("mo-clock").get<std::string>());
        if (j.contains("issue-before-observe")) {
            m.issueClock = clockIndex(j["issue-before-observe"].at(0).get<std::string>());
            m.observeClock = clockIndex(j["issue-before-observe"].at(1).get<std::string>());
            if (m.issueClock >= m.observeClock)
                throw InputError(at, "the issue clock must be listed before the observation clock");
            m.mixedAxiom = j.value("mixed-cycle-axiom", "[Inst];" + m.clocks[m.issueClock].axiom + ";" +
                                                            m.clocks[m.observeClock].axiom);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(at, std::string("malformed model file: ") + e.what());
    }
    if (m.name != name) throw InputError(json.at(m.name), "model file names model '" + m.name + "', expected '" + name + "'");
    return m;
}

std::string defaultModelsDir() {
    if (const char* env = std::getenv("RDMACHECK_MODELS")) return env;
    return RDMACHECK_MODELS_DIR;
}

std::vector<std::string> availableModels(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace rdmacheck
