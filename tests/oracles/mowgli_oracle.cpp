// The MOWGLI oracle's own definitions: the stamps of §3.1, the stamp order of
// §3.3 and RDMA^WAIT_RMW and SV (§4-§5) on Boolean matrices, hb and its
// witnesses nfo, rao and lo (mowgli_oracle.hpp says what the oracle is).
#include "mowgli_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace rdmacheck::oracles::mowgli {

// ---------------------------------------------------------------------------
// Stamps (RMW Fig. 9) and the stamp order of RDMA^WAIT_RMW (§3.3).

const char* const kStampNames[kStampCount] = {"aCR",  "aCW",  "aCAS", "aMF",  "aWT", "aNLR",
                                              "aNRW", "aNAR", "aNRR", "aNLW", "aRF", "aGF"};

// The machine-readable block of §3.3: Y ordered, N not ordered, S same node (SN).
// Rows are the po-earlier stamp, columns the po-later one.
const char* const kSto[kStampCount] = {
    // CR CW CAS MF WT NLR NRW NAR NRR NLW RF GF
    "YYYYYYYYYYYY",  // aCR
    "NYYYNYYYYYYY",  // aCW
    "YYYYYYYYYYYY",  // aCAS
    "YYYYYYYYYYYY",  // aMF
    "YYYYYYYYYYYY",  // aWT
    "NNNNNSSSSSSS",  // aNLR
    "NNNNNNSSSSNS",  // aNRW
    "NNNNNNSSSSSS",  // aNAR
    "NNNNNNNNNSSS",  // aNRR
    "NNNNNNNNNSNS",  // aNLW
    "NNNNNSSSSSSS",  // aRF
    "YYYYYYYYYYYY",  // aGF
};

// A skeleton event is one subevent; its kind names the stamp (the TSO-label column
// of §3.1; narW, an RMW's remote write, is an aNRW).
Stamp stampOf(EventKind k) {
    switch (k) {
        case EventKind::LR: return aCR;
        case EventKind::LW: return aCW;
        case EventKind::CAS: return aCAS;
        case EventKind::F: return aMF;
        case EventKind::WT: return aWT;
        case EventKind::NLR: return aNLR;
        case EventKind::NRW: return aNRW;
        case EventKind::NAR: return aNAR;
        case EventKind::NAW: return aNRW;  // the remote write of a successful RMW
        case EventKind::NRR: return aNRR;
        case EventKind::NLW: return aNLW;
        case EventKind::NF: return aRF;
        case EventKind::GF: return aGF;
        case EventKind::P: break;   // RDMA^TSO only
        default: break;  // the libraries' kinds, below: they are no constants
    }
    if (k == bal::BX) return aCR;  // BAL's exit (§6.1), neither read nor write
    // The locks' subevents (RMW §4.2-§4.4): Acq {aMF}; Rel_WL {aCW};
    // Rel_SL {aGF_n}; Rel_NL {aRF_n, aNRW_n}.
    if (k == locks::ACQ) return aMF;
    if (k == locks::RCW) return aCW;
    if (k == locks::RGF) return aGF;
    if (k == locks::RRF) return aRF;
    if (k == locks::RNRW) return aNRW;
    // RDMA^SC_RMW (RMW Def. 8): every event is aMF.
    if (k == sc::SCR || k == sc::SCW || k == sc::SCU) return aMF;
    // RBL (LOCO §5.1): Submit -> true {aCW, aNRW_n}; false {aWT};
    // Receive -> values {aCR}; ⊥ {aWT}.
    if (k == rbl::SUBCW) return aCW;
    if (k == rbl::SUBNRW) return aNRW;
    if (k == rbl::SUBF || k == rbl::RECVF) return aWT;
    if (k == rbl::RECV) return aCR;
    ADD_FAILURE() << "no MOWGLI stamp for " << kindName(k);
    return aMF;
}

