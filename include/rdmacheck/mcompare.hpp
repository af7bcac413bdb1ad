// `rdmacheck compare`'s table: herdtools7's mcompare7 with its default
// options (`-show d`), character for character.
#pragma once
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/herd_log.hpp"

namespace rdmacheck {

// One column of the table: a log (named by its file name) or a model's run.
struct CompareColumn {
    std::string name;
    std::string source;  // the log's path as given, for messages
    std::vector<FileReport> reports;
};

struct McompareResult {
    size_t differing = 0;              // rows another column lacks or has other states in
    std::set<std::string> notInFirst;  // tests the table leaves out, as mcompare7 does
    // mcompare7's -pos, -neg, -eq sets: the tests some column has states the
    // first lacks (+), lacks states the first has (-), or has the first's (==).
    std::set<std::string> positive, negative, equal;
};

// The tests whose names REGEXP matches from their first character, REGEXP
// in OCaml's Str syntax as mcompare7's -e reads it (`\|`, `\(`, `\)`
// alternate and group; `|`, `(`, `)`, `{`, `}` are themselves). mcompare7
// filters its other tables so (tools/mcompare.ml), not the Diffs table.
class TestNameFilter {
public:
    TestNameFilter() = default;  // every test
    // std::invalid_argument when `strRegexp` is not a regular expression.
    explicit TestNameFilter(const std::string& strRegexp);
    bool keeps(const std::string& test) const;

private:
    std::optional<std::regex> regex_;
};

// Prints mcompare7's "Diffs" table of `columns` (the first with tests is the
// reference; a column without tests is dropped) and its warnings. Throws
// std::invalid_argument, where mcompare7 stops, when two columns give one
// test different hashes (unless `checkHashes` is false: mcompare7's -nohash)
// or states over different locations. Only the tests `filter` keeps count.
McompareResult printMcompareDiffs(std::ostream& out, const std::vector<CompareColumn>& columns,
                                  bool checkHashes = true, const TestNameFilter& filter = {});

}  // namespace rdmacheck
