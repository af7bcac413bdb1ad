// The brute-force evaluator the test oracles share: relations on a skeleton's
// events as bit matrices, the enumeration of candidate executions (every rf,
// every mo), the values reads take from rf, the witnesses an execution may
// choose (nfo's orientations, rao's and lo's total orders), and the final states
// an execution gives. Each oracle keeps its own tables and definitions
// (test_definition_oracle.cpp, test_mowgli_oracle.cpp, test_model_evaluator.cpp);
// none of this comes from the encoder it checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "rdmacheck/check.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::oracles {

// The oracles' programs stay under 64 events, so a row of a relation is one word.
constexpr size_t kMaxEvents = 64;

using EventSet = uint64_t;  // bit e: event e is in the set

inline bool contains(EventSet s, size_t e) { return (s >> e) & 1; }
inline EventSet single(size_t e) { return EventSet(1) << e; }

// A relation on n events: bit b of row a says (a, b) is in it.
class Relation {
public:
    explicit Relation(size_t n = 0) : rows_(n, 0) {}

    size_t size() const { return rows_.size(); }
    bool has(size_t a, size_t b) const { return contains(rows_[a], b); }
    void add(size_t a, size_t b) { rows_[a] |= single(b); }
    EventSet row(size_t a) const { return rows_[a]; }
    EventSet& row(size_t a) { return rows_[a]; }

    Relation& operator|=(const Relation& other);
    friend Relation operator|(Relation a, const Relation& b) { return a |= b; }
    friend Relation operator&(const Relation& a, const Relation& b);
    friend Relation operator-(const Relation& a, const Relation& b);  // difference

    bool empty() const;
    bool irreflexive() const;
    Relation closure() const;  // r+, Warshall
    Relation reflexive() const;  // r?
    Relation inverse() const;
    Relation then(const Relation& next) const;  // r ; next
    Relation within(EventSet s) const;  // r ∩ (s × s)

    static Relation identity(size_t n, EventSet s);  // [s]
    static Relation product(size_t n, EventSet from, EventSet to);  // from × to

private:
    std::vector<EventSet> rows_;
};

// Adds order's pairs (i < j) to r: the strict total order the sequence lists.
void addTotalOrder(Relation& r, const std::vector<int>& order);

// The (uncut) skeletons of a program, one at a time.
void forEachSkeleton(const UnfoldedProgram& program, bool bindReceived,
                     const std::function<void(const ExecutionGraph&)>& visit);

// rf and mo of one candidate execution. rf[r] is the source of read r (-1 for
// events that read nothing); mo[l] lists the writes to location l in order,
// without its initial write, which precedes them all.
struct Candidate {
    std::vector<int> rf;
    std::vector<std::vector<int>> mo;
};

// Every rf (each of `reads` takes one event isSource allows) and every mo (each
// order of writesTo[l] for every location l), each visited with `c` filled in.
void forEachCandidate(Candidate& c, size_t events, const std::vector<size_t>& reads,
                      const std::function<bool(size_t write, size_t read)>& isSource,
                      const std::vector<std::vector<int>>& writesTo, const std::function<void()>& visit);

// Whether write a is mo-before write b; an initial write comes before the others.
bool moBefore(const ExecutionGraph& sk, const Candidate& c, int a, int b);
// The mo-last write to location l: its initial write when nothing else writes it.
int lastWrite(const ExecutionGraph& sk, const Candidate& c, int l);

// The reads whose values the value read r takes from its source depends on.
std::vector<int> dependencies(const ExecutionGraph& sk, const Candidate& c, size_t r);

// readValues from rf: a read takes the value its source writes. `guesses` fixes
// reads on a cycle of value dependencies (out of thin air); without them a
// cycle is no execution and values() returns false, as when a guess is not
// what its source then writes.
bool values(const ExecutionGraph& sk, const Candidate& c, const std::vector<size_t>& reads,
            std::vector<long long>& readValues, const std::map<size_t, long long>& guesses = {});

// Whether the skeleton's value constraints (branches taken, assumes) hold.
bool constraintsHold(const ExecutionGraph& sk, const std::vector<long long>& readValues);

// Whether accept holds for some orientation of the pairs: each (a, b) as given or turned round.
bool someOrientation(const std::vector<std::pair<int, int>>& pairs,
                     const std::function<bool(const Relation& oriented)>& accept, size_t events);

// Whether accept holds for some choice of a strict total order on each group.
bool someTotalOrders(const std::vector<std::vector<int>>& groups,
                     const std::function<bool(const std::vector<std::vector<int>>& orders)>& accept);

// The final states of the executions an oracle accepts, as check() counts them.
struct Outcomes {
    std::map<FinalState, bool> states;
    uint64_t positive = 0, negative = 0;

    // One execution: the shown names' values, unless the test's filter rejects it.
    void record(const LitmusTest& test, const UnfoldedProgram& program, const ExecutionGraph& sk, const Candidate& c,
                const std::vector<ObservedName>& shown, const std::vector<long long>& readValues);
};

}  // namespace rdmacheck::oracles
