// The reports of the commands that compare runs: cross (engines checking each
// other, crosscheck.hpp) and refine (an implementation against its
// specification, refine.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "rdmacheck/crosscheck.hpp"
#include "rdmacheck/refine.hpp"

namespace rdmacheck {

// "DIFF TEST: A and B differ", the states only one has, and the shrunk reproducer.
std::string differenceText(const std::string& testName, const Difference& d);

// One line per result, herd7-like, then each counterexample, the loops the
// bound cut and, with printImplementation, the inlined test.
void printRefinement(std::ostream& out, const std::string& implementations, const RefinementResult& r,
                     bool printImplementation);

// The same as JSON records (doc/output.schema.json: "difference", "refinement").
nlohmann::json differenceJson(const LitmusTest& test, const Difference& d);
nlohmann::json refinementJson(const LitmusTest& test, const std::string& implementations, const RefinementResult& r,
                              bool withImplementation);

}  // namespace rdmacheck
