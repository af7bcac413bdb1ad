// The MOWGLI oracle's libraries: BAL's rounds (LOCO Def. 4.1), the locks' lo
// groups and exported stamps (RMW §4), RBL's forced rf, fb and
// received values (LOCO §5.1, Defs. 5.1-5.2), and the check that
// the unfolder stamps and addresses every call as §4.2 and §5.1 say.
#include "mowgli_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace rdmacheck::oracles::mowgli {

namespace {

// A value a receive returned (Value::received): the index-th value of its message.
bool hasReceived(const Value& v) {
    return v.isReceived() || std::any_of(v.args.begin(), v.args.end(), hasReceived);
}

// v with each value receive r returned replaced by the one its message holds.
void bindReceivedBy(Value& v, size_t r, const std::vector<Value>& message) {
    if (v.isReceived() && v.event == static_cast<int>(r)) {
        const size_t index = static_cast<size_t>(v.constant - 1);
        if (index >= message.size()) {
            ADD_FAILURE() << "a receive returns more values than its submit sent";
            return;
        }
        v = message[index];
        return;
    }
    for (Value& a : v.args) bindReceivedBy(a, r, message);
}

}  // namespace

// The unfolder's calls are well stamped (§4.2 stmp_RW, §5.1 stmp_SV) and well
// addressed (§4.1: local operands on the caller's node, remote ones on n).
void MowgliOracle::checkStamping() const {
    std::map<std::pair<int, int>, std::vector<size_t>> calls;
    for (size_t e = 0; e < n_; ++e)
        if (s_[e].thread >= 0) calls[{s_[e].thread, s_[e].call}].push_back(e);
    for (const auto& [key, subs] : calls) {
        const int home = test_.threads[key.first].node;
        std::string shape;  // the call's stamps, in po order
        std::set<int> nodes, works;
        std::set<Library> libraries;
        for (size_t e : subs) {
            shape += std::string(shape.empty() ? "" : " ") + kStampNames[s_[e].stamp];
            works.insert(s_[e].work);
            libraries.insert(s_[e].library);
            const Stamp st = s_[e].stamp;
            const bool family = st == aNLR || st == aNRW || st == aNAR || st == aNRR || st == aNLW || st == aRF ||
                                st == aGF;
            EXPECT_EQ(family, s_[e].node > 0) << kStampNames[st];
            if (family && st != aGF) nodes.insert(s_[e].node);
            const int l = s_[e].location;
            if (l < 0 || bal(e) || lock(e) || sc(e) || rbl(e)) continue;  // a barrier, a lock, an SC location: on no node its users name
            // remote operands on n, everything else on the caller's node
            const bool remote = st == aNRW || st == aNAR || st == aNRR;
            EXPECT_EQ(program_.locations[l].node, remote ? s_[e].node : home)
                << kStampNames[st] << " on " << program_.locations[l].name;
        }
        EXPECT_EQ(works.size(), 1u) << shape;
        ASSERT_EQ(libraries.size(), 1u) << shape;
        static const std::set<std::string> core = {
            "aCW", "aCR", "aCAS", "aMF aCR", "aMF", "aNRR aNLW", "aNLR aNRW", "aWT", "aRF", "aNAR aNLW",
            "aNAR aNRW aNLW"};
        if (*libraries.begin() == kBal) {
            // aGF_n for distinct n ⊇ the participants' nodes, then the aCR exit, all on z
            const size_t exit = subs.back();
            EXPECT_EQ(sk_.events[exit].kind, bal::BX) << shape;
            std::set<int> gfNodes, want, where;
            for (size_t e : subs) where.insert(s_[e].location);
            for (size_t i = 0; i + 1 < subs.size(); ++i) {
                EXPECT_EQ(s_[subs[i]].stamp, aGF) << shape;
                EXPECT_TRUE(gfNodes.insert(s_[subs[i]].node).second) << shape;
            }
            EXPECT_EQ(where.size(), 1u) << shape;
            EXPECT_TRUE(program_.locations[s_[exit].location].hidden);
            for (int t : participants_.at(s_[exit].location)) want.insert(test_.threads[t].node);
            EXPECT_TRUE(std::includes(gfNodes.begin(), gfNodes.end(), want.begin(), want.end())) << shape;
            continue;
        }
        if (lock(subs[0])) {
            expectLockCall(subs, shape);
            continue;
        }
        if (rbl(subs[0])) {
            expectRblCall(subs, shape);
            continue;
        }
        if (sc(subs[0])) {  // one aMF on a declared SC location
            EXPECT_EQ(shape, "aMF");
            const std::string& name = program_.locations[s_[subs[0]].location].name;
            EXPECT_TRUE(std::any_of(test_.locations.begin(), test_.locations.end(),
                                    [&](const LocationDecl& d) { return d.sc && d.name == name; }))
                << name;
            continue;
        }
        if (*libraries.begin() == Library::Core) {
            EXPECT_TRUE(core.count(shape)) << "Core call stamped " << shape;
            EXPECT_LE(nodes.size(), 1u) << shape;
            continue;
        }
        // SV: Write_sv, Read_sv, Wait_sv, GF_sv (aGF per node), Bcast_sv (aNLR_n aNRW_n per node)
        bool ok = shape == "aCW" || shape == "aCR" || shape == "aWT";
        if (!ok && s_[subs[0]].stamp == aGF)
            ok = std::all_of(subs.begin(), subs.end(), [&](size_t e) { return s_[e].stamp == aGF; });
        if (!ok && subs.size() % 2 == 0) {
            ok = true;
            for (size_t i = 0; i < subs.size(); i += 2)
                ok = ok && s_[subs[i]].stamp == aNLR && s_[subs[i + 1]].stamp == aNRW &&
                     s_[subs[i]].node == s_[subs[i + 1]].node;
        }
        EXPECT_TRUE(ok) << "SV call stamped " << shape;
    }
}

