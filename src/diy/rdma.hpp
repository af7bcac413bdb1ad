// RDMA's edges and the RDMA test of a cycle (doc/diy.md, "RDMA"). Internal to diy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/diy.hpp"

namespace rdmacheck::diy {

std::vector<DiyEdge> rdmaEdges();
std::optional<DiyTest> rdmaTest(const std::vector<DiyEdge>& cycle, std::string& why);

}  // namespace rdmacheck::diy
