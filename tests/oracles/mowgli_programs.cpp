#include "mowgli_programs.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace rdmacheck::oracles::mowgli {

// ---------------------------------------------------------------------------
// Hand-written programs, each with the verdict LOCO §3 and RMW §3 gives or implies.

const char* const kOotaRmw =
    "RDMA oota-rmw\n{ x@2 = 0; a@1; b@1; }\nP0@1 { RFAA(a, x^2, 0, d); }\nP1@1 { b := a; x^2 :=^e b; }\n"
    "exists (a = 5)\n";
const char* const kPfpLocalRead =
    "RDMA pfp-local-read\n{ x@1 = 0; y@1 = 0; z@2 = 0; }\nP0@1 { z^2 :=^d x; wait(d); a := y; }\n"
    "P1@1 { y := 1; x := 1; }\nexists (z = 1 /\\ a = 0)\n";

const std::vector<HandTest> kHandTests = {
    // pfg vs pfp: a Wait on a get orders its local write (pfg ⊆ so) ...
    {"RDMA pfg-mp\n{ c@1; y@2; f@1; }\nP0@1 { c :=^d y^2; wait(d); f := 1; }\n"
     "P1@1 { g := f; h := c; }\nP2@2 { y := 1; }\nexists (g = 1 /\\ h = 0 /\\ c = 1)\n",
     false},
    // ... a Wait on a put orders its local read (iso;pfp from an Inst subevent) ...
    {kPfpLocalRead, false},
    // ... but not its remote write (pfp only in ib).
    {"RDMA pfp-mp\n{ x@2; f@1; a@2; b@2; }\nP0@1 { x^2 :=^d 1; wait(d); f := 1; }\n"
     "P1@2 { a :=^e f^1; wait(e); b := x; }\nexists (a = 1 /\\ b = 0)\n",
     true},
    // a wait on a get: the result is visible to the thread's own later read
    {"RDMA wait-get\n{ a@1; y@2 = 7; }\nP0@1 { a :=^d y^2; wait(d); b := a; }\nexists (b = 0)\n", false},
    {"RDMA nowait-get\n{ a@1; y@2 = 7; }\nP0@1 { a :=^d y^2; b := a; }\nexists (b = 0)\n", true},
    // a wait on another id does not help
    {"RDMA wait-other-id\n{ a@1; y@2 = 7; }\nP0@1 { a :=^d y^2; wait(e); b := a; }\nexists (b = 0)\n", true},
    // gets and puts on one queue pair: nfo (RDMA^TSO Fig. 2h/2i under WAIT)
    {"RDMA nfo-local\n{ x@1 = 1; y@2; z@2; }\nP0@1 { x := y^2; z^2 := x; }\nexists (z = 1)\n", true},
    {"RDMA nfo-local-rfence\n{ x@1 = 1; y@2; z@2; }\nP0@1 { x := y^2; rfence(2); z^2 := x; }\nexists (z = 1)\n",
     false},
    {"RDMA nfo-remote\n{ a@1; y@2; }\nP0@1 { a := y^2; y^2 := 1; }\nexists (a = 1)\n", true},
    {"RDMA nfo-remote-rfence\n{ a@1; y@2; }\nP0@1 { a := y^2; rfence(2); y^2 := 1; }\nexists (a = 1)\n", false},
    {"RDMA put-get-flush\n{ a@1; y@2; }\nP0@1 { y^2 := 1; a := y^2; }\nexists (a = 0)\n", false},
    // loopback
    {"RDMA loopback-put-wait\n{ x@1 = 0; z@1 = 0; }\nP0@1 { z^1 :=^d x; wait(d); x := 1; }\nexists (z = 1)\n", false},
    {"RDMA loopback-get\n{ x@1; a@1; }\nP0@1 { x^1 := 1; a := x^1; }\nP1@1 { x := 2; }\nexists (a = 0)\n", false},
    {"RDMA loopback-sb\n{ x@1; y@1; a@1; b@1; }\nP0@1 { x^1 :=^d 1; wait(d); a := y; }\n"
     "P1@1 { y^1 :=^e 1; wait(e); b := x; }\nexists (a = 0 /\\ b = 0)\n",
     true},
    // remote RMWs: RCAS success and failure, RFAA, rao
    {"RDMA rcas-rfaa\n{ x@3 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^3, 0, 2); }\nP1@2 { RFAA(b, x^3, 1); }\n"
     "exists (x = 2)\n",
     false},
    {"RDMA rcas-fail\n{ x@2 = 5; a@1; }\nP0@1 { RCAS(a, x^2, 0, 2); }\nP1@2 { x := 1; }\nexists (a = 5 /\\ x = 1)\n",
     true},
    {"RDMA rfaa-rfaa-same-thread\n{ x@2; a@1; b@1; }\nP0@1 { RFAA(a, x^2, 1); RFAA(b, x^2, 1); }\n"
     "exists (b = 0)\n",
     false},
    {"RDMA rfaa-three\n{ x@3; a@1; b@2; c@1; }\nP0@1 { RFAA(a, x^3, 1); }\nP1@2 { RFAA(b, x^3, 2); }\n"
     "P2@1 { RFAA(c, x^3, 4); }\nexists (x = 6)\n",
     false},
    {"RDMA rfaa-loopback\n{ x@1; a@1; b@2; }\nP0@1 { RFAA(a, x^1, 1, d); wait(d); c := a; }\n"
     "P1@2 { RFAA(b, x^1, 1); }\nexists (c = 0 /\\ b = 0)\n",
     false},
    {"RDMA rcas-wait-put\n{ x@2; y@2; a@1; }\nP0@1 { RCAS(a, x^2, 0, 1, d); wait(d); y^2 := a; }\n"
     "P1@2 { b := y; c := x; }\nexists (b = 0 /\\ c = 1)\n",
     true},
    {kOotaRmw, false},
    // several paths per thread: a spin loop (cut at the unroll bound) and an if
    {"RDMA spin-mp\n{ x@2; f@2; a@2; }\nP0@1 { x^2 :=^d 1; f^2 := 1; }\n"
     "P1@2 { while (f != 1) { mfence }; a := x; }\nexists (a = 0)\n",
     false},
    {"RDMA if-mp\n{ x@2; f@2; a@2; b@2; }\nP0@1 { x^2 := 1; f^2 := 1; }\n"
     "P1@2 { if (f = 1) { a := x } else { b := 1 } }\nexists (a = 0 /\\ b = 0)\n",
     false},
    // SV: per-node copies, write/read/bcast/wait/gf
    {"RDMA sv-own\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); a := sv.read(s); }\nexists (a = 0)\n", false},
    {"RDMA sv-copies\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); }\nP1@2 { a := sv.read(s); }\nexists (a = 1)\n", false},
    {"RDMA sv-bcast\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {2}); }\nP1@2 { a := sv.read(s); }\n"
     "exists (a = 1)\n",
     true},
    {"RDMA sv-bcast-wait-mp\n{ s@sv = 0; f@1; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {2}); sv.wait(d); f := 1; }\n"
     "P1@2 { a :=^e f^1; wait(e); b := sv.read(s); }\nexists (a = 1 /\\ b = 0)\n",
     true},
    {"RDMA sv-bcast-wait-overwrite\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {1, 2}); sv.wait(d); "
     "sv.write(s, 2); }\nexists (s@1 = 1 /\\ s@2 = 1)\n",
     true},
    {"RDMA sv-bcast-nowait-own\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, _, {1, 2}); sv.write(s, 2); }\n"
     "exists (s@2 = 2)\n",
     true},
    {"RDMA sv-bcast-gf-mp\n{ s@sv = 0; f@1; }\nP0@1 { sv.write(s, 1); sv.bcast(s, _, {2}); sv.gf({2}); f := 1; }\n"
     "P1@2 { a :=^e f^1; wait(e); b := sv.read(s); }\nexists (a = 1 /\\ b = 0)\n",
     false},
    // the two broadcasts' aNRW_2 are ordered (aNRW_n→aNRW_n SN)
    {"RDMA sv-mp-two-bcasts\n{ s@sv = 0; t@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, _, {2}); "
     "sv.write(t, 1); sv.bcast(t, _, {2}); }\nP1@2 { a := sv.read(t); b := sv.read(s); }\n"
     "exists (a = 1 /\\ b = 0)\n",
     false},
    // ... unless they go to different nodes (relay through node 3 as in LOCO Fig. 9b)
    {"RDMA sv-mp-bcasts-two-nodes\n{ s@sv = 0; t@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, _, {2}); "
     "sv.write(t, 1); sv.bcast(t, _, {3}); }\nP1@3 { c := sv.read(t); sv.write(t, c); sv.bcast(t, _, {2}); }\n"
     "P2@2 { a := sv.read(t); b := sv.read(s); }\nexists (a = 1 /\\ b = 0)\n",
     true},
    // a Core wait does not wait for an SV broadcast with the same id, nor sv.wait for a put
    {"RDMA sv-core-ids\n{ s@sv = 0; x@2; f@1; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {2}); wait(d); "
     "x^2 :=^d 1; sv.wait(d); f := 1; }\nP1@2 { a :=^e f^1; wait(e); b := sv.read(s); c := x; }\n"
     "exists (a = 1 /\\ b = 0 /\\ c = 0)\n",
     true},
    // ... which matters: sv.wait(d) does not wait for a get with id d (pfg is Core's) ...
    {"RDMA sv-wait-not-core-wait\n{ r@1; y@2 = 7; }\nP0@1 { r :=^d y^2; sv.wait(d); b := r; }\nexists (b = 0)\n",
     true},
    // ... and a Core wait(d) does not wait for a broadcast's local read (pf is SV's)
    {"RDMA core-wait-not-sv-wait\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {2}); wait(d); "
     "sv.write(s, 2); }\nexists (s@2 = 2)\n",
     true},
    {"RDMA sv-wait-bcast\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, d, {2}); sv.wait(d); "
     "sv.write(s, 2); }\nexists (s@2 = 2)\n",
     false},
    // gfence (GF_sv): LOCO Fig. 5
    {"RDMA gfence-sb\n{ y@1; a@1; x@2; b@2; }\nP0@1 { x^2 := 1; gfence(2); a := y; }\n"
     "P1@2 { y^1 := 1; gfence(1); b := x; }\nexists (a = 0 /\\ b = 0)\n",
     false},
    {"RDMA gfence-other-node\n{ y@1; a@1; x@2; b@2; }\nP0@1 { x^2 := 1; gfence(3); a := y; }\n"
     "P1@2 { y^1 := 1; gfence(1); b := x; }\nexists (a = 0 /\\ b = 0)\n",
     true},
    // failed CAS: {aMF, aCR} then a write of the result
    // store forwarding: rf_i is not in so (x86 SB+rfi), in Core and in SV
    {"RDMA sb-rfi\n{ x@1; y@1; }\nP0@1 { x := 1; a := x; b := y; }\nP1@1 { y := 1; c := y; d := x; }\n"
     "exists (a = 1 /\\ b = 0 /\\ c = 1 /\\ d = 0)\n",
     true},
    {"RDMA sv-sb-rfi\n{ s@sv = 0; t@sv = 0; }\nP0@1 { sv.write(s, 1); a := sv.read(s); b := sv.read(t); }\n"
     "P1@1 { sv.write(t, 1); c := sv.read(t); d := sv.read(s); }\nexists (a = 1 /\\ b = 0 /\\ c = 1 /\\ d = 0)\n",
     true},
    {"RDMA cas-fail\n{ x@1; }\nP0@1 { a := CAS(x, 1, 2); }\nP1@1 { x := 1; }\nexists (a = 0 /\\ x = 1)\n", true},
    {"RDMA cas-fail-own-write\n{ x@1; }\nP0@1 { x := 1; a := CAS(x, 5, 2); }\nexists (a = 0)\n", false},
    {"RDMA cas-fail-fence-sb\n{ x@1; y@1; z@1 = 9; }\nP0@1 { x := 1; a := CAS(z, 5, 6); b := y; }\n"
     "P1@1 { y := 1; mfence; c := x; }\nexists (b = 0 /\\ c = 0)\n",
     false},
    {"RDMA cas-vs-write\n{ x@1; }\nP0@1 { a := CAS(x, 0, 2); }\nP1@1 { x := 1; }\nexists (x = 2 /\\ a = 1)\n", false},
};

