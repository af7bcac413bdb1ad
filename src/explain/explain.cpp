#include "rdmacheck/explain.hpp"

#include <algorithm>
#include <deque>
#include <set>

#include "rdmacheck/choices.hpp"
#include "rdmacheck/least_kept.hpp"
#include "rdmacheck/names.hpp"

namespace rdmacheck {

namespace {


// Nodes of the constraint graph: one per (clock, event); an event of the tie
// set (Inst for RDMA^TSO) is observed when issued (I = O), so it shares the issue node.
class ConstraintGraph {
public:
    ConstraintGraph(const ExecutionGraph& ex, const Model& model)
        : plan_(model.plan), n_(static_cast<int>(ex.events.size())),
          tied_(plan_.tieSet ? evaluateSet(model, *plan_.tieSet, ex) : std::vector<bool>(n_, false)) {
        adjacency_.resize(plan_.clocks.size() * n_);
        for (const RelationEdge& e : clockEdges(ex, model)) add(e);
        if (plan_.issueClock >= 0)
            for (int e = 0; e < n_; ++e)
                if (!tied_[e]) add(RelationEdge{e, e, "≤", -1});  // I(e) <= O(e), initial writes too
    }

    std::optional<Cycle> shortestCycle() const {
        std::optional<std::vector<int>> best;  // edge indices
        // A loop (e, e) only where no longer cycle is: a transitive member
        // (herd7's let rec U = ... | U;U) has one at each event of a cycle.
        for (bool loops : {false, true}) {
            if (best) break;
            for (int start = 0; start < static_cast<int>(adjacency_.size()); ++start) {
                std::optional<std::vector<int>> path = shortestCycleFrom(start, loops);
                if (path && (!best || path->size() < best->size())) best = path;
            }
        }
        if (!best) return std::nullopt;
        Cycle cycle;
        std::set<int> clocks;
        for (int ei : *best) {
            const RelationEdge& e = edges_[ei];
            clocks.insert(e.clock);
            if (e.from != e.to || e.clock >= 0) cycle.edges.push_back(e);  // not a tie's I(e) <= O(e)
        }
        // A cycle on one clock breaks its axiom; one through the tie, the mixed axiom.
        const bool mixed = clocks.count(-1) || (clocks.count(plan_.issueClock) && clocks.count(plan_.observeClock));
        cycle.axiom = mixed && plan_.issueClock >= 0 ? plan_.mixedAxiom : plan_.clocks[*clocks.rbegin()].axiom;
        return cycle;
    }

private:
    std::optional<std::vector<int>> shortestCycleFrom(int start, bool loops) const {
        std::vector<int> via(adjacency_.size(), -1);  // edge that reached each node
        std::deque<int> queue{start};
        std::vector<bool> seen(adjacency_.size(), false);
        while (!queue.empty()) {
            const int node = queue.front();
            queue.pop_front();
            for (int ei : adjacency_[node]) {
                const int to = target_[ei];
                if (to == node && !loops) continue;
                if (to == start) {
                    std::vector<int> path{ei};
                    for (int at = node; at != start; at = source_[via[at]]) path.push_back(via[at]);
                    std::reverse(path.begin(), path.end());
                    return path;
                }
                if (seen[to]) continue;
                seen[to] = true;
                via[to] = ei;
                queue.push_back(to);
            }
        }
        return std::nullopt;
    }

    int node(int clock, int event) const {
        if (clock == plan_.observeClock && tied_[event]) clock = plan_.issueClock;
        return clock * n_ + event;
    }

    void add(const RelationEdge& e) {
        const int from = e.clock < 0 ? node(plan_.issueClock, e.from) : node(e.clock, e.from);
        const int to = e.clock < 0 ? node(plan_.observeClock, e.to) : node(e.clock, e.to);
        adjacency_[from].push_back(static_cast<int>(edges_.size()));
        source_.push_back(from);
        target_.push_back(to);
        edges_.push_back(e);
    }

