// Helpers shared by the command-line tests of test_cli.cpp, test_commands.cpp
// and test_pictures.cpp.
#pragma once

#include <string>

#include "../test_support.hpp"

namespace rdmacheck::testing {

inline std::string corpusFile(const std::string& name) { return sourceDir() + "/litmus/rdma-tso/" + name; }

}  // namespace rdmacheck::testing
