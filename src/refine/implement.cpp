// The implementations of MOWGLI.md and LIBRARIES.md as rewrites of the litmus
// AST: I_SV (MOWGLI.md §5.2), wait(d) compiled into polls (§10.3), I_NL, I_WL,
// I_SL, I_SC, I_BAL and I_RBL, each one entry of kImplementations at the end.
#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/refine.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

namespace {

// The locations the test can name (its plain locations and shared-variable
// copies), resolved by the unfolder; loops are not unrolled, only names are wanted.
std::vector<Location> namedLocations(const LitmusTest& test) {
    UnfoldOptions options;
    options.unroll = 0;
    std::vector<Location> named;
    for (Location& l : unfold(test, options).locations)
        if (!l.hidden) named.push_back(std::move(l));
    return named;
}

void renameAtoms(Cond& c, const std::map<std::string, std::string>& names) {
    if (c.kind == Cond::Kind::Atom && c.thread < 0) {
        auto it = names.find(c.loc);
        if (it != names.end()) c.loc = it->second;
    }
    for (Cond& a : c.args) renameAtoms(a, names);
}

// Renames the final condition, the filter and `locations [...]` to the implementation's names.
void renameObservations(LitmusTest& test, const std::map<std::string, std::string>& names) {
    renameAtoms(test.condition, names);
    if (test.filter) renameAtoms(*test.filter, names);
    for (ObservedName& n : test.shown) {
        auto it = names.find(n.name);
        if (it != names.end()) n.name = it->second;
    }
}

Stmt statement(Stmt::Kind kind, const SourceLoc& where) {
    Stmt s;
    s.kind = kind;
    s.where = where;
    return s;
}

LocRef ref(const std::string& name, const SourceLoc& where, std::optional<int> node = std::nullopt) {
    return LocRef{name, node, where};
}

// What the rewriting implementations share: the names the test takes, fresh
// names made on first use (one per key), and one walk that replaces the
// statements `rewrite` takes and keeps the others, their blocks walked.
class Rewriter {
public:
    virtual ~Rewriter() = default;

protected:
    explicit Rewriter(const LitmusTest& test) : used_(namesOf(test)) {}

    // Appends what replaces `st` and returns true, or returns false to keep it.
    virtual bool rewrite(const Stmt& st, Block& out) = 0;

    Block block(const Block& in) {
        Block out;
        for (const Stmt& st : in) {
            if (rewrite(st, out)) continue;
            Stmt s = st;
            s.body = block(st.body);
            s.orelse = block(st.orelse);
            for (Block& b : s.branches) b = block(b);
            out.push_back(std::move(s));
        }
        return out;
    }

    // The fresh name for `key`, made from `base` the first time.
    const std::string& named(const std::string& key, const std::string& base) {
        auto it = names_.find(key);
        if (it == names_.end()) it = names_.emplace(key, fresh(base, used_)).first;
        return it->second;
    }

    // A thread's own location in `role` for `object` (a lock, barrier or buffer).
    const std::string& owned(const std::string& thread, const std::string& object, const std::string& role) {
        return named(thread + "/" + object + "/" + role, role + "_" + thread + "_" + object);
    }

    std::set<std::string> used_;

private:
    std::map<std::string, std::string> names_;
};

Stmt assignStmt(const std::string& target, Expr value, const SourceLoc& at) {
    Stmt s = statement(Stmt::Kind::Assign, at);
    s.target = ref(target, at);
    s.expr = std::move(value);
    return s;
}

Stmt waitStmt(const std::string& work, const SourceLoc& at) {
    Stmt s = statement(Stmt::Kind::Wait, at);
    s.workId = work;
    return s;
}

Expr plusOne(const std::string& location, const SourceLoc& at) {
    Expr sum;
    sum.kind = Expr::Kind::Add;
    sum.where = at;
    sum.args = {Expr::location(location, at), Expr::constant(1, at)};
    return sum;
}

// I_SV (MOWGLI.md §5.2): the copy of x on node n is a location x_n homed on n;
// Write_sv and Read_sv are CPU accesses of the local copy, a broadcast is one put
// per node from the local copy, Wait_sv is Wait, and the global fence is a get
// of a dummy location from each node followed by a wait on a fresh identifier.
class SharedVariablesImpl : Rewriter {
public:
    explicit SharedVariablesImpl(const LitmusTest& test) : Rewriter(test), test_(test) {
        for (const Location& l : namedLocations(test)) {
            if (l.name.find('@') == std::string::npos) {
                names_[l.name] = l.name;
                continue;
            }
            const std::string variable = l.name.substr(0, l.name.find('@'));
            copies_[{variable, l.node}] = names_[l.name] = fresh(variable + "_" + std::to_string(l.node), used_);
            copyInit_[names_[l.name]] = {l.node, l.init};
        }
    }

