#include "rdmacheck/encode.hpp"

#include <algorithm>
#include <climits>
#include <new>
#include <optional>
#include <set>
#include <tuple>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/limits.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

namespace {

bool isInit(const Event& e) { return isInitEvent(e); }

// How many reads v adds up if it is r + k or k, else -1: the terms Z3's
// difference-logic solver takes (a read's value equals its source's written value).
int offsetReads(const Value& v) {
    auto sum = [&](int a, int b) { return a < 0 || b < 0 || a + b > 1 ? -1 : a + b; };
    switch (v.kind) {
        case Value::Kind::Const: return 0;
        case Value::Kind::Read: return 1;
        case Value::Kind::Add: return sum(offsetReads(v.args[0]), offsetReads(v.args[1]));
        case Value::Kind::Sub: return offsetReads(v.args[1]) == 0 ? offsetReads(v.args[0]) : -1;
        case Value::Kind::Mul:
        case Value::Kind::Mod:
        case Value::Kind::Neg: break;
    }
    for (const Value& a : v.args)
        if (offsetReads(a) != 0) return -1;
    return 0;
}

// Whether every constraint of the encoding is a difference constraint: the
// clocks, mo keys and ranks always are; values are when written values, tested
// values and final register values (which answer-only modes test) are offsets
// of one read.
bool isDifferenceLogic(const ExecutionGraph& sk) {
    auto offset = [](const Value& v) { return offsetReads(v) >= 0; };
    auto offsets = [&](const std::map<std::string, Value>& registers) {
        return std::all_of(registers.begin(), registers.end(), [&](const auto& r) { return offset(r.second); });
    };
    return std::all_of(sk.events.begin(), sk.events.end(), [&](const Event& e) { return offset(e.written); }) &&
           std::all_of(sk.constraints.begin(), sk.constraints.end(),
                       [&](const ValueConstraint& c) { return offset(c.lhs) && offset(c.rhs); }) &&
           std::all_of(sk.registers.begin(), sk.registers.end(), offsets);
}

// A term's value in the model. A choice variable's interpretation is read
// directly: eval's rewriting cost as much as the solver call on small tests.
z3::expr modelValue(const z3::model& m, const z3::expr& e) {
    if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED && m.has_interp(e.decl()))
        return m.get_const_interp(e.decl());
    return m.eval(e, true);
}

// An integer of the model as a key that sorts as the integer does, exactly:
// the solver may place clocks and ranks beyond 64 bits when a test's values are
// large. Longer magnitudes are larger; a negative one sorts by its digits' complements.
using OrderKey = std::tuple<int, long, std::string>;
OrderKey orderKey(const z3::model& m, const z3::expr& e) {
    std::string digits = Z3_get_numeral_string(m.ctx(), modelValue(m, e));
    const bool negative = !digits.empty() && digits[0] == '-';
    if (!negative) return {1, static_cast<long>(digits.size()), digits};
    digits.erase(0, 1);
    for (char& d : digits) d = static_cast<char>('9' - (d - '0'));
    return {-1, -static_cast<long>(digits.size()), digits};
}

// a = b as two inequalities: inside a solver scope (SolverContext), Z3's
// difference-logic solver refuses an equality such as v1 = v2 + 1 ("non-diff
// logic expression"), which its preprocessing rewrites only at the base level.
z3::expr equal(const z3::expr& a, const z3::expr& b) { return a <= b && a >= b; }

z3::expr compareValues(Comparison op, const z3::expr& a, const z3::expr& b) {
    if (op == Comparison::Eq) return equal(a, b);
    if (op == Comparison::Ne) return !equal(a, b);
    return compare(op, a, b);
}

// The static (always present) edges a -> b implied by static edges a -> m -> b,
// taken out one at a time so that each stays implied by the edges left: the
// numbering constraints keep their solutions with fewer of them.
template <class Kept>
std::set<std::pair<int, int>> impliedStaticEdges(const PairMap<z3::expr>& edges, const Kept& kept) {
    std::map<int, std::set<int>> next;
    for (const auto& [key, v] : edges)
        if (v.is_true() && kept(key.first, key.second)) next[key.first].insert(key.second);
    std::set<std::pair<int, int>> implied;
    for (const auto& [key, v] : edges) {
        if (!v.is_true() || !kept(key.first, key.second)) continue;
        const int a = key.first, b = key.second;  // not a structured binding: the lambda uses b (C++17)
        std::set<int>& fromA = next[a];
        const bool viaOther = std::any_of(fromA.begin(), fromA.end(), [&](int m) {
            auto fromM = next.find(m);
            return m != b && fromM != next.end() && fromM->second.count(b);
        });
        if (!viaOther) continue;
        fromA.erase(b);
        implied.insert(key);
    }
    return implied;
}

