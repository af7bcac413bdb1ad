#include "cycle.hpp"

#include <algorithm>
#include <map>

namespace rdmacheck::diy {

namespace {

// diy7's family names, by the directions of each thread's events (WW+RR: a
// thread that writes twice, one that reads twice); a shape without a name is
// named by its key.
std::string family(const std::string& key, bool sameLocation) {
    static const std::map<std::string, std::string> names = {
        {"WW+RR", "MP"},      {"WR+WR", "SB"},     {"RW+RW", "LB"},        {"WW+WR", "R"},         {"WW+RW", "S"},
        {"WW+WW", "2+2W"},    {"W+RW+RR", "WRC"},  {"W+RR+WR", "RWC"},     {"W+RW+RW", "WWC"},     {"W+RW+WR", "WRW+WR"},
        {"W+RR+WW", "WRR+2W"}, {"W+RW+WW", "WRW+2W"}, {"WW+RR+WR", "W+RWC"}, {"WW+RW+RR", "ISA2"},
        {"W+RR+W+RR", "IRIW"}, {"W+RR+W+RW", "IRRWIW"}, {"W+RW+W+RR", "IRRWIW"}, {"W+RW+W+RW", "IRWIW"},
        {"WW+RW+WR", "Z6.0"}, {"WW+WW+RW", "Z6.1"}, {"WW+RW+RW", "Z6.2"},    {"WW+WW+RR", "Z6.3"},
        {"WW+WR+WR", "Z6.4"}, {"WW+WW+WR", "Z6.5"}, {"WR+WR+WR", "3.SB"},    {"WR+WR+WR+WR", "4.SB"},
        {"RW+RW+RW", "3.LB"}, {"RW+RW+RW+RW", "4.LB"}, {"WW+WW+WW", "3.2W"}, {"WW+WW+WW+WW", "4.2W"}};
    // On one location: coherence tests.
    static const std::map<std::string, std::string> coherence = {{"WW", "CoWW"},     {"RW", "CoRW1"}, {"W+RW", "CoRW2"},
                                                                 {"W+WR", "CoWR"},   {"W+RR", "CoRR"}, {"WR", "CoWR0"}};
    const auto& table = sameLocation ? coherence : names;
    auto it = table.find(key);
    if (it != table.end()) return it->second;
    if (sameLocation) return family(key, false);
    return "";
}

bool isRead(const CycleEvent& e) { return e.dir == 'R'; }

}  // namespace

// The name of a thread's internal edges (po, mfence, rfi-po), as diy7 names them.
std::string diy7Word(const DiyEdge& e) {
    switch (e.kind) {
        case DiyEdge::Kind::Po: return e.sameLocation ? "pos" : "po";
        case DiyEdge::Kind::Fence: return e.sameLocation ? "mfences" : "mfence";
        case DiyEdge::Kind::Rf: return "rfi";
        case DiyEdge::Kind::Fr: return "fri";
        case DiyEdge::Kind::Ws: return "wsi";
        case DiyEdge::Kind::Rmw: return "rmw";
        case DiyEdge::Kind::Poll:
        case DiyEdge::Kind::Rfence:
        case DiyEdge::Kind::Put:
        case DiyEdge::Kind::Get: return e.name;  // RDMA's, not in X86 cycles
    }
    return "";
}

std::vector<DiyEdge> communicationEdges() {
    std::vector<DiyEdge> out;
    for (bool external : {true, false}) {
        const std::string side = external ? "e" : "i";
        out.push_back({"Rf" + side, DiyEdge::Kind::Rf, external, true, 'W', 'R', "", ""});
        out.push_back({"Fr" + side, DiyEdge::Kind::Fr, external, true, 'R', 'W', "", ""});
        out.push_back({"Ws" + side, DiyEdge::Kind::Ws, external, true, 'W', 'W', "", ""});
    }
    return out;
}

std::string locationName(int l) {
    static const char* const names[] = {"x", "y", "z", "a", "b", "c", "d", "e", "f", "g"};
    return l < 10 ? names[l] : "x" + std::to_string(l);
}

bool CycleShape::build(std::vector<DiyEdge> cycle, std::string& why, const Copies& copies) {
    c_ = std::move(cycle);
    n_ = c_.size();
    if (!valid(why)) return false;
    rotateToNamedFamily();
    assignThreads();
    assignLocations();
    return assignValues(why, copies);
}

bool CycleShape::valid(std::string& why) const {
    if (n_ < 2) {
        why = "a cycle needs two edges or more";
        return false;
    }
    size_t external = 0, changes = 0;
    for (size_t i = 0; i < n_; ++i) {
        if (!joins(edge(i), edge(i + 1))) {
            const std::string& to = edge(i).toEvent.empty() ? std::string(1, edge(i).to) : edge(i).toEvent;
            const std::string& from = edge(i + 1).fromEvent.empty() ? std::string(1, edge(i + 1).from) : edge(i + 1).fromEvent;
            why = edge(i).name + " ends at " + to + " but " + edge(i + 1).name + " starts at " + from;
            return false;
        }
        external += edge(i).external;
        changes += !edge(i).sameLocation;
        if (edge(i).kind == DiyEdge::Kind::Rmw && (edge(i - 1).kind == DiyEdge::Kind::Rmw || edge(i + 1).kind == DiyEdge::Kind::Rmw)) {
            why = "two Rmw edges in a row";
            return false;
        }
        // co;co and fr;co both external (or both internal) are one edge, as
        // diy7 has them (gen/alt.ml): the write between adds nothing to test.
        // One of each puts the write on a thread of its own (Fri Wse).
        if (edge(i + 1).kind == DiyEdge::Kind::Ws && edge(i).external == edge(i + 1).external &&
            (edge(i).kind == DiyEdge::Kind::Ws || edge(i).kind == DiyEdge::Kind::Fr)) {
            why = edge(i).name + " " + edge(i + 1).name + " is one edge: nothing observes the write between";
            return false;
        }
    }
    if (external == 0) why = "a cycle needs an external edge (Rfe, Fre, Wse)";
    else if (changes == 1) why = "one change of location cannot close the cycle";
    return external > 0 && changes != 1;
}

// The first thread starts the cycle: after an external edge, and where it
// gives the threads in the order of diy7's family names (MP's writer first).
void CycleShape::rotateToNamedFamily() {
    size_t chosen = n_;
    for (size_t r = 0; r < n_; ++r) {
        if (!edge(r - 1).external) continue;
        std::rotate(c_.begin(), c_.begin() + r, c_.end());
        assignThreads();
        const bool named = !family(key(), sameLocation()).empty();
        std::rotate(c_.begin(), c_.begin() + (n_ - r), c_.end());
        if (chosen == n_ || named) chosen = r;
        if (named) break;
    }
    std::rotate(c_.begin(), c_.begin() + chosen, c_.end());
}

void CycleShape::assignThreads() {
    events_.assign(n_, CycleEvent{});
    int t = 0;
    for (size_t i = 0; i < n_; ++i) {
        events_[i].dir = edge(i).from;
        events_[i].thread = t;
        if (edge(i).external) ++t;
    }
    eventsOf_.assign(t, 0);
    for (const CycleEvent& e : events_) ++eventsOf_[e.thread];
}

// Each thread's first and last events' directions, threads joined by '+'
// (WW+RR; a thread of one event has one).
std::string CycleShape::key() const {
    std::string out;
    for (size_t i = 0; i < n_; ++i) {
        const bool first = i == 0 || events_[i].thread != events_[i - 1].thread;
        const bool last = i + 1 == n_ || events_[i].thread != events_[i + 1].thread;
        if (first && i > 0) out += "+";
        if (first || last) out += edge(i).from;
    }
    return out;
}

bool CycleShape::sameLocation() const {
    return std::all_of(c_.begin(), c_.end(), [](const DiyEdge& e) { return e.sameLocation; });
}

// Locations are the runs of events joined by edges that keep the location,
// named x, y, ... in the order the first thread meets them.
void CycleShape::assignLocations() {
    size_t start = 0;
    for (size_t i = 0; i < n_; ++i)
        if (!edge(i - 1).sameLocation) start = i;
    if (sameLocation()) start = wrapOfOneLocation();
    std::vector<int> run(n_);
    int current = 0;
    for (size_t k = 0; k < n_; ++k) {
        const size_t i = (start + k) % n_;
        if (k > 0 && !edge(i - 1).sameLocation) ++current;
        run[i] = current;
    }
    std::map<int, int> named;
    for (size_t i = 0; i < n_; ++i) {
        named.emplace(run[i], static_cast<int>(named.size()));
        events_[i].location = named[run[i]];
    }
    runStart_ = start;
    coherence_.assign(named.size(), {});
    for (size_t k = 0; k < n_; ++k) {
        const size_t i = (start + k) % n_;
        if (!isRead(events_[i])) coherence_[events_[i].location].push_back(i);
    }
}

// A cycle on one location orders its writes against themselves; the
// coherence order of the test starts where the cycle says it is broken:
// after an Fr edge (its read then reads before the first write, CoRR), else
// after a Ws edge (its target is then the last write, CoWW).
size_t CycleShape::wrapOfOneLocation() {
    for (DiyEdge::Kind k : {DiyEdge::Kind::Fr, DiyEdge::Kind::Ws})
        for (size_t i = 0; i < n_; ++i)
            if (edge(i - 1).kind == k) {
                lastIsFirst_ = k == DiyEdge::Kind::Ws;
                return i;
            }
    return 0;
}

// A location's writes take 1, 2, ... in coherence order (unique over the
// test when some write copies a read); then reads and copies settle.
bool CycleShape::assignValues(std::string& why, const Copies& copies) {
    bool copying = false;
    for (size_t i = 0; i < n_; ++i) copying = copying || (copies && !isRead(events_[i]) && copies(edge(i - 1)));
    long long unique = 0;
    for (const std::vector<size_t>& writes : coherence_) {
        long long count = 0;
        for (size_t w : writes) {
            const bool copy = copies && copies(edge(w - 1));
            events_[w].value = copy ? -1 : copying ? ++unique : ++count;
        }
    }
    for (CycleEvent& e : events_)
        if (isRead(e)) e.value = -1;
    return settleReads(why, copies);
}

// A read takes what its Rf edge's write writes, or the value just before the
// write its Fr (or Rmw) edge names; a copy takes its read's. Repeated until
// nothing changes (a copy's value may wait on another copy's).
bool CycleShape::settleReads(std::string& why, const Copies& copies) {
    auto before = [&](size_t w) -> long long {
        const std::vector<size_t>& order = coherence_[events_[w].location];
        const auto at = std::find(order.begin(), order.end(), w);
        return at == order.begin() ? 0 : events_[*(at - 1)].value;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n_; ++i) {
            CycleEvent& e = events_[i];
            long long v = e.value;
            if (!isRead(e)) {
                if (copies && copies(edge(i - 1))) v = event(i - 1).value;
            } else {
                const bool fr = edge(i).kind == DiyEdge::Kind::Fr || edge(i).kind == DiyEdge::Kind::Rmw;
                const long long fromFr = fr ? before((i + 1) % n_) : -1;
                const long long fromRf = edge(i - 1).kind == DiyEdge::Kind::Rf ? event(i - 1).value : -1;
                if (fromFr >= 0 && fromRf >= 0 && fromFr != fromRf) {
                    why = "a read reads a write and one coherence-before it (" + edge(i - 1).name + " " + edge(i).name + ")";
                    return false;
                }
                v = fromRf >= 0 ? fromRf : fromFr;
            }
            if (v != e.value) {
                e.value = v;
                changed = true;
            }
        }
    }
    for (size_t i = 0; i < n_; ++i)
        if (!isRead(events_[i]) && events_[i].value < 0) {
            why = "the value " + edge(i - 1).name + " copies is not fixed by the cycle (its read has no Rf or Fr edge)";
            return false;
        }
    for (int l = 0; l < locations(); ++l) {
        std::vector<long long> values{0};
        for (size_t w : coherence_[l]) values.push_back(events_[w].value);
        std::sort(values.begin(), values.end());
        if (std::adjacent_find(values.begin(), values.end()) != values.end()) {
            why = "two writes of " + locationName(l) + " (or one and its initial value) would write the same value";
            return false;
        }
    }
    return true;
}

