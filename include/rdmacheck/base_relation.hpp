// One base relation a model file can name, whether the core catalogue
// (relations.hpp) or a library (library.hpp) adds it: both are this one type.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/events.hpp"

namespace rdmacheck {

// (from, to) skeleton event indices.
using EventPairs = std::vector<std::pair<int, int>>;

// Static relations are fixed by the skeleton (po, tables, pf, a library's
// relations ...), so an encoder computes them once per skeleton; dynamic ones
// (rf, mo, rb, nfo, rao, lo) are the execution's choices, which the encoder and
// the concrete evaluator each supply. The meaning and source are what the model
// language's manual lists (a test keeps the two in agreement).
struct BaseRelation {
    std::string name;     // as models write it: "po", "round" (scoped "bal:round")
    std::string meaning;  // one line
    std::string source;   // where the papers or specifications define it
    std::function<EventPairs(const ExecutionGraph&)> pairs;  // static ones
    bool dynamic = false;
};

}  // namespace rdmacheck
