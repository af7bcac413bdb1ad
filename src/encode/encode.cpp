#include "rdmacheck/encode.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/relations.hpp"
#include "fixed_atoms.hpp"
#include "symbolic.hpp"
#include "terms.hpp"
#include "values.hpp"
#include "watched_choices.hpp"

namespace rdmacheck {

namespace {

std::atomic<uint64_t> decodedFromChoices{0}, decodedFromModel{0};
std::atomic<bool> crossChecking{false};

bool isInit(const Event& e) { return isInitEvent(e); }

bool isMoMember(const ModelExpr& m) {
    if (m.op == ModelExpr::Op::Name) return m.name == "mo";
    return m.op == ModelExpr::Op::Scope && m.args[0].op == ModelExpr::Op::Name && m.args[0].name == "mo";
}

// Whether clock member m is mo and relates a and b: plain mo, or mo scoped to a library of both.
bool moMemberRelates(const ModelExpr& m, const Event& a, const Event& b) {
    return isMoMember(m) && (m.op == ModelExpr::Op::Name || bothInLibrary(m.name, a, b));
}

}  // namespace

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
    std::vector<bool> tied;                    // [event]: its issue and observe clocks are one (CheckPlan::tieSet)
    int moHost = -1;                           // the clock mo is read off, or -1 (own keys)
    ExecutionGraph found;  // sk with the last execution's choices
    const bool consistent;
    // The search (search()): the choices' Booleans as Z3 assigns them (watched
    // from the first search on: a single query, firstWhere, reads the model,
    // and watching costs a hard query up to a third more), the executions
    // found (by rf and mo: Z3 may forget a refuted one's lemma and find it
    // again).
    std::optional<WatchedChoices> watched;
    bool queried = false;  // firstWhere's query was made: no search follows
    std::unordered_set<std::string> seen;

    Impl(SolverContext& c, const ExecutionGraph& s, const Model& m, size_t locations, Mode mode)
        : ctx(c.impl().z3()), sk(s), model(m), locationCount(locations), loan(c, isDifferenceLogic(s)),
          solver(loan.solver()), choices(ctx, s), domain(choices, c.impl().interrupted_, solver),
          walker(m, s, domain), found(s), consistent(mode == Mode::Consistent) {
        build();
    }

    std::vector<z3::expr> clockVariables(int c) {
        std::vector<z3::expr> vars;
        for (size_t e = 0; e < sk.events.size(); ++e)
            vars.push_back(ctx.int_const(("c" + std::to_string(c) + "_" + std::to_string(e)).c_str()));
        return vars;
    }

    void build() {
        choices.writesOf = writesByLocation(sk, locationCount);
        buildClocks();
        buildMo();
        buildRf();
        if (model.uses("nfo")) buildNfo();
        for (const ChosenRelation& c : chosenRelations())
            if (c.kind == ChoiceKind::GroupOrder && model.uses(c.name))
                buildRanks(choices.orders[c.name], c.groups(sk), c.name);
        if (sk.illFormed) solver.add(ctx.bool_val(false));
        if (model.herdEvents) forbidUngroundedComputations(choices, solver);
        if (consistent) constrainAxioms();
        for (const ValueConstraint& vc : sk.constraints) {
            const z3::expr holds = constraintTerm(choices, vc);
            if (!holds.is_true()) solver.add(holds);
        }
    }