// RMW §4.2-§4.4: Acq {aMF}; Rel_WL {aCW}; Rel_SL {aGF_n : n ∈ Node}; Rel_NL
// {aRF_n, aNRW_n}, n the lock's home; all on the lock's hidden location.
void MowgliOracle::expectLockCall(const std::vector<size_t>& subs, const std::string& shape) const {
    EXPECT_TRUE(program_.locations[s_[subs[0]].location].hidden) << shape;
    if (shape == "aMF") return;
    const Library l = s_[subs[0]].library;
    if (l == kWl) {
        EXPECT_EQ(shape, "aCW");
    } else if (l == kNl) {
        EXPECT_EQ(shape, "aRF aNRW");
        EXPECT_EQ(s_[subs[0]].node, s_[subs[1]].node);
    } else {
        std::set<int> nodes, all;
        for (size_t e : subs) {
            EXPECT_EQ(s_[e].stamp, aGF) << shape;
            nodes.insert(s_[e].node);
        }
        for (const ThreadDecl& t : test_.threads) all.insert(t.node);
        for (const Location& loc : program_.locations)
            if (!loc.hidden) all.insert(loc.node);
        EXPECT_TRUE(std::includes(nodes.begin(), nodes.end(), all.begin(), all.end())) << shape;
    }
}

// LOCO §5.1: a successful submit is aCW then aNRW_n for each node of a
// reader but the writer's; a failed call is aWT; a successful receive aCR.
void MowgliOracle::expectRblCall(const std::vector<size_t>& subs, const std::string& shape) const {
    EXPECT_TRUE(program_.locations[s_[subs[0]].location].hidden) << shape;
    if (shape == "aWT" || shape == "aCR") return;
    std::set<int> readerNodes, nodes;
    for (size_t e = 0; e < n_; ++e)
        if (rbl(e) && s_[e].location == s_[subs[0]].location && (is(e, aCR) || sk_.events[e].kind == rbl::RECVF))
            readerNodes.insert(nodeOf(e));
    EXPECT_EQ(s_[subs[0]].stamp, aCW) << shape;
    for (size_t i = 1; i < subs.size(); ++i) {
        EXPECT_EQ(s_[subs[i]].stamp, aNRW) << shape;
        nodes.insert(s_[subs[i]].node);
    }
    readerNodes.erase(nodeOf(subs[0]));
    // the readers this skeleton shows; a reader's other paths may add nodes
    EXPECT_TRUE(std::includes(nodes.begin(), nodes.end(), readerNodes.begin(), readerNodes.end())) << shape;
}

