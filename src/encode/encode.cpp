#include "rdmacheck/encode.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <stdexcept>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/relations.hpp"
#include "symbolic.hpp"
#include "terms.hpp"
#include "trail.hpp"
#include "values.hpp"

namespace rdmacheck {

namespace {

std::atomic<uint64_t> decodedFromTrail{0}, decodedFromModel{0};
std::atomic<bool> crossChecking{false};

bool isInit(const Event& e) { return isInitEvent(e); }

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

// A choice that tells executions apart: the source of read `first` (second
// < 0), or whether write `first` is mo-before write `second`.
struct Decision {
    int first = -1, second = -1;
    int values = 2;
};

// A part of the search space: the literals assumed, the first decision they
// leave open, and how many of its values they exclude.
struct Cube {
    std::vector<int> assumed;  // literal ids (Impl::literalId)
    size_t open = 0;
    int excluded = 0;
};

struct ExecutionEncoding::Impl {
    z3::context& ctx;
    const ExecutionGraph& sk;
    const Model& model;
    size_t locationCount;
    SolverLoan loan;
    z3::solver& solver;
    Choices choices;
    SymbolicDomain domain;
    RelationWalker<SymbolicDomain> walker;
    std::vector<std::vector<z3::expr>> clock;  // [plan clock][event]
    int moHost = -1;                           // the clock mo is read off, or -1 (own keys)
    ExecutionGraph found;  // sk with the last execution's choices
    const bool consistent;
    // Depth-first enumeration (split): the decisions, the cubes still to
    // check, the cube of the execution found last, and each literal's id.
    std::vector<Decision> decisions;
    std::vector<Cube> pending;
    std::optional<Cube> last;
    std::map<std::pair<size_t, int>, int> proxies;  // (decision, value) -> id of its literal
    std::vector<z3::expr> literals;                  // by id: each proxy, then its negation
    std::map<unsigned, int> literalOfAst;            // a literal's Z3 AST id -> its id
    // The unsat cores of checked cubes, under the literal each cube added to
    // its parent's; and how often each literal is in the cube being split.
    std::map<int, std::vector<std::vector<int>>> cores;
    std::vector<int> inCube;
    TrailDecoder trail;  // reads most executions off the solver's trail

    Impl(SolverContext& c, const ExecutionGraph& s, const Model& m, size_t locations, Mode mode)
        : ctx(c.impl().z3()), sk(s), model(m), locationCount(locations), loan(c, isDifferenceLogic(s)),
          solver(loan.solver()), choices(ctx, s), domain(choices, c.impl().interrupted_, solver),
          walker(m, s, domain), found(s), consistent(mode == Mode::Consistent), trail(ctx, choices) {
        build();
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
        for (const ValueConstraint& vc : sk.constraints)
            solver.add(compareValues(vc.op, valueTerm(choices, vc.lhs), valueTerm(choices, vc.rhs)));
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
            for (int w : writes)
                choices.moKey[w] = moHost >= 0 ? clock[moHost][w] : ctx.int_const(("mo" + std::to_string(w)).c_str());
            for (size_t i = 0; i < writes.size(); ++i)
                for (size_t j = i + 1; j < writes.size(); ++j)
                    solver.add(choices.moKey[writes[i]] != choices.moKey[writes[j]]);
        }
    }

    void buildRf() {
        const int n = static_cast<int>(sk.events.size());
        choices.rfCandidates.assign(n, {});
        choices.rfChosen.assign(n, {});
        for (int r = 0; r < n; ++r) {
            const Event& rev = sk.events[r];
            if (!isRead(rev.kind)) continue;
            auto& candidates = choices.rfCandidates[r];
            candidates.push_back(sk.initWriteOf(rev.location));
            for (int w : choices.writesOf[rev.location])
                if (w != r) candidates.push_back(w);
            chooseOneSource(r);
        }
        nameReadValues(choices, solver);
    }

