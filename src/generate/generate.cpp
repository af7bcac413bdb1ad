#include "rdmacheck/generate.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/print.hpp"

namespace rdmacheck {

namespace {

const char* const kStatementKinds[] = {"write", "read", "put", "get", "poll", "rfence", "mfence", "cas"};

bool isStatementKind(const std::string& kind) {
    for (const char* k : kStatementKinds)
        if (kind == k) return true;
    return false;
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
    Generator(uint64_t seed, const GeneratorOptions& options) : seed_(seed), random_(seed), options_(options) {
        sharedOn_.resize(options.nodes + 1);
        for (int node = 1, index = 0; node <= options.nodes; ++node)
            for (int k = 0; k < options.sharedPerNode; ++k) sharedOn_[node].push_back(sharedName(index++));
    }

    LitmusTest run() {
        LitmusTest t;
        t.name = "random-" + std::to_string(seed_);
        for (int node = 1; node <= options_.nodes; ++node)
            for (const std::string& name : sharedOn_[node]) t.locations.push_back(LocationDecl{name, node, 0, {}});
        for (int i = 0; i < options_.threads; ++i) {
            ThreadState thread{i, i % options_.nodes + 1, {}, {}};
            ThreadDecl decl;
            decl.name = "P" + std::to_string(i);
            decl.node = thread.node;
            const long long length = random_.between(options_.minLength, options_.maxLength);
            for (long long k = 0; k < length; ++k) decl.body.push_back(statement(thread));
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
        std::map<int, int> unpolled;        // remote node -> puts and gets not yet polled
    };

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

    // Target node of a put or get (every node has shared locations then): the thread's
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

    long long value() { return random_.between(1, options_.values); }

    Stmt statement(ThreadState& th) {
        std::vector<int> pollable;
        for (const auto& [node, count] : th.unpolled)
            if (count > 0) pollable.push_back(node);
        std::vector<std::pair<std::string, int>> candidates;
        long long total = 0;
        for (const auto& [kind, weight] : options_.mix) {
            bool possible = true;
            if (kind == "poll") possible = !pollable.empty();
            if (kind == "put" || kind == "get") possible = options_.sharedPerNode > 0;
            if (possible && weight > 0) {
                candidates.emplace_back(kind, weight);
                total += weight;
            }
        }
        if (total == 0)
            throw std::invalid_argument("the statement mix leaves nothing to generate (poll needs an earlier put or "
                                        "get; put and get need shared locations)");
        long long ticket = random_.between(0, total - 1);
        size_t chosen = 0;
        for (; ticket >= candidates[chosen].second; ++chosen) ticket -= candidates[chosen].second;
        return statementOf(candidates[chosen].first, th, pollable);
    }

    Stmt statementOf(const std::string& kind, ThreadState& th, const std::vector<int>& pollable) {
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
        } else if (kind == "read") {
            s.kind = Stmt::Kind::Assign;
            s.expr = locationExpr(localLocation(th));
            s.target = localRef(freshPrivate(th));
        } else if (kind == "put" || kind == "get") {
            const int node = remoteNode(th.node);
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
        } else {
            s.kind = Stmt::Kind::Cas;
            s.target = localRef(localLocation(th));
            s.expr = Expr::constant(random_.between(0, options_.values), {});
            s.expr2 = Expr::constant(random_.between(0, options_.values), {});
            s.result = freshPrivate(th);
            s.source = localRef(s.result);  // where the parser keeps the result location
        }
        return s;
    }

    // exists (one or two distinct locations = values); `true` when the test has no locations.
    Cond condition(const std::vector<LocationDecl>& locations) {
        Cond c;
        c.kind = Cond::Kind::True;
        std::vector<std::string> names;
        for (const LocationDecl& d : locations) names.push_back(d.name);
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
    std::vector<std::vector<std::string>> sharedOn_;  // by node; index 0 unused
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
            throw std::invalid_argument("statement mix: unknown kind '" + kind +
                                        "' (known: write, read, put, get, poll, rfence, mfence, cas)");
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
