// Memory models as data (models/NAME.json plus order tables): which events a
// model knows, and which relations must be acyclic together. A model is a list
// of clocks; each clock is a topological numbering of the events that every
// edge of its relations must respect (RDMA-TSO.md, "Encoding note").
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "rdmacheck/events.hpp"

namespace rdmacheck {

enum class Cell { Unordered, Ordered, SameQueuePair };

// Preserved program order: cell [earlier][later].
struct OrderTable {
    std::string name;
    std::array<std::array<Cell, kEventKindCount>, kEventKindCount> cells{};
    std::array<bool, kEventKindCount> covers{};  // kinds with a row and column

    Cell at(EventKind earlier, EventKind later) const {
        return cells[static_cast<int>(earlier)][static_cast<int>(later)];
    }
};

// Base relations a clock can be built from.
enum class Relation {
    Table,          // po edges kept by an order table
    Po,             // all of po
    PoLoc,          // po between accesses to one location
    Rf,
    RfInternal,     // rf_i: read from the reader's own buffer (store buffer; NIC buffers without PCIe)
    RfExternal,     // rf_e = rf \ rf_i
    RfOtherThread,  // herd's rfe
    Pf,
    PfFromNlW,      // [nlW];pf
    Nfo,
    Rb,
    RbInternal,     // rb_i
    Mo,
    Rao,            // remote-atomic order: per target node, a total order on narR
    ArRao,          // ar;rao: an RMW's narW before every rao-later narR
};

struct ClockEdge {
    Relation relation;
    const OrderTable* table = nullptr;  // Relation::Table
    std::string text;                   // as written in the model file
};

struct Clock {
    std::string name;
    std::string axiom;  // what a cycle on this clock breaks, e.g. "ib" (default: the clock's name)
    std::vector<ClockEdge> edges;
};

// The operational machine that implements a model (shared/spec/OPERATIONAL.md).
enum class MachineFamily {
    None,        // declarative only
    QueuePairs,  // store buffers and per-(thread, node) queue pairs: RDMA^TSO, and x86-TSO on CPU-only tests
    Sequential,  // every event takes effect in program order, one thread at a time: SC
};

struct MachineParams {
    MachineFamily family = MachineFamily::None;
    bool pcie = true;  // the PCIe flush premises of G3/P1 (S-GRR/S-PLR)
    bool remoteAtomics = false;  // RCAS/RFAA and the locks A(n): simplified PCIe machine only (§6)
};

struct Model {
    std::string name;
    std::string description;
    std::map<std::string, OrderTable> tables;
    std::vector<Clock> clocks;
    std::array<bool, kEventKindCount> supports{};  // covered by every table
    bool nfo = false;              // NIC flush order is a choice of the execution
    bool rao = false;              // remote-atomic order is a choice (some clock uses rao)
    bool nicBuffersInternal = false;  // rf_i / rb_i include same-buffer NIC pairs (no PCIe)
    int moClock = 0;               // mo is read off this clock
    int issueClock = -1;           // if set: issue <= observe, equal on instantaneous events
    int observeClock = -1;
    std::string mixedAxiom;        // what a cycle through both clocks breaks: "[Inst];ib;ob", or "ob"
                                   // where ob contains [Inst];ib (RDMA^TSO_RMW, Def. 20)
    MachineParams machine;
};

// Loads models/<name>.json from `dir`; InputError on a bad or missing file.
Model loadModel(const std::string& dir, const std::string& name);
OrderTable loadOrderTable(const std::string& path, const std::string& name);
// The models/ directory: $RDMACHECK_MODELS, else the one installed beside the
// executable's source tree (set at build time).
std::string defaultModelsDir();
std::vector<std::string> availableModels(const std::string& dir);

}  // namespace rdmacheck