// RBL (LOCO §5.1): per buffer x and node n, W^n (the successful
// submits' aNRW_n, and their aCW when n is the writer's node), R^n and F^n
// (the successful and failed receives of threads on n). Every rf with one
// source in W^n per read of R^n (Def. 5.1 (1), (2)), no message read twice
// by a thread (4) and none skipped (5) is enumerated; there must be at most
// one (§9.2), and none only where the skeleton says it has no execution.
// so|RBL = rf ∪ fb, fb = (F^n × W^n) \ (po^-1 ; rf^-1).
bool MowgliOracle::rblCalls() {
    rblSo_ = Relation(n_);
    rblFb_ = Relation(n_);
    rblSource_.assign(n_, -1);
    std::map<int, std::vector<size_t>> receives;            // per buffer, in event order
    std::map<std::pair<int, int>, std::vector<size_t>> copies;  // W^n_x per (x, n)
    for (size_t e = 0; e < n_; ++e) {
        if (!rbl(e)) continue;
        const int x = s_[e].location;
        const EventKind k = sk_.events[e].kind;
        if (is(e, aCW)) copies[{x, nodeOf(e)}].push_back(e);
        if (is(e, aNRW)) copies[{x, s_[e].node}].push_back(e);
        if (is(e, aCR) || k == rbl::RECVF) receives[x].push_back(e);
    }
    bool feasible = true;
    for (const auto& [x, rs] : receives) {
        std::vector<size_t> reads;
        for (size_t r : rs)
            if (is(r, aCR)) reads.push_back(r);
        std::vector<int> source(n_, -1), forced;
        int found = 0;
        std::function<void(size_t)> choose = [&, x = x](size_t i) {
            if (i == reads.size()) {
                if (rblWellFormed(reads, source)) ++found, forced = source;
                return;
            }
            for (size_t w : copies[{x, nodeOf(reads[i])}]) {
                source[reads[i]] = static_cast<int>(w);
                choose(i + 1);
            }
        };
        choose(0);
        EXPECT_LE(found, 1) << "RBL's rf is forced (doc/model-notes.md §N11)";
        if (found == 0) {
            feasible = false;
            continue;
        }
        for (size_t r : reads) {
            rblSo_.add(static_cast<size_t>(forced[r]), r);
            rblSource_[r] = forced[r];
        }
        for (size_t f : rs) {
            if (is(f, aCR) || !variant_.rblFb) continue;
            for (size_t w : copies[{x, nodeOf(f)}]) {
                const bool receivedBefore = std::any_of(reads.begin(), reads.end(), [&](size_t r) {
                    return po(r, f) && forced[r] == static_cast<int>(w);
                });
                if (!receivedBefore) (variant_.rblWeak ? rblFb_ : rblSo_).add(f, w);
            }
        }
    }
    if (!feasible) {
        EXPECT_TRUE(sk_.illFormed.has_value()) << "a reader receives more than was submitted";
    }
    return feasible;
}

// Def. 5.1 (4) and (5) for one buffer's reads and their sources.
bool MowgliOracle::rblWellFormed(const std::vector<size_t>& reads, const std::vector<int>& source) const {
    for (size_t r1 : reads)
        for (size_t r2 : reads)
            if (r1 != r2 && s_[r1].thread == s_[r2].thread && source[r1] == source[r2]) return false;  // (4)
    for (size_t s4 : reads) {  // (5): s1 po s2 rf s4, s1 in s2's W^n, needs s1 rf s3 po s4
        const size_t s2 = static_cast<size_t>(source[s4]);
        for (size_t s1 = 0; s1 < n_; ++s1) {
            const bool sameCopies = rbl(s1) && s_[s1].location == s_[s2].location &&
                                    s_[s1].stamp == s_[s2].stamp && s_[s1].node == s_[s2].node;
            if (!sameCopies || !po(s1, s2)) continue;
            const bool read = std::any_of(reads.begin(), reads.end(), [&](size_t s3) {
                return source[s3] == static_cast<int>(s1) && po(s3, s4);
            });
            if (!read) return false;
        }
    }
    return true;
}

// Def. 5.1 (3): each successful receive returns the values of the submit its
// rf source is a copy of, which that submit's aCW carries (Event::message).
// False, after a failure, if a received value is left unbound.
bool MowgliOracle::bindReceived() {
    for (size_t r = 0; r < n_; ++r) {
        if (rblSource_[r] < 0) continue;
        const std::vector<Value> message = sk_.events[messageCarrier(size_t(rblSource_[r]))].message;
        if (!message.empty()) result_.features.insert("rbl:values");
        bindEverywhere(r, message);
    }
    const bool unbound = anyReceived();
    EXPECT_FALSE(unbound) << "a received value no successful receive binds";
    return !unbound;
}

