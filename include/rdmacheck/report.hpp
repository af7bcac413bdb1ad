// Stage 5, the report module (report/), which prints every format: here a
// check's result as herd7's text (line for line) or as JSON; beside it the
// explanation (explain_report.hpp), robustness and repairs (robust_report.hpp),
// cross and refine (cross_report.hpp), logs read back (herd_log.hpp) and
// mcompare's table (mcompare.hpp). Pictures are the picture module's.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/names.hpp"

namespace rdmacheck {

// herd7's test kind, which follows the quantifier: Allowed (exists),
// Forbidden (~exists), Required (forall); and back.
const char* kindWord(Quantifier q);
Quantifier quantifierOfKind(const std::string& kind);


// The warning of a loop whose unroll bound cut a candidate execution (herd7's
// "unrolling limit exceeded"); a JSON log's record says `Loop` with it.
constexpr const char* kUnrollCut =
    "loop unrolled to the bound; executions needing more iterations may be missing (raise --unroll)";

struct ReportOptions {
    bool showTime = true;
    bool showWarnings = true;  // herd7's -q leaves them out
    bool hexa = false;         // herd7's -hexa: the values of states and the condition in hexadecimal
    nlohmann::json options = nlohmann::json::object();  // the run's options, for JSON reports
};

// Every JSON record names the schema it follows (doc/output.schema.json); a
// change that breaks a reader of it raises the number.
constexpr const char* kJsonSchema = "rdmacheck-output/1";

// herd7's Hash= of an X86 test (herdtools7 lib/testHash.ml): MD5 over the
// digests of its init, its code as herd7 prints it and the locations its
// condition and `locations` observe.
std::string herdHash(const LitmusTest& test);

// herd7's `Time TEST 0.03` line, newline included.
std::string timeLine(const std::string& test, double seconds);
// JSON warnings, one per loop the unroll bound cut, with `message`.
nlohmann::json cutLoopWarnings(const std::vector<SourceLoc>& loops, const std::string& message);

// herd7's report to `out`, its warnings (a loop cut at the bound, no execution
// completing) to `warnings`, as herd7 prints them on stderr.
void printHerd(std::ostream& out, std::ostream& warnings, const LitmusTest& test, const CheckResult& r,
               const ReportOptions& options);
nlohmann::json toJson(const LitmusTest& test, const CheckResult& r, const ReportOptions& options = {});
// A JSON record of an error: where (line and column 0 when the whole file or
// an option is meant), the message, the exit code it causes and whether
// --timeout stopped the test.
nlohmann::json errorRecord(const SourceLoc& where, const std::string& message, int exitCode, bool timeout = false);
// One JSON Lines line; bytes that are not UTF-8 (a file name) are replaced.
std::string dumpJson(const nlohmann::json& record);

}  // namespace rdmacheck
