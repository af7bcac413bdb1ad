#include "rdmacheck/robust.hpp"

#include <chrono>
#include <functional>
#include <map>

#include "rdmacheck/explain.hpp"

namespace rdmacheck {

namespace {

// A cycle of po ∪ rf ∪ mo ∪ rb, if there is one: immediate po, mo and rb edges
// have the same cycles as the relations themselves.
std::vector<RelationEdge> scCycle(const ExecutionGraph& ex) {
    std::map<int, std::vector<RelationEdge>> out;
    for (const RelationEdge& e : executionEdges(ex))
        if (e.relation == "po" || e.relation == "rf" || e.relation == "mo" || e.relation == "rb")
            out[e.from].push_back(e);
    std::vector<int> state(ex.events.size(), 0);  // 0 unvisited, 1 on the stack, 2 done
    std::vector<RelationEdge> stack;
    std::vector<RelationEdge> cycle;
    std::function<bool(int)> visit = [&](int v) {
        state[v] = 1;
        for (const RelationEdge& e : out[v]) {
            stack.push_back(e);
            if (state[e.to] == 1) {
                auto first = std::find_if(stack.begin(), stack.end(), [&](const RelationEdge& s) { return s.from == e.to; });
                cycle.assign(first, stack.end());
                return true;
            }
            if (state[e.to] == 0 && visit(e.to)) return true;
            stack.pop_back();
        }
        state[v] = 2;
        return false;
    };
    for (int v = 0; v < static_cast<int>(ex.events.size()); ++v)
        if (state[v] == 0 && visit(v)) return cycle;
    return {};
}

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
                                             "paper's programs (ROBUSTNESS.md §4.5)");
    }
}

}  // namespace

RobustnessResult checkRobustness(const LitmusTest& input, const Model& model, const CheckOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    rejectOutsidePrograms(input);
    LitmusTest test = input;
    test.filter.reset();  // robustness is a property of the program (§4.1)
    CheckOptions prefixes = options;
    prefixes.prefixes = true;
    prefixes.mode = CheckMode::Executions;
    RobustnessResult r;
    r.test = test.name;
    r.model = model.name;
    r.unroll = options.unroll;
    // The first witness decides: it ends the enumeration (an exception out of the visitor).
    struct WitnessFound {};
    try {
        const CheckResult checked = check(
            test, model, prefixes, [&](const UnfoldedProgram& program, const ExecutionGraph& ex, const FinalState&, bool) {
                ++r.executions;
                std::vector<RelationEdge> cycle = scCycle(ex);
                if (cycle.empty()) return;
                r.witness = RobustnessWitness{ex, program.locations, std::move(cycle)};
                throw WitnessFound{};
            });
        r.cutLoops = checked.cutLoops;
    } catch (const WitnessFound&) {
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::string cycleText(const RobustnessWitness& w) {
    auto event = [&](int e) {
        const Event& ev = w.execution.events[e];
        // As ROBUSTNESS.md §5 writes them: "d:lR y=0", "g:nrW y=1", "h:P(1)".
        std::string text = eventName(w.execution, e) + ":" + kindName(ev.kind);
        if (ev.location < 0) return text + (ev.remote ? "(" + std::to_string(ev.remote) + ")" : "");
        const long long value = isRead(ev.kind) ? w.execution.readValues[e] : ev.written.eval(w.execution.readValues);
        return text + " " + w.locations[ev.location].name + "=" + std::to_string(value);
    };
    std::string text;
    for (const RelationEdge& e : w.cycle) text += event(e.from) + " -" + e.relation + "-> ";
    return text + event(w.cycle.front().from);
}

}  // namespace rdmacheck