    ImplementedTest run() {
        ImplementedTest out{test_, names_, "", ""};
        LitmusTest& t = out.test;
        t.locations.clear();
        for (const LocationDecl& d : test_.locations)
            if (!d.shared) t.locations.push_back(d);
        for (const auto& [name, place] : copyInit_) t.locations.push_back(LocationDecl{name, place.first, place.second, {}});
        for (ThreadDecl& th : t.threads) {
            node_ = th.node;
            fenceWork_.clear();
            th.body = block(th.body);
        }
        for (const auto& [node, name] : dummy_) t.locations.push_back(LocationDecl{name, node, 0, {}});
        renameObservations(t, names_);
        return out;
    }

private:
    bool rewrite(const Stmt& st, Block& out) override {
        if (st.kind == Stmt::Kind::GFence) {
            globalFence(st.nodes, st.where, out);
        } else if (st.kind == Stmt::Kind::Call && st.library == "sv") {
            call(st, out);
        } else {
            return false;
        }
        return true;
    }

    const std::string& copy(const CallArg& variable, int node) { return copies_.at({variable.expr.name, node}); }

    void call(const Stmt& st, Block& out) {
        const SourceLoc& at = st.where;
        if (st.method == "write") {
            Stmt s = statement(Stmt::Kind::Assign, at);
            s.target = ref(copy(st.args[0], node_), at);
            s.expr = st.args[1].expr;
            out.push_back(std::move(s));
        } else if (st.method == "read") {
            Stmt s = statement(Stmt::Kind::Assign, at);
            s.target = st.target;
            s.expr.kind = Expr::Kind::Location;
            s.expr.name = copy(st.args[0], node_);
            s.expr.where = at;
            out.push_back(std::move(s));
        } else if (st.method == "bcast") {
            for (int n : st.args[2].nodes) {
                Stmt s = statement(Stmt::Kind::Put, at);
                s.target = ref(copy(st.args[0], n), at, n);
                s.source = ref(copy(st.args[0], node_), at);
                s.workId = st.args[1].expr.name == "_" ? "" : st.args[1].expr.name;
                out.push_back(std::move(s));
            }
        } else if (st.method == "wait") {
            Stmt s = statement(Stmt::Kind::Wait, at);
            s.workId = st.args[0].expr.name;
            out.push_back(std::move(s));
        } else if (st.method == "gf") {
            globalFence(st.args[0].nodes, at, out);
        }
    }

    void globalFence(const std::vector<int>& nodes, const SourceLoc& at, Block& out) {
        if (fenceWork_.empty()) fenceWork_ = fresh("d0", used_);
        for (int n : nodes) {
            Stmt get = statement(Stmt::Kind::Get, at);
            get.target = ref(dummyOn(node_), at);
            get.source = ref(dummyOn(n), at, n);
            get.workId = fenceWork_;
            out.push_back(std::move(get));
        }
        Stmt wait = statement(Stmt::Kind::Wait, at);
        wait.workId = fenceWork_;
        out.push_back(std::move(wait));
    }

    // ⊥_n: one dummy location per node.
    const std::string& dummyOn(int node) {
        auto it = dummy_.find(node);
        if (it == dummy_.end()) it = dummy_.emplace(node, fresh("bot_" + std::to_string(node), used_)).first;
        return it->second;
    }

    const LitmusTest& test_;
    std::map<std::string, std::string> names_;
    std::map<std::pair<std::string, int>, std::string> copies_;
    std::map<std::string, std::pair<int, long long>> copyInit_;
    std::map<int, std::string> dummy_;
    std::string fenceWork_;  // d_0 of the current thread
    int node_ = 1;
};

// wait(d) as polls (MOWGLI.md §10.3): in a straight-line thread, wait(d) polls
// node n until the last operation with id d towards n has been polled; polls
// complete the oldest operation first, whatever its id. The faithful variant
// adds an mfence where I_W (RMW App. C.2) has a set operation.
class WaitByPollsImpl {
public:
    WaitByPollsImpl(const LitmusTest& test, bool faithful) : test_(test), faithful_(faithful) {}

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (ThreadDecl& th : out.test.threads) {
            issued_.clear();
            polled_.clear();
            Block body;
            for (const Stmt& st : th.body) lower(st, body);
            th.body = std::move(body);
        }
        return out;
    }

private:
    void lower(const Stmt& st, Block& out) {
        switch (st.kind) {
            case Stmt::Kind::If:
            case Stmt::Kind::Choice:
            case Stmt::Kind::Loop:
            case Stmt::Kind::While:
                throw InputError(st.where, "wait-polls compiles straight-line threads only: the polls a wait needs "
                                           "depend on the path");
            case Stmt::Kind::Call:
            case Stmt::Kind::GFence:
                throw InputError(st.where, "wait-polls takes RDMA^WAIT calls only; implement the library calls "
                                           "first (shared variables: '--impl sv,wait-polls')");
            case Stmt::Kind::Get:
            case Stmt::Kind::Put:
            case Stmt::Kind::RCas:
            case Stmt::Kind::RFaa: {
                Stmt s = st;
                const int node = st.kind == Stmt::Kind::Get ? *st.source.node : *st.target.node;
                issued_[node].push_back(st.workId);
                s.workId.clear();
                out.push_back(std::move(s));
                if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetAdd
                return;
            }
            case Stmt::Kind::Wait: {
                for (const auto& [node, ids] : issued_) {
                    if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetIsEmpty
                    int last = 0;
                    for (size_t i = 0; i < ids.size(); ++i)
                        if (ids[i] == st.workId) last = static_cast<int>(i) + 1;
                    for (int& done = polled_[node]; done < last; ++done) {
                        Stmt poll = statement(Stmt::Kind::Poll, st.where);
                        poll.node = node;
                        out.push_back(std::move(poll));
                        if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetRemove
                    }
                }
                return;
            }
            default: out.push_back(st); return;
        }
    }

