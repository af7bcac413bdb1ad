// The statement builders and test scans the implementations share.
#include "rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

void renameAtoms(Cond& c, const std::map<std::string, std::string>& names) {
    if (c.kind == Cond::Kind::Atom && c.thread < 0) {
        auto it = names.find(c.loc);
        if (it != names.end()) c.loc = it->second;
    }
    for (Cond& a : c.args) renameAtoms(a, names);
}

}  // namespace

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

LocRef ref(const std::string& name, const SourceLoc& where, std::optional<int> node) {
    return LocRef{name, node, where};
}

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
    return Expr::operation(Operator::Add, {Expr::location(location, at), Expr::constant(1, at)}, at);
}
// The nodes of a test, as the unfolder counts them (Node of doc/model-notes.md §N16):
// its threads', its declared locations', every `^n` and every node set.
std::vector<int> testNodes(const LitmusTest& test) {
    std::set<int> nodes;
    for (const ThreadDecl& t : test.threads) nodes.insert(t.node);
    for (const LocationDecl& d : test.locations)
        if (!d.shared && !d.sc) nodes.insert(d.node);
    auto scan = [&](const Stmt& st) {
        for (const LocRef* r : {&st.target, &st.source})
            if (r->node) nodes.insert(*r->node);
        nodes.insert(st.nodes.begin(), st.nodes.end());
        for (const CallArg& a : st.args) {
            nodes.insert(a.nodes.begin(), a.nodes.end());
            if (a.expr.remoteNode) nodes.insert(a.expr.remoteNode);
        }
        return false;  // every statement
    };
    for (const ThreadDecl& t : test.threads) anyStatement(t.body, scan);
    return {nodes.begin(), nodes.end()};
}

// The locks a test calls with `library`, in name order.
std::vector<std::string> locksOf(const LitmusTest& test, const std::string& library) {
    std::set<std::string> locks;
    auto scan = [&](const Stmt& st) {
        if (st.kind == Stmt::Kind::Call && st.library == library) locks.insert(st.args[0].expr.name);
        return false;  // every statement
    };
    for (const ThreadDecl& t : test.threads) anyStatement(t.body, scan);
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

Stmt ownAssume(Expr lhs, Comparison op, Expr rhs, const SourceLoc& at) {
    Stmt s = testStmt(Stmt::Kind::Assume, std::move(lhs), op, std::move(rhs), at);
    s.readsInTextOrder = true;
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

}  // namespace rdmacheck::rewrite