bool MowgliOracle::anyReceived() const {
    for (const Event& e : sk_.events)
        if (hasReceived(e.written)) return true;
    for (const ValueConstraint& c : sk_.constraints)
        if (hasReceived(c.lhs) || hasReceived(c.rhs)) return true;
    for (const auto& regs : sk_.registers)
        for (const auto& [name, v] : regs)
            if (hasReceived(v)) return true;
    return false;
}

// The aCW of the submit that copy w belongs to (the mutant: the buffer's first aCW).
size_t MowgliOracle::messageCarrier(size_t w) const {
    for (size_t e = 0; e < n_; ++e) {
        const bool carrier = variant_.rblValuesFromRf ? sameCall(e, w) : s_[e].location == s_[w].location;
        if (rbl(e) && is(e, aCW) && carrier) return e;
    }
    ADD_FAILURE() << "a submit's copy without its aCW";
    return w;
}

// Replaces what receive r received in every value of the skeleton.
void MowgliOracle::bindEverywhere(size_t r, const std::vector<Value>& message) {
    for (Event& e : sk_.events) bindReceivedBy(e.written, r, message);
    for (ValueConstraint& c : sk_.constraints) {
        bindReceivedBy(c.lhs, r, message);
        bindReceivedBy(c.rhs, r, message);
    }
    for (auto& regs : sk_.registers)
        for (auto& [name, v] : regs) bindReceivedBy(v, r, message);
}

// Per lock, its acquires (lo's groups) and the exported stamps of the release
// that follows each in its thread (the calls alternate, RMW Def. 4); NLOCK's
// aRF_n -> aNRW_n inside each release is static.
void MowgliOracle::lockCalls() {
    lockGroups_.clear();
    exported_.clear();
    nlIntra_ = Relation(n_);
    std::map<int, std::vector<int>> groups;
    for (const auto& evs : sk_.threadEvents) {
        std::map<int, int> open;  // per lock location: its acquire
        for (int e : evs) {
            if (!lock(e)) continue;
            const int l = s_[e].location;
            if (s_[e].stamp == aMF) {
                open[l] = e;
                groups[l].push_back(e);
                continue;
            }
            const Library lib = s_[e].library;
            const bool exports = (lib == kWl && is(e, aCW)) || (lib == kSl && is(e, aGF)) || (lib == kNl && is(e, aNRW));
            if (exports) exported_[open.at(l)].push_back(e);
            if (lib == kNl && is(e, aNRW))
                for (int f : evs)
                    if (sameCall(f, e) && is(f, aRF)) nlIntra_.add(f, e);
        }
    }
    for (auto& [l, group] : groups) lockGroups_.push_back(group);
}

// §6.1: per barrier z, each participant's calls on z in po order; o(e) is the
// index. Unequal counts: no execution. so|BAL: every aGF subevent of an i-th
// call -> the aCR exit of every i-th call (the same call included).
bool MowgliOracle::balRounds() {
    balSo_ = Relation(n_);
    bool equal = true;
    for (const auto& [z, threads] : participants_) {
        std::map<int, std::vector<std::vector<size_t>>> calls;  // thread -> its calls on z -> subevents
        for (int t : threads) {
            calls[t];
            int last = -1;
            for (int e : sk_.threadEvents[t]) {
                if (!bal(e) || s_[e].location != z) continue;
                if (s_[e].call != last) calls[t].emplace_back();
                last = s_[e].call;
                calls[t].back().push_back(size_t(e));
            }
        }
        size_t lo = SIZE_MAX, hi = 0;
        for (const auto& [t, cs] : calls) lo = std::min(lo, cs.size()), hi = std::max(hi, cs.size());
        equal = equal && lo == hi;
        for (size_t i = 0; i < lo; ++i)
            for (const auto& [t1, c1] : calls)
                for (size_t g : c1[i])
                    if (is(g, aGF))
                        for (const auto& [t2, c2] : calls)
                            for (size_t x : c2[i])
                                if (sk_.events[x].kind == bal::BX) balSo_.add(g, x);
    }
    EXPECT_TRUE(equal || sk_.illFormed.has_value()) << "BAL call counts";  // RBL may also say no execution
    return equal || !variant_.balCount;
}

}  // namespace rdmacheck::oracles::mowgli
