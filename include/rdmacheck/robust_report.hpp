// The robust command's report (the robustness paper, §4 and §5): per test a
// herd7-style block or a JSON record, with the witness, whether its state is
// observable, and the repairs found.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "rdmacheck/repair.hpp"

namespace rdmacheck {

// One test's answers, for the text block and the JSON record alike.
struct RobustAnswer {
    RobustnessResult result;
    std::optional<bool> observable;  // the witness's state is out of sc's reach; none: sc could not tell
    std::string observableNote;      // why sc could not tell
    std::optional<RepairResult> repair;
};

// The witness's cycle as text: "a:nlR x=1 -po-> b:nrW z=1 -po-> c:lW x=1 -rf-> a:nlR x=1".
std::string cycleText(const RobustnessWitness& w);
// "b:nrW x=1 …→ d:lR y=0 (G1 ✗); ..." ("" when no segment is relaxed).
std::string relaxedText(const RobustnessWitness& w);
// "P0:3/4 P1:5/5".
std::string cutsText(const RobustnessWitness& w);

void printRobustness(std::ostream& out, const RobustAnswer& a, bool showTime);
nlohmann::json robustnessRecord(const LitmusTest& test, const RobustAnswer& a, bool showTime);
// A limit stopped the test: neither robust nor not (§4.4), as text or JSON.
void printRobustnessUnknown(std::ostream& out, const LitmusTest& test, const std::string& modelName, int unroll,
                            const std::string& why, bool json);

}  // namespace rdmacheck
