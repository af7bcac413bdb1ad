// A configuration (P, M, B, QP, A) of the machines (RDMA^TSO paper §3.2, Figs. 5 and 7), and its
// compact encoding for the visited-state set.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdmacheck/events.hpp"
#include "rdmacheck/limits.hpp"

namespace rdmacheck::machine {

// An entry in a store buffer or a queue-pair buffer (RDMA^TSO paper §3.2, Figs. 5 and 7, "Entry kinds").
struct Entry {
    enum class Kind : uint8_t {
        Write,    // W(x,v): buffered CPU write
        Put,      // PUT(y<-x): local read not done yet (source < 0: a constant in value)
        PutValue, // PUTV(y,v): pending remote write
        Get,      // GET(x<-y): remote read not done yet
        GetValue, // GETV(x,v): pending local write
        Ack,
        Completion,  // CN
        RFence,
        RCas,         // RCAS(z,y,ve,vn): value ve, newValue vn
        RFaa,         // RFAA(z,y,k): value k
        AtomicWrite,  // AW(y,v): remote write of a successful RMW, holding the lock A(node)
    };
    Kind kind = Kind::Write;
    // Remote node (store-buffer entries for the NIC, RMWs and AW: the target's).
    // 16 bits hold every node (limits.hpp) and keep an entry at 32 bytes: every
    // successor copies its thread's queues.
    int16_t node = 0;
    int loc = -1;       // written location (RCas, RFaa: the result z; -1 for `_`)
    int source = -1;    // read location (Put, Get, RCas, RFaa)
    // Recording: the event the entry stands for. Write: its lW. Put, Get,
    // RCas, RFaa: the first event of the call (the others follow it in order).
    // PutValue, GetValue, AtomicWrite: their write. Not recording: the same
    // numbering by the thread's serial (4 per request), which names the
    // entry's steps to the reduced search (independence.hpp); -1 elsewhere.
    int event = -1;
    long long value = 0;
    long long newValue = 0;  // RCas only
};

static_assert(kMaxNode <= INT16_MAX && sizeof(Entry) <= 32, "a node fits in an entry of 32 bytes");

using Queue = std::vector<Entry>;  // head at index 0

// Concrete queue pair: reqL inR outR rspL wbR wbL. The simplified machine uses
// reqL as its pipe and leaves inR, outR, rspL empty.
enum Buffer { ReqL = 0, InR, OutR, RspL, WbR, WbL, kBufferCount };
constexpr Buffer Pipe = ReqL;

struct QueuePair {
    std::array<Queue, kBufferCount> buffers;
};

struct ThreadState {
    int pc = 0;
    int cutAt = -1;           // pc of the loop head whose bound stopped this thread
    int phase = 0;            // sequential machine: a get's or put's write is next
    uint32_t slotsRead = 0;   // bit k: slot k of the current instruction has been read
    std::vector<long long> slots;
    long long carry = 0;      // CAS result / sequential get/put value in flight
    int issued = 0;           // NIC requests issued: their entries' serials (rules.hpp; never hashed)
    int carryEvent = -1;      // recording only: the write of the sequential get/put in flight
    std::vector<int> loops;   // iterations started, per loop of the thread
    std::vector<long long> registers;
    Queue storeBuffer;
    std::vector<QueuePair> queuePairs;  // one per ThreadCode::remoteNodes entry
};

// One thing a recorded run did. Events get ids as they are issued: 0 to L-1 are
// the initial writes of the L locations, the others count up from L.
struct RunRecord {
    enum class What : uint8_t {
        Issue,  // a thread issued an event (in program order)
        Read,   // a read event took its value (CPU read, NIC local or remote read)
        Write,  // a write event reached memory
    };
    What what = What::Issue;
    EventKind kind = EventKind::F;  // Issue
    int event = -1;
    int thread = -1;      // Issue
    int pc = -1;          // Issue: the instruction
    int location = -1;    // Issue
    int remote = 0;       // Issue
    int call = -1;        // Issue: the first event of its call
    int source = -1;      // Read: the write read from; -1 for a put's constant
    long long value = 0;  // Read: the value read; Write: the value written
};

// What recording adds to a configuration (Rules built with record on). Never
// hashed: runs that reach one configuration are one state to the search, and
// the run that got there first is the one kept.
struct Tracking {
    std::vector<int> writers;         // per location: the write whose value memory holds
    int nextEvent = 0;                // the id of the next event issued
    std::vector<RunRecord> records;   // what the step into this configuration did
};

// Owns a Tracking and copies it with its state; null when not recording, so a
// search that does not record copies and moves one null pointer more per state.
class TrackingPtr {
public:
    TrackingPtr() = default;
    explicit TrackingPtr(Tracking t) : p_(std::make_unique<Tracking>(std::move(t))) {}
    TrackingPtr(const TrackingPtr& o) : p_(o.p_ ? std::make_unique<Tracking>(*o.p_) : nullptr) {}
    TrackingPtr(TrackingPtr&&) noexcept = default;
    TrackingPtr& operator=(const TrackingPtr& o) { return *this = TrackingPtr(o); }
    TrackingPtr& operator=(TrackingPtr&&) noexcept = default;
    Tracking* operator->() const { return p_.get(); }

private:
    std::unique_ptr<Tracking> p_;
};

struct State {
    std::vector<long long> memory;
    std::vector<ThreadState> threads;
    std::vector<bool> atomicLocks;  // A(n) held, by target node n; empty without remote atomics (§6)
    TrackingPtr tracking;
};

// Appends an injective encoding of s to key.
void encodeState(const State& s, std::string& key);

}  // namespace rdmacheck::machine
