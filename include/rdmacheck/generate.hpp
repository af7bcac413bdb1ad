// Random RDMA litmus tests, for differential testing of the checker against
// itself and other engines. Every generated test parses and unfolds.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace rdmacheck {

struct GeneratorOptions {
    int nodes = 2;                     // nodes 1..nodes
    int threads = 2;                   // threads P0..P{threads-1}; thread i runs on node (i % nodes) + 1
    int minLength = 1, maxLength = 4;  // statements per thread
    int sharedPerNode = 1;             // shared locations per node, named x, y, z, w, v, u, ... (home = that node)
    int values = 2;                    // constants written are 1..values
    double loopback = 0.1;             // probability a remote op targets the thread's own node
    // Relative weight of each statement kind.
    std::map<std::string, int> mix = {{"write", 3}, {"read", 2},   {"put", 3},    {"get", 3},
                                      {"poll", 2},  {"rfence", 1}, {"mfence", 1}, {"cas", 1}};
};

// "put=2,get=3,cas=0" sets those weights in options.mix (others are kept).
// Throws std::invalid_argument on an unknown kind or a weight that is not a non-negative integer.
void parseMix(const std::string& spec, GeneratorOptions& options);

// The test "random-<seed>" as RDMA-format text; the same (seed, options) give the
// same text on every platform. Throws std::invalid_argument on unusable options.
std::string generateLitmus(uint64_t seed, const GeneratorOptions& options);

}  // namespace rdmacheck