bool isMoMember(const ModelExpr& m) {
    if (m.op == ModelExpr::Op::Name) return m.name == "mo";
    return m.op == ModelExpr::Op::Scope && m.args[0].op == ModelExpr::Op::Name && m.args[0].name == "mo";
}

}  // namespace

// A chosen strict total order on each group of events (ChoiceKind::GroupOrder,
// choices.hpp): a rank per event, distinct within its group.
struct RankedOrder {
    std::map<int, std::vector<int>> groups;
    std::vector<z3::expr> rank;  // per event; 0 outside the groups

    PairMap<z3::expr> pairs() const {
        PairMap<z3::expr> out;
        for (const auto& [group, events] : groups)
            for (int a : events)
                for (int b : events)
                    if (a != b) out.emplace(std::make_pair(a, b), rank[a] < rank[b]);
        return out;
    }

    // Each group's events sorted by their rank in the model.
    template <class RankOf>
    std::map<int, std::vector<int>> decode(const RankOf& rankOf) const {
        std::map<int, std::vector<int>> out;
        for (const auto& [group, events] : groups) {
            std::vector<std::pair<OrderKey, int>> order;
            for (int e : events) order.emplace_back(rankOf(rank[e]), e);
            std::sort(order.begin(), order.end());
            for (const auto& [key, e] : order) out[group].push_back(e);
        }
        return out;
    }
};

// The execution's choices as Z3 terms: rf (a source per read), mo (a key per
// write, distinct per location: a clock that contains mo when there is one,
// since then mo can be read off it), nfo (a direction per pair) and each
// group order the model uses (a rank per event of its groups). These are the
// dynamic base relations the walker asks for.
struct Choices {
    z3::context& ctx;
    const ExecutionGraph& sk;
    std::vector<z3::expr> readValue;             // per event (reads), else 0
    std::vector<std::vector<int>> rfCandidates;  // per read
    std::vector<z3::expr> rfSelect;              // per event (reads)
    std::vector<z3::expr> sourceMo;              // per read: mo key of its source, -1 for init
    std::vector<std::vector<int>> writesOf;      // per location, non-initial writes
    std::vector<z3::expr> moKey;                 // per event (non-initial writes)
    EventPairs nfoPairs;
    std::vector<z3::expr> nfoForward;
    std::map<std::string, RankedOrder> orders;  // by chosen relation's name

    Choices(z3::context& c, const ExecutionGraph& s) : ctx(c), sk(s) {}

    // a before b in mo (same location).
    z3::expr moBefore(int a, int b) const {
        if (isInit(sk.events[a])) return ctx.bool_val(true);
        return moKey[a] < moKey[b];
    }
};

// Truth values as Z3 formulas, folded where a constant decides them.
class SymbolicDomain {
public:
    using Value = z3::expr;
    SymbolicDomain(const Choices& c, const SolverContext& ctx, z3::solver& solver)
        : c_(c), solverContext_(ctx), solver_(solver) {}

    z3::expr truth() const { return c_.ctx.bool_val(true); }
    bool isFalse(const z3::expr& v) const { return v.is_false(); }
    bool isTrue(const z3::expr& v) const { return v.is_true(); }
    z3::expr conj(const z3::expr& a, const z3::expr& b) const {
        stopIfInterrupted();
        if (a.is_true() || eq(a, b)) return b;
        if (b.is_true()) return a;
        if (a.is_false() || b.is_false()) return c_.ctx.bool_val(false);
        return a && b;
    }
    z3::expr disj(const z3::expr& a, const z3::expr& b) const {
        stopIfInterrupted();
        if (a.is_false() || eq(a, b)) return b;
        if (b.is_false()) return a;
        if (a.is_true() || b.is_true()) return truth();
        return a || b;
    }
    z3::expr negate(const z3::expr& a) const {
        if (a.is_true()) return c_.ctx.bool_val(false);
        if (a.is_false()) return truth();
        return !a;
    }

