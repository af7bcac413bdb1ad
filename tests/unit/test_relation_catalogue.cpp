// The relation catalogue (relations.hpp) and the model language's manual list
// the same base relations, with the same meanings and sources, and the same
// event sets: the manual's tables are read here and compared with the catalogue.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rdmacheck/library.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {
namespace {

// The model language's manual, where its tables of base relations and event sets are.
const std::string kModelLanguageManual = std::string(RDMACHECK_SOURCE_DIR) + "/doc/model-language.md";

std::string trimmed(const std::string& s) {
    const size_t first = s.find_first_not_of(' ');
    return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// A markdown table row's cells without backticks; a `|` between backticks
// belongs to its cell (`R | W`).
std::vector<std::string> cells(const std::string& row) {
    std::vector<std::string> out;
    std::string cell;
    bool code = false;
    for (char c : row.substr(1)) {
        if (c == '`') {
            code = !code;
        } else if (c == '|' && !code) {
            out.push_back(trimmed(cell));
            cell.clear();
        } else {
            cell += c;
        }
    }
    return out;
}

// The first table under `heading`, as the raw text of its body rows.
std::vector<std::string> tableUnder(const std::string& heading) {
    std::ifstream in(kModelLanguageManual);
    EXPECT_TRUE(in) << "cannot read " << kModelLanguageManual;
    std::vector<std::string> rows;
    bool under = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("#", 0) == 0) {
            if (!rows.empty()) break;
            under = line == heading;
        } else if (under && line.rfind("|", 0) == 0) {
            rows.push_back(line);
        } else if (!rows.empty()) {
            break;
        }
    }
    EXPECT_GT(rows.size(), 2u) << "no table under '" << heading << "' in " << kModelLanguageManual;
    if (rows.size() >= 2) rows.erase(rows.begin(), rows.begin() + 2);  // the header and the |---| line
    return rows;
}

// The names a set row's first cell gives in backticks (`lR` `lW` ...).
std::vector<std::string> namesIn(const std::string& row) {
    std::vector<std::string> names;
    const std::string first = row.substr(0, row.find('|', 1));
    for (size_t open = first.find('`'); open != std::string::npos; open = first.find('`', open)) {
        const size_t close = first.find('`', open + 1);
        names.push_back(first.substr(open + 1, close - open - 1));
        open = close + 1;
    }
    return names;
}

TEST(RelationCatalogue, BaseRelationsAreTheManualsTable) {
    std::map<std::string, std::pair<std::string, std::string>> manual, catalogue;
    for (const std::string& row : tableUnder("## Base relations")) {
        const std::vector<std::string> c = cells(row);
        ASSERT_EQ(c.size(), 3u) << row;
        EXPECT_TRUE(manual.emplace(c[0], std::make_pair(c[1], c[2])).second) << "listed twice: " << c[0];
    }
    for (const BaseRelation* r : everyBaseRelation()) catalogue.emplace(r->name, std::make_pair(r->meaning, r->source));
    for (const auto& [name, text] : catalogue) {
        auto listed = manual.find(name);
        if (listed == manual.end()) {
            ADD_FAILURE() << "'" << name << "' is missing from " << kModelLanguageManual;
            continue;
        }
        EXPECT_EQ(listed->second.first, text.first) << "the meaning of '" << name << "'";
        EXPECT_EQ(listed->second.second, text.second) << "the source of '" << name << "'";
    }
    for (const auto& [name, text] : manual)
        EXPECT_TRUE(catalogue.count(name)) << kModelLanguageManual << " lists '" << name << "', no base relation";
}

TEST(RelationCatalogue, EventSetsAreTheManualsTable) {
    std::set<std::string> kinds, libraries{libraryName(Library::Core)};
    for (int k = 0; k < eventKindCount(); ++k) kinds.insert(kindName(static_cast<EventKind>(k)));
    std::istringstream known(knownLibraries());  // "sv, bal"
    for (std::string name; std::getline(known >> std::ws, name, ',');) libraries.insert(name);
    std::map<std::string, std::string> fixed;  // the sets that are not one kind's or one library's
    for (const BaseSet& s : baseSets())
        if (!kinds.count(s.name)) fixed.emplace(s.name, s.meaning);

    std::set<std::string> listed;
    for (const std::string& row : tableUnder("## Event sets")) {
        if (row.rfind("| `", 0) != 0) continue;  // "a stamp (`aCR`, ...)": a model's own names
        const std::vector<std::string> names = namesIn(row);
        listed.insert(names.begin(), names.end());
        auto set = fixed.find(names.front());
        if (names.size() == 1 && set != fixed.end()) {
            EXPECT_EQ(cells(row).at(1), set->second) << "the meaning of '" << set->first << "'";
        }
        for (const std::string& name : names)
            EXPECT_TRUE(fixed.count(name) || kinds.count(name) || libraries.count(name))
                << kModelLanguageManual << " lists '" << name << "', no event set";
    }
    for (const std::set<std::string>* names : {&kinds, &libraries})
        for (const std::string& name : *names)
            EXPECT_TRUE(listed.count(name)) << "'" << name << "' is missing from " << kModelLanguageManual;
    for (const auto& [name, meaning] : fixed)
        EXPECT_TRUE(listed.count(name)) << "'" << name << "' is missing from " << kModelLanguageManual;
}

}  // namespace
}  // namespace rdmacheck
