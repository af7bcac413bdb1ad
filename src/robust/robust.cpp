#include "rdmacheck/robust.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>


namespace rdmacheck {

namespace {

// Work identifiers and library calls are outside the paper's programs (§4.5).
void rejectOutsidePrograms(const LitmusTest& test) {
    for (const ThreadDecl& t : test.threads) {
        const Stmt* outside = nullptr;
        anyStatement(t.body, [&](const Stmt& st) {
            const bool mowgli = st.kind == Stmt::Kind::Wait || st.kind == Stmt::Kind::GFence ||
                                st.kind == Stmt::Kind::Call || !st.workId.empty();
            if (mowgli && !outside) outside = &st;
            return mowgli;
        });
        if (outside)
            throw InputError(outside->where, "robust checks RDMA^TSO programs (puts, gets, polls, rfences, remote "
                                             "RMWs); work identifiers and library calls are outside the robustness "
                                             "paper's programs (doc/model-notes.md §N23)");
    }
}

// The sc edges of ex between non-initial events (no cycle passes an initial
// write): po to every later event of the thread, rf, mo and rb in full, so a
// shortest cycle visits each thread once (two visits of one thread shortcut
// through po to a shorter cycle).
std::vector<std::vector<RelationEdge>> scGraph(const ExecutionGraph& ex) {
    std::vector<std::vector<RelationEdge>> out(ex.events.size());
    auto add = [&](int from, int to, const char* relation) {
        if (!isInitEvent(ex.events[from])) out[from].push_back({from, to, relation});
    };
    for (const auto& events : ex.threadEvents)
        for (size_t i = 0; i < events.size(); ++i)
            for (size_t j = i + 1; j < events.size(); ++j) add(events[i], events[j], "po");
    for (int r = 0; r < static_cast<int>(ex.rf.size()); ++r)
        if (ex.rf[r] >= 0) add(ex.rf[r], r, "rf");
    for (const auto& order : ex.mo)
        for (size_t i = 0; i < order.size(); ++i)
            for (size_t j = i + 1; j < order.size(); ++j) add(order[i], order[j], "mo");
    for (int r = 0; r < static_cast<int>(ex.rf.size()); ++r) {
        if (ex.rf[r] < 0) continue;
        const auto& order = ex.mo[ex.events[r].location];
        for (auto w = std::find(order.begin(), order.end(), ex.rf[r]) + 1; w < order.end(); ++w)
            if (*w != r) add(r, *w, "rb");
    }
    return out;
}

// The shortest path from `start` back to it (breadth first), or none.
std::vector<RelationEdge> shortestCycleThrough(const std::vector<std::vector<RelationEdge>>& graph, int start) {
    std::vector<const RelationEdge*> via(graph.size(), nullptr);
    std::deque<int> queue{start};
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop_front();
        for (const RelationEdge& e : graph[v]) {
            if (e.to != start && via[e.to]) continue;
            via[e.to] = &e;
            if (e.to != start) {
                queue.push_back(e.to);
                continue;
            }
            std::vector<RelationEdge> cycle;
            for (int at = start; cycle.empty() || at != start; at = via[at]->from) cycle.push_back(*via[at]);
            std::reverse(cycle.begin(), cycle.end());
            return cycle;
        }
    }
    return {};
}

// Rotates the cycle to start at a thread visit's entry (an event a non-po edge
// enters), the smallest such event; then splits po edges into immediate ones.
std::vector<RelationEdge> visitsFromFirstEntry(const ExecutionGraph& ex, std::vector<RelationEdge> cycle) {
    size_t first = cycle.size();  // po is acyclic: some edge is not po
    for (size_t i = 0; i < cycle.size(); ++i) {
        const bool entry = cycle[(i + cycle.size() - 1) % cycle.size()].relation != "po";
        if (entry && (first == cycle.size() || cycle[i].from < cycle[first].from)) first = i;
    }
    std::rotate(cycle.begin(), cycle.begin() + static_cast<long>(first), cycle.end());
    std::vector<RelationEdge> steps;
    for (const RelationEdge& e : cycle) {
        if (e.relation != "po") {
            steps.push_back(e);
            continue;
        }
        const auto& events = ex.threadEvents[ex.events[e.from].thread];
        auto at = std::find(events.begin(), events.end(), e.from);
        for (; *at != e.to; ++at) steps.push_back({*at, *(at + 1), "po"});
    }
    return steps;
}

// The clock whose acyclicity an sc cycle inside it would break: the observation
// order of RDMA^TSO's models (ob), else the last one (ghb for tso); none for a
// model without an acyclicity axiom.
const Clock* orderingClock(const Model& model) {
    const CheckPlan& plan = model.plan;
    if (plan.clocks.empty()) return nullptr;
    return &plan.clocks.at(plan.observeClock >= 0 ? static_cast<size_t>(plan.observeClock) : plan.clocks.size() - 1);
}

// The ordering clock's edges in ex, by source (none without a clock: every
// segment is then relaxed).
using Successors = std::map<int, std::vector<int>>;
Successors orderingEdges(const ExecutionGraph& ex, const Model& model) {
    Successors out;
    const Clock* clock = orderingClock(model);
    if (!clock) return out;
    const int index = static_cast<int>(clock - model.plan.clocks.data());
    for (const RelationEdge& e : clockEdges(ex, model))
        if (e.clock == index) out[e.from].push_back(e.to);
    return out;
}

// Whether `to` is reachable from `from` through the edges.
bool ordered(const ExecutionGraph& ex, const Successors& out, int from, int to) {
    std::vector<bool> seen(ex.events.size(), false);
    std::vector<int> stack{from};
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        const auto next = out.find(v);
        if (next == out.end()) continue;
        for (int w : next->second) {
            if (w == to) return true;
            if (!seen[w]) stack.push_back(w), seen[w] = true;
        }
    }
    return false;
}