    void buildClocks() {
        const CheckPlan& plan = model.plan;
        tied = plan.tieSet ? evaluateSet(model, *plan.tieSet, sk) : std::vector<bool>(sk.events.size(), false);
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) clock.push_back(clockVariables(c));
        if (plan.observeClock >= 0)  // the observe clock may come first in the model
            for (size_t e = 0; e < sk.events.size(); ++e)
                if (tied[e]) clock[plan.observeClock][e] = clock[plan.issueClock][e];  // I(e) = O(e)
        if (consistent && plan.issueClock >= 0) issueBeforeObservation(false);
    }

    // I(e) <= O(e) for the untied events that are initial writes or are not:
    // buildClocks links the others; the initial writes only once an issue edge
    // enters one (constrainAxioms), as elsewhere they are sources of both clocks.
    void issueBeforeObservation(bool initialWrites) {
        for (size_t e = 0; e < sk.events.size(); ++e)
            if (isInit(sk.events[e]) == initialWrites && !tied[e])
                solver.add(clock[model.plan.issueClock][e] <= clock[model.plan.observeClock][e]);
    }

    // Whether clock c's mo members order every location's writes (then mo is read off it).
    bool ordersAllWrites(int c) const {
        const auto& members = model.plan.clocks[c].members;
        for (const auto& writes : choices.writesOf) {
            if (writes.size() < 2) continue;
            auto covers = [&](const ModelExpr& m) {
                return std::all_of(writes.begin(), writes.end(), [&](int w) {
                    return moMemberRelates(m, sk.events[writes.front()], sk.events[w]);
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
            if (!isRead(sk.events[r].kind)) continue;
            bool none = false;
            choices.rfCandidates[r] = sourcesOf(sk, choices.writesOf, r, none);
            if (none) solver.add(ctx.bool_val(false));
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
        std::vector<PairMap<z3::expr>> edges;
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) edges.push_back(clockEdges(c));
        const FixedAtoms fixed = moHost >= 0 ? fixedMo(edges[moHost]) : FixedAtoms(ctx);
        // The rest are irreflexive and empty axioms (every acyclic one has a clock).
        std::vector<z3::expr> broken;
        for (const Axiom& a : plan.general)
            for (const auto& [key, v] : walker.relation(a.expr))
                if (a.breaks(key.first, key.second)) broken.push_back(v);
        std::vector<z3::expr*> terms;
        for (auto& clockEdges : edges)
            for (auto& [key, v] : clockEdges) terms.push_back(&v);
        for (z3::expr& v : broken) terms.push_back(&v);
        fixed.fold(terms);
        std::vector<bool> intoInit(plan.clocks.size()), implied(plan.clocks.size(), false);
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) intoInit[c] = entersInitialWrite(c, edges);
        if (plan.issueClock >= 0 && entersInitialWrite(plan.issueClock, edges, false)) issueBeforeObservation(true);
        if (moHost >= 0 && intoInit[moHost]) initialWritesFirst();
        for (int c = 0; c < static_cast<int>(plan.clocks.size()); ++c) {
            implied[c] = impliedByAnotherClock(c, edges, intoInit[c], implied);
            if (!implied[c]) acyclic(clock[c], edges[c], intoInit[c]);
        }
        for (const z3::expr& v : broken)
            if (!v.is_false()) solver.add(domain.negate(v));
        for (size_t i = 0; i < plan.negated.size(); ++i) requireFailing(plan.negated[i], i);
    }

    // Whether an edge of clock c that some execution has enters an initial
    // write; with `throughTies`, where the plan ties the issue and observe
    // clocks, also whether a path of the other reaches one of c's: from the
    // issue side at any initial write (I(e) <= O(e)), back from the observe
    // side only at a tied one (I(e) = O(e)).
    bool entersInitialWrite(int c, const std::vector<PairMap<z3::expr>>& edges, bool throughTies = true) const {
        const CheckPlan& plan = model.plan;
        const auto enters = [&](int clock, bool tiedOnly) {
            return std::any_of(edges[clock].begin(), edges[clock].end(), [&](const auto& kv) {
                const int b = kv.first.second;
                return !kv.second.is_false() && isInit(sk.events[b]) && (!tiedOnly || tied[b]);
            });
        };
        if (enters(c, false)) return true;
        if (!throughTies || plan.issueClock < 0 || (c != plan.issueClock && c != plan.observeClock)) return false;
        return c == plan.issueClock ? enters(plan.observeClock, true) : enters(plan.issueClock, false);
    }

    // mo's host numbers mo (mo is read off it, not asserted as edges), and mo
    // puts each location's initial write first: where an edge of the host
    // enters an initial write, its numbering must put that write first too.
    // Only where a mo member of the host relates the two (mo, or mo scoped to
    // a library of both): a host chosen where no location has two writes may
    // have none, and then orders no write after its initial one.
    void initialWritesFirst() {
        const auto& members = model.plan.clocks[moHost].members;
        for (const auto& writes : choices.writesOf)
            for (int w : writes) {
                const int initial = sk.initWriteOf(sk.events[w].location);
                const auto relates = [&](const ModelExpr& m) {
                    return moMemberRelates(m, sk.events[initial], sk.events[w]);
                };
                if (std::any_of(members.begin(), members.end(), relates))
                    solver.add(clock[moHost][initial] < clock[moHost][w]);
            }
    }

    // Whether every edge of clock c is one of another's, whose acyclicity then
    // implies c's (x86-TSO's ghb and coherence on a test without same-location
    // program order: half the clocks of the 487 tests). An edge out of an
    // initial write counts for nothing where no edge of c enters one (a source
    // is on no cycle); against mo's host, a mo atom between two other writes
    // is ordered by the host's numbering. Not mo's host, whose numbering is
    // mo, nor a clock the plan ties to another.
    bool impliedByAnotherClock(int c, const std::vector<PairMap<z3::expr>>& edges, bool intoInit,
                               const std::vector<bool>& implied) {
        const CheckPlan& plan = model.plan;
        if (c == moHost || c == plan.issueClock || c == plan.observeClock) return false;
        for (int other = 0; other < static_cast<int>(edges.size()); ++other) {
            if (other == c || implied[other]) continue;
            const bool covers = std::all_of(edges[c].begin(), edges[c].end(), [&](const auto& edge) {
                const auto& [key, v] = edge;
                const auto [a, b] = key;
                if (v.is_false() || (!intoInit && isInit(sk.events[a]))) return true;
                if (other == moHost && a != b && !isInit(sk.events[a]) && z3::eq(v, choices.moBefore(a, b)))
                    return true;
                const auto it = edges[other].find(key);
                return it != edges[other].end() && (it->second.is_true() || z3::eq(it->second, v));
            });
            if (covers) return true;
        }
        return false;
    }

    // The edges clock c numbers: its members' union.
    PairMap<z3::expr> clockEdges(int c) {
        PairMap<z3::expr> edges;
        for (const ModelExpr& m : model.plan.clocks[c].members)
            if (c != moHost || !isMoMember(m))  // mo is read off its host clock: always respected
                for (const auto& [key, v] : walker.relation(m)) {
                    auto it = edges.find(key);
                    if (it == edges.end()) {
                        edges.emplace(key, v);
                    } else {
                        it->second = domain.disj(it->second, v);
                    }
                }
        return edges;
    }

    // Two writes of a location that the host clock's always-present edges
    // order are in that mo order in every execution (the EXS ring's puts to
    // one location): their mo atoms are folded to constants in every edge,
    // so that rb and coherence become implications of rf alone rather than
    // choices the solver decides (about 40% of the solver's time there).
    FixedAtoms fixedMo(const PairMap<z3::expr>& hostEdges) {
        std::vector<std::vector<int>> next(sk.events.size());
        for (const auto& [key, v] : hostEdges)
            if (v.is_true() && key.first != key.second) next[key.first].push_back(key.second);
        FixedAtoms fixed(ctx);
        for (const auto& writes : choices.writesOf) {
            if (writes.size() < 2) continue;
            for (int w : writes) {
                const std::vector<bool> reached = reachable(next, w);
                for (int other : writes)
                    if (reached[other]) fixed.fix(choices.moBefore(w, other), choices.moBefore(other, w));
            }
        }
        return fixed;
    }

    // A topological numbering respects every edge. Where no edge enters an
    // initial write (`intoInit`: entersInitialWrite), each is a source, on no
    // cycle: its edges are left out. So are
    // static edges that two others imply (most of po's, in long threads).
    void acyclic(const std::vector<z3::expr>& numbering, const PairMap<z3::expr>& edges, bool intoInit) {
        auto kept = [&](int a, int b) { return a != b && (intoInit || !isInit(sk.events[a])); };
        const std::set<std::pair<int, int>> implied = impliedStaticEdges(edges, kept);
        for (const auto& [key, v] : edges) {
            const auto [a, b] = key;
            if (v.is_false()) continue;  // an edge no execution has
            if (a == b) {
                solver.add(domain.negate(v));
            } else if (kept(a, b) && !implied.count(key)) {
                solver.add(v.is_true() ? numbering[a] < numbering[b] : z3::implies(v, numbering[a] < numbering[b]));
            }
        }
    }

    // One search over the executions not found before. At each, Z3's final
    // check, the execution is read off the watched Booleans and `visit` says
    // whether to go on: then it is refuted there (Z3 learns a conflict and
    // backjumps to the next execution), else the check ends with it. An
    // execution whose values need the model (or, cross-checking, every one)
    // ends the check too, and the search goes on with the next check. One that
    // ends a check is blocked by a clause for good. True when `visit` stopped.
    // `refuting` (by default rf and mo) names what a visited execution is
    // refuted by: a part of it refutes every execution that shares it.
    using Refuting = std::function<std::vector<unsigned>(const ExecutionGraph&)>;
    bool search(const std::function<bool(const ExecutionGraph&)>& visit, const Refuting& refuting = {}) {
        if (queried) throw std::logic_error("a search after firstWhere");
        if (!watched) watched.emplace(solver, loan.watch(), choices);
        for (;;) {
            bool stopped = false, fromChoices = false;
            std::exception_ptr error;
            auto atFinalCheck = [&] {
                if (!watched->complete()) return;  // read from the model
                if (!seen.insert(watched->key()).second) return loan.watch().refute(watched->distinguishing());
                try {
                    fromChoices = watched->read(locationCount, found);
                    if (fromChoices) ++decodedFromChoices;
                    if (!fromChoices || crossChecking) return;
                    checkArithmetic();
                    if (visit(found))
                        return loan.watch().refute(refuting ? refuting(found) : watched->distinguishing());
                } catch (...) {
                    error = std::current_exception();
                }
                stopped = true;
            };
            const z3::check_result answer = checkHandled(atFinalCheck);
            if (error) std::rethrow_exception(error);
            if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());
            if (answer == z3::unsat) return false;
            if (!stopped) readModel(fromChoices);
            solver.add(!z3::mk_and(watched->literalsOf(found)));
            if (stopped || !visit(found)) return true;
        }
    }

    z3::check_result checkHandled(const ChoiceWatch::Handler& handler) {
        const ChoiceWatch::Handling handling(loan.watch(), handler);
        return solver.check();
    }

    // The execution the check ended with, from Z3's model; cross-checking, the
    // one read off the choices (`fromChoices`) must be the same.
    void readModel(bool fromChoices) {
        const ExecutionGraph read = found;
        decode(solver.get_model());
        if (!fromChoices) ++decodedFromModel;
        if (crossChecking && fromChoices &&
            (read.rf != found.rf || read.readValues != found.readValues || read.mo != found.mo ||
             read.nfo != found.nfo || read.orders != found.orders))
            throw std::logic_error("the execution read off the watched choices is not the model's");
    }

    bool next() {
        return search([](const ExecutionGraph&) { return false; });
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
        decodeOrders(m);
    }

    // Fixes rf and mo to `ex`'s, then each nfo pair forward where the pairs
    // before it allow, then each pair of a group order in the group's order of
    // events where the pairs before it allow: what a picture shows does not
    // depend on the search that found the execution.
    void settleFlushes(const ExecutionGraph& ex) {
        found.rf = ex.rf;
        found.mo = ex.mo;
        watched.emplace(solver, loan.watch(), choices);
        z3::expr_vector assumed = watched->literalsOf(ex);
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
        for (const z3::expr& before : watched->groupOrderPairs()) {
            assumed.push_back(before);
            if (holds()) continue;
            assumed.pop_back();
            assumed.push_back(!before);
        }
        if (!holds()) throw std::logic_error("withLeastFlushes: an execution that is not consistent");
        decodeOrders(solver.get_model());
    }

    void decodeOrders(const z3::model& m) {
        for (const auto& named : choices.orders) {
            const RankedOrder& order = named.second;
            auto before = [&](int a, int b) { return orderKey(m, order.rank[a]) < orderKey(m, order.rank[b]); };
            found.orders[named.first] = order.decode(before);
        }
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
        for (int w : writes) cases.push_back(domain.lastInMo(w) && valueIsTerm(choices, sk.events[w].written, v));
        return z3::mk_or(cases);
    }

    z3::expr finalValueTerm(int location) const {
        const std::vector<int>& writes = choices.writesOf.at(location);
        if (writes.empty()) return valueTerm(choices, sk.events[sk.initWriteOf(location)].written);
        z3::expr value = valueTerm(choices, sk.events[writes.back()].written);
        for (size_t i = writes.size() - 1; i-- > 0;)
            value = z3::ite(domain.lastInMo(writes[i]), valueTerm(choices, sk.events[writes[i]].written), value);
        return value;
    }

    // A finite non-empty set in which every event has a successor has a cycle,
    // and a cycle is such a set: some `on` event, each with an `on` successor
    // (`successors`: formulas over `on`). Initial writes only with `initialWrites`.
    void requireCycle(const std::vector<z3::expr>& on, const std::vector<z3::expr_vector>& successors,
                      bool initialWrites) {
        z3::expr_vector some(ctx);
        for (size_t e = 0; e < on.size(); ++e) {
            if (!initialWrites && isInit(sk.events[e])) continue;
            some.push_back(on[e]);
            solver.add(z3::implies(on[e], z3::mk_or(successors[e])));
        }
        solver.add(z3::mk_or(some));
    }

    std::vector<z3::expr> freshBooleans(const std::string& prefix) {
        std::vector<z3::expr> out;
        for (size_t e = 0; e < sk.events.size(); ++e) out.push_back(ctx.bool_const((prefix + std::to_string(e)).c_str()));
        return out;
    }

    // One per event (copies of one z3::expr_vector would share it).
    std::vector<z3::expr_vector> emptyVectors() {
        std::vector<z3::expr_vector> out;
        for (size_t e = 0; e < sk.events.size(); ++e) out.emplace_back(ctx);
        return out;
    }

    // Initial writes have no sc edge into them: never on.
    void requireScCycle() {
        const std::vector<z3::expr> on = freshBooleans("on");
        std::vector<z3::expr_vector> successors = emptyVectors();
        for (const auto& events : sk.threadEvents)
            for (size_t i = 1; i < events.size(); ++i) successors[events[i - 1]].push_back(on[events[i]]);
        for (const char* relation : {"rf", "mo", "rb"})
            for (const auto& [key, edge] : domain.dynamic(relation))
                if (!isInit(sk.events[key.first])) successors[key.first].push_back(on[key.second] && edge);
        requireCycle(on, successors, false);
    }

    // herd7's negated checks (~acyclic r, ~irreflexive r, ~empty r): r, exactly,
    // has a cycle, a pair (e, e), a pair.
    void requireFailing(const Axiom& a, size_t index) {
        const PairMap<z3::expr> r = walker.exactly(a.expr);
        if (a.kind == Axiom::Kind::Acyclic) {
            const std::vector<z3::expr> on = freshBooleans("cycle" + std::to_string(index) + "_");
            std::vector<z3::expr_vector> successors = emptyVectors();
            for (const auto& [key, v] : r) successors[key.first].push_back(domain.conj(on[key.second], v));
            return requireCycle(on, successors, true);
        }
        z3::expr_vector some(ctx);
        for (const auto& [key, v] : r)
            if (a.breaks(key.first, key.second)) some.push_back(v);
        solver.add(z3::mk_or(some));
    }

    // The first execution where `condition` holds, read from the model of
    // one query that assumes it rather than asserts it, so that the encoding
    // can still tell whether any execution completes at all (anyExecution).
    bool firstWhere(const z3::expr& condition) {
        if (watched || queried) throw std::logic_error("firstWhere: the search has begun");
        queried = true;
        const z3::expr guard = ctx.bool_const("where");
        solver.add(z3::implies(guard, condition));
        z3::expr_vector assumptions(ctx);
        assumptions.push_back(guard);
        const z3::check_result answer = solver.check(assumptions);
        if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());
        if (answer == z3::unsat) return false;
        decode(solver.get_model());
        return true;
    }

    // One query, nothing decoded.
    bool anyExecution() {
        const z3::check_result answer = solver.check();
        if (answer == z3::unknown) throw SolverGaveUp(solver.reason_unknown());
        return answer == z3::sat;
    }

};

