// The shape of a cycle of edges (doc/diy.md, "From a cycle to a test"): its
// threads, its locations with their coherence orders, the values its events
// write and read, and diy7's name for it. What each architecture writes from
// a shape is its own: X86 in diy.cpp, RDMA in rdma.cpp. Internal to diy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rdmacheck/diy.hpp"

namespace rdmacheck::diy {

struct CycleEvent {
    char dir = 'W';
    int thread = 0, location = 0;
    long long value = 0;  // a write's; a read's, -1 when the cycle does not fix it
};

class CycleShape {
public:
    // A write whose value is what the read before it reads (an RDMA put's or
    // get's second half): for event i, whether it copies event i - 1.
    using Copies = std::function<bool(const DiyEdge& into)>;

    // The shape of `cycle`; false, with `why`, when it makes no test. With
    // copies, the writes that are not copies take values unique over the test
    // (a copy may land on any location), else 1, 2, ... per location.
    bool build(std::vector<DiyEdge> cycle, std::string& why, const Copies& copies = {});

    size_t size() const { return n_; }
    // Edge i leaves event i and enters event i + 1 (indices modulo the size).
    const DiyEdge& edge(size_t i) const { return c_[(i + n_) % n_]; }
    const CycleEvent& event(size_t i) const { return events_[(i + n_) % n_]; }
    size_t threads() const { return eventsOf_.size(); }
    int locations() const { return static_cast<int>(coherence_.size()); }
    // The final value of each location written twice or more (then the
    // condition names it), by location.
    std::vector<std::pair<int, long long>> finals() const;
    // The location's writes in coherence order.
    const std::vector<size_t>& coherence(int location) const { return coherence_[location]; }
    std::string edgeList() const;
    // diy7's name: the family, then each thread's internal edges as `word`
    // names them; a thread of one event, as `alone` names that event (none:
    // nothing, as diy7).
    std::string name(const std::function<std::string(const DiyEdge&)>& word,
                     const std::function<std::string(size_t event)>& alone = {}) const;

private:
    bool valid(std::string& why) const;
    void rotateToNamedFamily();
    void assignThreads();
    std::string key() const;
    bool sameLocation() const;
    void assignLocations();
    size_t wrapOfOneLocation();
    bool assignValues(std::string& why, const Copies& copies);
    bool settleReads(std::string& why, const Copies& copies);

    std::vector<DiyEdge> c_;
    size_t n_ = 0;
    std::vector<CycleEvent> events_;
    std::vector<int> eventsOf_;                   // events per thread
    std::vector<std::vector<size_t>> coherence_;  // per location, its writes in order
    size_t runStart_ = 0;
    bool lastIsFirst_ = false;  // one location, broken at a Ws edge: the first write in the order is last
};

// A thread's internal edge in a test's name, as diy7 writes it: po, pos,
// mfence, mfences, rfi, fri, wsi, rmw (an RDMA edge: its name).
std::string diy7Word(const DiyEdge& e);

// Rfe, Rfi, Fre, Fri, Wse, Wsi: the edges between a write and a read or
// write of its location, X86's and RDMA's alike.
std::vector<DiyEdge> communicationEdges();

// x, y, z, a, b, ...: the name of location l.
std::string locationName(int l);

}  // namespace rdmacheck::diy
