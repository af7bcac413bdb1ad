// The barrier library BAL (MOWGLI.md §6.1, LOCO Def. 4.1): `bar(z)` waits for
// the earlier work of every participant of z towards the participants' nodes
// (one aGF_n per node of a participant) and exits at an aCR point. Its so, from
// the entries of the i-th calls to the exits of the i-th calls, is the model
// files' "bal:round".
#include <set>

#include "rdmacheck/library.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

namespace {

class Barriers : public LibraryDescriptor {
public:
    // bar: the global fence covers the participants' nodes (LOCO Def. 4.1);
    // tbar, the transitive variant LOCO ships (§4.3), covers every node.
    Barriers() : LibraryDescriptor("bal", {{"bar", {ArgKind::Barrier}}, {"tbar", {ArgKind::Barrier}}}) {}

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out) const override {
        const int barrier = out.barrier(args[0].variable);
        const std::vector<int> nodes = method == "tbar" ? out.allNodes() : out.participantNodes(args[0].variable);
        for (int n : nodes) out.emit(EventKind::GF, barrier, n, -1);
        out.emit(EventKind::BX, barrier, 0, -1);
        return Value();
    }

    // Every participant of a barrier makes as many calls on it (LOCO Def. 4.1).
    std::optional<std::string> illFormed(const UnfoldedProgram& program, const Skeleton& sk) const override {
        for (const auto& [location, threads] : program.barriers) {
            std::set<int> counts;
            for (int t : threads) counts.insert(callsOn(sk, t, location));
            if (counts.size() > 1)
                return "the participants of barrier " + program.locations[location].name +
                       " make different numbers of calls on it (MOWGLI.md §6.1)";
        }
        return std::nullopt;
    }

private:
    static int callsOn(const Skeleton& sk, int thread, int barrier) {
        int calls = 0;
        for (int e : sk.threadEvents[thread])
            calls += sk.events[e].kind == EventKind::BX && sk.events[e].location == barrier;
        return calls;
    }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> barrierLibrary() { return std::make_unique<Barriers>(); }

}  // namespace rdmacheck