    // R+ as a fresh variable per pair that R's paths reach, forced true by an
    // R edge and by an R step from a pair already reached (Horn clauses, linear
    // in the pairs times R's edges): R+ or more in every model, and exactly R+
    // in some, which is all a negative use needs (RelationWalker).
    std::optional<PairMap<z3::expr>> upperClosure(const PairMap<z3::expr>& r, int n) const {
        std::vector<std::vector<std::pair<int, z3::expr>>> successors(static_cast<size_t>(n));
        for (const auto& [key, v] : r) successors[key.first].emplace_back(key.second, v);
        PairMap<z3::expr> reach;
        // Named by the closure's place in the encoding: the next skeleton's
        // encoding reuses the same constants rather than making new ones.
        const std::string prefix = "reach" + std::to_string(closures_++) + "_";
        auto reached = [&](int a, int b) {
            auto it = reach.find({a, b});
            if (it == reach.end()) {
                const std::string name = prefix + std::to_string(a) + "_" + std::to_string(b);
                it = reach.emplace(std::make_pair(a, b), c_.ctx.bool_const(name.c_str())).first;
            }
            return it->second;
        };
        for (int a = 0; a < n; ++a) {
            std::vector<int> frontier;
            std::vector<bool> seen(static_cast<size_t>(n), false);
            auto visit = [&](int b, const z3::expr& because) {
                solver_.add(z3::implies(because, reached(a, b)));
                if (!seen[b]) seen[b] = true, frontier.push_back(b);
            };
            for (const auto& [b, v] : successors[a]) visit(b, v);
            while (!frontier.empty()) {
                const int b = frontier.back();
                frontier.pop_back();
                for (const auto& [c, v] : successors[b]) visit(c, conj(reached(a, b), v));
            }
        }
        stopIfInterrupted();
        return reach;
    }

    PairMap<z3::expr> dynamic(const std::string& name) const {
        PairMap<z3::expr> out;
        switch (findChosenRelation(name)->kind) {
            case ChoiceKind::ReadsFrom:
                for (size_t r = 0; r < c_.rfCandidates.size(); ++r)
                    for (size_t i = 0; i < c_.rfCandidates[r].size(); ++i)
                        out.emplace(std::make_pair(c_.rfCandidates[r][i], static_cast<int>(r)),
                                    c_.rfSelect[r] == static_cast<int>(i));
                break;
            case ChoiceKind::ModificationOrder:
                for (size_t l = 0; l < c_.writesOf.size(); ++l)
                    for (int a : c_.writesOf[l]) {
                        out.emplace(std::make_pair(c_.sk.initWriteOf(static_cast<int>(l)), a), truth());
                        for (int b : c_.writesOf[l])
                            if (a != b) out.emplace(std::make_pair(a, b), c_.moBefore(a, b));
                    }
                break;
            case ChoiceKind::ReadsBefore:
                for (size_t r = 0; r < c_.rfCandidates.size(); ++r) {
                    if (c_.rfCandidates[r].empty()) continue;
                    for (int w : c_.writesOf[c_.sk.events[r].location])
                        if (w != static_cast<int>(r))
                            out.emplace(std::make_pair(static_cast<int>(r), w), c_.sourceMo[r] < c_.moKey[w]);
                }
                break;
            case ChoiceKind::FlushDirection:
                for (size_t i = 0; i < c_.nfoPairs.size(); ++i) {
                    auto [a, b] = c_.nfoPairs[i];
                    out.emplace(std::make_pair(a, b), c_.nfoForward[i]);
                    out.emplace(std::make_pair(b, a), !c_.nfoForward[i]);
                }
                break;
            case ChoiceKind::GroupOrder:
                if (auto order = c_.orders.find(name); order != c_.orders.end()) out = order->second.pairs();
                break;
        }
        return out;
    }

private:
    // Building a large model's relations can take longer than any solver call:
    // the memory watch's interrupt stops it here too.
    void stopIfInterrupted() const {
        if (solverContext_.interrupted()) throw SolverGaveUp("interrupted");
    }

    const Choices& c_;
    const SolverContext& solverContext_;
    z3::solver& solver_;  // takes the clauses of upper closures
    mutable int closures_ = 0;
};

// A choice that tells executions apart: the source of read `first` (second
// < 0), or whether write `first` is mo-before write `second`.
struct Decision {
    int first = -1, second = -1;
    int values = 2;
};

// A part of the search space: the literals assumed, the first decision they
// leave open, and how many of its values they exclude.
struct Cube {
    std::vector<z3::expr> assumed;
    size_t open = 0;
    int excluded = 0;
};

