// A configuration (P, M, B, QP, A) of the machines (OPERATIONAL.md §1), and its
// compact encoding for the visited-state set.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmacheck::machine {

// An entry in a store buffer or a queue-pair buffer (OPERATIONAL.md §1, "Entry kinds").
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
    int node = 0;       // remote node (store-buffer entries for the NIC, RMWs and AW: the target's)
    int loc = -1;       // written location (RCas, RFaa: the result z; -1 for `_`)
    int source = -1;    // read location (Put, Get, RCas, RFaa)
    long long value = 0;
    long long newValue = 0;  // RCas only
};

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
    std::vector<int> loops;   // iterations started, per loop of the thread
    std::vector<long long> registers;
    Queue storeBuffer;
    std::vector<QueuePair> queuePairs;  // one per ThreadCode::remoteNodes entry
};

struct State {
    std::vector<long long> memory;
    std::vector<ThreadState> threads;
    std::vector<bool> atomicLocks;  // A(n) held, by target node n; empty without remote atomics (§6)
};

// Appends an injective encoding of s to key.
void encodeState(const State& s, std::string& key);

}  // namespace rdmacheck::machine
