// The catalogue of statement kinds the generator draws (`--mix NAME=N`): the
// core statements first, then each registered library's kinds in registry
// order. Internal to src/generate.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/generate.hpp"

namespace rdmacheck {

struct StatementKind {
    std::string name;
    long long paths = 1;  // paths it makes of each path before it, at most (unroll 2)
    // What the path budget charges it when deciding whether to hold it back: cas and rcas
    // are counted in the estimate but never held back, so the default mix draws as it
    // always has and an RMW mix keeps its proportions in long threads.
    long long cost = 1;
    bool workIds = false;  // of the MOWGLI level: a mix that draws it makes work-identifier tests
    int library = -1;      // the registry index of the library that adds it; -1 for a core statement
    bool opensSection = false;
    std::string needs{};  // when it can be impossible, for the message
};

std::vector<StatementKind> statementKinds();
// The kind of that name; nullptr if none.
const StatementKind* findStatementKind(const std::vector<StatementKind>& kinds, const std::string& name);

// std::invalid_argument on unusable options.
void validate(const GeneratorOptions& options);

}  // namespace rdmacheck