struct ExecutionEncoding::Impl {
    z3::context& ctx;
    const ExecutionGraph& sk;
    const Model& model;
    size_t locationCount;
    SolverContext::Loan loan;
    z3::solver& solver;
    Choices choices;
    SymbolicDomain domain;
    RelationWalker<SymbolicDomain> walker;
    std::vector<std::vector<z3::expr>> clock;  // [plan clock][event]
    int moHost = -1;                           // the clock mo is read off, or -1 (own keys)
    ExecutionGraph found;  // sk with the last execution's choices
    const bool consistent;
    // Depth-first enumeration (split): the decisions, the cubes still to
    // check, the cube of the execution found last, and each literal's constant.
    std::vector<Decision> decisions;
    std::vector<Cube> pending;
    std::optional<Cube> last;
    std::map<std::pair<size_t, int>, z3::expr> proxies;

    Impl(SolverContext& c, const ExecutionGraph& s, const Model& m, size_t locations, Mode mode)
        : ctx(c.z3()), sk(s), model(m), locationCount(locations), loan(c, isDifferenceLogic(s)),
          solver(loan.solver()), choices(ctx, s), domain(choices, c, solver),
          walker(m, s, domain), found(s), consistent(mode == Mode::Consistent) {
        build();
    }

    z3::expr value(const Value& v) const {
        switch (v.kind) {
            case Value::Kind::Const: return ctx.int_val(static_cast<int64_t>(v.constant));
            case Value::Kind::Read: return choices.readValue[v.event];
            case Value::Kind::Add: return value(v.args[0]) + value(v.args[1]);
            case Value::Kind::Sub: return value(v.args[0]) - value(v.args[1]);
            case Value::Kind::Mul: return value(v.args[0]) * value(v.args[1]);
            case Value::Kind::Mod: return z3::mod(value(v.args[0]), value(v.args[1]));  // Euclidean, as arith::mod
            case Value::Kind::Neg: return -value(v.args[0]);
        }
        return ctx.int_val(0);
    }

    std::vector<z3::expr> clockVariables(int c) {
        std::vector<z3::expr> vars;
        for (size_t e = 0; e < sk.events.size(); ++e)
            vars.push_back(ctx.int_const(("c" + std::to_string(c) + "_" + std::to_string(e)).c_str()));
        return vars;
    }

    void build() {
        choices.writesOf.assign(locationCount, {});
        for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
            if (isWrite(sk.events[e].kind) && !isInit(sk.events[e])) choices.writesOf[sk.events[e].location].push_back(e);
        buildClocks();
        buildMo();
        buildRf();
        if (model.uses("nfo")) buildNfo();
        for (const ChosenRelation& c : chosenRelations())
            if (c.kind == ChoiceKind::GroupOrder && model.uses(c.name))
                buildRanks(choices.orders[c.name], c.groups(sk), c.name);
        if (sk.illFormed) solver.add(ctx.bool_val(false));
        if (consistent) constrainAxioms();
        for (const ValueConstraint& vc : sk.constraints) solver.add(compareValues(vc.op, value(vc.lhs), value(vc.rhs)));
        listDecisions();
        pending.push_back(Cube{});  // the whole space
    }

