// I_SV, shared variables over RDMA^WAIT (LOCO §3.5).
#include <utility>

#include "libraries/sv/sv.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

// I_SV (LOCO §3.5): the copy of x on node n is a location x_n homed on n;
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

}  // namespace

}  // namespace rdmacheck::rewrite

namespace rdmacheck::sv {

std::vector<ImplementationDescriptor> implementations() {
    return {{"sv", "", nullptr, [](const LitmusTest& t, size_t) { return rewrite::SharedVariablesImpl(t).run(); }}};
}

}  // namespace rdmacheck::sv