// BAL (LOCO Def. 4.1) mixed with puts, gets, waits and SV; verdicts argued from
// the definitions.
const char* const kBarMpWriteGet =
    "RDMA bar-mp\n{ x@1 = 0; a@2; }\nP0@1 { x := 1; bar(z); }\nP1@2 { bar(z); a := x^1; }\nexists (a = 0)\n";
const std::vector<HandTest> kBalHandTests = {
    {kBarMpWriteGet, false},
    // a put before the entry (aNRW_2 SN aGF_2, G11) is done at the other's exit
    {"RDMA bar-put-read\n{ y@2 = 0; }\nP0@1 { y^2 := 1; bar(z); }\nP1@2 { bar(z); a := y; }\nexists (a = 0)\n",
     false},
    // the other way round: a read after the exit, a write before the entry
    {"RDMA bar-after-exit\n{ x@1 = 0; y@2 = 0; }\nP0@1 { bar(z); a := x; }\nP1@2 { x^1 := 1; bar(z); }\n"
     "exists (a = 0)\n",
     false},
    // a get before the entry is complete at the other's exit: it cannot see a later put
    {"RDMA bar-get-then-put\n{ y@2 = 0; a@1; }\nP0@1 { a := y^2; bar(z); }\nP1@2 { bar(z); y := 1; }\n"
     "exists (a = 1)\n",
     false},
    // the second round orders too, and only the i-th calls pair up
    {"RDMA bar-two-rounds\n{ x@1 = 0; a@2; b@2; }\nP0@1 { bar(z); x := 1; bar(z); }\n"
     "P1@2 { bar(z); a := x^1; bar(z); b := x^1; }\nexists (a = 1 \\/ b = 0)\n",
     true},
    {"RDMA bar-two-rounds-b\n{ x@1 = 0; a@2; b@2; }\nP0@1 { bar(z); x := 1; bar(z); }\n"
     "P1@2 { bar(z); a := x^1; bar(z); b := x^1; }\nexists (b = 0)\n",
     false},
    // a lone participant: so only within its own call
    {"RDMA bar-alone\n{ y@2 = 0; a@1; }\nP0@1 { y^2 := 1; bar(z); a := y^2; }\nexists (a = 0)\n", false},
    // a non-participant's write is not ordered
    {"RDMA bar-bystander\n{ x@1 = 0; a@2; }\nP0@1 { x := 1; }\nP1@2 { bar(z); a := x^1; }\nP2@1 { bar(z); }\n"
     "exists (a = 0)\n",
     true},
    // SV across a barrier: the broadcast's aNRW_2 is done before the exit
    {"RDMA bar-sv-bcast\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); sv.bcast(s, _, {2}); bar(z); }\n"
     "P1@2 { bar(z); a := sv.read(s); }\nexists (a = 0)\n",
     false},
    // ... but without the broadcast node 2's copy keeps 0
    {"RDMA bar-sv-nobcast\n{ s@sv = 0; }\nP0@1 { sv.write(s, 1); bar(z); }\nP1@2 { bar(z); a := sv.read(s); }\n"
     "exists (a = 0)\n",
     true},
    // a put and a wait after the barrier, two barriers
    {"RDMA bar-wait-two-barriers\n{ x@2 = 0; f@1 = 0; a@2; }\nP0@1 { x^2 :=^d 1; wait(d); bar(w); }\n"
     "P1@2 { bar(w); a := x; bar(v); }\nP2@1 { bar(v); f := 1; }\nexists (a = 0)\n",
     false},
    // uneven calls through a branch: the path with one call has no execution
    {"RDMA bar-uneven-get\n{ y@2 = 0; a@1; }\nP0@1 { a := y^2; if (a = 0) { bar(z); bar(z) } else { bar(z) } }\n"
     "P1@2 { y := 1; bar(z); }\nexists (a = 0)\n",
     false},
    // tbar fences a put towards a non-participant's node
    {"RDMA tbar-third-node\n{ x@3 = 0; a@3; f@2 = 0; }\nP0@1 { x^3 := 1; tbar(z); }\n"
     "P1@2 { tbar(z); f := 1; }\nP2@3 { b :=^e f^2; wait(e); a := x; }\nexists (b = 1 /\\ a = 0)\n",
     false},
    {"RDMA bar-third-node\n{ x@3 = 0; a@3; f@2 = 0; }\nP0@1 { x^3 := 1; bar(z); }\n"
     "P1@2 { bar(z); f := 1; }\nP2@3 { b :=^e f^2; wait(e); a := x; }\nexists (b = 1 /\\ a = 0)\n",
     true},
};