    // Exactly one of the read's candidates is its source.
    void chooseOneSource(int r) {
        const size_t count = choices.rfCandidates[r].size();
        auto& chosen = choices.rfChosen[r];
        if (count == 1) {
            chosen.push_back(ctx.bool_val(true));
            return;
        }
        for (size_t i = 0; i < count; ++i)
            chosen.push_back(ctx.bool_const(("rf" + std::to_string(r) + "_" + std::to_string(i)).c_str()));
        z3::expr_vector some(ctx);
        for (const z3::expr& c : chosen) some.push_back(c);
        solver.add(z3::mk_or(some));
        for (size_t i = 0; i < count; ++i)
            for (size_t j = i + 1; j < count; ++j) solver.add(!chosen[i] || !chosen[j]);
        trail.noteSources(r);
    }

    void buildNfo() {
        for (const auto& events : sk.threadEvents)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    if (!isNfoPair(sk.events[events[i]], sk.events[events[j]])) continue;
                    choices.nfoPairs.emplace_back(events[i], events[j]);
                    choices.nfoForward.push_back(
                        ctx.bool_const(("nfo" + std::to_string(events[i]) + "_" + std::to_string(events[j])).c_str()));
                    trail.noteFlush(static_cast<int>(choices.nfoPairs.size()) - 1);
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
                if (a.breaks(key.first, key.second)) solver.add(domain.negate(v));
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
            for (int literal : pending.back().assumed) assumed.push_back(literals[literal]);
            const z3::check_result answer = solver.check(assumed);
            if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());  // the cube stays pending
            Cube cube = std::move(pending.back());
            pending.pop_back();
            if (answer == z3::unsat) {
                learn(cube);
                continue;
            }
            last = std::move(cube);  // split at the next call, even if decoding throws
            if (trail.decode(solver, locationCount, found)) {
                checkArithmetic();
                ++decodedFromTrail;
                if (crossChecking) crossCheck();
            } else {
                decode(solver.get_model());
                ++decodedFromModel;
            }
            return true;
        }
        return false;
    }

    void decode(const z3::model& m) {
        const int n = static_cast<int>(sk.events.size());
        found.clearChoices(locationCount);
        for (int r = 0; r < n; ++r) {
            if (choices.rfCandidates[r].empty()) continue;
            const auto& chosen = choices.rfChosen[r];
            auto taken = [&](const z3::expr& c) { return modelValue(m, c).is_true(); };
            const auto i = std::find_if(chosen.begin(), chosen.end(), taken) - chosen.begin();
            if (i == static_cast<long>(chosen.size())) throw std::logic_error("a read without a source in the model");
            found.rf[r] = choices.rfCandidates[r][i];
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

    // Fixes rf and mo to `ex`'s, then each nfo pair forward where the pairs
    // before it allow, and reads the group orders off a model of the result.
    void settleFlushes(const ExecutionGraph& ex) {
        found.rf = ex.rf;
        found.mo = ex.mo;
        z3::expr_vector assumed(ctx);
        for (size_t d = 0; d < decisions.size(); ++d)
            assumed.push_back(literals[literalId(d, foundValue(decisions[d]))]);
        auto holds = [&] {
            const z3::check_result answer = solver.check(assumed);
            if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());
            return answer == z3::sat;
        };
        found.nfo.clear();
        for (size_t i = 0; i < choices.nfoPairs.size(); ++i) {
            assumed.push_back(choices.nfoForward[i]);
            const bool forward = holds();
            if (!forward) {
                assumed.pop_back();
                assumed.push_back(!choices.nfoForward[i]);
            }
            const auto [a, b] = choices.nfoPairs[i];
            found.nfo.emplace_back(forward ? a : b, forward ? b : a);
        }
        if (!holds()) throw std::logic_error("withLeastFlushes: an execution that is not consistent");
        const z3::model m = solver.get_model();
        auto rankOf = [&](const z3::expr& rank) { return orderKey(m, rank); };
        for (const auto& [name, order] : choices.orders) found.orders[name] = order.decode(rankOf);
    }

    // The execution read off the trail against the one the model gives.
    void crossCheck() {
        const ExecutionGraph fromTrail = found;
        decode(solver.get_model());
        if (fromTrail.rf != found.rf || fromTrail.readValues != found.readValues || fromTrail.mo != found.mo ||
            fromTrail.nfo != found.nfo || fromTrail.orders != found.orders)
            throw std::logic_error("the execution read off the solver's trail is not the model's");
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
        if (writes.empty()) return valueIsTerm(choices, sk.events[sk.initWriteOf(location)].written, v);
        z3::expr_vector cases(ctx);
        for (int w : writes) {
            z3::expr_vector last(ctx);
            for (int other : writes)
                if (other != w) last.push_back(choices.moKey[other] < choices.moKey[w]);
            last.push_back(valueIsTerm(choices, sk.events[w].written, v));
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

    // "Decision d takes value v" as a literal, by id: a Boolean constant (Z3
    // wraps any other assumption in a fresh proxy at every check), a read's
    // own source Boolean or a proxy tied once to "a before b" in mo; id ^ 1 is
    // its negation.
    int literalId(size_t d, int v) {
        const Decision& decision = decisions[d];
        const bool mo = decision.second >= 0;
        const auto key = std::make_pair(d, mo ? 1 : v);
        auto it = proxies.find(key);
        if (it == proxies.end()) {
            if (!mo) {
                it = proxies.emplace(key, addLiteral(choices.rfChosen[decision.first][v])).first;
            } else {
                const z3::expr proxy = ctx.bool_const(("d" + std::to_string(d) + "_1").c_str());
                solver.add(proxy == choices.moBefore(decision.first, decision.second));
                it = proxies.emplace(key, addLiteral(proxy)).first;
                trail.noteCoherence(proxy, decision.first, decision.second);
            }
        }
        return mo && v == 0 ? it->second ^ 1 : it->second;
    }

    // A Boolean constant and its negation as literals, ids i and i ^ 1.
    int addLiteral(const z3::expr& proxy) {
        const int id = static_cast<int>(literals.size());
        for (const z3::expr& literal : {proxy, !proxy}) {
            literalOfAst.emplace(Z3_get_ast_id(ctx, literal), static_cast<int>(literals.size()));
            literals.push_back(literal);
        }
        inCube.resize(literals.size(), 0);
        return id;
    }

    // The first execution where `condition` holds, assumed in the first cube
    // rather than asserted, so that the encoding can still tell whether any
    // execution completes at all (anyExecution).
    bool firstWhere(const z3::expr& condition) {
        if (last || pending.size() != 1 || !pending.back().assumed.empty())
            throw std::logic_error("firstWhere: the search has begun");
        const z3::expr guard = ctx.bool_const("where");
        solver.add(z3::implies(guard, condition));
        pending.back().assumed.push_back(addLiteral(guard));
        return next();
    }

    // One query, nothing decoded.
    bool anyExecution() {
        const z3::check_result answer = solver.check();
        if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());
        return answer == z3::sat;
    }

    // Keeps an unsat cube's core under the literal the cube added last: a
    // later cube that holds the same core is unsat too, without a check (the
    // solver's assertions only grow). Most cubes of an RDMA test are unsat:
    // agreeing with an execution up to one decision forces the others.
    void learn(const Cube& cube) {
        if (cube.assumed.empty()) return;
        std::vector<int> core;
        for (const z3::expr& e : solver.unsat_core()) {
            auto it = literalOfAst.find(Z3_get_ast_id(ctx, e));
            if (it == literalOfAst.end()) return;
            core.push_back(it->second);
        }
        if (core.empty()) {  // the assertions alone are unsat now (require() adds them): so is every cube
            pending.clear();
        } else if (std::find(core.begin(), core.end(), cube.assumed.back()) != core.end()) {
            cores[cube.assumed.back()].push_back(std::move(core));
        }
    }

    // Whether the cube being split plus `added` holds a kept core.
    bool knownUnsat(int added) {
        auto kept = cores.find(added);
        if (kept == cores.end()) return false;
        ++inCube[added];
        const bool holds = std::any_of(kept->second.begin(), kept->second.end(), [&](const std::vector<int>& core) {
            return std::all_of(core.begin(), core.end(), [&](int l) { return inCube[l] > 0; });
        });
        --inCube[added];
        return holds;
    }

    // The rest of `cube` once its execution E is found: for each decision j the
    // cube leaves open, the cube where E's values hold before j and j differs
    // from E's. These cubes are disjoint and together hold every other
    // execution of `cube`, so no blocking clause accumulates in the solver.
    // Those that hold a kept unsat core are left out.
    void split(const Cube& cube) {
        std::vector<int> value(decisions.size());
        for (size_t d = cube.open; d < decisions.size(); ++d) value[d] = foundValue(decisions[d]);
        std::vector<Cube> children;
        std::vector<int> agreed = cube.assumed;
        for (int l : agreed) ++inCube[l];
        for (size_t d = cube.open; d < decisions.size(); ++d) {
            const int excluded = d == cube.open ? cube.excluded + 1 : 1;
            const int same = literalId(d, value[d]);
            if (excluded < decisions[d].values && !knownUnsat(same ^ 1)) {
                Cube child{agreed, d, excluded};
                child.assumed.push_back(same ^ 1);
                children.push_back(std::move(child));
            }
            agreed.push_back(same);
            ++inCube[same];
        }
        for (int l : agreed) --inCube[l];
        // Stacked in reverse: the cube that differs from the execution found at
        // its first open decision is checked first.
        pending.insert(pending.end(), std::make_move_iterator(children.rbegin()),
                       std::make_move_iterator(children.rend()));
    }
};

DecodeCounts decodeCounts() { return {decodedFromTrail, decodedFromModel}; }

void crossCheckTrailDecoding(bool on) { crossChecking = on; }

ExecutionEncoding::ExecutionEncoding(SolverContext& ctx, const ExecutionGraph& skeleton, const Model& model,
                                     size_t locationCount, Mode mode)
    : impl_(std::make_unique<Impl>(ctx, skeleton, model, locationCount, mode)) {}

ExecutionEncoding::~ExecutionEncoding() = default;

bool ExecutionEncoding::next() { return impl_->next(); }

const ExecutionGraph& ExecutionEncoding::current() const { return impl_->found; }

ExecutionGraph withLeastFlushes(const ExecutionGraph& ex, const Model& model, size_t locationCount) {
    ExecutionEncoding encoding(threadContext(), ex, model, locationCount);
    encoding.impl().settleFlushes(ex);
    return encoding.current();
}

void ExecutionEncoding::requireScCycle() { impl_->requireScCycle(); }

void ExecutionEncoding::limitTime(unsigned milliseconds) { impl_->loan.limitTime(milliseconds); }

z3::expr finalValueIs(const ExecutionEncoding& encoding, int location, long long k) {
    return encoding.impl().finalValueIs(location, k);
}

z3::expr valueIs(const ExecutionEncoding& encoding, const Value& v, long long k) {
    return valueIsTerm(encoding.impl().choices, v, k);
}

void require(ExecutionEncoding& encoding, const z3::expr& condition) { encoding.impl().solver.add(condition); }

bool firstExecutionWhere(ExecutionEncoding& encoding, const z3::expr& condition) {
    return encoding.impl().firstWhere(condition);
}

bool anyExecution(ExecutionEncoding& encoding) { return encoding.impl().anyExecution(); }

}  // namespace rdmacheck
