// The lock implementations: I_NL, I_SL and I_WL (RMW §4.2-§4.4, Figs. 10 and 13).
#include "libraries/locks/locks.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

// A ticket lock's acquire begins by taking a ticket (RMW Figs. 10 and 13):
// RFAA(p, dispenser, 1, d); wait(d); v := p.
void takeTicket(const std::string& p, const std::string& v, const LocRef& dispenser, const std::string& work,
                Block& out) {
    const SourceLoc& at = dispenser.where;
    Stmt ticket = statement(Stmt::Kind::RFaa, at);
    ticket.source = ref(p, at);
    ticket.target = dispenser;
    ticket.expr = Expr::constant(1, at);
    ticket.workId = work;
    out.push_back(std::move(ticket));
    out.push_back(waitStmt(work, at));
    out.push_back(assignStmt(v, Expr::location(p, at), at));
}

// I_NL (RMW Fig. 13 and App. B.4): a node lock l homed on n is a ticket
// dispenser l_a and a now-serving counter l_r on n. A thread takes a ticket
// with an RFAA into its own location p, keeps it in v, gets l_r into p until
// it equals v, and leaves p = v + 1; a release is an rfence towards n, then a
// put of p into l_r. The paper's `Read(p) = v` reads p against the let-bound
// v; here the test also reads v, the thread's own last write, adjacent to
// the read of p and with the same stamp (aCR), so it orders nothing more.
class NodeLocksImpl : Rewriter {
public:
    explicit NodeLocksImpl(const LitmusTest& test) : Rewriter(test), test_(test) {}

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (ThreadDecl& th : out.test.threads) {
            thread_ = th.name;
            th.body = block(th.body);
        }
        for (const auto& [lock, home] : homes_)
            for (const std::string role : {"a", "r"})
                out.test.locations.push_back(LocationDecl{named(lock + "/" + role, lock + "_" + role), home, 0, {}});
        return out;
    }

private:
    bool rewrite(const Stmt& st, Block& out) override {
        if (st.kind != Stmt::Kind::Call || st.library != "nl") return false;
        const std::string& lock = st.args[0].expr.name;
        const int home = st.args[0].expr.remoteNode;
        homes_[lock] = home;
        const SourceLoc& at = st.where;
        const std::string dispenser = named(lock + "/a", lock + "_a"), serving = named(lock + "/r", lock + "_r");
        const std::string p = own(lock, "p"), v = own(lock, "v");
        if (st.method == "rel") {
            Stmt fence = statement(Stmt::Kind::RFence, at);
            fence.node = home;
            out.push_back(std::move(fence));
            Stmt put = statement(Stmt::Kind::Put, at);  // only the holder writes l_r: no RMW needed
            put.target = ref(serving, at, home);
            put.source = ref(p, at);
            out.push_back(std::move(put));
            return true;
        }
        const std::string d = named(thread_ + "/work", "dl");
        takeTicket(p, v, ref(dispenser, at, home), d, out);
        Stmt get = statement(Stmt::Kind::Get, at);
        get.target = ref(p, at);
        get.source = ref(serving, at, home);
        get.workId = d;
        // The spin `while (p != v) { get; wait }` as its last get (doc/model-notes.md §N27).
        out.push_back(std::move(get));
        out.push_back(waitStmt(d, at));
        out.push_back(ownAssume(Expr::location(p, at), Comparison::Eq, Expr::location(v, at), at));
        out.push_back(assignStmt(p, plusOne(v, at), at));
        return true;
    }

    // p, v: one per thread and lock, on the thread's node (declared by first use).
    const std::string& own(const std::string& lock, const std::string& role) { return owned(thread_, lock, role); }

    const LitmusTest& test_;
    std::string thread_;
    std::map<std::string, int> homes_;
};

// I_SL over {WLOCK, SV} (RMW §4.3, B.3): an acquire is a weak acquire; a
// release is a global fence of every node, then a weak release.
class StrongLocksImpl : Rewriter {
public:
    explicit StrongLocksImpl(const LitmusTest& test) : Rewriter(test), test_(test), nodes_(testNodes(test)) {}

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (ThreadDecl& th : out.test.threads) th.body = block(th.body);
        return out;
    }

private:
    bool rewrite(const Stmt& st, Block& out) override {
        if (st.kind != Stmt::Kind::Call || st.library != "sl") return false;
        if (st.method == "rel") out.push_back(callOf("sv", "gf", {nodesArg(nodes_, st.where)}, st.where));
        Stmt weak = st;
        weak.library = "wl";
        out.push_back(std::move(weak));
        return true;
    }

    const LitmusTest& test_;
    std::vector<int> nodes_;
};

