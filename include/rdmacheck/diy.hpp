// Tests generated from cycles of relaxations, as herdtools' diy7 makes them
// (doc/diy.md): an edge names two events and what relates them (program order
// on the same or another location, a fence, reads-from, from-read, coherence,
// a read-modify-write, for RDMA a put's or a get's two halves); a cycle of
// edges becomes a test whose condition is the cycle's outcome. X86 in diy7's
// names; RDMA in a vocabulary of RDMA^TSO's events (doc/diy.md, "RDMA").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/check.hpp"

namespace rdmacheck {

enum class DiyArch { X86, RDMA };

// Which edges may follow which in a cycle of --size, diy7's -mode: Default
// keeps diy7's default (two internal edges in a row only where one keeps the
// location and the other changes it, or a write read by the next event sits
// beside a same-location edge), Critical alternates internal and external
// edges, but keeps fr or co before rf on either side (as diy7), Free takes
// every cycle that makes a test. An instruction's halves (Rmw, Put, Get)
// join anything in every mode, as diy7's Rmw does.
enum class DiyMode { Default, Critical, Free };

struct DiyEdge {
    enum class Kind { Po, Fence, Rf, Fr, Ws, Rmw, Poll, Rfence, Put, Get };
    std::string name;  // diy7's (PodWR, MFencedWR, Rfe, Fri, Wse, Rmw); RDMA's (PodnrWlR, Put, ...)
    Kind kind = Kind::Po;
    bool external = false;     // between threads (Rfe, Fre, Wse)
    bool sameLocation = true;  // Pos, Rf, Fr, Ws, Rmw; Pod and MFenced change location
    char from = 'W', to = 'R';  // the directions of its two events
    // RDMA: the kinds of its two events (lR, lW, nlR, nrW, nrR, nlW), empty
    // where any event of the direction joins (the communication edges).
    std::string fromEvent, toEvent;
    bool otherNode = false;  // RDMA Pon: two remote accesses to two nodes (two queue pairs)
};

// Whether `next` may follow `e` in a cycle: the direction, and the event's
// kind where both name it.
bool joins(const DiyEdge& e, const DiyEdge& next);

// The edges of an architecture. X86: diy7's Po[sd][WR][WR],
// MFence[sd][WR][WR], Rfe, Rfi, Fre, Fri, Wse, Wsi, Rmw (an XCHG's read to its
// write). RDMA: doc/diy.md, "RDMA".
const std::vector<DiyEdge>& diyEdges(DiyArch arch);
// RDMA's memory event kinds, in the order of the order tables' rows: lR, lW,
// nlR, nrW, nrR, nlW.
const std::vector<std::string>& rdmaMemoryKinds();
std::optional<DiyEdge> findDiyEdge(DiyArch arch, const std::string& name);

struct DiyTest {
    std::string name;   // diy7's family and thread names (SB+mfence+po), else the edges
    std::string cycle;  // the edges, rotated so that the first thread starts the cycle
    std::string text;   // the .litmus file
    size_t edges = 0;
};

// The test of one cycle. A cycle that makes no test (a direction that does not
// match from one edge to the next, fewer than two external edges, a location
// change that cannot close) is an empty optional, with `why` set.
std::optional<DiyTest> diyTest(DiyArch arch, const std::vector<DiyEdge>& cycle, std::string& why);

// The test of every cycle of at most `size` edges over `edges` whose edges
// compose in `mode`, that makes one and holds at least one edge of `relax` (all cycles if `relax` is empty), each
// cycle once up to rotation. RDMA tests whose program and condition a test
// written before has are left out (X86's are kept, as diy7 keeps them).
struct DiyCount {
    size_t cycles = 0;   // the closed cycles tried
    size_t repeats = 0;  // RDMA tests left out as repeats
};
std::vector<DiyTest> diyTests(DiyArch arch, const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax,
                              int size, DiyMode mode, DiyCount& count);
// The same, each test handed to `visit` as it is made (millions at RDMA's size 5).
void forEachDiyTest(DiyArch arch, const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax, int size,
                    DiyMode mode, DiyCount& count, const std::function<void(DiyTest&&)>& visit);

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
    // "relaxed: SB is allowed", "safe: 4 tests, none allowed", "untested: in
    // no cycle of at most `size` edges".
    std::string text(int size) const;
};
std::vector<EdgeReading> relaxationMap(DiyArch arch, const Model& model, const std::vector<DiyEdge>& safe,
                                       const std::vector<DiyEdge>& candidates, int size, DiyMode mode,
                                       const CheckOptions& options);

