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
    // Relative weight of each statement kind. Besides these: rcas, rfaa, expr, assume, if, choice,
    // loop, while (weight 0 unless set), and the RDMA^WAIT kinds wait, svwrite, svread, svbcast,
    // svwait, gfence (weight 0 unless set). A mix that draws any RDMA^WAIT kind makes
    // work-identifier tests: puts, gets and RMWs get a work identifier d, e or none, `wait(d)`
    // waits for one the thread used before, poll is never drawn (its weight is ignored), and
    // with svwrite, svread or svbcast the test declares one or two SV variables `z@sv`, which
    // conditions name by their copies `z@2`. Broadcasts use work identifiers f, g or `_`, and
    // a test writes SV copies at most about four times (sv.write one, sv.bcast one per node),
    // since the declarative engine enumerates every broadcast's read-from choices.
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
