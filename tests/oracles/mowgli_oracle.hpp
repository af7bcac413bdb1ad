// An independent oracle for the MOWGLI models rdma-wait-rmw and rdma-wait: the
// definitions of LOCO §3 and RMW §3 transcribed literally and evaluated by brute
// force, to check the Z3 clock encoding that check() uses.
//
// Per skeleton (the unfolder's subevents) it enumerates every rf and mo, and for
// each of them every nfo orientation and every rao as witnesses. Relations are
// Boolean matrices over subevents:
//  - ppo from po and the 12-stamp order of §3.3 (typed in below, over all events,
//    across libraries, between different calls only);
//  - RDMA^WAIT_RMW (§4.3-4.7, [RMW] Def. 3) on its own restriction (Core events):
//    iso, ippo, rf/rf_i/rf_e, rb/rb_i, pfg, pfp, nfo, rao, ib, so;
//  - SV (§5.1) on its restriction: per-node rf^n/mo^n/rb^n (a copy x@n is a location
//    of its own), pf, iso, so, and [aCR];(po^-1 ∩ rb);[aCW] = ∅;
//  - BAL (§6.1): a call is aGF_n per node of a participant (all nodes for the
//    transitive tbar) then an aCR exit; the participants of z (the threads that
//    call it anywhere) make equally many calls on z, or the skeleton has no
//    execution; so from every aGF of the i-th calls to the aCR of the i-th calls;
//  - the locks (RMW §4, Defs. 4-7): Acq is aMF; Rel is aCW (WLOCK),
//    aGF_n for every node of the test (SLOCK), aRF_n then aNRW_n towards the lock's
//    home (NLOCK); every lo (a strict total order on each lock's acquires) as a
//    witness; so from the release stamps the lock exports (aCW; every aGF_n;
//    aNRW_n) of the release that follows an acquire to the acquires lo-after it,
//    and NLOCK's aRF_n -> aNRW_n inside each release;
//  - RDMA^SC_RMW (RMW Def. 8): every event aMF; R are the
//    events that are not a Write_SC, W those that are not a Read_SC or a failed
//    CAS_SC (an update is both); so = po ∪ rf ∪ mo ∪ rb on them, rb without id;
//  - RBL (LOCO §5.1, Defs. 5.1-5.2): a successful submit is aCW and
//    aNRW_n for every other node of a reader, a failed call aWT, a successful
//    receive aCR; every rf of Def. 5.1 (1), (2), (4), (5) is enumerated (§9.2
//    says exactly one exists, none when a reader succeeds more often than the
//    writer); so = rf ∪ fb with fb = (F^n × W^n) \ (po^-1 ; rf^-1); a receive
//    returns the values its rf source's submit sent (Def. 5.1 (3)): the skeleton
//    comes with received values unbound and the oracle binds them from its rf;
//  - hb = (ppo ∪ so|Core ∪ so|SV ∪ so|BAL ∪ so|locks ∪ so|SC ∪ so|RBL)+ irreflexive (§2.5).
// Nothing here comes from src/encode or the model files: the stamp of each event
// kind, the table and every relation are written out in mowgli_oracle.cpp (Core,
// SV, hb) and mowgli_libraries.cpp (BAL, the locks, SC, RBL); candidates, values,
// witnesses and the relation algebra are brute_force.hpp's.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../src/libraries/bal/bal.hpp"
#include "../../src/libraries/locks/locks.hpp"
#include "../../src/libraries/rbl/rbl.hpp"
#include "../../src/libraries/sc/sc.hpp"
#include "brute_force.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::oracles::mowgli {

inline const Library kSv = findLibrary("sv").value();
inline const Library kBal = findLibrary("bal").value();
inline const Library kWl = findLibrary("wl").value();
inline const Library kSl = findLibrary("sl").value();
inline const Library kNl = findLibrary("nl").value();
inline const Library kSc = findLibrary("sc").value();
inline const Library kRbl = findLibrary("rbl").value();

// ---------------------------------------------------------------------------
// Stamps (RMW Fig. 9) and the stamp order of RDMA^WAIT_RMW (§3.3).

enum Stamp { aCR, aCW, aCAS, aMF, aWT, aNLR, aNRW, aNAR, aNRR, aNLW, aRF, aGF, kStampCount };
extern const char* const kStampNames[kStampCount];

