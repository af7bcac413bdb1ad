#include "rdmacheck/generate.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <set>
#include <stdexcept>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/print.hpp"

namespace rdmacheck {

namespace {

// Straight-line kinds first, then those with weight 0 in the default mix: remote RMWs (only
// rdma-tso-rmw has them), CPU writes of expressions over several locations, assume, and
// control flow (one level deep, bodies of simple statements only); then the RDMA^WAIT kinds
// (wait, and the SV library's calls and global fence), which make a work-identifier test;
// then the locks (a critical section: an acquire, one or more statements, a release) and an
// RDMA^SC_RMW call and a ring-buffer call (LIBRARIES.md §11.1).
const char* const kStatementKinds[] = {"write",   "read",   "put",     "get",    "poll",   "rfence",
                                       "mfence",  "cas",    "rcas",    "rfaa",   "expr",   "assume",
                                       "if",      "choice", "loop",    "while",  "wait",   "svwrite",
                                       "svread",  "svbcast", "svwait", "gfence", "wl",     "sl",
                                       "nl",      "sc",      "rbl"};

// Kinds of the MOWGLI level: a mix that draws any of them makes work-identifier tests (no polls).
const char* const kWaitKinds[] = {"wait", "svwrite", "svread", "svbcast", "svwait", "gfence", "wl", "sl", "nl", "sc",
                                  "rbl"};

// The lock libraries' kinds: each opens a critical section on the lock `l`.
bool isLockKind(const std::string& kind) { return kind == "wl" || kind == "sl" || kind == "nl"; }

// Kinds that name a shared variable of SV: with any of them the tests declare one or two.
const char* const kSharedVariableKinds[] = {"svwrite", "svread", "svbcast"};

// Work identifiers a thread draws from: for puts, gets and RMWs (or none), and for SV
// broadcasts (or `_`). The two sets are disjoint, so a wait(d) and an sv.wait(f) never
// name the same work, whichever way a checker or an implementation scopes the names.
const char* const kRdmaWorkIds[] = {"d", "e"};
const char* const kSvWorkIds[] = {"f", "g"};

// What the bodies of if, choice, loop and while are made of: no polls, no control flow.
const char* const kSimpleKinds[] = {"write", "read", "put", "get", "mfence"};

// Bound on the writes to copies of SV variables in a test (sv.write: one, sv.bcast: one per
// node of its set). Every broadcast's local read may read from any of them, and the
// declarative engine enumerates each consistent execution: three loopback broadcasts to
// {1, 2}, a write and one more broadcast (eight copy writes) pass 10^4 executions and take
// minutes, while four copy writes stay well under a second.
constexpr int kSvWriteBudget = 4;

// Bound on the estimated paths of a thread (unroll 2): kinds that would go over it are left
// out of the draw while others remain, so mixes with control flow keep unfolding small.
constexpr long long kPathBudget = 24;

// Kinds that access a shared location of some node through the NIC, and count for later polls.
bool isRemoteKind(const std::string& kind) {
    return kind == "put" || kind == "get" || kind == "rcas" || kind == "rfaa";
}

bool isSvWrite(const std::string& kind) { return kind == "svwrite" || kind == "svbcast"; }

bool isStatementKind(const std::string& kind) {
    for (const char* k : kStatementKinds)
        if (kind == k) return true;
    return false;
}

std::string knownKinds() {
    std::string list;
    for (const char* k : kStatementKinds) list += (list.empty() ? "" : ", ") + std::string(k);
    return list;
}

// How many paths a statement of this kind makes of each path before it, at most (unroll 2:
// zero, one or two iterations, and the path the bound cuts).
long long pathFactor(const std::string& kind) {
    if (kind == "expr") return 2;  // two locations read in either order (three make 6)
    if (kind == "if" || kind == "choice") return 2;
    if (kind == "cas" || kind == "rcas" || kind == "sc" || kind == "rbl") return 2;  // success and failure
    if (kind == "loop" || kind == "while") return 4;
    return 1;
}

// What the path budget charges a kind when deciding whether to hold it back: cas and rcas
// are counted in the estimate but never held back, so the default mix draws as it always
// has and an RMW mix keeps its proportions in long threads.
long long budgetCost(const std::string& kind) { return kind == "cas" || kind == "rcas" ? 1 : pathFactor(kind); }

Expr binaryExpr(Expr::Kind kind, Expr left, Expr right) {
    Expr e;
    e.kind = kind;
    e.args = {std::move(left), std::move(right)};
    return e;
}

// splitmix64, and only integer arithmetic on its output: the standard distributions
// are implementation-defined, and a seed must name the same test everywhere.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // 0..n-1 for n > 0 (the modulo bias is negligible for the small n used here).
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
    long long between(long long lo, long long hi) { return lo + static_cast<long long>(below(hi - lo + 1)); }
    // 53 random bits scaled to [0, 1) are exact in a double.
    bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

private:
    uint64_t state_;
};

// x, y, z, w, v, u, ... then x1, y1, ...; 'r' is left out for the threads' private locations.
std::string sharedName(int index) {
    static const std::string letters = "xyzwvutsqponmlkjihgfedcba";
    const int n = static_cast<int>(letters.size());
    std::string name(1, letters[index % n]);
    return index < n ? name : name + std::to_string(index / n);
}

LocRef localRef(const std::string& name) { return LocRef{name, std::nullopt, {}}; }
LocRef remoteRef(const std::string& name, int node) { return LocRef{name, node, {}}; }

Expr locationExpr(const std::string& name) {
    Expr e;
    e.kind = Expr::Kind::Location;
    e.name = name;
    return e;
}

CallArg exprArg(Expr e) {
    CallArg a;
    a.expr = std::move(e);
    return a;
}

CallArg nodeSetArg(std::vector<int> nodes) {
    CallArg a;
    a.isNodeSet = true;
    a.nodes = std::move(nodes);
    return a;
}

Stmt svCall(const std::string& method, std::vector<CallArg> args) {
    Stmt s;
    s.kind = Stmt::Kind::Call;
    s.library = "sv";
    s.method = method;
    s.args = std::move(args);
    return s;
}

bool drawsAny(const GeneratorOptions& o, const char* const* kinds, size_t n) {
    for (size_t k = 0; k < n; ++k) {
        const auto it = o.mix.find(kinds[k]);
        if (it != o.mix.end() && it->second > 0) return true;
    }
    return false;
}

void validate(const GeneratorOptions& o) {
    if (o.nodes < 1) throw std::invalid_argument("the generator needs at least one node");
    if (o.threads < 1) throw std::invalid_argument("the generator needs at least one thread");
    if (o.minLength < 0 || o.minLength > o.maxLength)
        throw std::invalid_argument("thread lengths need 0 <= minLength <= maxLength");
    if (o.sharedPerNode < 0) throw std::invalid_argument("sharedPerNode cannot be negative");
    if (o.values < 1) throw std::invalid_argument("values must be at least 1");
    if (!(o.loopback >= 0 && o.loopback <= 1)) throw std::invalid_argument("loopback is a probability in [0, 1]");
    for (const auto& [kind, weight] : o.mix) {
        if (!isStatementKind(kind)) throw std::invalid_argument("unknown statement kind '" + kind + "' in the mix");
        if (weight < 0) throw std::invalid_argument("negative weight for '" + kind + "' in the mix");
    }
}

class Generator {
public:
    Generator(uint64_t seed, const GeneratorOptions& options)
        : seed_(seed),
          random_(seed),
          options_(options),
          workIds_(drawsAny(options, kWaitKinds, std::size(kWaitKinds))),
          sharedVariables_(drawsAny(options, kSharedVariableKinds, std::size(kSharedVariableKinds))) {
        sharedOn_.resize(options.nodes + 1);
        int index = 0;
        for (int node = 1; node <= options.nodes; ++node)
            for (int k = 0; k < options.sharedPerNode; ++k) sharedOn_[node].push_back(sharedName(index++));
        nextSharedIndex_ = index;
    }

