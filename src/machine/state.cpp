#include "state.hpp"

namespace rdmacheck::machine {

namespace {

// Zigzag varint: small values, one byte.
void put(std::string& key, long long v) {
    uint64_t u = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    while (u >= 0x80) {
        key.push_back(static_cast<char>(u | 0x80));
        u >>= 7;
    }
    key.push_back(static_cast<char>(u));
}

void putQueue(std::string& key, const Queue& q) {
    put(key, static_cast<long long>(q.size()));
    for (const Entry& e : q) {
        put(key, static_cast<long long>(e.kind));
        put(key, e.node);
        put(key, e.loc);
        put(key, e.source);
        put(key, e.value);
        if (e.kind == Entry::Kind::RCas) put(key, e.newValue);  // the kind tells whether it is there
    }
}

}  // namespace

void encodeState(const State& s, std::string& key) {
    for (long long v : s.memory) put(key, v);
    for (bool held : s.atomicLocks) put(key, held);
    for (const ThreadState& t : s.threads) {
        put(key, t.pc);
        put(key, t.cutAt);
        put(key, t.phase);
        put(key, t.slotsRead);
        for (long long v : t.slots) put(key, v);
        put(key, t.carry);
        for (int l : t.loops) put(key, l);
        for (long long r : t.registers) put(key, r);
        putQueue(key, t.storeBuffer);
        for (const QueuePair& qp : t.queuePairs)
            for (const Queue& q : qp.buffers) putQueue(key, q);
    }
}

}  // namespace rdmacheck::machine