// The machine-readable block of §3.3: Y ordered, N not ordered, S same node (SN).
// Rows are the po-earlier stamp, columns the po-later one.
extern const char* const kSto[kStampCount];

// A skeleton event is one subevent; its kind names the stamp (the TSO-label column
// of §3.1; narW, an RMW's remote write, is an aNRW).
Stamp stampOf(EventKind k);

// §4.3: R, W, Inst.
inline bool isReadStamp(Stamp s) { return s == aCR || s == aCAS || s == aNLR || s == aNAR || s == aNRR; }
inline bool isWriteStamp(Stamp s) { return s == aCW || s == aCAS || s == aNLW || s == aNRW; }
inline bool isInstStamp(Stamp s) { return !(s == aCW || s == aNLW || s == aNRW); }

// Switches that change one ingredient (mutants), to show the oracle can fail.
struct Variant {
    const char* name = "LOCO §3 and RMW §3";
    bool isoNarNlw = true;     // §4.5 iso: ⟨e,aNAR_n⟩ → ⟨e,aNLW_n⟩ of an RMW (reconstructed)
    bool instIbInSo = true;    // §4.7 so ∋ [Inst];ib
    bool g10Sn = false;        // §3.4's one doubt: aNRW_n → aRF_n SN instead of ✗
    bool immediatePpo = false;  // ppo from immediate po steps only (the mistake §2.3 warns of)
    bool ippoExtra = true;     // §4.6 [aCW];po;[aCR ∪ aWT] and [aNRW_n ∪ aNLW_n];po;[aRF_n]
    bool nfo = true;           // §4.4 nfo
    bool rbI = true;           // rb_i in ib
    bool rfIInSo = false;      // so with all of rf instead of rf_e
    bool pfgInSo = true;       // §4.7 pfg in so
    bool pfpInSo = false;      // pfp in so too
    bool arRao = true;         // [aNRW];iso^-1;rao in so
    bool svCondition = true;   // §5.1 [aCR];(po^-1 ∩ rb);[aCW] = ∅
    bool balSo = true;         // §6.1 so|BAL: aGF of the i-th calls -> aCR of the i-th calls
    bool balCount = true;      // §6.1 equal numbers of calls per participant
    bool lockSo = true;        // RMW §4.1: exported release stamps -> lo-later acquires
    bool nlIntraCall = true;   // RMW Def. 7: aRF_n -> aNRW_n inside one Rel_NL
    bool scSo = true;          // RMW Def. 8: so|SC = po ∪ rf ∪ mo ∪ rb
    bool rblFb = true;         // LOCO Def. 5.2: fb in so|RBL
    bool rblValuesFromRf = true;  // Def. 5.1 (3): a receive returns its rf source's message, not the buffer's first
    // LOCO l.716's weaker RBL (doc/model-notes.md §N11): so|RBL = rf, and fb;hb irreflexive
    // with the whole hb, [Inst];ib included.
    bool rblWeak = false;
};

struct OracleResult : Outcomes {
    uint64_t candidates = 0;  // (skeleton, rf, mo) triples whose values fit
    uint64_t thinAir = 0;     // consistent executions whose values depend on themselves
    std::set<std::string> features;  // relations that were non-empty in some candidate
};

class MowgliOracle {
public:
    MowgliOracle(const LitmusTest& test, const std::vector<ObservedName>& shown, Variant variant = {});

    OracleResult run() {
        // Received values unbound: the oracle binds them (bindReceived).
        forEachSkeleton(program_, /*bindReceived=*/false, [&](const ExecutionGraph& sk) {
            sk_ = sk;
            skeleton();
        });
        return result_;
    }

private:
    // --- the subevents of one skeleton -----------------------------------
    struct Sub {
        Stamp stamp = aMF;
        int node = 0;     // the stamp's n (families), 0 otherwise
        int thread = -1;  // -1: initial write (not an event of the papers)
        int position = 0;  // index in its thread's po
        int call = -1;
        int callRank = 0;  // the call's index among its thread's calls
        int work = -1;
        Library library = Library::Core;
        int location = -1;
    };

