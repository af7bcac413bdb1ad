// Tests generated from cycles of relaxations, as herdtools' diy7 makes them
// (doc/diy.md): an edge names two events and what relates them (program order
// on the same or another location, a fence, reads-from, from-read, coherence,
// a read-modify-write); a cycle of edges becomes a test whose condition is the
// cycle's outcome. X86 first; the edge type leaves room for RDMA's vocabulary.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/check.hpp"

namespace rdmacheck {

struct DiyEdge {
    enum class Kind { Po, Fence, Rf, Fr, Ws, Rmw };
    std::string name;  // diy7's: PodWR, MFencedWR, Rfe, Fri, Wse, Rmw
    Kind kind = Kind::Po;
    bool external = false;     // between threads (Rfe, Fre, Wse)
    bool sameLocation = true;  // Pos, Rf, Fr, Ws, Rmw; Pod and MFenced change location
    char from = 'W', to = 'R';  // the directions of its two events
};

// The X86 edges diy7 names: Po[sd][WR][WR], MFence[sd][WR][WR], Rfe, Rfi,
// Fre, Fri, Wse, Wsi, Rmw (an XCHG's read to its write).
const std::vector<DiyEdge>& x86DiyEdges();
std::optional<DiyEdge> findDiyEdge(const std::string& name);

struct DiyTest {
    std::string name;   // diy7's family and thread names (SB+mfence+po), else the edges
    std::string cycle;  // the edges, rotated so that the first thread starts the cycle
    std::string text;   // the .litmus file
    size_t edges = 0;
};

// The test of one cycle. A cycle that makes no test (a direction that does not
// match from one edge to the next, fewer than two external edges, a location
// change that cannot close) is an empty optional, with `why` set.
std::optional<DiyTest> diyTest(const std::vector<DiyEdge>& cycle, std::string& why);

// The test of every cycle of at most `size` edges over `edges` that makes one
// and holds at least one edge of `relax` (all cycles if `relax` is empty), each
// cycle once up to rotation; `considered` counts the closed cycles tried.
std::vector<DiyTest> diyTests(const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax, int size,
                              size_t& considered);

// Whether a generated test's outcome (the cycle's, its exists condition) is
// reachable under `model`. The test is checked as its text
// reads, parsed again, so what is reported is what the file says.
bool diyAllowed(const DiyTest& test, const Model& model, const CheckOptions& options);

// diy7's "relax" reading of a model: `edge` is relaxed when some test whose
// only edge outside `safe` is `edge` is allowed, safe when every such test is
// forbidden, untested when no cycle of at most `size` edges has it so.
struct EdgeReading {
    std::string edge;
    enum class Kind { Relaxed, Safe, Untested } kind = Kind::Untested;
    std::string witness;  // Relaxed: the allowed test's name
    size_t tests = 0;     // the tests that read the edge
};
std::vector<EdgeReading> relaxationMap(const Model& model, const std::vector<DiyEdge>& safe,
                                       const std::vector<DiyEdge>& candidates, int size, const CheckOptions& options);

// The tests of the fewest edges (at most `size`) on whose outcome two models
// differ, each checked under both; `checked` counts the cycles checked.
struct Distinction {
    DiyTest test;
    bool allowedFirst = false, allowedSecond = false;
};
std::vector<Distinction> distinguish(const Model& first, const Model& second, const std::vector<DiyEdge>& safe,
                                     const std::vector<DiyEdge>& relax, int size, const CheckOptions& options,
                                     size_t& checked);

}  // namespace rdmacheck
