#include "mowgli_compare.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "../test_support.hpp"

namespace rdmacheck::oracles::mowgli {

using namespace rdmacheck::testing;

// Every location and register, and every copy x@n of a shared variable.
void showEverything(LitmusTest& test) {
    test.shown = everyName(test);
    const UnfoldedProgram p = unfold(test, UnfoldOptions{});
    for (const Location& l : p.locations)
        if (!l.hidden && l.name.find('@') != std::string::npos) test.shown.push_back(ObservedName{l.name, -1, SourceLoc{}});
}

namespace {

bool usesRemoteRmw(const LitmusTest& test) {
    const UnfoldedProgram p = unfold(test, UnfoldOptions{});
    for (const auto& paths : p.paths)
        for (const ThreadPath& path : paths)
            for (const Event& e : path.events)
                if (e.kind == EventKind::NAR) return true;
    return false;
}

// check() under one model against the oracle in one variant, on every name.
OracleResult compareOne(const LitmusTest& test, const std::string& m, const Variant& variant, Tally& tally) {
    auto start = std::chrono::steady_clock::now();
    CheckResult r = check(test, model(m), CheckOptions{});
    tally.checkSeconds += since(start);
    start = std::chrono::steady_clock::now();
    const OracleResult o = MowgliOracle(test, r.shown, variant).run();
    const double oracle = since(start);
    tally.oracleSeconds += oracle;
    if (std::getenv("MOWGLI_ORACLE_SLOW") && oracle > 0.05) std::cout << oracle << " s\n" << test.name << "\n";
    EXPECT_EQ(r.states, o.states) << m;
    EXPECT_EQ(r.positive, o.positive) << m;
    EXPECT_EQ(r.negative, o.negative) << m;
    // A value cycle passes through iso, ppo (aCR→aCW) and rf_e, all in hb, or
    // through rf_i, which only goes forward in po: never consistent.
    EXPECT_EQ(o.thinAir, 0u) << m;
    ++tally.comparisons;
    tally.states += o.states.size();
    tally.executions += o.positive + o.negative;
    tally.candidates += o.candidates;
    return o;
}

}  // namespace

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Models are loaded once.
const Model& model(const std::string& name) {
    static std::map<std::string, Model> models;
    auto it = models.find(name);
    if (it == models.end()) it = models.emplace(name, loadModel(modelsDir(), name)).first;
    return it->second;
}

// check() under rdma-wait-rmw (and rdma-wait when the program has no RCAS/RFAA)
// against the oracle, on every name. Returns the oracle's result.
OracleResult expectAgreement(const std::string& text, Tally& tally, const std::string& file, bool rdmaWaitToo) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, file);
    showEverything(test);
    std::vector<std::string> models = {"rdma-wait-rmw"};
    if (rdmaWaitToo && !usesRemoteRmw(test)) models.push_back("rdma-wait");
    ++tally.programs;
    OracleResult o;
    for (const std::string& m : models) o = compareOne(test, m, Variant{}, tally);
    for (const std::string& f : o.features) ++tally.features[f];
    return o;
}

// The same under RBL's weak specification (models/rdma-wait-rmw-rblweak.cat).
void expectWeakRblAgreement(const std::string& text, Tally& tally, const std::string& file) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, file);
    showEverything(test);
    ++tally.programs;
    Variant weak;
    weak.name = "weak RBL";
    weak.rblWeak = true;
    const OracleResult o = compareOne(test, "rdma-wait-rmw-rblweak", weak, tally);
    for (const std::string& f : o.features) ++tally.features[f];
}

void report(const char* what, const Tally& t, std::chrono::steady_clock::time_point start) {
    std::cout << "[mowgli-oracle] " << what << ": " << t.programs << " programs, " << t.comparisons
              << " model comparisons, " << t.states << " final states, " << t.executions << " executions, "
              << t.candidates << " (skeleton, rf, mo) candidates; " << since(start) << " s (check() "
              << t.checkSeconds << " s, oracle " << t.oracleSeconds << " s); programs with";
    for (const auto& [f, count] : t.features) std::cout << " " << f << ":" << count;
    std::cout << "\n";
}

// The verdict of the condition from the counts.
bool verdict(const LitmusTest& test, const OracleResult& o) {
    switch (test.quantifier) {
        case Quantifier::Exists: return o.positive > 0;
        case Quantifier::NotExists: return o.positive == 0;
        case Quantifier::Forall: return o.negative == 0;
    }
    return false;
}

}  // namespace rdmacheck::oracles::mowgli