    LitmusTest run() {
        LitmusTest t;
        t.name = "random-" + std::to_string(seed_);
        for (int node = 1; node <= options_.nodes; ++node) {
            for (const std::string& name : sharedOn_[node]) t.locations.push_back(LocationDecl{name, node, 0, {}});
            if (!sharedOn_[node].empty()) testNodes_.insert(node);
        }
        // SV variables take the next names of the shared-location sequence: `z@sv` after x@1, y@2.
        // The SC location, when the mix draws SC calls.
        if (drawsAny(options_, std::vector<const char*>{"sc"}.data(), 1)) {
            scLocation_ = sharedName(nextSharedIndex_++);
            LocationDecl d{scLocation_, 1, 0, {}};
            d.sc = true;
            t.locations.push_back(d);
        }
        if (sharedVariables_) {
            const long long count = random_.between(1, 2);
            for (long long k = 0; k < count; ++k) {
                variables_.push_back(sharedName(nextSharedIndex_++));
                LocationDecl d{variables_.back(), 1, 0, {}};
                d.shared = true;
                t.locations.push_back(d);
            }
        }
        for (int i = 0; i < options_.threads; ++i) {
            ThreadState thread{i, i % options_.nodes + 1, {}, {}, 1, {}, {}, {}, std::nullopt};
            testNodes_.insert(thread.node);
            ThreadDecl decl;
            decl.name = "P" + std::to_string(i);
            decl.node = thread.node;
            const long long length = random_.between(options_.minLength, options_.maxLength);
            for (long long k = 0; k < length; ++k) {
                const bool opens = !thread.release;
                decl.body.push_back(statement(thread));
                // A critical section holds one statement or more, and closes by the thread's end.
                if (thread.release && !(opens && decl.body.back().kind == Stmt::Kind::Call) &&
                    (k + 1 == length || random_.chance(0.5))) {
                    decl.body.push_back(*thread.release);
                    thread.release.reset();
                }
            }
            if (thread.release) decl.body.push_back(*thread.release);
            for (const std::string& name : thread.privates)
                t.locations.push_back(LocationDecl{name, thread.node, 0, {}});
            t.threads.push_back(std::move(decl));
        }
        t.condition = condition(t.locations);
        return t;
    }

private:
    struct ThreadState {
        int index;
        int node;
        std::vector<std::string> privates;  // r<index>_<k>, home = the thread's node
        std::map<int, int> unpolled;        // remote node -> remote ops not yet polled (straight-line only)
        long long paths;                    // estimated paths so far (see pathFactor)
        std::vector<std::string> rdmaIds;   // work identifiers of earlier puts, gets and RMWs (first use order)
        std::vector<std::string> svIds;     // work identifiers of earlier SV broadcasts
        std::set<std::string> unwaited;     // of those, the ones used again since the last wait on them
        std::optional<Stmt> release;        // the release of the open critical section, if any
    };

