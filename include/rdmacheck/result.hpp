// What every engine produces for one test: the final states over the shown
// names and the verdict. The declarative checker (solve/) and the operational
// machines (machine/) both fill it in; report/ prints it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// A final state: the values of the shown names, in CheckResult::shown order.
using FinalState = std::vector<long long>;

// What a check computes. Executions: every consistent execution, counted as
// herd7 counts them. States: every distinct final state, each found once
// (blocking the state, not the execution), without counts. Speedcheck
// (herd7's -speedcheck): only the verdict, from one execution that decides it
// if there is one (a witness of exists / ~exists, a counterexample to forall).
// Deciding (herd7's -speedcheck true): every consistent execution that decides
// it, counted, and no other.
enum class CheckMode { Executions, States, Speedcheck, Deciding };
const char* modeName(CheckMode mode);  // "executions", "states", "speedcheck", "deciding"

// The flag an execution raises by failing a model's `undefined_unless` test,
// as herd7 prints it (lib/flag.ml).
inline constexpr const char* kUndefinedFlag = "*undef*";

struct CheckResult {
    std::string test;
    std::string model;
    std::string engine = "declarative";   // or "concrete" / "simplified" (operational machines)
    Quantifier quantifier = Quantifier::Exists;
    CheckMode mode = CheckMode::Executions;
    std::vector<ObservedName> shown;      // registers (by thread) first, then locations by name
    std::map<FinalState, bool> states;    // state -> satisfies the condition
    // Declarative: consistent executions, as herd7 counts them. Operational:
    // distinct final memories (every location and register), which the machine
    // can count but whose runs it cannot. States and speedcheck modes: the
    // final states found, which are not printed as counts.
    uint64_t positive = 0;
    uint64_t negative = 0;
    bool ok = false;
    std::vector<SourceLoc> cutLoops;      // loops whose unroll bound cut a candidate execution (herd7's "Loop")
    // Some execution (a run, on a machine) reached the end of every thread,
    // whatever the filter: without one, States 0 hides a deadlock.
    bool completes = false;
    uint64_t machineStates = 0;           // operational only: configurations visited
    uint64_t machineRuns = 0;             // operational, reduced search: runs followed to their end
    // The model's flags some consistent execution raised (executions mode only).
    std::set<std::string> flags;
    double seconds = 0;

    // Some consistent execution raised kUndefinedFlag or CheckOptions::badFlag:
    // herd7 then prints Undef for the verdict (herd/top_herd.ml, has_bad_execs).
    bool undefined = false;

    const char* observation() const;  // Never / Sometimes / Always
};

// The names shown in final states: `locations [...]` and the condition's atoms,
// in herd7's order (registers by thread, then locations by name).
std::vector<ObservedName> shownNames(const LitmusTest& test);

// Every location the program uses (hidden constants excepted) and every
// register it names: what engines compare when they check each other.
std::vector<ObservedName> everyName(const LitmusTest& test);

// A condition's truth in any domain with !, && and ||, given each atom's truth.
template <class Truth>
Truth foldCondition(const Cond& c, const std::function<Truth(const Cond& atom)>& atom, const Truth& yes,
                    const Truth& no) {
    Truth t = c.kind == Cond::Kind::Or || c.kind == Cond::Kind::False ? no : yes;
    switch (c.kind) {
        case Cond::Kind::True:
        case Cond::Kind::False: break;
        case Cond::Kind::Atom: t = atom(c); break;
        case Cond::Kind::Not: t = !foldCondition(c.args[0], atom, yes, no); break;
        case Cond::Kind::And:
            for (const Cond& a : c.args) t = t && foldCondition(a, atom, yes, no);
            break;
        case Cond::Kind::Or:
            for (const Cond& a : c.args) t = t || foldCondition(a, atom, yes, no);
            break;
    }
    return t;
}

// Evaluates a condition on a final state; `lookup` gives an atom's value.
bool evalCondition(const Cond& c, const std::function<long long(const Cond& atom)>& lookup);
// The atom `loc2 = ...` of `loc = loc2`'s second name, for a lookup.
Cond sameAsAtom(const Cond& atom);

// Records one final state (already past the filter) and counts it.
void addFinalState(CheckResult& result, const LitmusTest& test, const FinalState& state,
                   const std::function<long long(const Cond& atom)>& lookup);

// Sets ok from the quantifier and the counts.
void decideVerdict(CheckResult& result);

// Whether cutLoops has the loop at that place; noteCutLoop adds it unless it has.
bool hasCutLoop(const CheckResult& result, const SourceLoc& loop);
void noteCutLoop(CheckResult& result, const SourceLoc& loop);

}  // namespace rdmacheck
