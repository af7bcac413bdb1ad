#include <algorithm>
#include <sstream>

#include "language.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

namespace {

std::vector<std::string> splitWords(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
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

Grid readGrid(const std::string& text, const std::string& path, const std::map<std::string, Cell>& cells) {
    checkUtf8Text(text, path, "order table");
    std::istringstream in(text);
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

}  // namespace

OrderTable parseOrderTable(const std::string& text, const std::string& path, const std::string& name) {
    const Grid grid = readGrid(text, path, {{"✓", Cell::Ordered}, {"✗", Cell::Unordered}, {"sqp", Cell::SameQueuePair}});
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

OrderTable parseStampTable(const std::string& text, const std::string& path, const std::string& name,
                           const std::map<std::string, std::string>& stampOf) {
    const Grid grid = readGrid(text, path, {{"Y", Cell::Ordered}, {"N", Cell::Unordered}, {"SN", Cell::SameQueuePair}});
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

OrderTable loadOrderTable(const std::string& path, const std::string& name) {
    return parseOrderTable(readModelFile(path, SourceLoc{path, 0, 0}, "order table"), path, name);
}

OrderTable loadStampTable(const std::string& path, const std::string& name,
                          const std::map<std::string, std::string>& stampOf) {
    return parseStampTable(readModelFile(path, SourceLoc{path, 0, 0}, "order table"), path, name, stampOf);
}

}  // namespace rdmacheck