    void buildClocks() {
        const CheckPlan& plan = model.plan;
        const std::vector<bool> tied = plan.tieSet ? evaluateSet(model, *plan.tieSet, sk) : std::vector<bool>();
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) {
            clock.push_back(clockVariables(c));
            if (c != plan.observeClock) continue;
            for (size_t e = 0; e < sk.events.size(); ++e)
                if (tied[e]) clock[c][e] = clock[plan.issueClock][e];  // I(e) = O(e)
        }
        if (!consistent || plan.issueClock < 0) return;
        for (size_t e = 0; e < sk.events.size(); ++e)
            if (!isInit(sk.events[e]) && !tied[e]) solver.add(clock[plan.issueClock][e] <= clock[plan.observeClock][e]);
    }

    // Whether clock c's mo members order every location's writes (then mo is read off it).
    bool ordersAllWrites(int c) const {
        const auto& members = model.plan.clocks[c].members;
        for (const auto& writes : choices.writesOf) {
            if (writes.size() < 2) continue;
            auto covers = [&](const ModelExpr& m) {
                return isMoMember(m) && std::all_of(writes.begin(), writes.end(), [&](int w) {
                           return m.op == ModelExpr::Op::Name || libraryName(sk.events[w].library) == m.name;
                       });
            };
            if (std::none_of(members.begin(), members.end(), covers)) return false;
        }
        return true;
    }

    void buildMo() {
        for (int c = static_cast<int>(model.plan.clocks.size()) - 1; c >= 0 && moHost < 0; --c)
            if (ordersAllWrites(c)) moHost = c;
        choices.moKey.assign(sk.events.size(), ctx.int_val(0));
        for (const auto& writes : choices.writesOf) {
            for (int w : writes) {
                choices.moKey[w] = moHost >= 0 ? clock[moHost][w] : ctx.int_const(("mo" + std::to_string(w)).c_str());
                solver.add(choices.moKey[w] >= 0);
            }
            for (size_t i = 0; i < writes.size(); ++i)
                for (size_t j = i + 1; j < writes.size(); ++j)
                    solver.add(choices.moKey[writes[i]] != choices.moKey[writes[j]]);
        }
    }

    void buildRf() {
        const int n = static_cast<int>(sk.events.size());
        choices.rfCandidates.assign(n, {});
        for (int e = 0; e < n; ++e) {
            const Event& ev = sk.events[e];
            choices.readValue.push_back(isRead(ev.kind) ? ctx.int_const(("v" + std::to_string(e)).c_str())
                                                        : ctx.int_val(0));
            choices.rfSelect.push_back(ctx.int_val(0));
            choices.sourceMo.push_back(ctx.int_val(-1));
        }
        for (int r = 0; r < n; ++r) {
            const Event& rev = sk.events[r];
            if (!isRead(rev.kind)) continue;
            auto& candidates = choices.rfCandidates[r];
            candidates.push_back(sk.initWriteOf(rev.location));
            for (int w : choices.writesOf[rev.location])
                if (w != r) candidates.push_back(w);
            choices.rfSelect[r] = ctx.int_const(("rf" + std::to_string(r)).c_str());
            choices.sourceMo[r] = ctx.int_const(("src" + std::to_string(r)).c_str());
            solver.add(choices.rfSelect[r] >= 0 && choices.rfSelect[r] < static_cast<int>(candidates.size()));
            for (size_t i = 0; i < candidates.size(); ++i) {
                const int w = candidates[i];
                z3::expr chosen = choices.rfSelect[r] == static_cast<int>(i);
                solver.add(z3::implies(chosen, equal(choices.readValue[r], value(sk.events[w].written))));
                solver.add(z3::implies(chosen, choices.sourceMo[r] == (isInit(sk.events[w]) ? ctx.int_val(-1)
                                                                                            : choices.moKey[w])));
            }
        }
    }

    void buildNfo() {
        for (const auto& events : sk.threadEvents)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    if (!isNfoPair(sk.events[events[i]], sk.events[events[j]])) continue;
                    choices.nfoPairs.emplace_back(events[i], events[j]);
                    choices.nfoForward.push_back(
                        ctx.bool_const(("nfo" + std::to_string(events[i]) + "_" + std::to_string(events[j])).c_str()));
                }
    }

    // Distinct ranks make a strict total order per group in every candidate,
    // so explanations see well-formed group orders too.
    void buildRanks(RankedOrder& order, std::map<int, std::vector<int>> groups, const std::string& prefix) {
        order.rank.assign(sk.events.size(), ctx.int_val(0));
        order.groups = std::move(groups);
        for (const auto& [group, events] : order.groups) {
            for (int e : events) order.rank[e] = ctx.int_const((prefix + std::to_string(e)).c_str());
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) solver.add(order.rank[events[i]] != order.rank[events[j]]);
        }
    }

    void constrainAxioms() {
        const CheckPlan& plan = model.plan;
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) {
            PairMap<z3::expr> edges;
            for (const ModelExpr& m : plan.clocks[c].members)
                if (c != moHost || !isMoMember(m))  // mo is read off its host clock: always respected
                    for (const auto& [key, v] : walker.relation(m)) {
                        auto it = edges.find(key);
                        if (it == edges.end()) {
                            edges.emplace(key, v);
                        } else {
                            it->second = domain.disj(it->second, v);
                        }
                    }
            acyclic(clock[c], edges);
        }
        // The rest are irreflexive and empty axioms (every acyclic one has a clock).
        for (const Axiom& a : plan.general)
            for (const auto& [key, v] : walker.relation(a.expr))
                if (a.kind == Axiom::Kind::Empty || key.first == key.second) solver.add(domain.negate(v));
    }

    // A topological numbering respects every edge. An initial write with no
    // edge into it is a source, on no cycle: its edges are left out. So are
    // static edges that two others imply (most of po's, in long threads).
    void acyclic(const std::vector<z3::expr>& numbering, const PairMap<z3::expr>& edges) {
        const bool intoInit = std::any_of(edges.begin(), edges.end(),
                                          [&](const auto& kv) { return isInit(sk.events[kv.first.second]); });
        auto kept = [&](int a, int b) { return a != b && (intoInit || !isInit(sk.events[a])); };
        const std::set<std::pair<int, int>> implied = impliedStaticEdges(edges, kept);
        for (const auto& [key, v] : edges) {
            const auto [a, b] = key;
            if (a == b) {
                solver.add(domain.negate(v));
            } else if (kept(a, b) && !implied.count(key)) {
                solver.add(v.is_true() ? numbering[a] < numbering[b] : z3::implies(v, numbering[a] < numbering[b]));
            }
        }
    }

    // The next execution in depth-first order: the cubes left by earlier splits
    // are checked until one holds an execution, which is then split in turn.
    bool next() {
        if (last) split(*last);
        last.reset();
        while (!pending.empty()) {
            z3::expr_vector assumed(ctx);
            for (const z3::expr& literal : pending.back().assumed) assumed.push_back(literal);
            const z3::check_result answer = solver.check(assumed);
            if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());  // the cube stays pending
            Cube cube = std::move(pending.back());
            pending.pop_back();
            if (answer == z3::unsat) continue;
            last = std::move(cube);  // split at the next call, even if decoding throws
            decode(solver.get_model());
            return true;
        }
        return false;
    }

    void decode(const z3::model& m) {
        const int n = static_cast<int>(sk.events.size());
        found.clearChoices(locationCount);
        for (int r = 0; r < n; ++r) {
            if (choices.rfCandidates[r].empty()) continue;
            found.rf[r] = choices.rfCandidates[r][modelValue(m, choices.rfSelect[r]).get_numeral_int()];
            int64_t v = 0;
            if (!modelValue(m, choices.readValue[r]).is_numeral_i64(v))
                throw InputError(sk.events[found.rf[r]].where, "arithmetic overflow: the value written here does "
                                                               "not fit in 64 bits");
            found.readValues[r] = v;
        }
        checkArithmetic();
        for (size_t l = 0; l < locationCount; ++l) {
            std::vector<std::pair<OrderKey, int>> order;
            for (int w : choices.writesOf[l]) order.emplace_back(orderKey(m, choices.moKey[w]), w);
            std::sort(order.begin(), order.end());
            found.mo[l].push_back(sk.initWriteOf(static_cast<int>(l)));
            for (const auto& [key, w] : order) found.mo[l].push_back(w);
        }
        for (size_t i = 0; i < choices.nfoPairs.size(); ++i) {
            auto [a, b] = choices.nfoPairs[i];
            if (modelValue(m, choices.nfoForward[i]).is_true()) {
                found.nfo.emplace_back(a, b);
            } else {
                found.nfo.emplace_back(b, a);
            }
        }
        auto rankOf = [&](const z3::expr& rank) { return orderKey(m, rank); };
        for (const auto& [name, order] : choices.orders) found.orders[name] = order.decode(rankOf);
    }

    // Z3 computes with unbounded integers: a step of the execution's arithmetic
    // outside 64 bits is an error at its statement, as it is on the machines.
    void checkArithmetic() const {
        auto eval = [&](const Value& v, const SourceLoc& where) {
            try {
                v.eval(found.readValues);
            } catch (const ArithmeticOverflow& e) {
                throw InputError(where, e.what());
            }
        };
        for (const Event& e : sk.events)
            if (isWrite(e.kind) && !isInit(e)) eval(e.written, e.where);
        for (const ValueConstraint& c : sk.constraints) {
            eval(c.lhs, c.where);
            eval(c.rhs, c.where);
        }
    }

    // The location ends with `v` when its mo-last write (the one every other
    // write of the location precedes) writes v: a disjunction over the writes,
    // not an if-then-else term, so it stays in difference logic.
    z3::expr finalValueIs(int location, long long v) const {
        const std::vector<int>& writes = choices.writesOf.at(location);
        const z3::expr target = ctx.int_val(static_cast<int64_t>(v));
        if (writes.empty()) return equal(value(sk.events[sk.initWriteOf(location)].written), target);
        z3::expr_vector cases(ctx);
        for (int w : writes) {
            z3::expr_vector last(ctx);
            for (int other : writes)
                if (other != w) last.push_back(choices.moKey[other] < choices.moKey[w]);
            last.push_back(equal(value(sk.events[w].written), target));
            cases.push_back(z3::mk_and(last));
        }
        return z3::mk_or(cases);
    }

    // A finite non-empty set in which every event has a successor has a cycle,
    // and a cycle is such a set. Initial writes have no sc edge into them: never on.
    void requireScCycle() {
        const int n = static_cast<int>(sk.events.size());
        std::vector<z3::expr> on;
        std::vector<z3::expr_vector> successors;
        for (int e = 0; e < n; ++e) {
            on.push_back(ctx.bool_const(("on" + std::to_string(e)).c_str()));
            successors.emplace_back(ctx);
        }
        for (const auto& events : sk.threadEvents)
            for (size_t i = 1; i < events.size(); ++i) successors[events[i - 1]].push_back(on[events[i]]);
        for (const char* relation : {"rf", "mo", "rb"})
            for (const auto& [key, edge] : domain.dynamic(relation))
                if (!isInit(sk.events[key.first])) successors[key.first].push_back(on[key.second] && edge);
        z3::expr_vector some(ctx);
        for (int e = 0; e < n; ++e) {
            if (isInit(sk.events[e])) continue;
            some.push_back(on[e]);
            solver.add(z3::implies(on[e], z3::mk_or(successors[e])));
        }
        solver.add(z3::mk_or(some));
    }

    // The decisions that tell executions apart, each with two values or more:
    // the source of each read, and mo between each pair of writes of a location.
    void listDecisions() {
        for (size_t r = 0; r < choices.rfCandidates.size(); ++r)
            if (choices.rfCandidates[r].size() > 1)
                decisions.push_back({static_cast<int>(r), -1, static_cast<int>(choices.rfCandidates[r].size())});
        for (const auto& writes : choices.writesOf)
            for (size_t i = 0; i < writes.size(); ++i)
                for (size_t j = i + 1; j < writes.size(); ++j) decisions.push_back({writes[i], writes[j], 2});
    }

    // The value decision d takes in the execution found last.
    int foundValue(const Decision& d) const {
        if (d.second < 0) {
            const auto& candidates = choices.rfCandidates[d.first];
            return static_cast<int>(std::find(candidates.begin(), candidates.end(), found.rf[d.first]) -
                                    candidates.begin());
        }
        const auto& order = found.mo[sk.events[d.first].location];
        return std::find(order.begin(), order.end(), d.first) < std::find(order.begin(), order.end(), d.second);
    }

    // "Decision d takes value v" as a literal: a Boolean constant tied to its
    // atom once (Z3 wraps any other assumption in a fresh proxy at every check).
    z3::expr literal(size_t d, int v) {
        const Decision& decision = decisions[d];
        const bool mo = decision.second >= 0;
        const auto key = std::make_pair(d, mo ? 1 : v);
        auto it = proxies.find(key);
        if (it == proxies.end()) {
            const z3::expr atom = mo ? choices.moBefore(decision.first, decision.second)
                                     : choices.rfSelect[decision.first] == v;
            const z3::expr proxy = ctx.bool_const(("d" + std::to_string(d) + "_" + std::to_string(key.second)).c_str());
            solver.add(proxy == atom);
            it = proxies.emplace(key, proxy).first;
        }
        return mo && v == 0 ? !it->second : it->second;
    }

    // The rest of `cube` once its execution E is found: for each decision j the
    // cube leaves open, the cube where E's values hold before j and j differs
    // from E's. These cubes are disjoint and together hold every other
    // execution of `cube`, so no blocking clause accumulates in the solver.
    void split(const Cube& cube) {
        std::vector<int> value(decisions.size());
        for (size_t d = cube.open; d < decisions.size(); ++d) value[d] = foundValue(decisions[d]);
        std::vector<Cube> children;
        std::vector<z3::expr> agreed = cube.assumed;
        for (size_t d = cube.open; d < decisions.size(); ++d) {
            const int excluded = d == cube.open ? cube.excluded + 1 : 1;
            if (excluded < decisions[d].values) {
                Cube child{agreed, d, excluded};
                child.assumed.push_back(!literal(d, value[d]));
                children.push_back(std::move(child));
            }
            agreed.push_back(literal(d, value[d]));
        }
        // Stacked in reverse: the cube that differs from the execution found at
        // its first open decision is checked first.
        pending.insert(pending.end(), std::make_move_iterator(children.rbegin()),
                       std::make_move_iterator(children.rend()));
    }
};

