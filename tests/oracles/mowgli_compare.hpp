// The MOWGLI oracle against check(): each program under rdma-wait-rmw (and
// rdma-wait, or RBL's weak model), every name shown, states and counts equal,
// with a tally of what the comparisons covered.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "mowgli_oracle.hpp"

namespace rdmacheck::oracles::mowgli {

// Every location and register, and every copy x@n of a shared variable.
void showEverything(LitmusTest& test);

struct Tally {
    size_t programs = 0, comparisons = 0, states = 0;
    uint64_t executions = 0, candidates = 0;
    double checkSeconds = 0, oracleSeconds = 0;
    std::map<std::string, size_t> features;  // programs in which each relation occurs
};

double since(std::chrono::steady_clock::time_point start);

// Models are loaded once.
const Model& model(const std::string& name);

// check() under rdma-wait-rmw (and rdma-wait when the program has no RCAS/RFAA)
// against the oracle, on every name. Returns the oracle's result.
OracleResult expectAgreement(const std::string& text, Tally& tally, const std::string& file = "oracle.litmus",
                             bool rdmaWaitToo = true);

// The same under RBL's weak specification (models/rdma-wait-rmw-rblweak.cat).
void expectWeakRblAgreement(const std::string& text, Tally& tally, const std::string& file);

// One line of what a test covered, after its comparisons.
void report(const char* what, const Tally& t, std::chrono::steady_clock::time_point start);

// The verdict of the condition from the counts.
bool verdict(const LitmusTest& test, const OracleResult& o);

}  // namespace rdmacheck::oracles::mowgli
