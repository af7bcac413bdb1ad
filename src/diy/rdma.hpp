// RDMA's edges and the RDMA test of a cycle (doc/diy.md, "RDMA"). Internal to diy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/diy.hpp"

namespace rdmacheck::diy {

std::vector<DiyEdge> rdmaEdges();
// A communication edge that names its two events' kinds (RfenrWlR: a put's
// remote write read by a CPU read), so that a thread of one event can be an
// operation's half; not among rdmaEdges(), the pool --size draws from, where
// each would repeat a cycle whose program-order edges name the kinds already.
std::optional<DiyEdge> typedCommunicationEdge(const std::string& name);
std::optional<DiyTest> rdmaTest(const std::vector<DiyEdge>& cycle, std::string& why);

}  // namespace rdmacheck::diy