Z3Settings::Z3Settings() {
    // Z3 compacts every model it returns by default, which cost a third of the
    // 487 x86 tests' time; the decoder only reads the choice constants.
    static const bool uncompactedModels = (z3::set_param("model.compact", false), true);
    (void)uncompactedModels;
}

// The solvers: Z3's plain SMT core (the default combined solver re-reads its
// tactics' parameters on each call, which costs more than a small test's
// search), without relevancy propagation, and with the difference-logic
// arithmetic solver where the encoding allows it (scripts/bench measures both).
SolverContext::Lent& SolverContext::lend(bool differenceLogic) {
    auto free = std::find_if(solvers_.begin(), solvers_.end(),
                             [&](const Lent& s) { return !s.busy && s.differenceLogic == differenceLogic; });
    if (free == solvers_.end()) {
        z3::solver solver(z3(), z3::solver::simple());
        z3::params p(z3());
        p.set("relevancy", 0u);
        if (differenceLogic) p.set("arith.solver", 1u);
        solver.set(p);
        free = solvers_.insert(solvers_.end(), Lent{solver, differenceLogic, false});
    }
    free->busy = true;
    return *free;
}

SolverContext::Loan::Loan(SolverContext& ctx, bool differenceLogic) : lent_(ctx.lend(differenceLogic)) {
    lent_.solver.push();
}