// An order table (the RDMA^TSO paper's ippo/oppo, models/*.ippo, *.oppo)
// rebuilt from behaviour: for each pair of memory event kinds, diy7's relax
// reading of the program-order edge between them (Pod; for two operations'
// events Pod is one queue pair, Pon two) over Rfe, Fre, Wse, beside the cell
// the table gives that pair. A cell the table orders and no test relaxes is
// read again with the cell unordered: if still no test relaxes the pair,
// another part of the model forces the order (`forced`), and `forcedBy`
// names each axiom that, dropped as well, lets a test relax it.
struct TableReading {
    std::string earlier, later;   // lR, lW, nlR, nrW, nrR, nlW; F, P, nF (readSeparatorCells)
    bool twoQueuePairs = false;   // Pon: two operations towards two nodes
    EdgeReading reading;
    bool tableOrders = false;     // the table's cell for the pair (sqp: for one queue pair)
    bool forced = false;
    std::vector<std::string> forcedBy;
    std::string why;              // a separator's cell: what shows it, or why nothing does
    bool agrees() const {
        return reading.kind == EdgeReading::Kind::Untested || (reading.kind == EdgeReading::Kind::Safe) == tableOrders;
    }
};
// `model` with these axioms dropped (--skip), loaded anew.
using ModelLoader = std::function<Model(const std::vector<std::string>& skip)>;
std::vector<TableReading> readOrderTable(const Model& model, const ModelLoader& load, const std::string& table,
                                         int size, const CheckOptions& options);
// The cells between a memory kind and a separator (F, P, nF: an mfence, a
// poll, an rfence), which no cycle holds as an event: read through the
// MFence, Poll and Rfence edges. A separator orders K before L only through
// both its cells, so (K, S) and (S, L) are ordered (reading Safe: the fenced
// edge) when the fenced edge K L is safe where Pod K L is relaxed; one is
// unordered (Relaxed) when the fenced edge stays relaxed while the other is
// ordered; otherwise the cell is unread (Untested) and `why` says why. Forced
// cells as readOrderTable's.
std::vector<TableReading> readSeparatorCells(const Model& model, const ModelLoader& load, const std::string& table,
                                             int size, const CheckOptions& options);
// The cells between a memory kind and a CPU CAS, and between two CASes, read
// on the Pod edges to the CAS's read half (aR) and from its write half (aW),
// with Rmw joining the halves.
std::vector<TableReading> readCasCells(const Model& model, const ModelLoader& load, const std::string& table, int size,
                                       const CheckOptions& options);
// The separators, in the tables' order, each with the edge that puts it
// between two events: F (MFence), P (Poll), nF (Rfence).
struct RdmaSeparator {
    std::string kind;
    std::string edge;
};
const std::vector<RdmaSeparator>& rdmaSeparators();
// Their kinds alone.
const std::vector<std::string>& rdmaSeparatorKinds();

// The tests of the fewest edges (at most `size`) on whose outcome two models
// differ, each checked under both; `checked` counts the cycles checked.
struct Distinction {
    DiyTest test;
    bool allowedFirst = false, allowedSecond = false;
};
std::vector<Distinction> distinguish(DiyArch arch, const Model& first, const Model& second,
                                     const std::vector<DiyEdge>& safe, const std::vector<DiyEdge>& relax, int size,
                                     DiyMode mode, const CheckOptions& options, size_t& checked);

}  // namespace rdmacheck