    static void noteWorkId(ThreadState& th, std::vector<std::string>& used, const std::string& id) {
        if (id.empty() || id == "_") return;
        if (std::find(used.begin(), used.end(), id) == used.end()) used.push_back(id);
        th.unwaited.insert(id);
    }

    // A wait (or sv.wait) on one of `used`: one with work since its last wait if there is one.
    std::string waitedId(ThreadState& th, const std::vector<std::string>& used) {
        std::vector<std::string> fresh;
        for (const std::string& id : used)
            if (th.unwaited.count(id)) fresh.push_back(id);
        const std::string id = random_.pick(fresh.empty() ? used : fresh);
        th.unwaited.erase(id);
        return id;
    }

    // In a work-identifier test, a put, get or RMW gets d, e or none.
    void remoteWorkId(Stmt& s, ThreadState& th) {
        if (!workIds_) return;
        const size_t k = random_.below(std::size(kRdmaWorkIds) + 1);
        if (k == std::size(kRdmaWorkIds)) return;
        s.workId = kRdmaWorkIds[k];
        noteWorkId(th, th.rdmaIds, s.workId);
    }

    // A non-empty set of nodes, in increasing order: any of them, or (broadcast) mostly others.
    std::vector<int> nodeSet(int own, bool mostlyOthers) {
        std::vector<int> nodes;
        if (mostlyOthers && options_.nodes > 1) {
            const uint64_t mask = static_cast<uint64_t>(random_.between(1, (1LL << (options_.nodes - 1)) - 1));
            const bool loop = random_.chance(0.25);
            for (int n = 1, bit = 0; n <= options_.nodes; ++n) {
                if (n == own) {
                    if (loop) nodes.push_back(n);
                } else if ((mask >> bit++) & 1) {
                    nodes.push_back(n);
                }
            }
        } else {
            const uint64_t mask = static_cast<uint64_t>(random_.between(1, (1LL << options_.nodes) - 1));
            for (int n = 1; n <= options_.nodes; ++n)
                if ((mask >> (n - 1)) & 1) nodes.push_back(n);
        }
        return nodes;
    }

    std::string freshPrivate(ThreadState& th) {
        th.privates.push_back("r" + std::to_string(th.index) + "_" + std::to_string(th.privates.size()));
        return th.privates.back();
    }

