#include "rdmacheck/diagnostics.hpp"
#include "locations.hpp"

namespace rdmacheck {

namespace {

// herd7 reads an X86 location that only the condition or `locations [...]`
// names as one holding 0 (its hash leaves it out of the initial state, as
// LitmusTest::locations does).
void declareObserved(const std::string& name, int thread, LocationTable& locations) {
    if (thread < 0 && locations.find(name) < 0) locations.add(Location{name, 1, 0, false});
}

void declareConditionLocations(const Cond& c, LocationTable& locations) {
    if (c.kind == Cond::Kind::Atom) declareObserved(c.loc, c.thread, locations);
    for (const Cond& a : c.args) declareConditionLocations(a, locations);
}

void checkCondition(const Cond& c, const LitmusTest& test, const LocationTable& locations) {
    if (c.kind == Cond::Kind::Atom) {
        if (c.thread >= 0) {
            if (c.thread >= static_cast<int>(test.threads.size()))
                throw InputError(c.where, "no thread " + std::to_string(c.thread) + " in this test");
        } else if (locations.isShared(c.loc)) {
            throw InputError(c.where, "'" + c.loc + "' is a shared variable with a copy on each node: name one, e.g. '" +
                                          c.loc + "@" + std::to_string(locations.nodeOfFirstCopy()) + "'");
        } else if (locations.find(c.loc) < 0) {
            throw InputError(c.where, "unknown location '" + c.loc + "' in condition");
        }
    }
    for (const Cond& a : c.args) checkCondition(a, test, locations);
}

}  // namespace

void resolveObservedNames(const LitmusTest& test, LocationTable& locations) {
    if (test.arch == Arch::X86) {
        declareConditionLocations(test.condition, locations);
        if (test.filter) declareConditionLocations(*test.filter, locations);
        for (const ObservedName& n : test.shown) declareObserved(n.name, n.thread, locations);
    }
    checkCondition(test.condition, test, locations);
    if (test.filter) checkCondition(*test.filter, test, locations);
    for (const ObservedName& n : test.shown) {
        Cond c;
        c.kind = Cond::Kind::Atom;
        c.loc = n.name;
        c.thread = n.thread;
        c.where = n.where;
        checkCondition(c, test, locations);
    }
}

}  // namespace rdmacheck
