#include "rdmacheck/ast.hpp"

namespace rdmacheck {

Expr Expr::constant(long long v, SourceLoc w) {
    Expr e;
    e.kind = Kind::Const;
    e.value = v;
    e.where = std::move(w);
    return e;
}

}  // namespace rdmacheck

namespace rdmacheck {

namespace {

bool usesRemoteRmw(const Block& block) {
    for (const Stmt& st : block) {
        if (st.kind == Stmt::Kind::RCas || st.kind == Stmt::Kind::RFaa) return true;
        if (usesRemoteRmw(st.body) || usesRemoteRmw(st.orelse)) return true;
        for (const Block& b : st.branches)
            if (usesRemoteRmw(b)) return true;
    }
    return false;
}

bool usesWorkLevel(const Block& block) {
    for (const Stmt& st : block) {
        if (st.kind == Stmt::Kind::Wait || st.kind == Stmt::Kind::GFence || st.kind == Stmt::Kind::Call ||
            !st.workId.empty())
            return true;
        if (usesWorkLevel(st.body) || usesWorkLevel(st.orelse)) return true;
        for (const Block& b : st.branches)
            if (usesWorkLevel(b)) return true;
    }
    return false;
}

}  // namespace

std::string defaultModelName(const LitmusTest& test) {
    if (test.arch == Arch::X86) return "tso";
    for (const LocationDecl& d : test.locations)
        if (d.shared) return "rdma-wait-rmw";
    for (const ThreadDecl& t : test.threads)
        if (usesWorkLevel(t.body)) return "rdma-wait-rmw";
    for (const ThreadDecl& t : test.threads)
        if (usesRemoteRmw(t.body)) return "rdma-tso-rmw";
    return "rdma-tso";
}

}  // namespace rdmacheck