    const LitmusTest& test_;
    bool faithful_;
    std::map<int, std::vector<std::string>> issued_;  // per node: work ids of the operations towards it, in po order
    std::map<int, int> polled_;                       // per node: operations already polled
};

// The nodes of a test, as the unfolder counts them (Node of LIBRARIES.md §0):
// its threads', its declared locations', every `^n` and every node set.
std::vector<int> testNodes(const LitmusTest& test) {
    std::set<int> nodes;
    for (const ThreadDecl& t : test.threads) nodes.insert(t.node);
    for (const LocationDecl& d : test.locations)
        if (!d.shared && !d.sc) nodes.insert(d.node);
    std::function<void(const Block&)> scan = [&](const Block& block) {
        for (const Stmt& st : block) {
            for (const LocRef* r : {&st.target, &st.source})
                if (r->node) nodes.insert(*r->node);
            nodes.insert(st.nodes.begin(), st.nodes.end());
            for (const CallArg& a : st.args) {
                nodes.insert(a.nodes.begin(), a.nodes.end());
                if (a.expr.remoteNode) nodes.insert(a.expr.remoteNode);
            }
            scan(st.body);
            scan(st.orelse);
            for (const Block& b : st.branches) scan(b);
        }
    };
    for (const ThreadDecl& t : test.threads) scan(t.body);
    return {nodes.begin(), nodes.end()};
}

// The locks a test calls with `library`, in name order.
std::vector<std::string> locksOf(const LitmusTest& test, const std::string& library) {
    std::set<std::string> locks;
    std::function<void(const Block&)> scan = [&](const Block& block) {
        for (const Stmt& st : block) {
            if (st.kind == Stmt::Kind::Call && st.library == library) locks.insert(st.args[0].expr.name);
            scan(st.body);
            scan(st.orelse);
            for (const Block& b : st.branches) scan(b);
        }
    };
    for (const ThreadDecl& t : test.threads) scan(t.body);
    return {locks.begin(), locks.end()};
}

Stmt callOf(const std::string& library, const std::string& method, std::vector<CallArg> args, const SourceLoc& at) {
    Stmt s = statement(Stmt::Kind::Call, at);
    s.library = library;
    s.method = method;
    s.args = std::move(args);
    return s;
}

CallArg nameArg(const std::string& name, const SourceLoc& at) {
    CallArg a;
    a.expr = Expr::location(name, at);
    a.where = at;
    return a;
}

CallArg nodesArg(std::vector<int> nodes, const SourceLoc& at) {
    CallArg a;
    a.isNodeSet = true;
    a.nodes = std::move(nodes);
    a.where = at;
    return a;
}

// target := sv.read(variable)
Stmt svRead(const std::string& target, const std::string& variable, const SourceLoc& at) {
    Stmt s = callOf("sv", "read", {nameArg(variable, at)}, at);
    s.hasResult = true;
    s.target = ref(target, at);
    return s;
}

// A test `lhs op rhs` of `kind` (assume, if, while).
Stmt testStmt(Stmt::Kind kind, Expr lhs, Comparison op, Expr rhs, const SourceLoc& at) {
    Stmt s = statement(kind, at);
    s.expr = std::move(lhs);
    s.compare = op;
    s.expr2 = std::move(rhs);
    return s;
}