// ---------------------------------------------------------------------------
// Random programs: 2 threads (P0@1, P1@2, or both on node 1), 1-3 statements
// each, drawn from work-id puts/gets/RMWs (remote and loopback), waits, CPU
// reads and writes, CAS, rfence, mfence, gfence and SV calls.

std::string randomWaitTest(Rng& rng, bool rmws, int threads, int maxLength) {
    enum Kind { Put, Get, Rcas, Rfaa, Wait, Write, Read, Fence, SvWrite, SvRead, SvBcast, SvWait, Gf, Cas, Bar, kKinds };
    // Weights: remote operations often, and often waited for, so that pfg, pfp
    // and rao (RMWs from every thread mostly to y@2) come up.
    const int weight[kKinds] = {3, 3, rmws ? 2 : 0, rmws ? 2 : 0, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1};
    const std::string bar = rng.pick(3) ? " bar(z);" : " tbar(z);";  // one flavour per program
    int total = 0;
    for (int w : weight) total += w;
    std::string decls = "x@1; y@2; s@sv = 0;", text;
    for (int t = 0; t < threads; ++t) {
        const int node = t == 0 || rng.pick(4) == 0 ? 1 : 2, other = 3 - node;
        decls += " r" + std::to_string(t) + "@" + std::to_string(node) + ";";
        const std::string m = std::to_string(node), o = std::to_string(other);
        const std::string own = node == 1 ? "x" : "y", far = node == 1 ? "y" : "x";
        const std::string local = "r" + std::to_string(t);
        auto value = [&]() { return std::to_string(1 + rng.pick(2)); };
        text += "P" + std::to_string(t) + "@" + m + " {";
        const int length = 1 + rng.pick(maxLength);
        for (int i = 0; i < length; ++i) {
            const bool loopback = rng.pick(4) == 0;
            std::string target = loopback ? own + "^" + m : far + "^" + o;
            const std::string w = std::vector<std::string>{"d", "d", "e", ""}[rng.pick(4)];
            const std::string hat = w.empty() ? "" : "^" + w;
            int k = rng.pick(total), kind = 0;
            while (k >= weight[kind]) k -= weight[kind++];
            std::string waitFor;  // the id a wait may follow with
            switch (kind) {
                case Put:
                    text += " " + target + " :=" + hat + " " + (rng.pick(2) ? value() : own) + ";";
                    waitFor = w;
                    break;
                case Get:
                    text += " " + local + " :=" + hat + " " + target + ";";
                    waitFor = w;
                    break;
                case Rcas:
                case Rfaa:
                    if (rng.pick(3)) target = "y^2";
                    text += kind == Rcas ? " RCAS(" + (rng.pick(3) ? local : std::string("_")) + ", " + target + ", " +
                                               std::to_string(rng.pick(2)) + ", " + value()
                                         : " RFAA(" + (rng.pick(3) ? local : std::string("_")) + ", " + target + ", " +
                                               value();
                    text += (w.empty() ? "" : ", " + w) + ");";
                    waitFor = w;
                    break;
                case Wait: text += " wait(" + std::string(rng.pick(2) ? "d" : "e") + ");"; break;
                case Write: text += " " + own + " := " + value() + ";"; break;
                case Read: text += " " + local + " := " + own + ";"; break;
                case Fence: text += rng.pick(2) ? " rfence(" + (loopback ? m : o) + ");" : " mfence;"; break;
                case SvWrite: text += " sv.write(s, " + (rng.pick(3) ? value() : local) + ");"; break;
                case SvRead: text += " " + local + " := sv.read(s);"; break;
                case SvBcast: {
                    const char* nodes[3] = {"{1}", "{2}", "{1, 2}"};
                    const bool id = rng.pick(3) != 0;
                    text += " sv.bcast(s, " + std::string(id ? "d" : "_") + ", " + nodes[rng.pick(3)] + ");";
                    if (id && rng.pick(2) && i + 1 < length) {
                        text += rng.pick(4) ? " sv.wait(d);" : " wait(d);";  // Core wait: no SV pf
                        ++i;
                    }
                    break;
                }
                case SvWait: text += rng.pick(2) ? " sv.wait(d);" : " wait(d);"; break;
                case Bar: text += bar; break;
                case Gf: text += rng.pick(2) ? " sv.gf({" + o + "});" : " gfence(" + (loopback ? m : o) + ");"; break;
                default: text += " " + local + " := CAS(" + own + ", " + std::to_string(rng.pick(2)) + ", 2);"; break;
            }
            if (!waitFor.empty() && rng.pick(2) && i + 1 < length) {
                text += rng.pick(4) ? " wait(" + waitFor + ");" : " sv.wait(" + waitFor + ");";
                ++i;
            }
        }
        text += " }\n";
    }
    return "RDMA random-wait\n{ " + decls + " }\n" + text + "exists (x = 1 /\\ r0 = 0)\n";
}

