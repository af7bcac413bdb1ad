// The --explain report: why no consistent execution reaches the outcome, as
// text after the herd7 report or as the JSON report's "explanation", both
// from the same ExplainResult.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "rdmacheck/explain.hpp"

namespace rdmacheck {

nlohmann::json explanationJson(const LitmusTest& test, const std::string& model, const ExplainResult& x);
void printExplanation(std::ostream& out, const LitmusTest& test, const std::string& model, const ExplainResult& x);

}  // namespace rdmacheck