std::vector<std::pair<int, long long>> CycleShape::finals() const {
    std::vector<std::pair<int, long long>> out;
    for (int l = 0; l < locations(); ++l)
        if (coherence_[l].size() > 1)
            out.emplace_back(l, events_[lastIsFirst_ ? coherence_[l].front() : coherence_[l].back()].value);
    return out;
}

std::string CycleShape::edgeList() const {
    std::string out;
    for (const DiyEdge& e : c_) out += (out.empty() ? "" : " ") + e.name;
    return out;
}

std::string CycleShape::name(const std::function<std::string(const DiyEdge&)>& word,
                             const std::function<std::string(size_t event)>& alone) const {
    const std::string named = family(key(), sameLocation());
    const std::string base = named.empty() ? key() : named;
    std::vector<std::string> words(eventsOf_.size());
    for (size_t i = 0; i < n_; ++i) {
        std::string& w = words[events_[i].thread];
        if (!edge(i).external) w += (w.empty() ? "" : "-") + word(edge(i));
        if (alone && eventsOf_[events_[i].thread] == 1) w = alone(i);
    }
    std::vector<std::string> shown;
    for (const std::string& w : words)
        if (!w.empty()) shown.push_back(w);
    if (std::all_of(shown.begin(), shown.end(), [](const std::string& w) { return w == "po"; })) return base;
    if (shown.size() > 1 && std::all_of(shown.begin(), shown.end(), [&](const std::string& w) { return w == shown[0]; }))
        return base + "+" + shown[0] + "s";
    std::string out = base;
    for (const std::string& w : shown) out += "+" + w;
    return out;
}

}  // namespace rdmacheck::diy
