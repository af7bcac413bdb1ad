#include "rdmacheck/diy.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace rdmacheck {

namespace {

std::vector<DiyEdge> makeX86Edges() {
    std::vector<DiyEdge> out;
    const char dirs[] = {'W', 'R'};
    for (const char* po : {"Po", "MFence"})
        for (char loc : {'s', 'd'})
            for (char a : dirs)
                for (char b : dirs)
                    out.push_back({std::string(po) + loc + a + b, po[0] == 'P' ? DiyEdge::Kind::Po : DiyEdge::Kind::Fence,
                                   false, loc == 's', a, b});
    for (bool external : {true, false}) {
        const std::string side = external ? "e" : "i";
        out.push_back({"Rf" + side, DiyEdge::Kind::Rf, external, true, 'W', 'R'});
        out.push_back({"Fr" + side, DiyEdge::Kind::Fr, external, true, 'R', 'W'});
        out.push_back({"Ws" + side, DiyEdge::Kind::Ws, external, true, 'W', 'W'});
    }
    out.push_back({"Rmw", DiyEdge::Kind::Rmw, false, true, 'R', 'W'});
    return out;
}

// One event of the cycle: the source of edge i.
struct Event {
    char dir = 'W';
    int thread = 0, location = 0;
    long long value = 0;  // a write's; a read's expected value, -1 when the cycle does not fix it
};

const char* const kRegisters[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI"};

std::string locationName(int l) {
    static const char* const names[] = {"x", "y", "z", "a", "b", "c", "d", "e", "f", "g"};
    return l < 10 ? names[l] : "x" + std::to_string(l);
}

// The name of a thread's internal edges (po, mfence, rfi-po), as diy7 names them.
std::string edgeWord(const DiyEdge& e) {
    switch (e.kind) {
        case DiyEdge::Kind::Po: return e.sameLocation ? "pos" : "po";
        case DiyEdge::Kind::Fence: return e.sameLocation ? "mfences" : "mfence";
        case DiyEdge::Kind::Rf: return "rfi";
        case DiyEdge::Kind::Fr: return "fri";
        case DiyEdge::Kind::Ws: return "wsi";
        case DiyEdge::Kind::Rmw: return "rmw";
    }
    return "";
}

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

class CycleTest {
public:
    explicit CycleTest(std::vector<DiyEdge> cycle) : c_(std::move(cycle)), n_(c_.size()) {}

    std::optional<DiyTest> build(std::string& why) {
        if (!valid(why)) return std::nullopt;
        rotateToNamedFamily();
        assignThreads();
        assignLocations();
        if (!assignValues(why)) return std::nullopt;
        return DiyTest{name(), edges(), text(), n_};
    }

private:
    const DiyEdge& edge(size_t i) const { return c_[(i + n_) % n_]; }

    bool valid(std::string& why) const {
        if (n_ < 2) {
            why = "a cycle needs two edges or more";
            return false;
        }
        size_t external = 0, changes = 0;
        for (size_t i = 0; i < n_; ++i) {
            if (edge(i).to != edge(i + 1).from) {
                why = edge(i).name + " ends at " + edge(i).to + " but " + edge(i + 1).name + " starts at " + edge(i + 1).from;
                return false;
            }
            external += edge(i).external;
            changes += !edge(i).sameLocation;
            if (edge(i).kind == DiyEdge::Kind::Rmw && (edge(i - 1).kind == DiyEdge::Kind::Rmw || edge(i + 1).kind == DiyEdge::Kind::Rmw)) {
                why = "two Rmw edges in a row";
                return false;
            }
            // co;co and fr;co are one edge: no test observes the write between.
            if (edge(i + 1).kind == DiyEdge::Kind::Ws &&
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
    void rotateToNamedFamily() {
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

    void assignThreads() {
        events_.assign(n_, Event{});
        int t = 0;
        for (size_t i = 0; i < n_; ++i) {
            events_[i].dir = edge(i).from;
            events_[i].thread = t;
            if (edge(i).external) ++t;
        }
        eventsOf_.assign(t, 0);
        for (const Event& e : events_) ++eventsOf_[e.thread];
    }

    // Each thread's first and last events' directions, threads joined by '+'
    // (WW+RR; a thread of one event has one).
    std::string key() const {
        std::string out;
        for (size_t i = 0; i < n_; ++i) {
            const bool first = i == 0 || events_[i].thread != events_[i - 1].thread;
            const bool last = i + 1 == n_ || events_[i].thread != events_[i + 1].thread;
            if (first && i > 0) out += "+";
            if (first || last) out += edge(i).from;
        }
        return out;
    }

    bool sameLocation() const {
        return std::all_of(c_.begin(), c_.end(), [](const DiyEdge& e) { return e.sameLocation; });
    }

    // Locations are the runs of events joined by edges that keep the
    // location, named x, y, ... in the order the first thread meets them.
    void assignLocations() {
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
    }

    // A cycle on one location orders its writes against themselves; the
    // coherence order of the test starts where the cycle says it is broken:
    // after an Fr edge (its read then reads before the first write, CoRR), else
    // after a Ws edge (its target is then the last write, CoWW).
    size_t wrapOfOneLocation() {
        for (DiyEdge::Kind k : {DiyEdge::Kind::Fr, DiyEdge::Kind::Ws})
            for (size_t i = 0; i < n_; ++i)
                if (edge(i - 1).kind == k) {
                    lastIsFirst_ = k == DiyEdge::Kind::Ws;
                    return i;
                }
        return 0;
    }

    // A location's writes take 1, 2, ... in the cycle's order from where the
    // location's run begins: its coherence order. A read takes what its Rf
    // edge writes, or the value before the write its Fr or Rmw edge names;
    // false when those are two values (a read of a write and before it).
    bool assignValues(std::string& why) {
        std::map<int, long long> count;
        for (size_t k = 0; k < n_; ++k) {
            Event& e = events_[(runStart_ + k) % n_];
            if (e.dir == 'W') e.value = ++count[e.location];
        }
        for (const auto& [location, writes] : count)
            if (writes > 1) finals_[location] = lastIsFirst_ ? 1 : writes;
        for (size_t i = 0; i < n_; ++i) {
            Event& e = events_[i];
            if (e.dir != 'R') continue;
            e.value = -1;
            const bool before = edge(i).kind == DiyEdge::Kind::Fr || edge(i).kind == DiyEdge::Kind::Rmw;
            if (before) e.value = events_[(i + 1) % n_].value - 1;
            if (edge(i - 1).kind != DiyEdge::Kind::Rf) continue;
            const long long read = events_[(i + n_ - 1) % n_].value;
            if (before && e.value != read) {
                why = "a read reads a write and one coherence-before it (" + edge(i - 1).name + " " + edge(i).name + ")";
                return false;
            }
            e.value = read;
        }
        return true;
    }

    std::string edges() const {
        std::string out;
        for (const DiyEdge& e : c_) out += (out.empty() ? "" : " ") + e.name;
        return out;
    }

    std::string name() const {
        const std::string named = family(key(), sameLocation());
        const std::string base = named.empty() ? key() : named;
        std::vector<std::string> words(eventsOf_.size());
        for (size_t i = 0; i < n_; ++i)
            if (!edge(i).external) {
                std::string& w = words[events_[i].thread];
                w += (w.empty() ? "" : "-") + edgeWord(edge(i));
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

    // Each thread's instructions, and the condition's atoms.
    std::string text() const {
        std::vector<std::vector<std::string>> code(eventsOf_.size());
        std::vector<int> registers(eventsOf_.size(), 0);
        std::vector<std::string> registerAtoms;
        for (size_t i = 0; i < n_; ++i) {
            const Event& e = events_[i];
            std::vector<std::string>& out = code[e.thread];
            const std::string loc = "[" + locationName(e.location) + "]";
            if (edge(i - 1).kind == DiyEdge::Kind::Fence) out.push_back("MFENCE");
            if (edge(i - 1).kind == DiyEdge::Kind::Rmw) continue;  // the XCHG's write, made with its read
            if (e.dir == 'W') {
                out.push_back("MOV " + loc + ",$" + std::to_string(e.value));
                continue;
            }
            const std::string reg = kRegisters[registers[e.thread]++ % 6];
            if (edge(i).kind == DiyEdge::Kind::Rmw) {
                out.push_back("MOV " + reg + ",$" + std::to_string(events_[(i + 1) % n_].value));
                out.push_back("XCHG " + loc + "," + reg);
            } else {
                out.push_back("MOV " + reg + "," + loc);
            }
            if (e.value >= 0) registerAtoms.push_back(std::to_string(e.thread) + ":" + reg + "=" + std::to_string(e.value));
        }
        std::vector<std::string> atoms;
        for (const auto& [location, value] : finals_) atoms.push_back(locationName(location) + "=" + std::to_string(value));
        std::sort(atoms.begin(), atoms.end());
        atoms.insert(atoms.end(), registerAtoms.begin(), registerAtoms.end());
        std::ostringstream s;
        s << "X86 " << name() << "\n\"" << edges() << "\"\nCycle=" << edges() << "\n{\n}\n" << columns(code);
        s << "exists (";
        for (size_t a = 0; a < atoms.size(); ++a) s << (a ? " /\\ " : "") << atoms[a];
        s << ")\n";
        return s.str();
    }

    // herd7's layout: " P0 | P1 ;" with each column as wide as its longest line.
    static std::string columns(const std::vector<std::vector<std::string>>& code) {
        size_t rows = 0;
        std::vector<size_t> width(code.size());
        for (size_t t = 0; t < code.size(); ++t) {
            width[t] = ("P" + std::to_string(t)).size();
            for (const std::string& line : code[t]) width[t] = std::max(width[t], line.size());
            rows = std::max(rows, code[t].size());
        }
        std::string out;
        for (size_t row = 0; row <= rows; ++row) {
            for (size_t t = 0; t < code.size(); ++t) {
                std::string cell = row == 0 ? "P" + std::to_string(t) : row - 1 < code[t].size() ? code[t][row - 1] : "";
                out += " " + cell + std::string(width[t] - cell.size(), ' ') + " " + (t + 1 < code.size() ? "|" : ";");
            }
            out += "\n";
        }
        return out;
    }

    std::vector<DiyEdge> c_;
    size_t n_;
    std::vector<Event> events_;
    std::vector<int> eventsOf_;  // events per thread
    std::map<int, long long> finals_;  // per location written twice or more, its final value
    size_t runStart_ = 0;
    bool lastIsFirst_ = false;  // one location, broken at a Ws edge: the first write in the order is last
};

}  // namespace

const std::vector<DiyEdge>& x86DiyEdges() {
    static const std::vector<DiyEdge> edges = makeX86Edges();
    return edges;
}

std::optional<DiyEdge> findDiyEdge(const std::string& name) {
    for (const DiyEdge& e : x86DiyEdges())
        if (e.name == name) return e;
    return std::nullopt;
}

std::optional<DiyTest> diyTest(const std::vector<DiyEdge>& cycle, std::string& why) {
    if (cycle.empty()) {
        why = "no edges";
        return std::nullopt;
    }
    return CycleTest(cycle).build(why);
}

std::vector<DiyTest> diyTests(const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax, int size,
                              size_t& considered) {
    std::vector<DiyEdge> pool = edges;
    for (const DiyEdge& r : relax)
        if (std::none_of(pool.begin(), pool.end(), [&](const DiyEdge& e) { return e.name == r.name; })) pool.push_back(r);
    std::vector<DiyTest> out;
    std::vector<size_t> chosen;
    // A sequence is kept in its least rotation only, so each cycle once.
    auto leastRotation = [&] {
        for (size_t r = 1; r < chosen.size(); ++r)
            if (std::lexicographical_compare(chosen.begin() + r, chosen.end(), chosen.begin(), chosen.end() - r) ||
                (std::equal(chosen.begin() + r, chosen.end(), chosen.begin()) &&
                 std::lexicographical_compare(chosen.begin(), chosen.begin() + r, chosen.end() - r, chosen.end())))
                return false;
        return true;
    };
    auto isRelaxed = [&](const DiyEdge& e) {
        return std::any_of(relax.begin(), relax.end(), [&](const DiyEdge& r) { return r.name == e.name; });
    };
    std::function<void()> extend = [&] {
        if (!chosen.empty() && pool[chosen.back()].to == pool[chosen.front()].from && leastRotation()) {
            ++considered;
            std::vector<DiyEdge> cycle;
            for (size_t i : chosen) cycle.push_back(pool[i]);
            std::string why;
            if (relax.empty() || std::any_of(cycle.begin(), cycle.end(), isRelaxed))
                if (std::optional<DiyTest> test = diyTest(cycle, why)) out.push_back(std::move(*test));
        }
        if (static_cast<int>(chosen.size()) == size) return;
        for (size_t e = 0; e < pool.size(); ++e) {
            if (!chosen.empty() && pool[chosen.back()].to != pool[e].from) continue;
            if (!chosen.empty() && e < chosen.front()) continue;  // the least edge first
            chosen.push_back(e);
            extend();
            chosen.pop_back();
        }
    };
    extend();
    return out;
}

}  // namespace rdmacheck