bool hasReadWithoutSource(const ExecutionGraph& sk, size_t locationCount) {
    const std::vector<std::vector<int>> writesOf = writesByLocation(sk, locationCount);
    for (int r = 0; r < static_cast<int>(sk.events.size()); ++r) {
        bool none = false;
        if (isRead(sk.events[r].kind)) sourcesOf(sk, writesOf, r, none);
        if (none) return true;
    }
    return false;
}

DecodeCounts decodeCounts() { return {decodedFromChoices, decodedFromModel}; }

void crossCheckDecoding(bool on) { crossChecking = on; }

ExecutionEncoding::ExecutionEncoding(SolverContext& ctx, const ExecutionGraph& skeleton, const Model& model,
                                     size_t locationCount, Mode mode)
    : impl_(std::make_unique<Impl>(ctx, skeleton, model, locationCount, mode)) {}

ExecutionEncoding::~ExecutionEncoding() = default;

bool ExecutionEncoding::next() { return impl_->next(); }

void ExecutionEncoding::forEach(const std::function<bool(const ExecutionGraph&)>& visit) { impl_->search(visit); }

void ExecutionEncoding::forEachEnding(const std::vector<int>& locations, const std::vector<Value>& values,
                                      const std::function<bool(const ExecutionGraph&)>& visit) {
    impl_->search(visit, [&](const ExecutionGraph& ex) { return impl_->watched->determining(ex, locations, values); });
}

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

z3::expr finalValueTerm(const ExecutionEncoding& encoding, int location) {
    return encoding.impl().finalValueTerm(location);
}

z3::expr valueTermOf(const ExecutionEncoding& encoding, const Value& v) {
    return valueTerm(encoding.impl().choices, v);
}

void require(ExecutionEncoding& encoding, const z3::expr& condition) { encoding.impl().solver.add(condition); }

bool firstExecutionWhere(ExecutionEncoding& encoding, const z3::expr& condition) {
    return encoding.impl().firstWhere(condition);
}

bool anyExecution(ExecutionEncoding& encoding) { return encoding.impl().anyExecution(); }

}  // namespace rdmacheck
