// Helpers shared by the test programs.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rdmacheck/check.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck::testing {

inline std::string sourceDir() { return RDMACHECK_SOURCE_DIR; }
inline std::string sharedDir() { return RDMACHECK_SHARED_DIR; }
inline std::string modelsDir() { return sourceDir() + "/models"; }

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline CheckResult run(const std::string& text, const std::string& model, int unroll = 2) {
    LitmusTest test = parseLitmus(text, "test.litmus");
    CheckOptions options;
    options.unroll = unroll;
    return check(test, loadModel(modelsDir(), model), options);
}

}  // namespace rdmacheck::testing
