#include "rdmacheck/diagnostics.hpp"
#include "locations.hpp"

#include <functional>

namespace rdmacheck {

namespace {

// herd7 reads an X86 location that only the condition or `locations [...]`
// names as one holding 0 (its hash leaves it out of the initial state, as
// LitmusTest::locations does).
void declareObserved(const std::string& name, int thread, LocationTable& locations) {
    if (thread < 0 && locations.find(name) < 0) locations.add(Location{name, 1, 0, false});
}

void checkName(const ObservedName& n, const LitmusTest& test, const LocationTable& locations) {
    if (n.thread >= 0) {
        if (n.thread >= static_cast<int>(test.threads.size()))
            throw InputError(n.where, "no thread " + std::to_string(n.thread) + " in this test");
    } else if (locations.isShared(n.name)) {
        throw InputError(n.where, "'" + n.name + "' is a shared variable with a copy on each node: name one, e.g. '" +
                                      n.name + "@" + std::to_string(locations.nodeOfFirstCopy()) + "'");
    } else if (locations.find(n.name) < 0) {
        throw InputError(n.where, "unknown location '" + n.name + "' in condition");
    }
}

// Each location an X86 instruction names that no path reached (code that every
// path jumps over): the machines compile every instruction.
void declareUnreached(const Block& block, LocationTable& locations) {
    std::function<void(const Expr&)> inExpr = [&](const Expr& e) {
        if (e.kind == Expr::Kind::Location) declareObserved(e.name, -1, locations);
        for (const Expr& a : e.args) inExpr(a);
    };
    for (const Stmt& s : block) {
        for (const std::string& name : {s.target.name, s.source.name})
            if (!name.empty() && name != "_") declareObserved(name, -1, locations);
        inExpr(s.expr);
        inExpr(s.expr2);
        declareUnreached(s.body, locations);
        declareUnreached(s.orelse, locations);
    }
}

}  // namespace

std::vector<bool> resolveObservedNames(const LitmusTest& test, LocationTable& locations) {
    if (test.arch == Arch::X86) {
        forEachObservedName(test, [&](const ObservedName& n) { declareObserved(n.name, n.thread, locations); });
        for (const ThreadDecl& t : test.threads) declareUnreached(t.body, locations);
    }
    forEachObservedName(test, [&](const ObservedName& n) { checkName(n, test, locations); });
    std::vector<bool> observed(locations.size(), false);
    forEachObservedName(test, [&](const ObservedName& n) {
        if (n.thread < 0) observed[locations.find(n.name)] = true;
    });
    return observed;
}

}  // namespace rdmacheck
