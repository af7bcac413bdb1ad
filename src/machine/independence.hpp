// Who takes each step of the machines, and what it touches: the vocabulary of
// the reduced search (dpor.cpp) and its independence relation. doc/machines.md
// argues each footprint rule by rule.
//
// An agent is a deterministic part of one thread's hardware or program: its
// program, one read slot of its current instruction, its store buffer's head,
// the head of one queue-pair buffer, or one NIC request's entry (a get's remote
// read in outR, any request in the simplified pipe). At any configuration an
// agent has at most one step, which is the same function of the configuration
// whatever other agents do; control-flow choices are the one exception, and
// the search takes them eagerly (Rules::controlStep).
#pragma once

#include <cstdint>
#include <vector>

namespace rdmacheck::machine {

enum class Role : uint8_t {
    Program,
    Slot,         // index: the slot
    StoreBuffer,  // D-W, D-RC
    ReqLHead,     // G1, P1, RF
    InRHead,      // G2, P2
    OutRHead,     // G4, P4
    RspLHead,     // G5, P5
    WbRHead,      // P3 / S-WBR, R-AWB
    WbLOldest,    // G6 / S-WBL
    PipeHead,     // S-RF, S-ACK, S-GLW
    Entry,        // index: the entry's serial. G3 of a GET in outR; S-PLR, S-PRW, S-GRR, R-* and R-AW in the pipe
};

using AgentId = uint64_t;

inline Role roleOf(AgentId agent) { return static_cast<Role>((agent >> 40) & 0xff); }
inline int threadOf(AgentId agent) { return static_cast<int>(agent >> 48); }

inline AgentId agentId(int thread, Role role, int queuePair = 0, int index = 0) {
    return (static_cast<uint64_t>(thread) << 48) | (static_cast<uint64_t>(role) << 40) |
           (static_cast<uint64_t>(queuePair & 0xffff) << 24) | (static_cast<uint64_t>(index) & 0xffffff);
}

// One object a step reads or writes: a memory location, a remote-atomic lock,
// or a part of one thread's state (ObjectSpace numbers them).
struct Access {
    uint64_t object = 0;
    bool write = false;
};
using Footprint = std::vector<Access>;

// Two steps of different agents are independent when no object is written by
// one and touched by the other: then at every configuration where both are
// enabled they commute and neither disables the other. Enabling is not a
// conflict: the search counts the step after which an agent's step appears or
// becomes enabled as happening before it (dpor.cpp, "given").
inline bool conflict(const Footprint& a, const Footprint& b) {
    for (const Access& x : a)
        for (const Access& y : b)
            if (x.object == y.object && (x.write || y.write)) return true;
    return false;
}

// Causal objects are those whose conflicting accesses come in one order in
// every run: a thread's program state, its read slots, and each entry of its
// buffers (made by one step, moved and changed by others, consumed by one).
// A step that shares one with an earlier step can never come before it.
constexpr uint64_t kCausalObject = uint64_t(1) << 62;

inline bool causallyAfter(const Footprint& later, const Footprint& earlier) {
    for (const Access& x : later)
        if (x.object & kCausalObject)
            for (const Access& y : earlier)
                if (x.object == y.object && (x.write || y.write)) return true;
    return false;
}

// An agent that has a step at a configuration, enabled or not (a blocked
// assume, a put's local read waiting for PCIe): the search needs the footprint
// of a disabled step too, since another agent may have disabled it.
struct PendingStep {
    AgentId agent = 0;
    Footprint footprint;
};

// The objects of a program's configurations, numbered: locations, locks, and
// per thread its store buffer's head and tail, the CPU writes to each
// location it holds, and per queue pair each buffer's head (taking the oldest
// entry) and tail (appending), the pending writes in wbL, the order of the
// pipe's entries, and per location the pending writes to it in wbL and in
// wbR; then the causal ones, a thread's program state, its read slots and its
// entries (by serial).
class ObjectSpace {
public:
    ObjectSpace(int locations, int nodes, const std::vector<int>& queuePairsPerThread);

    uint64_t memory(int loc) const { return static_cast<uint64_t>(loc); }
    bool isMemory(uint64_t object) const { return object < static_cast<uint64_t>(locations_); }
    bool isCausal(uint64_t object) const { return object & kCausalObject; }
    uint64_t lock(int node) const { return static_cast<uint64_t>(locations_ + node); }
    uint64_t storeBufferHead(int t) const { return base_[t]; }
    uint64_t storeBufferTail(int t) const { return base_[t] + 1; }
    uint64_t storeBufferWrites(int t, int loc) const { return base_[t] + 2 + loc; }
    uint64_t head(int t, int q, int buffer) const { return queuePair(t, q) + 2 * buffer; }
    uint64_t tail(int t, int q, int buffer) const { return queuePair(t, q) + 2 * buffer + 1; }
    uint64_t pendingLocalWrites(int t, int q) const { return queuePair(t, q) + 12; }  // the GETVs in wbL
    uint64_t pipeOrder(int t, int q) const { return queuePair(t, q) + 13; }  // which entries are older than which
    // The GETVs in wbL that write loc, and the PUTVs and AWs in wbR: what the
    // no-PCIe lookups (M ◁ wbL)(loc) and (M ◁ wbR)(loc) read.
    uint64_t localWritesTo(int t, int q, int loc) const { return queuePair(t, q) + 14 + loc; }
    uint64_t remoteWritesTo(int t, int q, int loc) const { return queuePair(t, q) + 14 + locations_ + loc; }

    static uint64_t program(int t) { return kCausalObject | static_cast<uint64_t>(t) << 40; }
    static uint64_t slot(int t, int k) { return program(t) | static_cast<uint64_t>(1 + k); }
    static uint64_t entry(int t, int serial) {
        return program(t) | uint64_t(1) << 32 | static_cast<uint32_t>(serial);
    }

    // Every part of t's store buffer: a step that needs it empty reads them all.
    void readWholeStoreBuffer(int t, Footprint& f) const;
    // Whether a buffer is empty, or what it holds: its head and tail.
    void readBuffer(int t, int q, int buffer, Footprint& f) const;

private:
    uint64_t perQueuePair() const { return 14 + 2 * static_cast<uint64_t>(locations_); }
    uint64_t queuePair(int t, int q) const { return base_[t] + 2 + locations_ + perQueuePair() * q; }

    int locations_;
    std::vector<uint64_t> base_;
};

}  // namespace rdmacheck::machine
