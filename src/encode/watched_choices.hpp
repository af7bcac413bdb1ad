// One encoding's choices as Booleans its solver's ChoiceWatch follows: the
// source of each read (one Boolean per candidate), mo between each pair of
// writes of a location, the direction of each nfo pair and the order of each
// pair of a group order (proxies tied to the integer keys). An execution is
// read off their values at Z3's final check, without a model. Internal to
// the encoder.
//
// An execution is its rf and mo, as in herd7: they are what tells executions
// apart (key(), distinguishing()); nfo and group orders are read with it and
// not counted.
#pragma once

#include <string>
#include <vector>
#include <z3++.h>

#include "choice_watch.hpp"
#include "symbolic.hpp"

namespace rdmacheck {

class WatchedChoices {
public:
    // Watches the choices' Booleans (adding the proxies to `solver`).
    WatchedChoices(z3::solver& solver, ChoiceWatch& watch, const Choices& choices);

    // Whether every watched Boolean has a value (at a final check they do:
    // the solvers run without relevancy, so Z3 assigns all it internalised).
    bool complete() const;
    // The execution the values give, into `found`. False when its values
    // read need the model: a cycle of values, or a value outside 64 bits.
    bool read(size_t locationCount, ExecutionGraph& found) const;
    // The execution's rf and mo: as a key among the executions found, and the
    // ids whose current values refute it together.
    std::string key() const;
    std::vector<unsigned> distinguishing() const;
    // The ids whose current values fix what `ex` (the execution these values
    // give) ends with at `locations` (each one's mo-last write) and the values
    // of `values`: the sources of every read those values and writes depend
    // on. Refuting them refutes every execution that ends the same.
    std::vector<unsigned> determining(const ExecutionGraph& ex, const std::vector<int>& locations,
                                      const std::vector<Value>& values) const;
    // "rf and mo are ex's", as literals.
    z3::expr_vector literalsOf(const ExecutionGraph& ex) const;
    // "a before b" for each pair a, b of a group in the group's order.
    std::vector<z3::expr> groupOrderPairs() const;

private:
    struct Ordered {  // a before b: a proxy, watched as `id`
        int a, b;
        z3::expr proxy;
        unsigned id;
    };
    Ordered order(z3::solver& solver, int a, int b, const z3::expr& before, const std::string& name);
    std::vector<int> places(const std::vector<Ordered>& pairs, size_t eventCount) const;
    bool valuesFromSources(ExecutionGraph& found) const;

    ChoiceWatch& watch_;
    const Choices& choices_;
    std::vector<std::vector<unsigned>> sources_;  // per read of two candidates or more: each candidate's id
    std::vector<int> reads_;                      // those reads
    std::vector<int> readAt_;                     // per event: its index in reads_, or -1
    std::vector<Ordered> coherence_;              // per pair of writes of a location
    std::vector<unsigned> flushes_;               // per nfo pair: forward
    std::map<std::string, std::vector<Ordered>> groupOrders_;
};

}  // namespace rdmacheck