// A random RDMA^WAIT program (no RMWs) with a critical section of lock l of
// library `lock` ("wl", "sl", "nl") around a random stretch of most threads.
std::string randomLockTest(Rng& rng, const std::string& lock, int threads, int maxLength) {
    const std::string text = randomWaitTest(rng, false, threads, maxLength);
    const std::string l = lock == "nl" ? "l^" + std::to_string(1 + rng.pick(2)) : "l";
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" {"), close = line.rfind(" }");
        if (line.rfind("P", 0) != 0 || open == std::string::npos || rng.pick(4) == 0) {
            out += line + "\n";
            continue;
        }
        std::vector<std::string> statements;
        std::istringstream body(line.substr(open + 2, close - open - 2));
        for (std::string st; std::getline(body, st, ';');)
            if (st.find_first_not_of(' ') != std::string::npos) statements.push_back(st);
        const size_t first = rng.pick(static_cast<int>(statements.size()) + 1);
        const size_t last = first + rng.pick(static_cast<int>(statements.size() - first) + 1);
        out += line.substr(0, open + 2);
        for (size_t i = 0; i <= statements.size(); ++i) {
            if (i == first) out += " " + lock + ".acq(" + l + ");";
            if (i == last) out += " " + lock + ".rel(" + l + ");";
            if (i < statements.size()) out += statements[i] + ";";
        }
        out += " }\n";
    }
    return out;
}