MowgliOracle::MowgliOracle(const LitmusTest& test, const std::vector<ObservedName>& shown, Variant variant)
    : test_(test), shown_(shown), variant_(variant), program_(unfold(test, UnfoldOptions{})) {
    domain_ = {0, 1, 2};
    std::function<void(const Value&)> constants = [&](const Value& v) {
        if (v.kind == Value::Kind::Const) domain_.insert(v.constant);
        for (const Value& a : v.args) constants(a);
    };
    for (const auto& paths : program_.paths)
        for (const ThreadPath& p : paths) {
            for (const Event& e : p.events) constants(e.written);
            for (const ValueConstraint& c : p.constraints) {
                constants(c.lhs);
                constants(c.rhs);
            }
        }
    for (const Location& l : program_.locations) domain_.insert(l.init);
    std::function<void(const Cond&)> atoms = [&](const Cond& c) {
        if (c.kind == Cond::Kind::Atom) domain_.insert(c.value);
        for (const Cond& a : c.args) atoms(a);
    };
    atoms(test.condition);
    // b(z): the threads with a call on z on any of their paths (a BAL exit on z's location).
    for (size_t t = 0; t < program_.paths.size(); ++t)
        for (const ThreadPath& p : program_.paths[t])
            for (const Event& e : p.events)
                if (e.library == kBal && e.kind == bal::BX) participants_[e.location].insert(int(t));
    std::map<int, std::set<int>> barriers;  // the program's, on the locations of barrier calls
    for (const auto& [location, threads] : program_.participants)
        if (participants_.count(location)) barriers[location] = threads;
    EXPECT_EQ(participants_, barriers) << "participants of the barriers";
}

// §3.5: table(kind(a1), kind(a2)) is ✓, or SN with node(a1) = node(a2).
bool MowgliOracle::stampOrdered(size_t a, size_t b) const {
    const char c = variant_.g10Sn && s_[a].stamp == aNRW && s_[b].stamp == aRF ? 'S' : kSto[s_[a].stamp][s_[b].stamp];
    return c == 'Y' || (c == 'S' && s_[a].node == s_[b].node);
}

void MowgliOracle::skeleton() {
    n_ = sk_.events.size();
    if (n_ > kMaxEvents) {
        ADD_FAILURE() << "oracle: " << n_ << " events, more than " << kMaxEvents;
        return;
    }
    s_.assign(n_, Sub{});
    for (size_t e = 0; e < n_; ++e) {
        const Event& ev = sk_.events[e];
        s_[e].location = ev.location;
        if (ev.thread < 0) {
            s_[e].stamp = aCW;  // the initial value; no subevent of the papers
            continue;
        }
        s_[e].stamp = stampOf(ev.kind);
        // RBL's calls other than aNRW_n have no n; the oracle takes nodes from the test.
        s_[e].node = ev.library == kRbl && ev.kind != rbl::SUBNRW ? 0 : ev.remote;
        s_[e].thread = ev.thread;
        s_[e].call = ev.call;
        s_[e].work = ev.workId;
        s_[e].library = ev.library;
    }
    for (const auto& evs : sk_.threadEvents)
        for (size_t i = 0; i < evs.size(); ++i) {
            s_[evs[i]].position = static_cast<int>(i);
            s_[evs[i]].callRank = i == 0 ? 0 : s_[evs[i - 1]].callRank + (s_[evs[i]].call != s_[evs[i - 1]].call);
        }
    // Locations belong to one library each: SV copies x@n to SV, the rest to Core.
    std::map<int, std::set<Library>> libs;
    for (size_t e = 0; e < n_; ++e)
        if (s_[e].thread >= 0 && s_[e].location >= 0) libs[s_[e].location].insert(s_[e].library);
    for (const auto& [l, set] : libs) EXPECT_EQ(set.size(), 1u) << "location " << program_.locations[l].name;
    checkStamping();
    if (!balRounds()) return;
    lockCalls();
    if (!rblCalls() || !bindReceived()) return;
    readList_.clear();
    for (size_t e = 0; e < n_; ++e)
        if (reads(e)) readList_.push_back(e);
    // rf: each read takes one write of its location, or the initial value (the
    // skeleton's initial write, which stands for "no rf source"); mo_x: a
    // strict total order on the writes to x (no initialisation write).
    std::vector<std::vector<int>> writesTo(program_.locations.size());
    for (size_t e = 0; e < n_; ++e)
        if (writes(e)) writesTo[s_[e].location].push_back(static_cast<int>(e));
    auto isSource = [&](size_t w, size_t r) {
        return s_[w].location == s_[r].location && (sk_.events[w].thread < 0 || writes(w));
    };
    forEachCandidate(c_, n_, readList_, isSource, writesTo, [&] { evaluate(); });
}