    const CheckPlan& plan_;
    int n_;
    std::vector<bool> tied_;
    std::vector<std::vector<int>> adjacency_;
    std::vector<RelationEdge> edges_;
    std::vector<int> source_, target_;
};

// The first irreflexive or empty axiom ex breaks, as a one-edge witness; else
// the first negated check it passes (~empty r where r is empty), with no edge.
std::optional<Cycle> generalViolation(const ExecutionGraph& ex, const Model& model) {
    for (const Axiom& a : model.plan.general)
        for (const auto& [from, to] : evaluateRelation(model, a.expr, ex))
            if (a.breaks(from, to))
                return Cycle{a.name, {RelationEdge{from, to, relationText(a.expr, model), -1}}, from == to};
    for (const Axiom& a : model.plan.negated)
        if (!testHolds(model, a, ex)) return Cycle{a.name, {}, false};
    return std::nullopt;
}

// The pairs that a clock with a member using `base` orders by a member that
// uses no choice of the execution: `base` against one of them is a cycle on its
// own, not worth showing. Computed once per candidate, not per pair asked about.
std::set<std::pair<int, int>> fixedByProgramOrder(const ExecutionGraph& ex, const Model& model,
                                                  const std::string& base) {
    auto isStatic = [&](const ModelExpr& m) {
        return std::none_of(chosenRelations().begin(), chosenRelations().end(),
                            [&](const ChosenRelation& c) { return references(model, m, c.name); });
    };
    std::set<std::pair<int, int>> fixed;
    for (const Clock& clock : model.plan.clocks) {
        if (std::none_of(clock.members.begin(), clock.members.end(),
                         [&](const ModelExpr& m) { return references(model, m, base); }))
            continue;
        for (const ModelExpr& m : clock.members)
            if (isStatic(m)) {
                const auto pairs = evaluateRelation(model, m, ex);
                fixed.insert(pairs.begin(), pairs.end());
            }
    }
    return fixed;
}

constexpr size_t kMaxVariants = 256;

// Multiplies the variants by every order of each group of ex's group order
// `name` that po does not already rule out; false past kMaxVariants.
bool permuteOrders(std::vector<ExecutionGraph>& variants, const ExecutionGraph& ex, const Model& model,
                   const std::string& name) {
    for (auto& v : variants) v.orders[name].clear();
    // Events of one thread are numbered in po order.
    auto poBefore = [&](int a, int b) { return ex.events[a].thread == ex.events[b].thread && a < b; };
    const std::set<std::pair<int, int>> fixed = fixedByProgramOrder(ex, model, name);
    for (const auto& [group, order] : ex.orderOf(name)) {
        std::vector<int> perm = order;
        std::sort(perm.begin(), perm.end());
        std::vector<ExecutionGraph> next;
        do {
            bool againstPo = false;
            for (size_t i = 0; i < perm.size(); ++i)
                for (size_t j = i + 1; j < perm.size(); ++j)
                    againstPo = againstPo || (poBefore(perm[j], perm[i]) && fixed.count({perm[j], perm[i]}));
            if (againstPo) continue;
            for (ExecutionGraph v : variants) {
                v.orders[name][group] = perm;
                next.push_back(std::move(v));
            }
            if (next.size() > kMaxVariants) return false;
        } while (std::next_permutation(perm.begin(), perm.end()));
        variants = std::move(next);
    }
    return true;
}

// Every choice of nfo directions and group orders for ex's rf and mo that po
// does not already rule out; only ex's own choice when there are more than kMaxVariants.
std::vector<ExecutionGraph> choiceVariants(const ExecutionGraph& ex, const Model& model) {
    std::vector<ExecutionGraph> variants{ex};
    for (const ChosenRelation& c : chosenRelations())
        if (c.kind == ChoiceKind::GroupOrder && !permuteOrders(variants, ex, model, c.name)) return {ex};
    const std::set<std::pair<int, int>> nfoFixed = fixedByProgramOrder(ex, model, "nfo");
    for (size_t i = 0; i < ex.nfo.size(); ++i) {
        const auto [earlier, later] = std::minmax(ex.nfo[i].first, ex.nfo[i].second);
        if (nfoFixed.count({earlier, later})) {
            for (ExecutionGraph& v : variants) v.nfo[i] = {earlier, later};
            continue;
        }
        if (variants.size() * 2 > kMaxVariants) return {ex};
        const size_t count = variants.size();
        for (size_t k = 0; k < count; ++k) {
            ExecutionGraph flipped = variants[k];
            flipped.nfo[i] = {ex.nfo[i].second, ex.nfo[i].first};
            variants.push_back(std::move(flipped));
        }
    }
    return variants;
}

}  // namespace

std::optional<Cycle> shortestViolation(const ExecutionGraph& ex, const Model& model) {
    if (std::optional<Cycle> cycle = ConstraintGraph(ex, model).shortestCycle()) return cycle;
    return generalViolation(ex, model);
}

namespace {

// One candidate execution reaching the outcome, with a violating cycle of each
// choice of nfo and group orders that the cycle depends on.
Explanation explainCandidate(const LitmusTest& test, const UnfoldedProgram& program, const Model& model,
                             const ExecutionGraph& ex, const std::string& outcome) {
    Explanation x;
    // A cycle that avoids nfo and the group orders holds for every choice of them; else show one per choice.
    ExecutionGraph free = ex;
    free.nfo.clear();
    free.orders.clear();
    if (std::optional<Cycle> cycle = shortestViolation(free, model)) {
        x.executions.push_back(free);
        x.cycles.push_back(*cycle);
    } else {
        for (ExecutionGraph& variant : choiceVariants(ex, model)) {
            cycle = shortestViolation(variant, model);
            if (!cycle)
                throw std::logic_error("explain: a candidate for " + outcome + " in " + test.name +
                                       " has no violating cycle, but the checker found no consistent execution");
            x.executions.push_back(std::move(variant));
            x.cycles.push_back(*cycle);
        }
    }
    for (const ObservedName& n : shownNames(test)) x.state.push_back(finalValue(test, program, ex, n.name, n.thread));
    return x;
}

}  // namespace

ExplainResult explain(const LitmusTest& test, const Model& model, const ExplainOptions& options) {
    const ResourceGuard guard(test.file, options.limits);
    ExplainResult result;
    Cond outcome = test.condition;
    if (test.quantifier == Quantifier::Forall) {
        outcome = Cond();
        outcome.kind = Cond::Kind::Not;
        outcome.args.push_back(test.condition);
    }
    result.outcome = conditionText(Quantifier::Exists, outcome, test.addresses);
    CheckOptions checkOptions;
    checkOptions.unroll = options.unroll;
    checkOptions.maxEvents = options.maxEvents;
    checkOptions.limits = options.limits;
    LitmusTest target = test;
    target.quantifier = Quantifier::Exists;
    target.condition = outcome;
    CheckOptions reachable = checkOptions;
    reachable.mode = CheckMode::Speedcheck;  // one execution reaching the outcome is enough
    if (check(target, model, reachable).ok) return result;  // reachable: nothing to explain
    result.applicable = true;

    const UnfoldedProgram program = unfoldFor(test, model, options.unroll);
    result.locations = program.locations;
    SolverContext ctx;  // a fresh one: the nfo and group orders shown are the solver's pick
    const SkeletonSearch search(test, program, model, checkOptions, guard);
    // The candidates shown are the least in the canonical order, not the first found.
    LeastKept<ExecutionGraph, bool (*)(const ExecutionGraph&, const ExecutionGraph&)> shown(options.maxShown,
                                                                                             canonicallyBefore);
    search.run(
        ctx, ExecutionEncoding::Mode::WellFormed, nullptr, [&](const PathCombination&, ExecutionEncoding& encoding) {
            encoding.forEach([&](const ExecutionGraph& ex) {
                auto lookup = [&](const Cond& atom) { return finalValue(test, program, ex, atom.loc, atom.thread); };
                search.checkLimits();
                if ((test.filter && !evalCondition(*test.filter, lookup)) || !evalCondition(outcome, lookup)) return true;
                if (result.candidates == options.maxCandidates) {
                    result.truncated = true;
                    return false;
                }
                ++result.candidates;
                shown.offer(ex);
                return true;
            });
            return !result.truncated;
        });
    for (const ExecutionGraph& ex : shown.sorted())
        result.shown.push_back(explainCandidate(test, program, model, ex, result.outcome));
    return result;
}

}  // namespace rdmacheck