// I_NL (RMW Fig. 13, LIBRARIES.md §5.2): a node lock l homed on n is a ticket
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
        Stmt ticket = statement(Stmt::Kind::RFaa, at);
        ticket.source = ref(p, at);
        ticket.target = ref(dispenser, at, home);
        ticket.expr = Expr::constant(1, at);
        ticket.workId = d;
        out.push_back(std::move(ticket));
        out.push_back(waitStmt(d, at));
        out.push_back(assignStmt(v, Expr::location(p, at), at));
        Stmt get = statement(Stmt::Kind::Get, at);
        get.target = ref(p, at);
        get.source = ref(serving, at, home);
        get.workId = d;
        const Block spin{get, waitStmt(d, at)};
        out.insert(out.end(), spin.begin(), spin.end());
        Stmt loop = statement(Stmt::Kind::While, at);
        loop.expr = Expr::location(p, at);
        loop.compare = Comparison::Ne;
        loop.expr2 = Expr::location(v, at);
        loop.body = spin;
        out.push_back(std::move(loop));
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

// I_WL over {RDMA^WAIT_RMW, SV} (RMW Fig. 10, LIBRARIES.md §3.2): a lock l is a
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
        Stmt ticket = statement(Stmt::Kind::RFaa, at);
        ticket.source = ref(p, at);
        ticket.target = ref(dispenser(lock), at, home_.at(lock));
        ticket.expr = Expr::constant(1, at);
        ticket.workId = d;
        out.push_back(std::move(ticket));
        out.push_back(waitStmt(d, at));
        out.push_back(assignStmt(v, Expr::location(p, at), at));
        Stmt misses = statement(Stmt::Kind::Loop, at);
        Stmt firstHit = statement(Stmt::Kind::Choice, at);
        for (const ThreadDecl& t : test_.threads) {
            Block hit = misses.body;
            readAndTest(releasedBy(lock, t.name), Comparison::Eq, c, v, at, hit);
            firstHit.branches.push_back(std::move(hit));
            readAndTest(releasedBy(lock, t.name), Comparison::Ne, c, v, at, misses.body);
        }
        out.push_back(std::move(misses));
        out.push_back(std::move(firstHit));
        return true;
    }

    // c := Read_sv(x); assume(c CMP v)
    static void readAndTest(const std::string& x, Comparison op, const std::string& c, const std::string& v,
                            const SourceLoc& at, Block& out) {
        out.push_back(svRead(c, x, at));
        out.push_back(testStmt(Stmt::Kind::Assume, Expr::location(c, at), op, Expr::location(v, at), at));
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

// I_SC over {RDMA^WAIT_RMW, NLOCK} (RMW Fig. 14, LIBRARIES.md §8.2): an SC
// location x is an RDMA location on some node n(x) (the placement), guarded
// by a node lock homed there. A write puts from the thread's own location
// inside the lock and does not wait; a read, CAS or FAA runs its get or RMW
// inside the lock and waits for it after the release, then reads the result.
class ScImpl : Rewriter {
public:
    ScImpl(const LitmusTest& test, size_t placement) : Rewriter(test), test_(test) {
        const std::vector<int> nodes = testNodes(test);
        for (const LocationDecl& d : test.locations)
            if (d.sc) {
                home_[d.name] = nodes[placement % nodes.size()];
                placement /= nodes.size();
            }
    }

    static size_t placements(const LitmusTest& test) {
        size_t count = 1;
        for (const LocationDecl& d : test.locations) count *= d.sc ? testNodes(test).size() : 1;
        return count;
    }

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (LocationDecl& d : out.test.locations)
            if (d.sc) {
                d.sc = false;
                d.node = home_.at(d.name);
                out.placement += (out.placement.empty() ? "" : ", ") + d.name + "@" + std::to_string(d.node);
            }
        for (ThreadDecl& th : out.test.threads) {
            thread_ = th.name;
            th.body = block(th.body);
        }
        return out;
    }

private:
    bool rewrite(const Stmt& st, Block& out) override {
        if (st.kind != Stmt::Kind::Call || st.library != "sc") return false;
        const std::string& x = st.args[0].expr.name;
        const int home = home_.at(x);
        const SourceLoc& at = st.where;
        CallArg lock = nameArg(named("lock/" + x, "l" + x), at);
        lock.expr.remoteNode = home;
        out.push_back(callOf("nl", "acq", {lock}, at));
        if (st.method == "write") {
            const std::string& p = own("p");
            out.push_back(assignStmt(p, st.args[1].expr, at));
            Stmt put = statement(Stmt::Kind::Put, at);
            put.target = ref(x, at, home);
            put.source = ref(p, at);
            out.push_back(std::move(put));
            out.push_back(callOf("nl", "rel", {lock}, at));
            return true;
        }
        const std::string& r = own("r");
        const std::string& d = named(thread_ + "/work", "ds");
        Stmt op = statement(st.method == "read" ? Stmt::Kind::Get : st.method == "cas" ? Stmt::Kind::RCas
                                                                                        : Stmt::Kind::RFaa,
                            at);
        if (st.method == "read") {
            op.target = ref(r, at);
            op.source = ref(x, at, home);
        } else {
            op.source = ref(r, at);
            op.target = ref(x, at, home);
            op.expr = integer(st.args[1], at);
            if (st.method == "cas") op.expr2 = integer(st.args[2], at);
        }
        op.workId = d;
        out.push_back(std::move(op));
        out.push_back(callOf("nl", "rel", {lock}, at));
        out.push_back(waitStmt(d, at));
        Stmt result = statement(Stmt::Kind::Assign, at);
        result.target = st.target;
        result.expr = Expr::location(r, at);
        out.push_back(std::move(result));
        return true;
    }

    // RCAS and RFAA operands are integers (the RMW paper's Fig. 23).
    static Expr integer(const CallArg& a, const SourceLoc& at) {
        if (a.expr.kind != Expr::Kind::Const)
            throw InputError(at, "I_SC turns sc.cas and sc.faa into RCAS and RFAA, whose operands are integers");
        return a.expr;
    }

    const std::string& own(const std::string& role) { return named(thread_ + "/" + role, role + "_" + thread_); }

    const LitmusTest& test_;
    std::map<std::string, int> home_;  // per SC location, its node
    std::string thread_;
};