    // A location the thread reaches by CPU accesses: shared ones of its node first.
    std::string localLocation(ThreadState& th) {
        const std::vector<std::string>& shared = sharedOn_[th.node];
        if (!shared.empty() && (th.privates.empty() || random_.chance(0.75))) return random_.pick(shared);
        if (!th.privates.empty()) return random_.pick(th.privates);
        return freshPrivate(th);
    }

    // Target node of a remote op (every node has shared locations then): the thread's
    // own node with probability `loopback`, else one of the others.
    int remoteNode(int own) {
        if (options_.nodes == 1 || random_.chance(options_.loopback)) return own;
        const int other = static_cast<int>(random_.between(1, options_.nodes - 1));
        return other >= own ? other + 1 : other;
    }

    // Mostly a shared location of the thread's node; else a private one, new or already used.
    std::string writeTarget(ThreadState& th) {
        const std::vector<std::string>& shared = sharedOn_[th.node];
        if (!shared.empty() && random_.chance(0.75)) return random_.pick(shared);
        if (th.privates.empty() || random_.chance(0.5)) return freshPrivate(th);
        return random_.pick(th.privates);
    }

    // Where an RMW puts the old value: mostly a fresh private location like a get's target;
    // else one the thread already has (a second nlW to it), or `_` (a hidden location).
    std::string rmwResult(ThreadState& th) {
        if (random_.chance(0.2)) return "_";
        if (th.privates.empty() || random_.chance(0.75)) return freshPrivate(th);
        return random_.pick(th.privates);
    }

    long long value() { return random_.between(1, options_.values); }

    // One of the candidates, with probability proportional to its weight (total = their sum > 0).
    const std::string& pickWeighted(const std::vector<std::pair<std::string, int>>& candidates, long long total) {
        long long ticket = random_.between(0, total - 1);
        size_t chosen = 0;
        for (; ticket >= candidates[chosen].second; ++chosen) ticket -= candidates[chosen].second;
        return candidates[chosen].first;
    }

    // A top-level statement. Kinds that would take the thread over the path budget are drawn
    // only when nothing else in the mix is possible, and then only the cheapest of them.
    Stmt statement(ThreadState& th) {
        std::vector<int> pollable;
        for (const auto& [node, count] : th.unpolled)
            if (count > 0) pollable.push_back(node);
        std::vector<std::pair<std::string, int>> possible;
        long long cheapest = 0;
        for (const auto& [kind, weight] : options_.mix) {
            if (weight <= 0) continue;
            if (kind == "poll" && (workIds_ || pollable.empty())) continue;
            if (isRemoteKind(kind) && options_.sharedPerNode == 0) continue;
            if (kind == "wait" && th.rdmaIds.empty()) continue;
            if (kind == "svwait" && th.svIds.empty()) continue;
            if (isLockKind(kind) && th.release) continue;  // one critical section at a time
            possible.emplace_back(kind, weight);
            cheapest = cheapest == 0 ? budgetCost(kind) : std::min(cheapest, budgetCost(kind));
        }
        // SV writes past their budget are held back while anything else is possible.
        const bool svFull = svCopyWrites_ >= kSvWriteBudget &&
                            std::any_of(possible.begin(), possible.end(),
                                        [](const auto& candidate) { return !isSvWrite(candidate.first); });
        std::vector<std::pair<std::string, int>> candidates;
        long long total = 0;
        for (const auto& [kind, weight] : possible) {
            if (budgetCost(kind) > cheapest && th.paths * budgetCost(kind) > kPathBudget) continue;
            if (svFull && isSvWrite(kind)) continue;
            candidates.emplace_back(kind, weight);
            total += weight;
        }
        if (total == 0)
            throw std::invalid_argument("the statement mix leaves nothing to generate (poll needs an earlier remote "
                                        "op, wait an earlier one with a work identifier, svwait an earlier svbcast "
                                        "with one, and poll is never drawn with the RDMA^WAIT kinds; remote ops "
                                        "need shared locations)");
        const std::string& kind = pickWeighted(candidates, total);
        if (kind == "expr") return expressionWrite(th);
        th.paths = std::min(th.paths * pathFactor(kind), kPathBudget * kPathBudget);
        return statementOf(kind, th, pollable);
    }