// A random RDMA^WAIT program (no RMWs) with one or two RDMA^SC_RMW calls on u or
// v (declared u@sc, v@sc) put among each thread's statements.
std::string randomScTest(Rng& rng, int threads, int maxLength) {
    std::string text = randomWaitTest(rng, false, threads, maxLength);
    text.replace(text.find("{ "), 2, "{ u@sc = 0; v@sc = 0; ");
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" {"), close = line.rfind(" }");
        if (line.rfind("P", 0) != 0 || open == std::string::npos) {
            out += line + "\n";
            continue;
        }
        const std::string local = "r" + line.substr(1, line.find('@') - 1);
        std::vector<std::string> statements;
        std::istringstream body(line.substr(open + 2, close - open - 2));
        for (std::string st; std::getline(body, st, ';');)
            if (st.find_first_not_of(' ') != std::string::npos) statements.push_back(st + ";");
        for (int calls = 1 + rng.pick(2); calls > 0; --calls) {
            const std::string u = rng.pick(2) ? "u" : "v", k = std::to_string(1 + rng.pick(2));
            const std::string call = std::vector<std::string>{
                " sc.write(" + u + ", " + k + ");", " " + local + " := sc.read(" + u + ");",
                " " + local + " := sc.cas(" + u + ", " + std::to_string(rng.pick(2)) + ", " + k + ");",
                " " + local + " := sc.faa(" + u + ", 1);"}[rng.pick(4)];
            statements.insert(statements.begin() + rng.pick(static_cast<int>(statements.size()) + 1), call);
        }
        out += line.substr(0, open + 2);
        for (const std::string& st : statements) out += st;
        out += " }\n";
    }
    return out;
}

Sweep sweepFromEnvironment() {
    Sweep s;
    if (const char* env = std::getenv("MOWGLI_ORACLE_SWEEP")) {
        unsigned long long seed = s.seed;
        std::sscanf(env, "%d,%d,%d,%llu", &s.count, &s.threads, &s.maxLength, &seed);
        s.seed = seed;
    }
    return s;
}

}  // namespace rdmacheck::oracles::mowgli