// I_WL over {RDMA^WAIT_RMW, SV} (RMW Fig. 10 and App. B.2): a lock l is a
// ticket dispenser l_a on some node (the placement) and an SV variable per
// thread of the program. An acquire takes a ticket with an RFAA into its own
// location p, keeps it in v, and reads the threads' variables in order until
// one holds v; a release writes p + 1 into its own variable and broadcasts it
// to the other nodes. The loop with breaks is `loop { every read misses };
// choice { the k-th read is the first to hit }`. The reads' results go to a
// location c and v is read back: CPU accesses of the thread's own locations
// next to reads with the same row of the stamp order (aCR), so no hb path is
// added (rows A, D, E and L are all ordered).
class WeakLocksImpl : Rewriter {
public:
    WeakLocksImpl(const LitmusTest& test, size_t placement) : Rewriter(test), test_(test), nodes_(testNodes(test)) {
        for (const std::string& lock : locksOf(test, "wl")) {
            home_[lock] = nodes_[placement % nodes_.size()];
            placement /= nodes_.size();
        }
    }

    static size_t placements(const LitmusTest& test) {
        size_t count = 1;
        for (size_t i = 0; i < locksOf(test, "wl").size(); ++i) count *= testNodes(test).size();
        return count;
    }

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (const auto& [lock, home] : home_) {
            out.test.locations.push_back(LocationDecl{dispenser(lock), home, 0, {}});
            for (const ThreadDecl& t : test_.threads) {
                LocationDecl released{releasedBy(lock, t.name), 1, 0, {}};
                released.shared = true;
                out.test.locations.push_back(released);
            }
            out.placement += (out.placement.empty() ? "" : ", ") + dispenser(lock) + "@" + std::to_string(home);
        }
        for (ThreadDecl& th : out.test.threads) {
            thread_ = &th;
            th.body = block(th.body);
        }
        return out;
    }

private:
    bool rewrite(const Stmt& st, Block& out) override {
        if (st.kind != Stmt::Kind::Call || st.library != "wl") return false;
        const std::string& lock = st.args[0].expr.name;
        const SourceLoc& at = st.where;
        const std::string p = own(lock, "p"), v = own(lock, "v"), c = own(lock, "c");
        if (st.method == "rel") {
            out.push_back(assignStmt(v, plusOne(p, at), at));
            const std::string& mine = releasedBy(lock, thread_->name);
            out.push_back(callOf("sv", "write", {nameArg(mine, at), nameArg(v, at)}, at));
            std::vector<int> others;
            for (int n : nodes_)
                if (n != thread_->node) others.push_back(n);
            if (!others.empty())
                out.push_back(callOf("sv", "bcast", {nameArg(mine, at), nameArg("_", at), nodesArg(others, at)}, at));
            return true;
        }
        const std::string& d = named(thread_->name + "/work", "dl");
        takeTicket(p, v, ref(dispenser(lock), at, home_.at(lock)), d, out);
        // Rounds of reads that all miss, then one that hits: the missed rounds
        // only read, so the first round that hits has the same outcomes
        // (doc/model-notes.md §N27), one path per thread it hits at.
        Stmt firstHit = statement(Stmt::Kind::Choice, at);
        Block misses;
        for (const ThreadDecl& t : test_.threads) {
            Block hit = misses;
            readAndTest(releasedBy(lock, t.name), Comparison::Eq, c, v, at, hit);
            firstHit.branches.push_back(std::move(hit));
            readAndTest(releasedBy(lock, t.name), Comparison::Ne, c, v, at, misses);
        }
        out.push_back(std::move(firstHit));
        return true;
    }

    // c := Read_sv(x); assume(c CMP v)
    static void readAndTest(const std::string& x, Comparison op, const std::string& c, const std::string& v,
                            const SourceLoc& at, Block& out) {
        out.push_back(svRead(c, x, at));
        out.push_back(ownAssume(Expr::location(c, at), op, Expr::location(v, at), at));
    }

    const std::string& dispenser(const std::string& lock) { return named(lock + "/a", lock + "_a"); }
    const std::string& releasedBy(const std::string& lock, const std::string& thread) {
        return named(lock + "/released/" + thread, lock + "_" + thread);
    }
    const std::string& own(const std::string& lock, const std::string& role) {
        return owned(thread_->name, lock, role);
    }

    const LitmusTest& test_;
    std::vector<int> nodes_;
    std::map<std::string, int> home_;  // per lock, its dispenser's node
    const ThreadDecl* thread_ = nullptr;
};

}  // namespace

}  // namespace rdmacheck::rewrite

namespace rdmacheck::locks {

// Tickets, CAS and FAA are remote RMWs: I_NL and I_WL run over RDMA^WAIT_RMW.
std::vector<ImplementationDescriptor> implementations() {
    using namespace rewrite;
    return {
        {"nl", "rdma-wait-rmw", nullptr, [](const LitmusTest& t, size_t) { return NodeLocksImpl(t).run(); }},
        {"wl", "rdma-wait-rmw", WeakLocksImpl::placements,
         [](const LitmusTest& t, size_t p) { return WeakLocksImpl(t, p).run(); }},
        {"sl", "", nullptr, [](const LitmusTest& t, size_t) { return StrongLocksImpl(t).run(); }},
    };
}

}  // namespace rdmacheck::locks