void SolverContext::Loan::limitTime(unsigned milliseconds) {
    z3::params p(lent_.solver.ctx());
    p.set("timeout", milliseconds == 0 ? UINT_MAX : milliseconds);
    lent_.solver.set(p);
    timed_ = true;
}

// The scope goes, and with it the encoding's assertions and time limit (reset
// only when set: setting parameters costs as much as a small check).
SolverContext::Loan::~Loan() {
    lent_.busy = false;
    try {
        lent_.solver.pop();
        if (timed_) {
            z3::params unbounded(lent_.solver.ctx());
            unbounded.set("timeout", UINT_MAX);
            lent_.solver.set(unbounded);
        }
    } catch (const z3::exception&) {
        // Only an interrupted context refuses (memory_watch); it is not used again.
    }
}

namespace {

Z3_context makeContext() {
    Z3_config config = Z3_mk_config();
    Z3_context context = config ? Z3_mk_context_rc(config) : nullptr;
    if (config) Z3_del_config(config);
    if (!context) throw std::bad_alloc();
    return context;
}

}  // namespace

SolverContext::SolverContext()
    : owned_{makeContext()}, view_(owned_.context), watchId_(memory_watch::onTrip([this] {
          interrupted_ = true;
          z3().interrupt();
      })) {}

SolverContext::~SolverContext() { memory_watch::forget(watchId_); }