// A consistent execution whose values depend on themselves: every solution
// from a finite domain (0..2, the test's constants) is a final state.
void MowgliOracle::thinAir() {
    Relation dep(n_);
    for (size_t r : readList_)
        for (int d : dependencies(sk_, c_, r)) dep.add(r, static_cast<size_t>(d));
    dep = dep.closure();
    std::vector<size_t> cyclic;
    for (size_t r : readList_)
        if (dep.has(r, r)) cyclic.push_back(r);
    const std::vector<long long> domain(domain_.begin(), domain_.end());
    std::vector<size_t> digit(cyclic.size(), 0);
    for (;;) {
        std::map<size_t, long long> guesses;
        for (size_t i = 0; i < cyclic.size(); ++i) guesses[cyclic[i]] = domain[digit[i]];
        std::vector<long long> readValues;
        if (values(sk_, c_, readList_, readValues, guesses) && constraintsHold(sk_, readValues)) {
            ++result_.thinAir;
            record(readValues);
        }
        size_t i = 0;
        while (i < digit.size() && ++digit[i] == domain.size()) digit[i++] = 0;
        if (i == digit.size()) break;
    }
}

// rb (§4.5, §5.1): same location, and w mo-after r's source, or r has no source;
// without the identity.
bool MowgliOracle::readsBefore(size_t r, size_t w) const {
    if (!reads(r) || !writes(w) || r == w || s_[r].location != s_[w].location) return false;
    const int src = c_.rf[r];
    const bool noSource = sk_.events[src].thread < 0;
    return noSource || moBefore(static_cast<size_t>(src), w);
}

