// The barrier library BAL (LOCO Def. 4.1): `bar(z)` waits for
// the earlier work of every participant of z towards the participants' nodes
// (one aGF_n per node of a participant) and exits at an aCR point. Its so, from
// the entries of the i-th calls to the exits of the i-th calls, is the
// relation "round" the models scope to it ("bal:round").
#include <map>
#include <set>

#include "libraries/bal/bal.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::bal {

namespace {

// The round of each barrier event (gF or barX): how many exits on its barrier
// its thread passed before it.
std::map<int, int> barrierRounds(const ExecutionGraph& sk) {
    std::map<int, int> round;
    for (const auto& events : sk.threadEvents) {
        std::map<int, int> passed;  // per barrier location
        for (int e : events) {
            const Event& ev = sk.events[e];
            if (ev.kind != EventKind::GF && ev.kind != BX) continue;
            round[e] = passed[ev.location];
            if (ev.kind == BX) ++passed[ev.location];
        }
    }
    return round;
}

// BAL's so: from each gF of the i-th call on a barrier, of any participant, to
// the barX of every i-th call on it (the call's own included). SV's gF events
// have no location, so they are not entries.
std::vector<std::pair<int, int>> roundPairs(const ExecutionGraph& sk) {
    const std::map<int, int> round = barrierRounds(sk);
    std::vector<std::pair<int, int>> pairs;
    for (const auto& [entry, i] : round)
        for (const auto& [exit, j] : round)
            if (sk.events[entry].kind == EventKind::GF && sk.events[exit].kind == BX && i == j &&
                sk.events[entry].location == sk.events[exit].location && sk.events[entry].location >= 0)
                pairs.emplace_back(entry, exit);
    return pairs;
}

class Barriers : public LibraryDescriptor {
public:
    // bar: the global fence covers the participants' nodes (LOCO Def. 4.1);
    // tbar, the transitive variant LOCO ships (§4.3), covers every node. Both
    // are written bare, `bar(z)`, as in the papers.
    Barriers()
        : LibraryDescriptor("bal", {{"bar", {ArgKind::Name}, false, true}, {"tbar", {ArgKind::Name}, false, true}}) {}

    // A barrier's participants are the threads that call it, b(z) (LOCO Def. 4.1).
    void checkArgument(const Stmt& call, size_t i, CallScan& scan) const override {
        const CallArg& barrier = call.args[i];
        if (!isPlainName(barrier)) scan.expected("a barrier (a name)");
        scan.claimName(barrier.expr.name, "barrier", barrier.where);
        scan.takePart(barrier.expr.name);
    }

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out, int) const override {
        const int barrier = out.namedObject(args[0].variable);
        const std::vector<int> nodes = method == "tbar" ? out.allNodes() : out.participantNodes(args[0].variable);
        for (int n : nodes) out.emit(EventKind::GF, barrier, n, -1);
        out.emit(BX, barrier, 0, -1);
        return Value();
    }

    // Every participant of a barrier makes as many calls on it (LOCO Def. 4.1).
    // (Other libraries' names with participants, a buffer's, have no barrier
    // calls: every count is 0.)
    std::optional<std::string> illFormed(const UnfoldedProgram& program, const ExecutionGraph& sk) const override {
        for (const auto& [location, threads] : program.participants) {
            std::set<int> counts;
            for (int t : threads) counts.insert(callsOn(sk, t, location));
            if (counts.size() > 1)
                return "the participants of barrier " + program.locations[location].name +
                       " make different numbers of calls on it (LOCO Def. 4.1)";
        }
        return std::nullopt;
    }

    std::vector<BaseRelation> relations() const override {
        return {{"round",
                 "BAL's so: a barrier round's entries (gF) to its exits (barX)", "LOCO Def. 4.1", roundPairs}};
    }

    std::vector<const LibraryKind*> kinds() const override { return {&BX}; }

    std::string callLabel(const std::set<EventKind>&) const override { return "bal.barrier"; }

private:
    static int callsOn(const ExecutionGraph& sk, int thread, int barrier) {
        int calls = 0;
        for (int e : sk.threadEvents[thread])
            calls += sk.events[e].kind == BX && sk.events[e].location == barrier;
        return calls;
    }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> library() { return std::make_unique<Barriers>(); }

}  // namespace rdmacheck::bal
