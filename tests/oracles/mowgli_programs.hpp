// The MOWGLI oracle's programs: hand-written ones, each with the verdict the
// definitions give, and random RDMA^WAIT programs, plain or with lock or
// RDMA^SC_RMW calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdmacheck::oracles::mowgli {

// ---------------------------------------------------------------------------
// Hand-written programs, each with the verdict LOCO §3 and RMW §3 gives or implies.

struct HandTest {
    const char* text;
    bool allowed;  // the condition's outcome
};

extern const char* const kOotaRmw;
extern const char* const kPfpLocalRead;
extern const std::vector<HandTest> kHandTests;

// BAL (LOCO Def. 4.1) mixed with puts, gets, waits and SV; verdicts argued from
// the definitions.
extern const char* const kBarMpWriteGet;
extern const std::vector<HandTest> kBalHandTests;

// ---------------------------------------------------------------------------
// Random programs: 2 threads (P0@1, P1@2, or both on node 1), 1-3 statements
// each, drawn from work-id puts/gets/RMWs (remote and loopback), waits, CPU
// reads and writes, CAS, rfence, mfence, gfence and SV calls.

struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
    int pick(int n) {  // splitmix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return static_cast<int>((z ^ (z >> 31)) % static_cast<uint64_t>(n));
    }
};

std::string randomWaitTest(Rng& rng, bool rmws, int threads = 2, int maxLength = 3);

// A random RDMA^WAIT program (no RMWs) with a critical section of lock l of
// library `lock` ("wl", "sl", "nl") around a random stretch of most threads.
std::string randomLockTest(Rng& rng, const std::string& lock, int threads = 2, int maxLength = 3);

// A random RDMA^WAIT program (no RMWs) with one or two RDMA^SC_RMW calls on u or
// v (declared u@sc, v@sc) put among each thread's statements.
std::string randomScTest(Rng& rng, int threads = 2, int maxLength = 2);

inline constexpr int kRandomPrograms = 200;
inline constexpr int kRandomLockPrograms = 300;  // per lock library

// MOWGLI_ORACLE_SWEEP="count,threads,maxLength,seed" runs a longer sweep by hand.
struct Sweep {
    int count = kRandomPrograms, threads = 2, maxLength = 3;
    uint64_t seed = 20261201;
};
Sweep sweepFromEnvironment();

}  // namespace rdmacheck::oracles::mowgli
