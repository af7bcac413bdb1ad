// SV's generator hook: sv.write, sv.read, sv.bcast and sv.wait calls, and
// global fences, written `gfence(1, 2)` or sv.gf({1, 2}).
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>

#include "libraries/sv/sv.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::sv {

namespace {

// Work identifiers of broadcasts (or `_`): disjoint from those of puts, gets and RMWs
// (d, e), so a wait(d) and an sv.wait(f) never name the same work.
const char* const kWorkIds[] = {"f", "g"};

// Bound on the writes to copies of SV variables in a test (sv.write: one, sv.bcast: one per
// node of its set). Every broadcast's local read may read from any of them, and the
// declarative engine enumerates each consistent execution: three loopback broadcasts to
// {1, 2}, a write and one more broadcast (eight copy writes) pass 10^4 executions and take
// minutes, while four copy writes stay well under a second.
constexpr int kCopyWriteBudget = 4;

bool writesCopies(const std::string& kind) { return kind == "svwrite" || kind == "svbcast"; }

class Draws : public StatementGenerator {
public:
    // Kinds that name a shared variable: with any of them the test declares one or two.
    void declareDrawn(StatementDraw& d) override {
        if (!draws(d.options(), "svwrite") && !draws(d.options(), "svread") && !draws(d.options(), "svbcast")) return;
        const long long count = d.random().between(1, 2);
        for (long long k = 0; k < count; ++k) {
            variables_.push_back(d.nextSharedName());
            LocationDecl decl{variables_.back(), 1, 0, {}};
            decl.shared = true;
            d.declare(decl);
        }
    }

    bool possible(const std::string& kind, StatementDraw& d) const override {
        const auto ids = broadcastIds_.find(d.threadIndex());
        return kind != "svwait" || (ids != broadcastIds_.end() && !ids->second.empty());
    }

    bool overBudget(const std::string& kind) const override {
        return writesCopies(kind) && copyWrites_ >= kCopyWriteBudget;
    }

    Stmt draw(const std::string& kind, StatementDraw& d) override {
        if (kind == "svwrite") return write(d);
        if (kind == "svread") {  // a := sv.read(x)
            const std::string& variable = d.random().pick(variables_);
            Stmt s = libraryCall("sv", "read", {exprArg(Expr::location(variable, {}))});
            s.hasResult = true;
            s.target = LocRef{d.freshPrivate(), std::nullopt, {}};
            return s;
        }
        if (kind == "svbcast") return broadcast(d);
        if (kind == "svwait")
            return libraryCall("sv", "wait", {exprArg(Expr::location(d.waitedWork(broadcastIds(d)), {}))});
        return globalFence(d);
    }

private:
    // sv.write(x, 2) or sv.write(x, a)
    Stmt write(StatementDraw& d) {
        const std::string variable = d.random().pick(variables_);
        Expr v = d.random().chance(0.25) ? Expr::location(d.localLocation(), {}) : Expr::constant(d.value(), {});
        ++copyWrites_;
        return libraryCall("sv", "write", {exprArg(Expr::location(variable, {})), exprArg(std::move(v))});
    }

    // sv.bcast(x, f, {2, 3}), f or g or _, to at most the nodes the budget has room for.
    Stmt broadcast(StatementDraw& d) {
        Random& random = d.random();
        const std::string& variable = random.pick(variables_);
        const size_t k = random.below(std::size(kWorkIds) + 1);
        const std::string work = k == std::size(kWorkIds) ? "_" : kWorkIds[k];
        d.usesWork(broadcastIds(d), work);
        std::vector<int> nodes = d.nodeSet(true);
        const size_t room = static_cast<size_t>(std::max(1, kCopyWriteBudget - copyWrites_));
        while (nodes.size() > room)
            nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(random.below(nodes.size())));
        copyWrites_ += static_cast<int>(nodes.size());
        d.namesNodes(nodes);
        return libraryCall("sv", "bcast",
                           {exprArg(Expr::location(variable, {})), exprArg(Expr::location(work, {})),
                            nodeSetArg(std::move(nodes))});
    }

    // gfence(1, 2) or its SV spelling sv.gf({1, 2})
    Stmt globalFence(StatementDraw& d) {
        const bool call = d.random().chance(0.5);
        std::vector<int> nodes = d.nodeSet(false);
        d.namesNodes(nodes);
        if (call) return libraryCall("sv", "gf", {nodeSetArg(std::move(nodes))});
        Stmt s;
        s.kind = Stmt::Kind::GFence;
        s.nodes = std::move(nodes);
        return s;
    }

    // The work identifiers of the thread's earlier broadcasts.
    std::vector<std::string>& broadcastIds(const StatementDraw& d) { return broadcastIds_[d.threadIndex()]; }

    std::vector<std::string> variables_;  // declared `x@sv`
    int copyWrites_ = 0;                  // see kCopyWriteBudget
    std::map<int, std::vector<std::string>> broadcastIds_;  // by thread
};

}  // namespace

std::vector<GeneratedKind> generatedKinds() {
    return {{"svwrite"}, {"svread"}, {"svbcast"}, {"svwait", 1, false, "svwait an earlier svbcast with one"},
            {"gfence"}};
}

std::unique_ptr<StatementGenerator> generator() { return std::make_unique<Draws>(); }

}  // namespace rdmacheck::sv