// "G1 ✗": the table's row letter (A = lR, B = lW, ...), column number and mark,
// as the robustness paper's Fig. 4 names its cells.
std::string cellText(const Model& model, EventKind earlier, EventKind later) {
    const Clock* clock = orderingClock(model);
    if (!clock) return "";
    for (const ModelExpr& m : clock->members) {
        auto table = model.tables.find(m.name);
        if (m.op != ModelExpr::Op::Name || table == model.tables.end()) continue;
        const Cell cell = table->second.at(earlier, later);
        return std::string(1, static_cast<char>('A' + static_cast<int>(earlier))) +
               std::to_string(static_cast<int>(later) + 1) +
               (cell == Cell::Ordered ? " ✓" : cell == Cell::Unordered ? " ✗" : " sqp");
    }
    return "";
}

// Each thread visit (a run of po edges) whose entry the model does not order before its exit.
std::vector<RelaxedSegment> relaxedSegments(const ExecutionGraph& ex, const std::vector<RelationEdge>& cycle,
                                            const Model& model) {
    const Successors edges = orderingEdges(ex, model);
    std::vector<RelaxedSegment> out;
    for (size_t i = 0; i < cycle.size(); ++i) {
        if (cycle[i].relation != "po" || (i > 0 && cycle[i - 1].relation == "po")) continue;
        size_t last = i;
        while (last + 1 < cycle.size() && cycle[last + 1].relation == "po") ++last;
        const int entry = cycle[i].from, exit = cycle[last].to;
        if (!ordered(ex, edges, entry, exit))
            out.push_back({entry, exit, cellText(model, ex.events[entry].kind, ex.events[exit].kind)});
    }
    return out;
}

bool sameEvent(const Event& a, const Event& b) {
    return a.kind == b.kind && a.location == b.location && a.remote == b.remote && a.where.line == b.where.line &&
           a.where.column == b.where.column;
}

// The longest path of the thread that starts with `cut`'s events.
size_t pathLength(const std::vector<ThreadPath>& paths, const ThreadPath& cut) {
    size_t length = cut.events.size();
    for (const ThreadPath& p : paths)
        if (p.events.size() > length &&
            std::equal(cut.events.begin(), cut.events.end(), p.events.begin(), sameEvent))
            length = p.events.size();
    return length;
}