namespace {
thread_local std::unique_ptr<SolverContext> threadContext_;
}

SolverContext& threadContext() {
    dropInterruptedThreadContext();
    if (!threadContext_) threadContext_ = std::make_unique<SolverContext>();
    return *threadContext_;
}

void dropInterruptedThreadContext() {
    if (!threadContext_ || !threadContext_->interrupted()) return;
    threadContext_.reset();
    memory_watch::release();
}

ExecutionEncoding::ExecutionEncoding(SolverContext& ctx, const ExecutionGraph& skeleton, const Model& model,
                                     size_t locationCount, Mode mode)
    : impl_(std::make_unique<Impl>(ctx, skeleton, model, locationCount, mode)) {}

ExecutionEncoding::~ExecutionEncoding() = default;

bool ExecutionEncoding::next() { return impl_->next(); }

const ExecutionGraph& ExecutionEncoding::current() const { return impl_->found; }

z3::expr ExecutionEncoding::finalValueIs(int location, long long v) const { return impl_->finalValueIs(location, v); }

z3::expr ExecutionEncoding::valueIs(const Value& v, long long k) const {
    return equal(impl_->value(v), impl_->ctx.int_val(static_cast<int64_t>(k)));
}

void ExecutionEncoding::require(const z3::expr& condition) { impl_->solver.add(condition); }

void ExecutionEncoding::requireScCycle() { impl_->requireScCycle(); }

void ExecutionEncoding::limitTime(unsigned milliseconds) { impl_->loan.limitTime(milliseconds); }

}  // namespace rdmacheck