    // A kind for the body of a compound statement, weighted as in the mix (evenly if the
    // mix gives all of them weight 0).
    std::string simpleKind() {
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
    Block simpleBlock(ThreadState& th, long long lo, long long hi) {
        const std::map<int, int> unpolled = th.unpolled;
        Block b;
        const long long n = random_.between(lo, hi);
        for (long long k = 0; k < n; ++k) b.push_back(statementOf(simpleKind(), th, {}));
        th.unpolled = unpolled;
        return b;
    }

    // `target := E` with E reading two or three distinct local locations, some scaled by a
    // constant, joined by + and -, sometimes with a constant term: `x := a + 2 * b - 1`.
    Stmt expressionWrite(ThreadState& th) {
        const bool three = th.paths * 6 <= kPathBudget && random_.chance(0.4);
        th.paths = std::min(th.paths * (three ? 6 : 2), kPathBudget * kPathBudget);
        std::vector<std::string> pool = sharedOn_[th.node];
        pool.insert(pool.end(), th.privates.begin(), th.privates.end());
        const size_t reads = three ? 3 : 2;
        while (pool.size() < reads) pool.push_back(freshPrivate(th));
        Stmt s;
        s.kind = Stmt::Kind::Assign;
        s.target = localRef(writeTarget(th));
        for (size_t k = 0; k < reads; ++k) {
            const size_t chosen = random_.below(pool.size());
            Expr term = locationExpr(pool[chosen]);
            pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(chosen));
            if (random_.chance(0.3)) term = binaryExpr(Expr::Kind::Mul, Expr::constant(random_.between(2, 3), {}),
                                                       std::move(term));
            s.expr = k == 0 ? std::move(term)
                            : binaryExpr(random_.chance(0.5) ? Expr::Kind::Add : Expr::Kind::Sub,
                                         std::move(s.expr), std::move(term));
        }
        if (random_.chance(0.3))
            s.expr = binaryExpr(random_.chance(0.5) ? Expr::Kind::Add : Expr::Kind::Sub, std::move(s.expr),
                                Expr::constant(value(), {}));
        return s;
    }

    // `x = v` or `x != v` on a local location, v in 0..values.
    void test(Stmt& s, ThreadState& th, bool equal) {
        const LocRef x = localRef(localLocation(th));
        s.expr = Expr::location(x.name, x.where);
        s.compare = equal ? Comparison::Eq : Comparison::Ne;
        s.expr2 = Expr::constant(random_.between(0, options_.values), {});
    }

    Stmt statementOf(const std::string& kind, ThreadState& th, const std::vector<int>& pollable) {
        if (kind == "write" || kind == "read") return localAccess(kind, th);
        if (kind == "put" || kind == "get" || kind == "rcas" || kind == "rfaa" || kind == "poll" ||
            kind == "rfence" || kind == "mfence" || kind == "wait")
            return nicStatement(kind, th, pollable);
        if (kind == "svwrite" || kind == "svread" || kind == "svbcast" || kind == "svwait" || kind == "gfence")
            return svStatement(kind, th);
        if (isLockKind(kind) || kind == "sc" || kind == "rbl") return libraryCall(kind, th);
        if (kind == "assume" || kind == "if" || kind == "choice" || kind == "loop" || kind == "while")
            return control(kind, th);
        Stmt s;  // cas
        s.kind = Stmt::Kind::Cas;
        s.target = localRef(localLocation(th));
        s.expr = Expr::constant(random_.between(0, options_.values), {});
        s.expr2 = Expr::constant(random_.between(0, options_.values), {});
        s.result = freshPrivate(th);
        s.source = localRef(s.result);  // where the parser keeps the result location
        return s;
    }

    // x := v (sometimes y + v), or a fresh location := x.
    Stmt localAccess(const std::string& kind, ThreadState& th) {
        Stmt s;
        if (kind == "write") {
            s.kind = Stmt::Kind::Assign;
            s.target = localRef(writeTarget(th));
            s.expr = Expr::constant(value(), {});
            if (random_.chance(0.25)) {
                Expr sum;
                sum.kind = Expr::Kind::Add;
                sum.args = {locationExpr(localLocation(th)), std::move(s.expr)};
                s.expr = std::move(sum);
            }
        } else {
            s.kind = Stmt::Kind::Assign;
            s.expr = locationExpr(localLocation(th));
            s.target = localRef(freshPrivate(th));
        }
        return s;
    }

