// I_BAL, barriers as SV counters (LOCO §4.2, Fig. 11).
#include <optional>
#include <set>
#include <utility>

#include "libraries/bal/bal.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

// I_BAL over SV (LOCO §4.2, Fig. 11): a barrier z is an SV counter
// per participant. A call fences the participants' nodes (every node for the
// transitive tbar), increments its own counter and broadcasts it to the other
// fenced nodes (no loopback, l.608), then waits until every participant's
// counter passes its old value: `u := sv.read(z_t); while (u <= v) {...}`
// (§10.3), written as its last read, `assume(u > v)` (doc/model-notes.md §N27).
// Without `entryFence` it is §12.4's negative control, which refinement must
// reject.
//
// A thread's own counter has one writer, the thread, and its broadcasts skip
// the thread's node, so v, read from it, is the number of the thread's earlier
// calls on z. Where every call of the thread on z is at its top level, that
// number is the call's index, and the wait tests `u > index`: one location
// read instead of two. v is still read and incremented, and v - index goes to
// an alarm location, which refinement reports if it is ever not 0.
class BarriersImpl : Rewriter {
public:
    BarriersImpl(const LitmusTest& test, bool entryFence)
        : Rewriter(test), test_(test), nodes_(testNodes(test)), entryFence_(entryFence) {
        for (size_t t = 0; t < test.threads.size(); ++t) {
            std::map<std::string, size_t> topLevel, all;
            for (const Stmt& st : test.threads[t].body)
                if (isBarrier(st)) ++topLevel[st.args[0].expr.name];
            anyStatement(test.threads[t].body, [&](const Stmt& st) {
                if (isBarrier(st)) ++all[st.args[0].expr.name];
                return false;  // every statement
            });
            for (const auto& [barrier, count] : all) {
                participants_[barrier].insert(t);
                if (topLevel[barrier] == count) countedCalls_.insert({t, barrier});
            }
        }
    }

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (const auto& [barrier, threads] : participants_)
            for (size_t t : threads) {
                LocationDecl counter{counterOf(barrier, t), 1, 0, {}};
                counter.shared = true;
                out.test.locations.push_back(counter);
            }
        for (size_t t = 0; t < out.test.threads.size(); ++t) {
            thread_ = t;
            out.test.threads[t].body = block(out.test.threads[t].body);
        }
        declareAlarms(out);
        return out;
    }

private:
    static bool isBarrier(const Stmt& st) {
        return st.kind == Stmt::Kind::Call && st.library == "bal" && (st.method == "bar" || st.method == "tbar");
    }

    bool rewrite(const Stmt& st, Block& out) override {
        if (!isBarrier(st)) return false;
        const std::string& barrier = st.args[0].expr.name;
        const SourceLoc& at = st.where;
        const std::set<size_t>& threads = participants_.at(barrier);
        std::set<int> fenced;
        for (size_t t : threads) fenced.insert(test_.threads[t].node);
        if (st.method == "tbar") fenced.insert(nodes_.begin(), nodes_.end());
        if (entryFence_) out.push_back(callOf("sv", "gf", {nodesArg({fenced.begin(), fenced.end()}, at)}, at));
        const std::string& mine = counterOf(barrier, thread_);
        const std::string v = own(barrier, "v"), w = own(barrier, "w"), u = own(barrier, "u");
        out.push_back(svRead(v, mine, at));
        out.push_back(assignStmt(w, plusOne(v, at), at));
        // The call's index among the thread's calls on z, where that fixes v.
        std::optional<long long> index;
        if (countedCalls_.count({thread_, barrier})) {
            index = static_cast<long long>(calls_[barrier + "/" + std::to_string(thread_)]++);
            const std::string& thread = test_.threads[thread_].name;
            const std::string key = thread + "/" + barrier + "/" + std::to_string(*index);
            out.push_back(alarmUnless(v, *index, key + "/alarm",
                                      "counter_alarm_" + thread + "_" + barrier + "_" + std::to_string(*index),
                                      test_.threads[thread_].node, at));
        }
        out.push_back(callOf("sv", "write", {nameArg(mine, at), nameArg(w, at)}, at));
        fenced.erase(test_.threads[thread_].node);
        if (!fenced.empty())
            out.push_back(callOf("sv", "bcast",
                                 {nameArg(mine, at), nameArg("_", at), nodesArg({fenced.begin(), fenced.end()}, at)},
                                 at));
        // The wait `while (u <= v) { u := Read_sv(z_t) }` as its last read:
        // u := Read_sv(z_t); assume(u > v). The same outcomes (doc/model-notes.md
        // §N27): a failed iteration only reads, and an execution without it is
        // consistent too. One path where the loop had one per iteration.
        for (size_t t : threads) {
            out.push_back(svRead(u, counterOf(barrier, t), at));
            out.push_back(ownAssume(Expr::location(u, at), Comparison::Gt,
                                    index ? Expr::constant(*index, at) : Expr::location(v, at), at));
        }
        return true;
    }

    const std::string& counterOf(const std::string& barrier, size_t t) {
        return named(barrier + "/counter/" + std::to_string(t), barrier + "_" + test_.threads[t].name);
    }
    const std::string& own(const std::string& barrier, const std::string& role) {
        return owned(test_.threads[thread_].name, barrier, role);
    }

    const LitmusTest& test_;
    std::vector<int> nodes_;
    bool entryFence_;
    std::map<std::string, std::set<size_t>> participants_;  // b(z)
    std::set<std::pair<size_t, std::string>> countedCalls_;  // (thread, barrier): every call at the top level
    std::map<std::string, size_t> calls_;                     // calls rewritten so far, per barrier and thread
    size_t thread_ = 0;
};

}  // namespace

}  // namespace rdmacheck::rewrite

namespace rdmacheck::bal {

std::vector<ImplementationDescriptor> implementations() {
    using namespace rewrite;
    return {
        {"bal", "", nullptr, [](const LitmusTest& t, size_t) { return BarriersImpl(t, true).run(); }},
        {"bal-no-entry-fence", "", nullptr, [](const LitmusTest& t, size_t) { return BarriersImpl(t, false).run(); }},
    };
}

}  // namespace rdmacheck::bal
