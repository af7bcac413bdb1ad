// I_SC, SC locations over node locks (RMW Fig. 14 and App. B.5).
#include "libraries/sc/sc.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

// I_SC over {RDMA^WAIT_RMW, NLOCK} (RMW Fig. 14 and App. B.5): an SC
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

}  // namespace

}  // namespace rdmacheck::rewrite

namespace rdmacheck::sc {

std::vector<ImplementationDescriptor> implementations() {
    using namespace rewrite;
    return {{"sc", "rdma-wait-rmw", ScImpl::placements,
             [](const LitmusTest& t, size_t p) { return ScImpl(t, p).run(); }}};
}

}  // namespace rdmacheck::sc