RobustnessWitness makeWitness(const LitmusTest& test, const UnfoldedProgram& program,
                              const std::vector<size_t>& choice, const ExecutionGraph& ex, const Model& model) {
    RobustnessWitness w{ex, program.locations, {}, shownNames(test), {}, test.addresses, shortestScCycle(ex), {}};
    w.relaxed = relaxedSegments(ex, w.cycle, model);
    for (size_t t = 0; t < choice.size(); ++t) {
        const ThreadPath& path = program.paths[t][choice[t]];
        w.cuts.push_back({test.threads[t].name, path.events.size(), pathLength(program.paths[t], path)});
    }
    for (const ObservedName& n : w.names) w.state.push_back(finalValue(test, program, ex, n.name, n.thread));
    return w;
}

}  // namespace

bool RobustnessWitness::cut() const {
    return std::any_of(cuts.begin(), cuts.end(), [](const ThreadCut& c) { return c.kept < c.length; });
}

std::vector<RelationEdge> shortestScCycle(const ExecutionGraph& ex) {
    const auto graph = scGraph(ex);
    std::vector<RelationEdge> best;
    for (int v = 0; v < static_cast<int>(graph.size()); ++v) {
        std::vector<RelationEdge> cycle = shortestCycleThrough(graph, v);
        if (!cycle.empty() && (best.empty() || cycle.size() < best.size())) best = std::move(cycle);
    }
    return best.empty() ? best : visitsFromFirstEntry(ex, std::move(best));
}

RobustnessResult checkRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    rejectOutsidePrograms(test);
    if (!model.assertions.empty())  // herd7's meaning is the executions of whole paths, not prefixes
        throw InputError(model.assertions.front().where, "robust does not evaluate a model's assert (the main command "
                                                         "checks a test against it)");
    const ResourceGuard guard(test.file, options.limits);
    const UnfoldedProgram program = unfoldFor(test, model, options.unroll, true);  // Def. 3's prefixes (§4.2)
    RobustnessResult r;
    r.test = test.name;
    r.model = model.name;
    r.unroll = options.unroll;
    CheckResult loops;  // the cut loops, noted as check() notes them
    SolverContext ctx;  // fresh: the witness found does not depend on earlier tests
    // A consistent path stopped by the bound: "Robust" holds up to it only (§4.4).
    SkeletonSearch(test, program, model, options, guard)
        .run(ctx, ExecutionEncoding::Mode::Consistent, &loops,
             [&](const PathCombination& combination, ExecutionEncoding& encoding) {
                 encoding.requireScCycle();
                 if (encoding.next())  // its least nfo, which the solver otherwise picks
                     r.witness = makeWitness(test, program, combination.choice,
                                             withLeastFlushes(encoding.current(), model, program.locations.size()),
                                             model);
                 return !r.witness;
             });
    if (!r.witness) r.cutLoops = loops.cutLoops;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

// One query per skeleton, as for the verdict: the state becomes the condition
// `exists` asks for, and speedcheck stops at the first execution reaching it.
bool scReachesState(const LitmusTest& input, const RobustnessWitness& w, const Model& sc, const CheckOptions& options) {
    LitmusTest test = input;
    test.filter.reset();
    test.quantifier = Quantifier::Exists;
    test.condition = Cond{};
    test.condition.kind = Cond::Kind::And;
    for (size_t i = 0; i < w.names.size(); ++i) {
        Cond atom;
        atom.kind = Cond::Kind::Atom;
        atom.loc = w.names[i].name;
        atom.thread = w.names[i].thread;
        atom.value = w.state[i];
        test.condition.args.push_back(std::move(atom));
    }
    CheckOptions speedcheck = options;
    speedcheck.mode = CheckMode::Speedcheck;
    speedcheck.prefixes = w.cut();
    return check(test, sc, speedcheck).ok;
}

}  // namespace rdmacheck
