// RDMA's edges and the RDMA test of a cycle (doc/diy.md, "RDMA"). Internal to diy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/diy.hpp"

namespace rdmacheck::diy {

std::vector<DiyEdge> rdmaEdges();
// The edges read by name but not among rdmaEdges(), the pool --size draws
// from: communication edges that name their two events' kinds (RfenrWlR: a
// put's remote write read by a CPU read), so that a thread of one event can be
// an operation's half (in the pool each would repeat a cycle whose
// program-order edges name the kinds already); and a CPU CAS, its read `aR`
// and write `aW` joined by `Rmw`, with the Po and MFence edges to and from
// them, and the polls and rfences before them (doc/diy.md).
std::optional<DiyEdge> edgeBeyondPool(const std::string& name);
std::optional<DiyTest> rdmaTest(const std::vector<DiyEdge>& cycle, std::string& why);

}  // namespace rdmacheck::diy
