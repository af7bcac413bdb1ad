// Stage 5: results as herd7's text (line for line) or as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/check.hpp"

namespace rdmacheck {

// herd7's spelling: `[x]` for memory, `0:EAX` for registers.
std::string shownName(const ObservedName& n);
// herd7's normal form, e.g. `exists ([x]=1 /\ 0:EAX=0)`.
std::string conditionText(Quantifier q, const Cond& c);
std::string stateLine(const std::vector<ObservedName>& shown, const FinalState& s);
std::string stateLine(const CheckResult& r, const FinalState& s);  // over r.shown

struct ReportOptions {
    bool showTime = true;
};

// herd7's Hash= of an X86 test (herdtools7 lib/testHash.ml): MD5 over the
// digests of its init, its code as herd7 prints it and the locations its
// condition and `locations` observe.
std::string herdHash(const LitmusTest& test);

void printHerd(std::ostream& out, const LitmusTest& test, const CheckResult& r, const ReportOptions& options);
nlohmann::json toJson(const LitmusTest& test, const CheckResult& r, const ReportOptions& options = {});

}  // namespace rdmacheck