    // Puts, gets, remote RMWs, polls, fences and waits.
    Stmt nicStatement(const std::string& kind, ThreadState& th, const std::vector<int>& pollable) {
        Stmt s;
        if (kind == "put" || kind == "get") {
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
                    s.source = localRef(localLocation(th));
                }
            } else {
                s.kind = Stmt::Kind::Get;
                s.source = remoteRef(remote, node);
                s.target = localRef(freshPrivate(th));
            }
            remoteWorkId(s, th);
            ++th.unpolled[node];
        } else if (kind == "rcas" || kind == "rfaa") {
            const int node = remoteNode(th.node);
            testNodes_.insert(node);
            s.target = remoteRef(random_.pick(sharedOn_[node]), node);
            s.source = localRef(rmwResult(th));
            if (kind == "rcas") {
                s.kind = Stmt::Kind::RCas;
                s.expr = Expr::constant(random_.between(0, options_.values), {});  // 0: the initial value
                s.expr2 = Expr::constant(value(), {});
            } else {
                s.kind = Stmt::Kind::RFaa;
                s.expr = Expr::constant(value(), {});
            }
            remoteWorkId(s, th);
            ++th.unpolled[node];
        } else if (kind == "poll") {
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
            s.workId = waitedId(th, th.rdmaIds);
        }
        return s;
    }

    // Shared-variable calls and global fences.
    Stmt svStatement(const std::string& kind, ThreadState& th) {
        Stmt s;
        if (kind == "svwrite") {  // sv.write(x, 2) or sv.write(x, a)
            const std::string variable = random_.pick(variables_);
            Expr v = random_.chance(0.25) ? locationExpr(localLocation(th)) : Expr::constant(value(), {});
            s = svCall("write", {exprArg(locationExpr(variable)), exprArg(std::move(v))});
            ++svCopyWrites_;
        } else if (kind == "svread") {  // a := sv.read(x)
            const std::string& variable = random_.pick(variables_);
            s = svCall("read", {exprArg(locationExpr(variable))});
            s.hasResult = true;
            s.target = localRef(freshPrivate(th));
        } else if (kind == "svbcast") {  // sv.bcast(x, f, {2, 3}), f or g or _
            const std::string& variable = random_.pick(variables_);
            const size_t k = random_.below(std::size(kSvWorkIds) + 1);
            const std::string work = k == std::size(kSvWorkIds) ? "_" : kSvWorkIds[k];
            noteWorkId(th, th.svIds, work);
            std::vector<int> nodes = nodeSet(th.node, true);
            const size_t room = static_cast<size_t>(std::max(1, kSvWriteBudget - svCopyWrites_));
            while (nodes.size() > room)
                nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(random_.below(nodes.size())));
            svCopyWrites_ += static_cast<int>(nodes.size());
            testNodes_.insert(nodes.begin(), nodes.end());
            s = svCall("bcast",
                       {exprArg(locationExpr(variable)), exprArg(locationExpr(work)), nodeSetArg(std::move(nodes))});
        } else if (kind == "svwait") {
            s = svCall("wait", {exprArg(locationExpr(waitedId(th, th.svIds)))});
        } else {  // gfence(1, 2) or its SV spelling sv.gf({1, 2})
            const bool call = random_.chance(0.5);
            std::vector<int> nodes = nodeSet(th.node, false);
            testNodes_.insert(nodes.begin(), nodes.end());
            if (call) {
                s = svCall("gf", {nodeSetArg(std::move(nodes))});
            } else {
                s.kind = Stmt::Kind::GFence;
                s.nodes = std::move(nodes);
            }
        }
        return s;
    }

    // Lock, SC and ring-buffer calls.
    Stmt libraryCall(const std::string& kind, ThreadState& th) {
        Stmt s;
        if (isLockKind(kind)) {  // wl.acq(l), its release held back; a node lock lives on node 1
            CallArg lock = exprArg(locationExpr("l"));
            if (kind == "nl") lock.expr.remoteNode = 1;
            s = svCall("acq", {lock});
            s.library = kind;
            Stmt release = svCall("rel", {lock});
            release.library = kind;
            th.release = release;
        } else if (kind == "sc") {  // one of sc.write, sc.read, sc.cas, sc.faa on the SC location
            const std::string method = random_.pick(std::vector<std::string>{"write", "read", "cas", "faa"});
            std::vector<CallArg> args{exprArg(locationExpr(scLocation_))};
            if (method != "read") args.push_back(exprArg(Expr::constant(method == "cas" ? random_.between(0, 1) : value(), {})));
            if (method == "cas") args.push_back(exprArg(Expr::constant(value(), {})));
            s = svCall(method, std::move(args));
            s.library = "sc";
            if (method != "write") {
                s.hasResult = true;
                s.target = localRef(freshPrivate(th));
            }
        } else {  // rbl: thread 0 submits to the buffer buf (no location name), the others receive
            const bool writer = th.index == 0;
            Expr v = writer ? (random_.chance(0.25) ? locationExpr(localLocation(th)) : Expr::constant(value(), {}))
                            : locationExpr(freshPrivate(th));
            s = svCall(writer ? "submit" : "receive", {exprArg(locationExpr("buf")), exprArg(std::move(v))});
            s.library = "rbl";
            s.hasResult = true;
            s.target = localRef(freshPrivate(th));
        }
        return s;
    }

    // assume, if, choice, loop and while, with short blocks.
    Stmt control(const std::string& kind, ThreadState& th) {
        Stmt s;
        if (kind == "assume") {
            s.kind = Stmt::Kind::Assume;
            test(s, th, random_.chance(0.5));
        } else if (kind == "if") {
            s.kind = Stmt::Kind::If;
            test(s, th, true);
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
            test(s, th, false);
            s.body = simpleBlock(th, 0, 2);
        }
        return s;
    }

    // exists (one or two distinct locations = values); `true` when the test has no locations.
    // A shared variable of SV counts by its copies, `x@2`, on the nodes the test names.
    Cond condition(const std::vector<LocationDecl>& locations) {
        Cond c;
        c.kind = Cond::Kind::True;
        std::vector<std::string> names;
        for (const LocationDecl& d : locations) {
            if (!d.shared) {
                names.push_back(d.name);
                continue;
            }
            for (int node : testNodes_) names.push_back(d.name + "@" + std::to_string(node));
        }
        const long long atoms = std::min<long long>(random_.between(1, 2), static_cast<long long>(names.size()));
        for (long long k = 0; k < atoms; ++k) {
            Cond atom;
            atom.kind = Cond::Kind::Atom;
            const size_t chosen = random_.below(names.size());
            atom.loc = names[chosen];
            names.erase(names.begin() + static_cast<std::ptrdiff_t>(chosen));
            atom.value = random_.between(0, options_.values);
            c.args.push_back(std::move(atom));
        }
        if (c.args.size() == 1) return c.args[0];
        if (c.args.size() == 2) c.kind = Cond::Kind::And;
        return c;
    }

    uint64_t seed_;
    Random random_;
    const GeneratorOptions& options_;
    const bool workIds_;          // the mix draws RDMA^WAIT kinds: work identifiers, no polls
    const bool sharedVariables_;  // the mix draws SV calls on variables: declare one or two
    std::vector<std::vector<std::string>> sharedOn_;  // by node; index 0 unused
    int nextSharedIndex_ = 0;                         // sharedName index of the first SV variable
    std::vector<std::string> variables_;              // SV variables, declared `x@sv`
    std::string scLocation_;                          // the SC location, declared `s@sc`
    int svCopyWrites_ = 0;                            // see kSvWriteBudget
    std::set<int> testNodes_;  // nodes the test names (threads, locations, targets, node sets): SV copies exist there
};

}  // namespace

void parseMix(const std::string& spec, GeneratorOptions& options) {
    std::map<std::string, int> mix = options.mix;
    size_t start = 0;
    for (;;) {
        const size_t comma = spec.find(',', start);
        const std::string item = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const size_t equals = item.find('=');
        if (equals == std::string::npos)
            throw std::invalid_argument("statement mix: expected KIND=WEIGHT, found '" + item + "'");
        const std::string kind = item.substr(0, equals);
        const std::string weight = item.substr(equals + 1);
        if (!isStatementKind(kind))
            throw std::invalid_argument("statement mix: unknown kind '" + kind + "' (known: " + knownKinds() + ")");
        if (weight.empty() || weight.size() > 6 || weight.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument("statement mix: the weight of '" + kind +
                                        "' must be a non-negative integer below 10^6, found '" + weight + "'");
        mix[kind] = std::stoi(weight);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    options.mix = std::move(mix);
}

std::string generateLitmus(uint64_t seed, const GeneratorOptions& options) {
    validate(options);
    return printLitmus(Generator(seed, options).run());
}

}  // namespace rdmacheck