// --- the relations ----------------------------------------------------
void MowgliOracle::evaluate() {
    std::vector<long long> readValues;
    // Relations do not depend on values, so values only filter: first, unless
    // they depend on themselves.
    const bool determined = values(sk_, c_, readList_, readValues);
    if (determined && !constraintsHold(sk_, readValues)) return;
    ++result_.candidates;

    const Relation empty(n_);
    Relation ppo = empty;  // over all events (§2.3)
    Relation ippo = empty, isoC = empty, rfC = empty, rfeC = empty, rbC = empty, rbiC = empty, pfg = empty,
           pfp = empty, moC = empty;
    Relation isoS = empty, rfeS = empty, pfS = empty, rbS = empty, moS = empty;
    Relation scSo = empty;
    for (size_t a = 0; a < n_; ++a)
        for (size_t b = 0; b < n_; ++b) {
            if (po(a, b) && stampOrdered(a, b) &&
                (!variant_.immediatePpo || s_[b].callRank == s_[a].callRank + 1))
                ppo.add(a, b);
            // Core: RDMA^WAIT_RMW on its restriction.
            if (core(a) && core(b)) {
                // ippo = ppo ∪ [aCW];po;[aCR ∪ aWT] ∪ ⋃_n [aNRW_n ∪ aNLW_n];po;[aRF_n]
                if (ppo.has(a, b) ||
                    (variant_.ippoExtra && po(a, b) &&
                     ((is(a, aCW) && (is(b, aCR) || is(b, aWT))) ||
                      ((is(a, aNRW) || is(a, aNLW)) && is(b, aRF) && s_[a].node == s_[b].node))))
                    ippo.add(a, b);
                if (sameCall(a, b)) {
                    const bool rmwCall = std::any_of(sk_.threadEvents[s_[a].thread].begin(),
                                                     sk_.threadEvents[s_[a].thread].end(), [&](int e) {
                                                         return s_[e].call == s_[a].call && s_[e].stamp == aNAR;
                                                     });
                    const bool iso =
                        (is(a, aMF) && is(b, aCR)) ||                                  // failed CAS
                        (is(a, aNRR) && is(b, aNLW)) ||                                // Get
                        (is(a, aNLR) && is(b, aNRW)) ||                                // Put
                        (rmwCall && is(a, aNAR) && is(b, aNRW)) ||                     // successful RMW
                        (rmwCall && variant_.isoNarNlw && is(a, aNAR) && is(b, aNLW));  // RMW result
                    if (iso && s_[a].node == s_[b].node) isoC.add(a, b);
                }
                if (hasRf(a, b)) {
                    rfC.add(a, b);
                    // rf_i = [aCW];(po ∩ rf);[aCR]
                    if (variant_.rfIInSo || !(is(a, aCW) && po(a, b) && is(b, aCR))) rfeC.add(a, b);
                }
                if (readsBefore(a, b)) {
                    rbC.add(a, b);
                    // rb_i = [aCR];((po ∪ po^-1) ∩ rb);[aCW]
                    if (variant_.rbI && is(a, aCR) && is(b, aCW) && (po(a, b) || po(b, a))) rbiC.add(a, b);
                }
                // pfg/pfp: (e1, e2) ∈ po|d, e2 a Wait(d).
                const bool waited = is(b, aWT) && s_[a].work >= 0 && s_[a].work == s_[b].work && po(a, b);
                if (waited && is(a, aNLW)) pfg.add(a, b);
                if (waited && is(a, aNRW)) pfp.add(a, b);
                if (writes(a) && writes(b) && s_[a].location == s_[b].location && moBefore(a, b)) moC.add(a, b);
            }
            // SC on its restriction: po, rf, mo, rb, all of them.
            if (sc(a) && sc(b) && (po(a, b) || hasRf(a, b) || readsBefore(a, b) ||
                                   (writes(a) && writes(b) && s_[a].location == s_[b].location && moBefore(a, b))))
                scSo.add(a, b);
            // SV on its restriction.
            if (sv(a) && sv(b)) {
                if (sameCall(a, b) && is(a, aNLR) && is(b, aNRW) && s_[a].node == s_[b].node) isoS.add(a, b);
                if (hasRf(a, b) && (variant_.rfIInSo || !(is(a, aCW) && po(a, b) && is(b, aCR)))) rfeS.add(a, b);
                if (is(a, aNLR) && is(b, aWT) && s_[a].work >= 0 && s_[a].work == s_[b].work && po(a, b))
                    pfS.add(a, b);
                if (readsBefore(a, b)) {
                    rbS.add(a, b);
                    // [aCR];(po^-1 ∩ rb);[aCW] = ∅
                    if (variant_.svCondition && is(a, aCR) && is(b, aCW) && po(b, a)) return;
                }
                if (writes(a) && writes(b) && s_[a].location == s_[b].location && moBefore(a, b)) moS.add(a, b);
            }
        }
    for (size_t r : readList_) {  // locations are per library (checked in skeleton())
        if (sk_.events[c_.rf[r]].thread >= 0) {
            EXPECT_TRUE(sameLib(static_cast<size_t>(c_.rf[r]), r));
        }
    }

    auto note = [&](const char* name, const Relation& m) {
        if (!m.empty()) result_.features.insert(name);
    };
    note("pfg", pfg);
    note("pfp", pfp);
    note("rb_i", rbiC);
    note("sv:pf", pfS);
    note("sv:iso", isoS);
    note("sv:rb", rbS);
    note("bal:so", balSo_);
    note("sc:so", scSo);
    ibBase_ = ippo | isoC | rfC | pfg | pfp | rbiC;
    hbBase_ = ppo;
    for (const Relation* m : {&isoC, &rfeC, &rbC, &moC, &isoS, &rfeS, &pfS, &rbS, &moS}) hbBase_ |= *m;
    if (variant_.pfgInSo) hbBase_ |= pfg;
    if (variant_.balSo) hbBase_ |= balSo_;
    if (variant_.pfpInSo) hbBase_ |= pfp;
    if (variant_.nlIntraCall) hbBase_ |= nlIntra_;
    if (variant_.scSo) hbBase_ |= scSo;
    hbBase_ |= rblSo_;
    note("rbl:so", rblSo_);
    isoC_ = isoC;

    // nfo: one orientation of every same-thread, same-n pair in
    // (aNLR_n × aNLW_n) ∪ ((aNRR_n ∪ aNAR_n) × aNRW_n), Core only.
    std::vector<std::pair<int, int>> nfoPairs;
    for (size_t a = 0; a < n_; ++a)
        for (size_t b = 0; b < n_; ++b)
            if (variant_.nfo && core(a) && core(b) && s_[a].thread == s_[b].thread && s_[a].node == s_[b].node &&
                ((is(a, aNLR) && is(b, aNLW)) || ((is(a, aNRR) || is(a, aNAR)) && is(b, aNRW))))
                nfoPairs.emplace_back(a, b);
    // rao_n: a strict total order on the Core aNAR_n subevents, per n.
    std::map<int, std::vector<int>> byNode;
    for (size_t a = 0; a < n_; ++a)
        if (core(a) && is(a, aNAR)) byNode[s_[a].node].push_back(static_cast<int>(a));
    raoGroups_.clear();
    for (auto& [node, group] : byNode) raoGroups_.push_back(group);
    if (!nfoPairs.empty()) result_.features.insert("nfo");
    for (const auto& g : raoGroups_)
        if (g.size() > 1) result_.features.insert("rao");
    for (const auto& g : lockGroups_)
        if (g.size() > 1) result_.features.insert("lo");

    // Every condition only grows with nfo and rao: without them first.
    if (!consistent(ibBase_, hbBase_)) return;
    const bool witnessed = someOrientation(
        nfoPairs, [&](const Relation& nfo) { return withRao(ibBase_ | nfo, hbBase_ | nfo); }, n_);
    if (!witnessed) return;
    // nfo and rao are witnesses: one execution per (skeleton, rf, mo)
    if (determined) {
        record(readValues);
    } else {
        thinAir();
    }
}

