// The lock libraries of the RMW paper §4 (RMW §4): the weak lock
// WLOCK (`wl`), the strong lock SLOCK (`sl`) and the node lock NLOCK (`nl`,
// whose locks have a home node, `nl.acq(l^2)`). An acquire is one aMF; a
// release is aCW (WLOCK), one aGF_n per node of the test (SLOCK), or aRF_n then
// aNRW_n towards the lock's home n (NLOCK). Their so, from the exported release
// stamps to the acquires later in lock order (lo, a choice of the execution),
// is model text (models/_wait.cat: wl-so, sl-so, nl-so).
#include <map>

#include "libraries/locks/locks.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::locks {

namespace {

// lo (the RMW paper's §4.1), the locks' choice (choices.hpp): per lock, by its
// location, a total order on the acquires of all three libraries.
ChosenRelation lockOrder() {
    auto acquiresByLock = [](const ExecutionGraph& sk) {
        EventGroups acquires;
        const EventKind acquire = ACQ;
        for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
            if (sk.events[e].kind == acquire) acquires[sk.events[e].location].push_back(e);
        return acquires;
    };
    return {"lo",
            "lock order: per lock, a total order on its acquires (chosen; a witness, like nfo and rao, so it does "
            "not multiply executions)",
            "RMW §4.1", {"wl", "sl", "nl"},
            ChoiceKind::GroupOrder, acquiresByLock, {"magenta", "solid", 80}};
}

class Locks : public LibraryDescriptor {
public:
    enum class Release { Weak, Strong, Node };

    Locks(const std::string& name, Release release)
        : LibraryDescriptor(name, {{"acq", {lockArg(release)}}, {"rel", {lockArg(release)}}}), release_(release) {}

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out, int) const override {
        const int lock = out.namedObject(args[0].variable);
        if (method == "acq") {
            out.emit(ACQ, lock, 0, -1);
            return Value();
        }
        switch (release_) {
            case Release::Weak: out.emit(RCW, lock, 0, -1); break;
            case Release::Strong:
                for (int n : out.allNodes()) out.emit(RGF, lock, n, -1);
                break;
            case Release::Node:
                out.emit(RRF, lock, args[0].nodes.at(0), -1);
                out.emit(RNRW, lock, args[0].nodes.at(0), -1);
                break;
        }
        return Value();
    }

    // Def. 4 (lock-well-formed): per thread and lock, acquire and release
    // alternate, starting with an acquire and ending with a release. The paper
    // allows any behaviour otherwise, which cannot be enumerated: an error at
    // the call (RMW Def. 4, doc/model-notes.md §N10). A thread cut at the unroll
    // bound may stop inside its critical section.
    std::optional<std::string> illFormed(const UnfoldedProgram& program, const ExecutionGraph& sk) const override {
        const Library self = *findLibrary(name());
        for (const auto& events : sk.threadEvents) {
            std::map<int, int> heldAt;  // per lock location: its open acquire
            int lastCall = -1;
            for (int e : events) {
                const Event& ev = sk.events[e];
                if (ev.library != self || ev.call == lastCall) continue;
                lastCall = ev.call;
                const std::string call = "(" + program.locations[ev.location].name + ")";
                const bool held = heldAt.count(ev.location) > 0;
                if (ev.kind == ACQ && held)
                    throw InputError(ev.where, name() + ".acq" + call + " again before its " + name() + ".rel" + call +
                                                   " in this thread (RMW Def. 4)");
                if (ev.kind != ACQ && !held)
                    throw InputError(ev.where, name() + ".rel" + call + " without a " + name() + ".acq" + call +
                                                   " before it in this thread (RMW Def. 4)");
                if (ev.kind == ACQ) {
                    heldAt[ev.location] = e;
                } else {
                    heldAt.erase(ev.location);
                }
            }
            if (!heldAt.empty() && sk.cutAt.empty()) {
                const Event& open = sk.events[heldAt.begin()->second];
                const std::string call = "(" + program.locations[open.location].name + ")";
                throw InputError(open.where, name() + ".acq" + call + " has no matching " + name() + ".rel" + call +
                                                 " later in this thread (RMW Def. 4)");
            }
        }
        return std::nullopt;
    }

    // A lock is a name of one lock library; NLOCK's, `l^2`, also names its
    // home, the same in every call.
    void checkArgument(const Stmt& call, size_t i, CallScan& scan) const override {
        const CallArg& lock = call.args[i];
        if (release_ != Release::Node) {
            if (!isPlainName(lock)) scan.expected("a lock (a name, without '^')");
            scan.claimName(lock.expr.name, name() + " lock", lock.where);
            return;
        }
        if (lock.isNodeSet || lock.expr.kind != Expr::Kind::Location || !lock.expr.remoteNode || lock.expr.name == "_")
            scan.expected("a node lock with its home node, e.g. l^2");
        scan.claimName(lock.expr.name, name() + " lock", lock.where);
        const int home = lock.expr.remoteNode;
        const int first = scan.firstSaid("home", lock.expr.name, home);
        if (first != home)
            throw InputError(lock.where, "lock " + lock.expr.name + " lives on node " + std::to_string(first) +
                                             " (its first call says so), not on node " + std::to_string(home));
        scan.addNode(home);
    }

    std::vector<const LibraryKind*> kinds() const override { return {&ACQ, &RCW, &RGF, &RRF, &RNRW}; }
    std::vector<ChosenRelation> choices() const override { return {lockOrder()}; }

    std::vector<GeneratedKind> generatedKinds() const override { return {generatedKind(name())}; }
    std::unique_ptr<StatementGenerator> generator() const override { return locks::generator(name(), release_ == Release::Node); }

    std::string callLabel(const std::set<EventKind>&) const override { return name() + ".rel"; }

private:
    static ArgKind lockArg(Release release) { return release == Release::Node ? ArgKind::HomedName : ArgKind::Name; }

    Release release_;
};

}  // namespace

std::vector<std::unique_ptr<const LibraryDescriptor>> libraries() {
    std::vector<std::unique_ptr<const LibraryDescriptor>> out;
    out.push_back(std::make_unique<Locks>("wl", Locks::Release::Weak));
    out.push_back(std::make_unique<Locks>("sl", Locks::Release::Strong));
    out.push_back(std::make_unique<Locks>("nl", Locks::Release::Node));
    return out;
}

}  // namespace rdmacheck::locks
