#include "rdmacheck/ast.hpp"

#include <cstdint>
#include <functional>
#include <sstream>

namespace rdmacheck {

Expr Expr::location(std::string name, SourceLoc w) {
    Expr e;
    e.kind = Kind::Location;
    e.name = std::move(name);
    e.where = std::move(w);
    return e;
}

Expr Expr::operation(Operator op, std::vector<Expr> args, SourceLoc w) {
    Expr e = arith::operationNode(op, std::move(args));
    e.where = std::move(w);
    return e;
}

Expr Expr::constant(long long v, SourceLoc w) {
    Expr e;
    e.kind = Kind::Const;
    e.value = v;
    e.where = std::move(w);
    return e;
}

}  // namespace rdmacheck

namespace rdmacheck {

bool anyStatement(const Block& block, const std::function<bool(const Stmt&)>& wanted) {
    for (const Stmt& st : block) {
        if (wanted(st) || anyStatement(st.body, wanted) || anyStatement(st.orelse, wanted)) return true;
        for (const Block& b : st.branches)
            if (anyStatement(b, wanted)) return true;
    }
    return false;
}

std::set<std::string> namesOf(const LitmusTest& test) {
    std::set<std::string> names;
    for (const LocationDecl& d : test.locations) names.insert(d.name);
    auto collect = [&](const Stmt& st) {
        for (const std::string* name : {&st.target.name, &st.source.name, &st.result, &st.workId}) names.insert(*name);
        std::vector<const Expr*> pending{&st.expr, &st.expr2};
        for (const CallArg& a : st.args) pending.push_back(&a.expr);
        while (!pending.empty()) {
            const Expr* e = pending.back();
            pending.pop_back();
            names.insert(e->name);
            for (const Expr& a : e->args) pending.push_back(&a);
        }
        return false;  // every statement
    };
    for (const ThreadDecl& t : test.threads) anyStatement(t.body, collect);
    return names;
}

std::string fresh(std::string name, std::set<std::string>& used) {
    while (used.count(name)) name += "_";
    used.insert(name);
    return name;
}

std::string defaultModelName(const LitmusTest& test) {
    if (test.arch == Arch::X86) return "tso";
    for (const LocationDecl& d : test.locations)
        if (d.shared || d.sc) return "rdma-wait-rmw";
    auto uses = [&](const std::function<bool(const Stmt&)>& wanted) {
        for (const ThreadDecl& t : test.threads)
            if (anyStatement(t.body, wanted)) return true;
        return false;
    };
    if (uses([](const Stmt& st) {
            return st.kind == Stmt::Kind::Wait || st.kind == Stmt::Kind::GFence || st.kind == Stmt::Kind::Call ||
                   !st.workId.empty();
        }))
        return "rdma-wait-rmw";
    if (uses([](const Stmt& st) { return st.kind == Stmt::Kind::RCas || st.kind == Stmt::Kind::RFaa; }))
        return "rdma-tso-rmw";
    return "rdma-tso";
}

const std::string* addressName(long long value, const std::vector<std::string>& addresses) {
    if (value < kAddressBase || value - kAddressBase >= static_cast<long long>(addresses.size())) return nullptr;
    return &addresses[value - kAddressBase];
}

std::string valueText(long long value, const std::vector<std::string>& addresses, int hexBits) {
    if (const std::string* name = addressName(value, addresses)) return *name;
    if (hexBits == 0) return std::to_string(value);
    uint64_t bits = static_cast<uint64_t>(value);
    if (hexBits < 64) bits &= (uint64_t{1} << hexBits) - 1;
    std::ostringstream hex;
    hex << "0x" << std::hex << bits;
    return hex.str();
}

long long initialRegisterValue(const LitmusTest& test, int thread, const std::string& name) {
    auto init = test.registerInit.find(registerKey(thread, name));
    return init == test.registerInit.end() ? 0 : init->second;
}

}  // namespace rdmacheck