// rao_n: every strict total order on the Core aNAR_n subevents, with
// [aNRW];iso^-1;rao.
bool MowgliOracle::withRao(const Relation& ib, const Relation& hb) const {
    return someTotalOrders(raoGroups_, [&](const std::vector<std::vector<int>>& orders) {
        Relation hbRao = hb;
        for (const std::vector<int>& order : orders)
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) {
                    hbRao.add(order[i], order[j]);  // rao
                    for (size_t w = 0; w < n_; ++w)
                        if (variant_.arRao && is(w, aNRW) && isoC_.has(order[i], w)) hbRao.add(w, order[j]);
                }
        return withLo(ib, hbRao);
    });
}

// lo_l: every strict total order on lock l's acquires; so|L from the exported
// stamps of an acquire's release to every acquire after it (RMW §4.1).
bool MowgliOracle::withLo(const Relation& ib, const Relation& hb) const {
    return someTotalOrders(lockGroups_, [&](const std::vector<std::vector<int>>& orders) {
        Relation hbLo = hb;
        for (const std::vector<int>& order : orders)
            for (size_t i = 0; i < order.size() && variant_.lockSo; ++i)
                for (size_t j = i + 1; j < order.size(); ++j) {
                    auto it = exported_.find(order[i]);
                    if (it != exported_.end())
                        for (int s : it->second) hbLo.add(s, order[j]);
                }
        return consistent(ib, hbLo);
    });
}

// (1) ib irreflexive; so ∋ [Inst];ib; hb = (ppo ∪ so)+ irreflexive; under
// the weak RBL, no fb edge against hb.
bool MowgliOracle::consistent(const Relation& ibEdges, Relation hb) const {
    const Relation ib = ibEdges.closure();
    if (!ib.irreflexive()) return false;
    if (variant_.instIbInSo)
        for (size_t a = 0; a < n_; ++a)
            if (core(a) && isInstStamp(s_[a].stamp)) hb.row(a) |= ib.row(a);
    hb = hb.closure();
    for (size_t f = 0; f < n_; ++f)
        for (size_t w = 0; w < n_; ++w)
            if (rblFb_.has(f, w) && hb.has(w, f)) return false;
    return hb.irreflexive();
}

void MowgliOracle::record(const std::vector<long long>& readValues) {
    result_.record(test_, program_, sk_, c_, shown_, readValues);
}

}  // namespace rdmacheck::oracles::mowgli
