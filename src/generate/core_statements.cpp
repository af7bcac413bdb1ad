// The core statements the generator draws: CPU accesses and expressions, the
// NIC's puts, gets, remote RMWs, polls, fences and waits, a CAS, and control
// flow with short bodies of simple statements.
#include <algorithm>
#include <cstddef>
#include <iterator>

#include "generator.hpp"

namespace rdmacheck {

namespace {

// Work identifiers of puts, gets and RMWs (or none). SV broadcasts draw from f and g,
// so a wait(d) and an sv.wait(f) never name the same work, whichever way a checker or an
// implementation scopes the names.
const char* const kRdmaWorkIds[] = {"d", "e"};

// What the bodies of if, choice, loop and while are made of: no polls, no control flow.
const char* const kSimpleKinds[] = {"write", "read", "put", "get", "mfence"};

// Kinds that access a shared location of some node through the NIC, and count for later polls.
bool isRemoteKind(const std::string& kind) {
    return kind == "put" || kind == "get" || kind == "rcas" || kind == "rfaa";
}

Expr binaryExpr(Operator op, Expr left, Expr right) { return Expr::operation(op, {std::move(left), std::move(right)}, {}); }

LocRef localRef(const std::string& name) { return LocRef{name, std::nullopt, {}}; }
LocRef remoteRef(const std::string& name, int node) { return LocRef{name, node, {}}; }

}  // namespace

Stmt Generator::coreStatement(const std::string& kind, ThreadState& th, const std::vector<int>& pollable) {
    if (kind == "write" || kind == "read") return localAccess(kind, th);
    if (isRemoteKind(kind)) return remoteAccess(kind, th);
    if (kind == "poll" || kind == "rfence" || kind == "mfence" || kind == "wait")
        return nicStatement(kind, th, pollable);
    if (kind == "assume" || kind == "if" || kind == "choice" || kind == "loop" || kind == "while")
        return control(kind, th);
    return casStatement();
}

// x := v (sometimes y + v), or a fresh location := x.
Stmt Generator::localAccess(const std::string& kind, ThreadState& th) {
    Stmt s;
    s.kind = Stmt::Kind::Assign;
    if (kind == "write") {
        s.target = localRef(writeTarget(th));
        s.expr = Expr::constant(value(), {});
        if (random_.chance(0.25)) s.expr = binaryExpr(Operator::Add, Expr::location(localLocation(), {}), std::move(s.expr));
    } else {
        s.expr = Expr::location(localLocation(), {});
        s.target = localRef(freshPrivate());
    }
    return s;
}

// Puts, gets and remote RMWs, on a shared location of the target node.
Stmt Generator::remoteAccess(const std::string& kind, ThreadState& th) {
    Stmt s;
    const int node = remoteNode(th.node);
    testNodes_.insert(node);
    const std::string& remote = random_.pick(sharedOn_[node]);
    if (kind == "put") {
        s.kind = Stmt::Kind::Put;
        s.target = remoteRef(remote, node);
        s.sourceIsConst = random_.chance(0.5);
        if (s.sourceIsConst) {
            s.constant = value();
        } else {
            s.source = localRef(localLocation());
        }
    } else if (kind == "get") {
        s.kind = Stmt::Kind::Get;
        s.source = remoteRef(remote, node);
        s.target = localRef(freshPrivate());
    } else {
        s.target = remoteRef(remote, node);
        s.source = localRef(rmwResult(th));
        if (kind == "rcas") {
            s.kind = Stmt::Kind::RCas;
            s.expr = Expr::constant(random_.between(0, options_.values), {});  // 0: the initial value
            s.expr2 = Expr::constant(value(), {});
        } else {
            s.kind = Stmt::Kind::RFaa;
            s.expr = Expr::constant(value(), {});
        }
    }
    remoteWorkId(s, th);
    ++th.unpolled[node];
    return s;
}

// Polls, fences and waits.
Stmt Generator::nicStatement(const std::string& kind, ThreadState& th, const std::vector<int>& pollable) {
    Stmt s;
    if (kind == "poll") {
        s.kind = Stmt::Kind::Poll;
        s.node = random_.pick(pollable);
        --th.unpolled[s.node];
    } else if (kind == "rfence") {
        s.kind = Stmt::Kind::RFence;
        s.node = static_cast<int>(random_.between(1, options_.nodes));
    } else if (kind == "mfence") {
        s.kind = Stmt::Kind::MFence;
    } else {  // wait
        s.kind = Stmt::Kind::Wait;
        s.workId = waitedWork(th.rdmaIds);
    }
    return s;
}

Stmt Generator::casStatement() {
    Stmt s;
    s.kind = Stmt::Kind::Cas;
    s.target = localRef(localLocation());
    s.expr = Expr::constant(random_.between(0, options_.values), {});
    s.expr2 = Expr::constant(random_.between(0, options_.values), {});
    s.result = freshPrivate();
    s.source = localRef(s.result);  // where the parser keeps the result location
    return s;
}

// In a work-identifier test, a put, get or RMW gets d, e or none.
void Generator::remoteWorkId(Stmt& s, ThreadState& th) {
    if (!workIds_) return;
    const size_t k = random_.below(std::size(kRdmaWorkIds) + 1);
    if (k == std::size(kRdmaWorkIds)) return;
    s.workId = kRdmaWorkIds[k];
    usesWork(th.rdmaIds, s.workId);
}

// Target node of a remote op (every node has shared locations then): the thread's
// own node with probability `loopback`, else one of the others.
int Generator::remoteNode(int own) {
    if (options_.nodes == 1 || random_.chance(options_.loopback)) return own;
    const int other = static_cast<int>(random_.between(1, options_.nodes - 1));
    return other >= own ? other + 1 : other;
}

// Mostly a shared location of the thread's node; else a private one, new or already used.
std::string Generator::writeTarget(ThreadState& th) {
    const std::vector<std::string>& shared = sharedOn_[th.node];
    if (!shared.empty() && random_.chance(0.75)) return random_.pick(shared);
    if (th.privates.empty() || random_.chance(0.5)) return freshPrivate();
    return random_.pick(th.privates);
}

// Where an RMW puts the old value: mostly a fresh private location like a get's target;
// else one the thread already has (a second nlW to it), or `_` (a hidden location).
std::string Generator::rmwResult(ThreadState& th) {
    if (random_.chance(0.2)) return "_";
    if (th.privates.empty() || random_.chance(0.75)) return freshPrivate();
    return random_.pick(th.privates);
}

// assume, if, choice, loop and while, with short blocks.
Stmt Generator::control(const std::string& kind, ThreadState& th) {
    Stmt s;
    if (kind == "assume") {
        s.kind = Stmt::Kind::Assume;
        test(s, random_.chance(0.5));
    } else if (kind == "if") {
        s.kind = Stmt::Kind::If;
        test(s, true);
        s.body = simpleBlock(th, 0, 2);
        if (random_.chance(0.6)) s.orelse = simpleBlock(th, 0, 2);
    } else if (kind == "choice") {
        s.kind = Stmt::Kind::Choice;
        s.branches.push_back(simpleBlock(th, 1, 2));
        s.branches.push_back(simpleBlock(th, 1, 2));
    } else if (kind == "loop") {
        s.kind = Stmt::Kind::Loop;
        s.body = simpleBlock(th, 1, 2);
    } else {  // while
        s.kind = Stmt::Kind::While;
        test(s, false);
        s.body = simpleBlock(th, 0, 2);
    }
    return s;
}

// `x = v` or `x != v` on a local location, v in 0..values.
void Generator::test(Stmt& s, bool equal) {
    s.expr = Expr::location(localLocation(), {});
    s.compare = equal ? Comparison::Eq : Comparison::Ne;
    s.expr2 = Expr::constant(random_.between(0, options_.values), {});
}

// A kind for the body of a compound statement, weighted as in the mix (evenly if the
// mix gives all of them weight 0).
std::string Generator::simpleKind() {
    std::vector<std::pair<std::string, int>> kinds;
    long long total = 0;
    for (const char* kind : kSimpleKinds) {
        const std::string k = kind;
        if (isRemoteKind(k) && options_.sharedPerNode == 0) continue;
        const auto it = options_.mix.find(k);
        const int weight = it == options_.mix.end() ? 0 : it->second;
        kinds.emplace_back(k, weight);
        total += weight;
    }
    if (total == 0) {
        for (auto& kind : kinds) kind.second = 1;
        total = static_cast<long long>(kinds.size());
    }
    return pickWeighted(kinds, total);
}

// lo..hi simple statements. Their puts and gets do not count for later polls: a poll
// after the block must find work on every path, not just those through the block.
Block Generator::simpleBlock(ThreadState& th, long long lo, long long hi) {
    const std::map<int, int> unpolled = th.unpolled;
    Block b;
    const long long n = random_.between(lo, hi);
    for (long long k = 0; k < n; ++k) b.push_back(coreStatement(simpleKind(), th, {}));
    th.unpolled = unpolled;
    return b;
}

// `target := E` with E reading two or three distinct local locations, some scaled by a
// constant, joined by + and -, sometimes with a constant term: `x := a + 2 * b - 1`.
Stmt Generator::expressionWrite(ThreadState& th) {
    const bool three = th.paths * 6 <= kPathBudget && random_.chance(0.4);
    th.paths = std::min(th.paths * (three ? 6 : 2), kPathBudget * kPathBudget);
    std::vector<std::string> pool = sharedOn_[th.node];
    pool.insert(pool.end(), th.privates.begin(), th.privates.end());
    const size_t reads = three ? 3 : 2;
    while (pool.size() < reads) pool.push_back(freshPrivate());
    Stmt s;
    s.kind = Stmt::Kind::Assign;
    s.target = localRef(writeTarget(th));
    for (size_t k = 0; k < reads; ++k) {
        const size_t chosen = random_.below(pool.size());
        Expr term = Expr::location(pool[chosen], {});
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(chosen));
        if (random_.chance(0.3))
            term = binaryExpr(Operator::Mul, Expr::constant(random_.between(2, 3), {}), std::move(term));
        s.expr = k == 0 ? std::move(term)
                        : binaryExpr(random_.chance(0.5) ? Operator::Add : Operator::Sub, std::move(s.expr),
                                     std::move(term));
    }
    if (random_.chance(0.3))
        s.expr = binaryExpr(random_.chance(0.5) ? Operator::Add : Operator::Sub, std::move(s.expr),
                            Expr::constant(value(), {}));
    return s;
}

}  // namespace rdmacheck