    bool core(size_t a) const { return s_[a].thread >= 0 && s_[a].library == Library::Core; }
    bool sv(size_t a) const { return s_[a].thread >= 0 && s_[a].library == kSv; }
    bool is(size_t a, Stamp st) const { return s_[a].thread >= 0 && s_[a].stamp == st; }
    bool bal(size_t a) const { return s_[a].thread >= 0 && s_[a].library == kBal; }
    bool lock(size_t a) const {
        return s_[a].thread >= 0 && (s_[a].library == kWl || s_[a].library == kSl || s_[a].library == kNl);
    }
    bool sc(size_t a) const { return s_[a].thread >= 0 && s_[a].library == kSc; }
    bool rbl(size_t a) const { return s_[a].thread >= 0 && s_[a].library == kRbl; }
    int nodeOf(size_t a) const { return test_.threads[s_[a].thread].node; }
    // BAL's aCR exit reads nothing (§6.1: BAL has no values); the locks have no
    // values either; an SC event is aMF, and reads or writes by its method (§8.1).
    bool reads(size_t a) const {
        if (sc(a)) return sk_.events[a].kind != sc::SCW;  // all but Write_SC
        return s_[a].thread >= 0 && !bal(a) && !lock(a) && !rbl(a) && isReadStamp(s_[a].stamp);
    }
    bool writes(size_t a) const {
        if (sc(a)) return sk_.events[a].kind != sc::SCR;  // all but Read_SC and a failed CAS_SC
        return s_[a].thread >= 0 && !bal(a) && !lock(a) && !rbl(a) && isWriteStamp(s_[a].stamp);
    }
    bool sameLib(size_t a, size_t b) const { return s_[a].library == s_[b].library; }
    // po on subevents: (⟨e1,_⟩, ⟨e2,_⟩) ∈ po iff (e1, e2) ∈ po, e1 ≠ e2 (different calls).
    bool po(size_t a, size_t b) const {
        return s_[a].thread >= 0 && s_[a].thread == s_[b].thread && s_[a].call != s_[b].call &&
               s_[a].position < s_[b].position;
    }
    bool sameCall(size_t a, size_t b) const {
        return s_[a].thread >= 0 && s_[a].thread == s_[b].thread && s_[a].call == s_[b].call;
    }
    bool hasRf(size_t w, size_t r) const { return c_.rf[r] == static_cast<int>(w) && sk_.events[w].thread >= 0; }
    bool moBefore(size_t a, size_t b) const {
        return oracles::moBefore(sk_, c_, static_cast<int>(a), static_cast<int>(b));
    }

    // Core, SV and hb: mowgli_oracle.cpp.
    bool stampOrdered(size_t a, size_t b) const;
    void skeleton();
    void thinAir();
    bool readsBefore(size_t r, size_t w) const;
    void evaluate();
    bool withRao(const Relation& ib, const Relation& hb) const;
    bool withLo(const Relation& ib, const Relation& hb) const;
    bool consistent(const Relation& ibEdges, Relation hb) const;
    void record(const std::vector<long long>& readValues);

    // The libraries (BAL, the locks, SC, RBL) and the unfolder's stamping: mowgli_libraries.cpp.
    void checkStamping() const;
    void expectLockCall(const std::vector<size_t>& subs, const std::string& shape) const;
    void expectRblCall(const std::vector<size_t>& subs, const std::string& shape) const;
    bool rblCalls();
    bool rblWellFormed(const std::vector<size_t>& reads, const std::vector<int>& source) const;
    bool bindReceived();
    bool anyReceived() const;
    size_t messageCarrier(size_t w) const;
    void bindEverywhere(size_t r, const std::vector<Value>& message);
    void lockCalls();
    bool balRounds();

    const LitmusTest& test_;
    std::vector<ObservedName> shown_;
    Variant variant_;
    UnfoldedProgram program_;
    std::set<long long> domain_;  // values tried for out-of-thin-air reads
    ExecutionGraph sk_;
    size_t n_ = 0;
    std::vector<Sub> s_;
    std::vector<size_t> readList_;
    Candidate c_;
    Relation ibBase_, hbBase_, isoC_, balSo_, nlIntra_, rblSo_, rblFb_;
    std::vector<int> rblSource_;  // per successful receive: its rf source (a submit's copy), else -1
    std::vector<std::vector<int>> lockGroups_;  // per lock, its acquires
    std::map<int, std::vector<int>> exported_;  // per acquire, the exported stamps of its release
    std::map<int, std::set<int>> participants_;  // per barrier location, b(z)
    std::vector<std::vector<int>> raoGroups_;
    OracleResult result_;
};

}  // namespace rdmacheck::oracles::mowgli
