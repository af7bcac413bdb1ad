#include "rdmacheck/result.hpp"

#include <algorithm>
#include <tuple>

namespace rdmacheck {

namespace {

// herd7 orders x86 registers as its register type does, not alphabetically.
int registerRank(const std::string& reg) {
    const auto* const end = std::end(kX86Registers);
    return static_cast<int>(std::find(std::begin(kX86Registers), end, reg) - std::begin(kX86Registers));
}

bool shownBefore(const ObservedName& a, const ObservedName& b) {
    const bool aReg = a.thread >= 0, bReg = b.thread >= 0;
    if (aReg != bReg) return aReg;
    if (aReg && a.thread != b.thread) return a.thread < b.thread;
    if (aReg && registerRank(a.name) != registerRank(b.name)) return registerRank(a.name) < registerRank(b.name);
    return a.name < b.name;
}

std::vector<ObservedName> sortedUnique(std::vector<ObservedName> names) {
    std::stable_sort(names.begin(), names.end(), shownBefore);
    names.erase(std::unique(names.begin(), names.end(),
                            [](const ObservedName& a, const ObservedName& b) {
                                return a.thread == b.thread && a.name == b.name;
                            }),
                names.end());
    return names;
}


void collectExpr(const Expr& e, int thread, std::vector<ObservedName>& out) {
    e.forEach([&](const Expr& x) {
        if (x.kind == Expr::Kind::Location) out.push_back(ObservedName{x.name, -1, x.where});
        if (x.kind == Expr::Kind::Register) out.push_back(ObservedName{x.name, thread, x.where});
    });
}

void collectBlock(const Block& block, int thread, std::vector<ObservedName>& out) {
    for (const Stmt& st : block) {
        if (!st.target.name.empty()) out.push_back(ObservedName{st.target.name, -1, st.target.where});
        // `_`, an RMW's discarded result, is a hidden location like a put's constant.
        if (!st.source.name.empty() && !st.sourceIsConst && st.source.name != "_")
            out.push_back(ObservedName{st.source.name, -1, st.source.where});
        collectExpr(st.expr, thread, out);
        collectExpr(st.expr2, thread, out);
        if (!st.result.empty()) {
            const bool isRegister = st.kind == Stmt::Kind::RegAssign || st.kind == Stmt::Kind::RegLoad ||
                                    st.kind == Stmt::Kind::Xchg || st.kind == Stmt::Kind::LockedUpdate ||
                                    st.kind == Stmt::Kind::UnlockedUpdate;
            out.push_back(ObservedName{st.result, isRegister ? thread : -1, st.where});
        }
        collectBlock(st.body, thread, out);
        collectBlock(st.orelse, thread, out);
        for (const Block& b : st.branches) collectBlock(b, thread, out);
    }
}

}  // namespace

const char* CheckResult::observation() const {
    if (positive == 0) return "Never";
    if (negative == 0) return "Always";
    return "Sometimes";
}

std::vector<ObservedName> shownNames(const LitmusTest& test) {
    std::vector<ObservedName> names = test.shown;
    forEachAtomName(test.condition, [&](const ObservedName& n) { names.push_back(n); });
    return sortedUnique(std::move(names));
}

std::vector<ObservedName> everyName(const LitmusTest& test) {
    std::vector<ObservedName> names;
    for (const LocationDecl& d : test.locations)
        if (!d.shared) names.push_back(ObservedName{d.name, -1, d.where});  // shared variables: one copy per node
    for (const auto& [key, value] : test.registerInit) {
        size_t colon = key.find(':');
        names.push_back(ObservedName{key.substr(colon + 1), std::stoi(key.substr(0, colon)), SourceLoc{}});
    }
    for (size_t t = 0; t < test.threads.size(); ++t) collectBlock(test.threads[t].body, static_cast<int>(t), names);
    return sortedUnique(std::move(names));
}

bool evalCondition(const Cond& c, const std::function<long long(const Cond&)>& lookup) {
    return foldCondition<bool>(
        c,
        [&](const Cond& atom) {
            const long long other = atom.sameAs ? lookup(sameAsAtom(atom)) : atom.value;
            return (lookup(atom) == other) == atom.equal;
        },
        true, false);
}

Cond sameAsAtom(const Cond& atom) {
    Cond other;
    other.kind = Cond::Kind::Atom;
    other.loc = atom.sameAs->name;
    other.thread = atom.sameAs->thread;
    other.where = atom.sameAs->where;
    return other;
}

const char* modeName(CheckMode mode) {
    switch (mode) {
        case CheckMode::Executions: return "executions";
        case CheckMode::States: return "states";
        case CheckMode::Speedcheck: return "speedcheck";
        case CheckMode::Deciding: return "deciding";
    }
    return "";
}

void addFinalState(CheckResult& result, const LitmusTest& test, const FinalState& state,
                   const std::function<long long(const Cond&)>& lookup) {
    const bool satisfies = evalCondition(test.condition, lookup);
    result.states[state] = satisfies;
    ++(satisfies ? result.positive : result.negative);
}

void decideVerdict(CheckResult& result) {
    switch (result.quantifier) {
        case Quantifier::Exists: result.ok = result.positive > 0; break;
        case Quantifier::NotExists: result.ok = result.positive == 0; break;
        case Quantifier::Forall: result.ok = result.negative == 0; break;
    }
}

bool hasCutLoop(const CheckResult& result, const SourceLoc& loop) {
    return std::any_of(result.cutLoops.begin(), result.cutLoops.end(),
                       [&](const SourceLoc& l) { return l.line == loop.line && l.column == loop.column; });
}

// In the text's order, whichever order the engine met them in.
void noteCutLoop(CheckResult& result, const SourceLoc& loop) {
    if (hasCutLoop(result, loop)) return;
    auto later = [&](const SourceLoc& l) { return std::tie(l.line, l.column) > std::tie(loop.line, loop.column); };
    result.cutLoops.insert(std::find_if(result.cutLoops.begin(), result.cutLoops.end(), later), loop);
}

}  // namespace rdmacheck