// I_BAL over SV (LOCO Fig. 11, LIBRARIES.md §10.1): a barrier z is an SV counter
// per participant. A call fences the participants' nodes (every node for the
// transitive tbar), increments its own counter and broadcasts it to the other
// fenced nodes (no loopback, l.608), then waits until every participant's
// counter passes its old value: `u := sv.read(z_t); while (u <= v) {...}`
// (§10.3). Without `entryFence` it is §12.4's negative control, which
// refinement must reject.
class BarriersImpl : Rewriter {
public:
    BarriersImpl(const LitmusTest& test, bool entryFence)
        : Rewriter(test), test_(test), nodes_(testNodes(test)), entryFence_(entryFence) {
        std::function<void(const Block&, size_t)> scan = [&](const Block& block, size_t t) {
            for (const Stmt& st : block) {
                if (isBarrier(st)) participants_[st.args[0].expr.name].insert(t);
                scan(st.body, t);
                scan(st.orelse, t);
                for (const Block& b : st.branches) scan(b, t);
            }
        };
        for (size_t t = 0; t < test.threads.size(); ++t) scan(test.threads[t].body, t);
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
        out.push_back(callOf("sv", "write", {nameArg(mine, at), nameArg(w, at)}, at));
        fenced.erase(test_.threads[thread_].node);
        if (!fenced.empty())
            out.push_back(callOf("sv", "bcast",
                                 {nameArg(mine, at), nameArg("_", at), nodesArg({fenced.begin(), fenced.end()}, at)},
                                 at));
        for (size_t t : threads) {
            const std::string& theirs = counterOf(barrier, t);
            out.push_back(svRead(u, theirs, at));
            Stmt wait = statement(Stmt::Kind::While, at);
            wait.expr = Expr::location(u, at);
            wait.compare = Comparison::Le;
            wait.expr2 = Expr::location(v, at);
            wait.body = {svRead(u, theirs, at)};
            out.push_back(std::move(wait));
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
    size_t thread_ = 0;
};

// I_RBL over SV (LOCO Fig. 14, LIBRARIES.md §9.3): a buffer q of S slots (the
// placement: S is V+1 or 2(V+1) per buffer, V its messages' length) is SV
// variables q_0..q_{S-1}, a writer head q_h and a head q_h_t per reader t. A
// submit reads the heads; if the slowest reader leaves no room for the length
// and the V values it fails, else it writes and broadcasts them from slot
// H % S on, waits for its earlier head broadcasts, and publishes H + V + 1. A
// receive fails when its head has caught up with the writer's, else reads the
// length and the values, and publishes its own head to the writer's node.
//
// A thread's own head has one writer, the thread, and its copy on the
// thread's node gets no broadcast, so Read_sv returns the thread's last write:
// H is fixed by the path, V+1 per successful call of the thread before. The
// rewrite follows the thread's paths (what follows a call is inlined into
// each of its outcomes), so slot indices are constants and each test reads
// one location: no read orders, no branch per slot. The head is still read,
// and its difference from the path's value goes to an alarm location, as does
// the length's from V (an assignment, not a branch: the paths stay few);
// refinement reports an alarm other than 0. With `headFirst` the submit
// publishes its head before the slots: a mutant that refinement must reject.
class RingBuffersImpl : Rewriter {
public:
    RingBuffersImpl(const LitmusTest& test, size_t placement, bool headFirst)
        : Rewriter(test), test_(test), headFirst_(headFirst) {
        buffers_ = buffersOf(test);
        for (auto& [q, b] : buffers_) {
            b.size = (b.length + 1) * (1 + static_cast<int>(placement % 2));
            placement /= 2;
        }
    }

    static size_t placements(const LitmusTest& test) { return size_t(1) << buffersOf(test).size(); }

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (const auto& [q, b] : buffers_) {
            out.placement += (out.placement.empty() ? "" : ", ") + q + ": S=" + std::to_string(b.size);
            std::vector<std::string> variables{head(q)};
            for (int s = 0; s < b.size; ++s) variables.push_back(slot(q, s));
            for (size_t t : b.readers) variables.push_back(head(q, t));
            for (const std::string& v : variables) {
                LocationDecl d{v, 1, 0, {}};
                d.shared = true;
                out.test.locations.push_back(d);
            }
        }
        for (size_t t = 0; t < out.test.threads.size(); ++t) {
            thread_ = t;
            ThreadDecl& th = out.test.threads[t];
            th.body = path(test_.threads[t].body, 0, {});
        }
        for (const auto& [alarm, node] : alarms_) {
            out.test.locations.push_back(LocationDecl{alarm, node, 0, {}});
            out.alarms.push_back(alarm);
        }
        return out;
    }

private:
    struct Buffer {
        size_t writer = 0;
        std::set<size_t> readers;
        int length = 0;  // V: the values of each message
        int size = 1;    // S
    };

    // The thread's own heads on the path so far: per buffer and method (a
    // writer that reads its own buffer has both heads).
    using Heads = std::map<std::pair<std::string, std::string>, long long>;

    static bool isCall(const Stmt& st) { return st.kind == Stmt::Kind::Call && st.library == "rbl"; }

    static std::map<std::string, Buffer> buffersOf(const LitmusTest& test) {
        std::map<std::string, Buffer> buffers;
        std::function<void(const Block&, size_t)> scan = [&](const Block& block, size_t t) {
            for (const Stmt& st : block) {
                if (isCall(st)) {
                    Buffer& b = buffers[st.args[0].expr.name];
                    b.length = static_cast<int>(st.args.size()) - 1;
                    if (st.method == "submit") b.writer = t;
                    if (st.method == "receive") b.readers.insert(t);
                }
                scan(st.body, t);
                scan(st.orelse, t);
                for (const Block& b : st.branches) scan(b, t);
            }
        };
        for (size_t t = 0; t < test.threads.size(); ++t) scan(test.threads[t].body, t);
        return buffers;
    }

    // The thread from statement i of its body on; a call ends the block with
    // its outcomes, each followed by the rest of the thread.
    Block path(const Block& body, size_t i, const Heads& heads) {
        Block out;
        for (; i < body.size(); ++i) {
            if (isCall(body[i])) {
                call(body[i], body, i + 1, heads, out);
                break;
            }
            for (Stmt& s : block({body[i]})) out.push_back(std::move(s));
        }
        return out;
    }

    // Reached by calls inside if, choice and loops only, whose H is not fixed.
    bool rewrite(const Stmt& st, Block&) override {
        if (!isCall(st)) return false;
        throw InputError(st.where, "I_RBL takes ring-buffer calls at a thread's top level only: it fixes each "
                                   "call's slots by the calls before it on the path");
    }

    // The call's reads, then `if (fails_1) failure else if ... else success`.
    void call(const Stmt& st, const Block& body, size_t next, const Heads& heads, Block& out) {
        call_ = next - 1;
        const std::string& q = st.args[0].expr.name;
        const std::pair<std::string, std::string> key{q, st.method};
        const long long H = heads.count(key) ? heads.at(key) : 0;
        Heads advanced = heads;
        advanced[key] = H + buffers_.at(q).length + 1;
        std::vector<Stmt> fails;
        Block success;
        if (st.method == "submit") {
            submit(st, H, out, fails, success);
        } else {
            receive(st, H, out, fails, success);
        }
        result(st, 1, success);
        for (Stmt& s : path(body, next, advanced)) success.push_back(std::move(s));
        Block failure;
        result(st, 0, failure);
        for (Stmt& s : path(body, next, heads)) failure.push_back(std::move(s));
        Block chain = std::move(success);
        for (auto it = fails.rbegin(); it != fails.rend(); ++it) {
            it->body = failure;
            it->orelse = std::move(chain);
            chain = {std::move(*it)};
        }
        out.insert(out.end(), chain.begin(), chain.end());
    }

    // Fails when some reader t has H_t < H + V + 1 - S, i.e. (H - min H_t) + (V + 1) > S.
    void submit(const Stmt& st, long long H, Block& out, std::vector<Stmt>& fails, Block& success) {
        const std::string& q = st.args[0].expr.name;
        const Buffer& b = buffers_.at(q);
        const SourceLoc& at = st.where;
        const std::string mine = own(q, "H");
        out.push_back(svRead(mine, head(q), at));
        for (size_t t : b.readers) {
            const std::string theirs = own(q, "H" + test_.threads[t].name);
            out.push_back(svRead(theirs, head(q, t), at));
            fails.push_back(testStmt(Stmt::Kind::If, Expr::location(theirs, at), Comparison::Lt,
                                     Expr::constant(H + b.length + 1 - b.size, at), at));
        }
        out.push_back(alarmUnless(mine, H, "head", at));
        const std::vector<int> others = readerNodesBut(b, test_.threads[b.writer].node);
        if (headFirst_) publishHead(q, H, others, at, success);
        for (int i = 0; i <= b.length; ++i) {
            const std::string& x = slot(q, (H + i) % b.size);
            success.push_back(i == 0 ? write(x, b.length, at)
                                     : callOf("sv", "write", {nameArg(x, at), st.args[i]}, at));
            if (!others.empty()) success.push_back(bcast(x, "_", others, at));
        }
        if (!headFirst_) publishHead(q, H, others, at, success);
    }

    // Wait_sv(d); Write_sv(h, H + V + 1); Bcast_sv(h, d, s_n)
    void publishHead(const std::string& q, long long H, const std::vector<int>& others, const SourceLoc& at,
                     Block& out) {
        const std::string& d = named(q + "/work", "d" + q);
        if (!others.empty()) out.push_back(callOf("sv", "wait", {nameArg(d, at)}, at));
        out.push_back(write(head(q), H + buffers_.at(q).length + 1, at));
        if (!others.empty()) out.push_back(bcast(head(q), d, others, at));
    }

    // Fails when the writer's head H' has H' <= H.
    void receive(const Stmt& st, long long H, Block& out, std::vector<Stmt>& fails, Block& success) {
        const std::string& q = st.args[0].expr.name;
        const Buffer& b = buffers_.at(q);
        const SourceLoc& at = st.where;
        const std::string mine = own(q, "H"), theirs = own(q, "Hw"), length = own(q, "V");
        out.push_back(svRead(mine, head(q, thread_), at));
        out.push_back(svRead(theirs, head(q), at));
        out.push_back(alarmUnless(mine, H, "head", at));
        fails.push_back(
            testStmt(Stmt::Kind::If, Expr::location(theirs, at), Comparison::Le, Expr::constant(H, at), at));
        success.push_back(svRead(length, slot(q, H % b.size), at));
        for (int i = 1; i <= b.length; ++i)
            success.push_back(svRead(st.args[i].expr.name, slot(q, (H + i) % b.size), at));
        success.push_back(write(head(q, thread_), H + b.length + 1, at));
        const int writerNode = test_.threads[b.writer].node;
        if (test_.threads[thread_].node != writerNode)
            success.push_back(bcast(head(q, thread_), "_", {writerNode}, at));
        success.push_back(alarmUnless(length, b.length, "length", at));
    }

    // alarm := x - value, the alarm of what the current call checks.
    Stmt alarmUnless(const std::string& x, long long value, const std::string& what, const SourceLoc& at) {
        const std::string& thread = test_.threads[thread_].name;
        const std::string& alarm = named(thread + "/" + std::to_string(call_) + "/" + what,
                                         what + "_alarm_" + thread + "_" + std::to_string(call_));
        alarms_[alarm] = test_.threads[thread_].node;
        Expr difference;
        difference.kind = Expr::Kind::Sub;
        difference.where = at;
        difference.args = {Expr::location(x, at), Expr::constant(value, at)};
        return assignStmt(alarm, std::move(difference), at);
    }

    // ok := value, if the call has a result.
    static void result(const Stmt& st, long long value, Block& out) {
        if (st.hasResult) out.push_back(assignStmt(st.target.name, Expr::constant(value, st.where), st.where));
    }

    static Stmt write(const std::string& x, long long value, const SourceLoc& at) {
        return callOf("sv", "write", {nameArg(x, at), CallArg{false, Expr::constant(value, at), {}, at}}, at);
    }

    static Stmt bcast(const std::string& x, const std::string& work, const std::vector<int>& nodes,
                      const SourceLoc& at) {
        return callOf("sv", "bcast", {nameArg(x, at), nameArg(work, at), nodesArg(nodes, at)}, at);
    }

    // s_n: the readers' nodes but `node`.
    std::vector<int> readerNodesBut(const Buffer& b, int node) const {
        std::set<int> nodes;
        for (size_t t : b.readers) nodes.insert(test_.threads[t].node);
        nodes.erase(node);
        return {nodes.begin(), nodes.end()};
    }

    const std::string& slot(const std::string& q, long long s) {
        return named(q + "/slot/" + std::to_string(s), q + "_" + std::to_string(s));
    }
    const std::string& head(const std::string& q) { return named(q + "/head", q + "_h"); }
    const std::string& head(const std::string& q, size_t reader) {
        return named(q + "/head/" + std::to_string(reader), q + "_h_" + test_.threads[reader].name);
    }
    const std::string& own(const std::string& q, const std::string& role) {
        return owned(test_.threads[thread_].name, q, role);
    }

    const LitmusTest& test_;
    bool headFirst_;
    std::map<std::string, Buffer> buffers_;
    std::map<std::string, int> alarms_;  // alarm locations and their nodes
    size_t thread_ = 0;
    size_t call_ = 0;  // the current call's statement number in its thread
};

// Every implementation refine knows: its name, the model its output runs
// under (empty: the model of its input), its placements and its rewrite.
struct ImplementationEntry {
    Implementation id;
    const char* name;
    const char* lowersTo;
    size_t (*placements)(const LitmusTest&);
    ImplementedTest (*rewrite)(const LitmusTest&, size_t placement);
};

size_t onePlacement(const LitmusTest&) { return 1; }

const ImplementationEntry kImplementations[] = {
    {Implementation::SharedVariables, "sv", "", onePlacement,
     [](const LitmusTest& t, size_t) { return SharedVariablesImpl(t).run(); }},
    {Implementation::WaitByPolls, "wait-polls", "rdma-tso-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return WaitByPollsImpl(t, false).run(); }},
    {Implementation::WaitByPollsFaithful, "wait-polls-faithful", "rdma-tso-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return WaitByPollsImpl(t, true).run(); }},
    // Tickets, CAS and FAA are remote RMWs.
    {Implementation::NodeLocks, "nl", "rdma-wait-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return NodeLocksImpl(t).run(); }},
    {Implementation::WeakLocks, "wl", "rdma-wait-rmw", WeakLocksImpl::placements,
     [](const LitmusTest& t, size_t p) { return WeakLocksImpl(t, p).run(); }},
    {Implementation::StrongLocks, "sl", "", onePlacement,
     [](const LitmusTest& t, size_t) { return StrongLocksImpl(t).run(); }},
    {Implementation::SequentialConsistency, "sc", "rdma-wait-rmw", ScImpl::placements,
     [](const LitmusTest& t, size_t p) { return ScImpl(t, p).run(); }},
    {Implementation::Barriers, "bal", "", onePlacement,
     [](const LitmusTest& t, size_t) { return BarriersImpl(t, true).run(); }},
    {Implementation::BarriersWithoutEntryFence, "bal-no-entry-fence", "", onePlacement,
     [](const LitmusTest& t, size_t) { return BarriersImpl(t, false).run(); }},
    {Implementation::RingBuffers, "rbl", "", RingBuffersImpl::placements,
     [](const LitmusTest& t, size_t p) { return RingBuffersImpl(t, p, false).run(); }},
    {Implementation::RingBuffersHeadFirst, "rbl-head-first", "", RingBuffersImpl::placements,
     [](const LitmusTest& t, size_t p) { return RingBuffersImpl(t, p, true).run(); }},
};

const ImplementationEntry& entryOf(Implementation impl) {
    for (const ImplementationEntry& e : kImplementations)
        if (e.id == impl) return e;
    throw std::logic_error("an implementation without an entry");
}

}  // namespace

std::vector<Implementation> parseImplementations(const std::string& list) {
    std::vector<Implementation> chain;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string name = list.substr(start, comma - start);
        const auto* e = std::find_if(std::begin(kImplementations), std::end(kImplementations),
                                     [&](const ImplementationEntry& entry) { return name == entry.name; });
        if (e == std::end(kImplementations)) {
            std::vector<std::string> known;
            for (const ImplementationEntry& entry : kImplementations) known.push_back(entry.name);
            throw InputError(SourceLoc{}, "unknown implementation '" + name + "' (known: " + joined(known) + ")");
        }
        chain.push_back(e->id);
        start = comma + 1;
    }
    return chain;
}

const char* implementationName(Implementation impl) { return entryOf(impl).name; }

std::string loweredModel(Implementation impl, const std::string& model) {
    const char* lower = entryOf(impl).lowersTo;
    return *lower ? lower : model;
}

std::string loweredModel(const std::vector<Implementation>& chain, const std::string& model) {
    std::string lowered = model;
    for (Implementation impl : chain) lowered = loweredModel(impl, lowered);
    return lowered;
}

size_t placementCount(const LitmusTest& test, Implementation impl) { return entryOf(impl).placements(test); }

ImplementedTest implement(const LitmusTest& test, Implementation impl, const std::string& specModel,
                          size_t placement) {
    ImplementedTest out = entryOf(impl).rewrite(test, placement);
    out.model = loweredModel(impl, specModel);
    return out;
}

}  // namespace rdmacheck
