// Memory models as data (models/NAME.json plus order tables): which events a
// model knows, and which relations must be acyclic together. A model is a list
// of clocks; each clock is a topological numbering of the events that every
// edge of its relations must respect (RDMA-TSO.md, "Encoding note").
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
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
    bool betweenCallsOnly = false;  // a stamp order: subevents of one call are not ordered by it

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
    Iso,            // MOWGLI: the order of one call's subevents (MOWGLI.md §4.5)
    Pfg,            // [nlW];po|d;[wait]: a wait(d) after a get or RMW with id d
    Pfp,            // [nrW ∪ narW];po|d;[wait]: a wait(d) after a put or RMW with id d
    Pfr,            // [nlR];po|d;[wait]: SV's pf, a wait after a broadcast's local read
    ArResult,       // a successful RMW's narW before its own nlW (RMW App. C.1's extra ib component)
    Round,          // BAL's so: the entries (gF) of every participant's i-th call on a barrier before their exits (barX)
};

struct ClockEdge {
    Relation relation;
    const OrderTable* table = nullptr;  // Relation::Table
    std::string text;                   // as written in the model file
    // "sv:rf-e": only edges between two events of that library (each library's
    // predicate reads its own restriction, MOWGLI.md §2.5).
    std::optional<Library> scope;
    bool inScope(const Event& a, const Event& b) const {
        return !scope || (a.library == *scope && b.library == *scope);
    }
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
    // MOWGLI models (MOWGLI.md §2.3): events are the subevents of calls, and the
    // stamp order relates subevents of different calls only.
    bool stamped = false;
    std::set<Library> libraries{Library::Core};  // the libraries whose calls the model takes
    MachineParams machine;
};

// Loads models/<name>.json from `dir`; InputError on a bad or missing file.
Model loadModel(const std::string& dir, const std::string& name);
OrderTable loadOrderTable(const std::string& path, const std::string& name);
// A stamp order (MOWGLI.md §3.3: rows and columns named by stamps, cells Y, N,
// SN) as an order on event kinds, through the kind -> stamp map `stampOf`.
OrderTable loadStampTable(const std::string& path, const std::string& name,
                          const std::map<std::string, std::string>& stampOf);
// The models/ directory: $RDMACHECK_MODELS, else the one installed beside the
// executable's source tree (set at build time).
std::string defaultModelsDir();
std::vector<std::string> availableModels(const std::string& dir);

}  // namespace rdmacheck
