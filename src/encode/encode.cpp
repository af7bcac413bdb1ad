#include "rdmacheck/encode.hpp"

#include <algorithm>
#include <climits>

#include "rdmacheck/arith.hpp"

#include "rdmacheck/library.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {

namespace {

bool isInit(const Event& e) { return isInitEvent(e); }

}  // namespace

struct ExecutionEncoding::Impl {
    z3::context& ctx;
    const Skeleton& sk;
    const Model& model;
    size_t locationCount;
    z3::solver solver;
    std::vector<z3::expr> readValue;               // per event (reads), else 0
    std::vector<std::vector<z3::expr>> clock;      // [clock][event]; init events unused
    std::vector<std::vector<int>> rfCandidates;    // per read
    std::vector<z3::expr> rfSelect;                // per event (reads)
    std::vector<z3::expr> sourceMo;                // per read: mo clock of its source, -1 for init
    std::vector<std::vector<int>> writesOf;        // per location, non-initial writes
    std::vector<std::pair<int, int>> nfoPairs;
    std::vector<z3::expr> nfoForward;
    std::map<int, std::vector<int>> atomicReads;  // per target node
    std::vector<z3::expr> raoRank;                // per event (narR): its place in rao
    std::vector<std::pair<int, int>> barrierRounds;  // BAL: (entry, exit) pairs of the same round
    Execution found;

    const bool consistent;

    Impl(z3::context& c, const Skeleton& s, const Model& m, size_t locations, Mode mode)
        : ctx(c), sk(s), model(m), locationCount(locations), solver(c), consistent(mode == Mode::Consistent) {
        build();
    }

    z3::expr value(const Value& v) {
        switch (v.kind) {
            case Value::Kind::Const: return ctx.int_val(static_cast<int64_t>(v.constant));
            case Value::Kind::Read: return readValue[v.event];
            case Value::Kind::Add: return value(v.args[0]) + value(v.args[1]);
            case Value::Kind::Sub: return value(v.args[0]) - value(v.args[1]);
            case Value::Kind::Mul: return value(v.args[0]) * value(v.args[1]);
            case Value::Kind::Neg: return -value(v.args[0]);
        }
        return ctx.int_val(0);
    }

    // a before b on clock c; an initial write is before everything.
    z3::expr before(int c, int a, int b) {
        if (isInit(sk.events[a])) return ctx.bool_val(true);
        if (isInit(sk.events[b])) return ctx.bool_val(false);
        return clock[c][a] < clock[c][b];
    }

    z3::expr moBefore(int a, int b) { return before(model.moClock, a, b); }

    void build() {
        const int n = static_cast<int>(sk.events.size());
        const int clocks = static_cast<int>(model.clocks.size());
        for (int c = 0; c < clocks; ++c) {
            clock.emplace_back();
            for (int e = 0; e < n; ++e) {
                const Event& ev = sk.events[e];
                if (c == model.observeClock && isInstantaneous(ev.kind)) {
                    clock[c].push_back(clock[model.issueClock][e]);  // I(e) = O(e)
                } else {
                    clock[c].push_back(ctx.int_const(("c" + std::to_string(c) + "_" + std::to_string(e)).c_str()));
                }
            }
        }
        for (int e = 0; e < n; ++e) {
            const Event& ev = sk.events[e];
            if (isInit(ev)) continue;
            solver.add(clock[model.moClock][e] >= 0);
            if (consistent && model.issueClock >= 0 && !isInstantaneous(ev.kind))
                solver.add(clock[model.issueClock][e] <= clock[model.observeClock][e]);
        }

        // Values read, and rf.
        writesOf.assign(locationCount, {});
        for (int e = 0; e < n; ++e) {
            const Event& ev = sk.events[e];
            readValue.push_back(isRead(ev.kind) ? ctx.int_const(("v" + std::to_string(e)).c_str()) : ctx.int_val(0));
            if (isWrite(ev.kind) && !isInit(ev)) writesOf[ev.location].push_back(e);
        }
        rfCandidates.assign(n, {});
        for (int r = 0; r < n; ++r) {
            rfSelect.push_back(ctx.int_val(0));
            sourceMo.push_back(ctx.int_val(-1));
            const Event& rev = sk.events[r];
            if (!isRead(rev.kind)) continue;
            rfCandidates[r].push_back(sk.initWriteOf(rev.location));
            for (int w : writesOf[rev.location])
                if (w != r) rfCandidates[r].push_back(w);
            rfSelect[r] = ctx.int_const(("rf" + std::to_string(r)).c_str());
            sourceMo[r] = ctx.int_const(("src" + std::to_string(r)).c_str());
            const int k = static_cast<int>(rfCandidates[r].size());
            solver.add(rfSelect[r] >= 0 && rfSelect[r] < k);
            for (int i = 0; i < k; ++i) {
                int w = rfCandidates[r][i];
                z3::expr chosen = rfSelect[r] == i;
                solver.add(z3::implies(chosen, readValue[r] == value(sk.events[w].written)));
                solver.add(z3::implies(chosen, isInit(sk.events[w]) ? sourceMo[r] == -1
                                                                     : sourceMo[r] == clock[model.moClock][w]));
                if (consistent)
                    for (int c = 0; c < clocks; ++c) rfEdges(c, w, r, chosen);
            }
        }

        // mo: a strict total order on each location's writes, read off the mo clock.
        for (const auto& writes : writesOf)
            for (size_t i = 0; i < writes.size(); ++i)
                for (size_t j = i + 1; j < writes.size(); ++j)
                    solver.add(clock[model.moClock][writes[i]] != clock[model.moClock][writes[j]]);

        // nfo: each same-queue-pair (nlR, nlW) and (nrR/narR, nrW/narW) pair, one direction.
        if (model.nfo) {
            for (const auto& events : sk.threadEvents)
                for (size_t i = 0; i < events.size(); ++i)
                    for (size_t j = i + 1; j < events.size(); ++j) {
                        if (!isNfoPair(sk.events[events[i]], sk.events[events[j]])) continue;
                        nfoPairs.emplace_back(events[i], events[j]);
                        nfoForward.push_back(
                            ctx.bool_const(("nfo" + std::to_string(events[i]) + "_" + std::to_string(events[j])).c_str()));
                    }
        }

        // rao: distinct ranks make a strict total order per target node in every
        // candidate, so explanations see well-formed rao too.
        raoRank.assign(n, ctx.int_val(0));
        if (model.rao) {
            atomicReads = atomicReadsByNode(sk);
            for (const auto& [node, reads] : atomicReads) {
                for (int r : reads) raoRank[r] = ctx.int_const(("rao" + std::to_string(r)).c_str());
                for (size_t i = 0; i < reads.size(); ++i)
                    for (size_t j = i + 1; j < reads.size(); ++j) solver.add(raoRank[reads[i]] != raoRank[reads[j]]);
            }
        }

        barrierRounds = findLibraryRelation("round")->pairs(sk);
        if (sk.illFormed) solver.add(ctx.bool_val(false));
        if (consistent)
            for (int c = 0; c < clocks; ++c) clockEdges(c);
        for (const ValueConstraint& vc : sk.constraints) {
            z3::expr eq = value(vc.lhs) == value(vc.rhs);
            solver.add(vc.equal ? eq : !eq);
        }
    }

    void rfEdges(int c, int w, int r, const z3::expr& chosen) {
        if (isInit(sk.events[w])) return;
        const Event& wev = sk.events[w];
        const Event& rev = sk.events[r];
        for (const ClockEdge& edge : model.clocks[c].edges) {
            if (containsRf(model, edge, wev, rev)) {
                solver.add(z3::implies(chosen, clock[c][w] < clock[c][r]));
                return;
            }
        }
    }

    void clockEdges(int c) {
        const Clock& spec = model.clocks[c];
        auto has = [&](Relation r) {
            return std::any_of(spec.edges.begin(), spec.edges.end(), [&](const ClockEdge& e) { return e.relation == r; });
        };
        // Whether the clock has relation r between these two events (library scopes).
        auto relates = [&](Relation r, int a, int b) {
            return std::any_of(spec.edges.begin(), spec.edges.end(), [&](const ClockEdge& e) {
                return e.relation == r && e.inScope(sk.events[a], sk.events[b]);
            });
        };
        // Program-order relations (tables, po, po-loc, iso, waits).
        for (const auto& events : sk.threadEvents)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    const Event& a = sk.events[events[i]];
                    const Event& b = sk.events[events[j]];
                    if (std::any_of(spec.edges.begin(), spec.edges.end(),
                                    [&](const ClockEdge& e) { return keepsProgramOrder(e, a, b); }))
                        solver.add(clock[c][events[i]] < clock[c][events[j]]);
                }
        for (auto [a, b] : barrierRounds)
            if (relates(Relation::Round, a, b)) solver.add(clock[c][a] < clock[c][b]);
        for (auto [w, p] : sk.pollsFrom) {
            if (has(Relation::Pf) || (has(Relation::PfFromNlW) && sk.events[w].kind == EventKind::NLW))
                solver.add(clock[c][w] < clock[c][p]);
        }
        for (size_t i = 0; i < nfoPairs.size(); ++i) {
            auto [a, b] = nfoPairs[i];
            if (relates(Relation::Nfo, a, b))
                solver.add(z3::ite(nfoForward[i], clock[c][a] < clock[c][b], clock[c][b] < clock[c][a]));
        }
        for (const auto& [node, reads] : atomicReads)
            for (int a : reads)
                for (int b : reads) {
                    if (a == b) continue;
                    z3::expr raoBefore = raoRank[a] < raoRank[b];
                    if (relates(Relation::Rao, a, b)) solver.add(z3::implies(raoBefore, clock[c][a] < clock[c][b]));
                    const int write = atomicWriteOf(sk, a);
                    if (write >= 0 && relates(Relation::ArRao, write, b))
                        solver.add(z3::implies(raoBefore, clock[c][write] < clock[c][b]));
                }
        if (has(Relation::Mo) && c != model.moClock) {
            for (const auto& writes : writesOf)
                for (int a : writes)
                    for (int b : writes)
                        if (a != b && relates(Relation::Mo, a, b))
                            solver.add(z3::implies(moBefore(a, b), clock[c][a] < clock[c][b]));
        }
        for (int r = 0; r < static_cast<int>(sk.events.size()); ++r) {
            if (rfCandidates[r].empty()) continue;
            const Event& rev = sk.events[r];
            for (int w : writesOf[rev.location]) {
                if (w == r) continue;
                if (!relates(Relation::Rb, r, w) &&
                    !(relates(Relation::RbInternal, r, w) && isInternalRb(model, rev, sk.events[w])))
                    continue;
                // r reads from a write mo-before w.
                z3::expr readsBefore = sourceMo[r] < clock[model.moClock][w];
                solver.add(z3::implies(readsBefore, clock[c][r] < clock[c][w]));
            }
        }
    }

    bool next() {
        switch (solver.check()) {
            case z3::unsat: return false;
            case z3::unknown: throw SolverGaveUp(solver.reason_unknown());
            case z3::sat: break;
        }
        z3::model m = solver.get_model();
        const int n = static_cast<int>(sk.events.size());
        found = Execution();
        found.rf.assign(n, -1);
        found.readValues.assign(n, 0);
        for (int r = 0; r < n; ++r) {
            if (rfCandidates[r].empty()) continue;
            found.rf[r] = rfCandidates[r][m.eval(rfSelect[r], true).get_numeral_int()];
            int64_t v = 0;
            if (!m.eval(readValue[r], true).is_numeral_i64(v))
                throw InputError(sk.events[found.rf[r]].where, "arithmetic overflow: the value written here does "
                                                               "not fit in 64 bits");
            found.readValues[r] = v;
        }
        checkArithmetic();
        found.mo.assign(locationCount, {});
        for (size_t l = 0; l < locationCount; ++l) {
            std::vector<std::pair<int64_t, int>> order;
            for (int w : writesOf[l]) order.emplace_back(m.eval(clock[model.moClock][w], true).get_numeral_int64(), w);
            std::sort(order.begin(), order.end());
            found.mo[l].push_back(sk.initWriteOf(static_cast<int>(l)));
            for (auto [t, w] : order) found.mo[l].push_back(w);
        }
        for (size_t i = 0; i < nfoPairs.size(); ++i) {
            auto [a, b] = nfoPairs[i];
            if (m.eval(nfoForward[i], true).is_true()) {
                found.nfo.emplace_back(a, b);
            } else {
                found.nfo.emplace_back(b, a);
            }
        }
        for (const auto& [node, reads] : atomicReads) {
            std::vector<std::pair<int64_t, int>> order;
            for (int r : reads) order.emplace_back(m.eval(raoRank[r], true).get_numeral_int64(), r);
            std::sort(order.begin(), order.end());
            for (auto [rank, r] : order) found.rao[node].push_back(r);
        }
        return true;
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

    void limitTime(unsigned milliseconds) {
        z3::params p(ctx);
        p.set("timeout", milliseconds == 0 ? UINT_MAX : milliseconds);
        solver.set(p);
    }

    void blockCurrent() {
        z3::expr_vector same(ctx);
        for (size_t r = 0; r < rfCandidates.size(); ++r) {
            if (rfCandidates[r].empty()) continue;
            auto it = std::find(rfCandidates[r].begin(), rfCandidates[r].end(), found.rf[r]);
            same.push_back(rfSelect[r] == static_cast<int>(it - rfCandidates[r].begin()));
        }
        for (const auto& order : found.mo)
            for (size_t i = 2; i < order.size(); ++i)
                same.push_back(moBefore(order[i - 1], order[i]));
        if (same.empty()) {
            solver.add(ctx.bool_val(false));
        } else {
            solver.add(!z3::mk_and(same));
        }
    }
};

ExecutionEncoding::ExecutionEncoding(z3::context& ctx, const Skeleton& skeleton, const Model& model,
                                     size_t locationCount, Mode mode)
    : impl_(std::make_unique<Impl>(ctx, skeleton, model, locationCount, mode)) {}

ExecutionEncoding::~ExecutionEncoding() = default;

bool ExecutionEncoding::next() { return impl_->next(); }

const Execution& ExecutionEncoding::current() const { return impl_->found; }

void ExecutionEncoding::blockCurrent() { impl_->blockCurrent(); }

void ExecutionEncoding::limitTime(unsigned milliseconds) { impl_->limitTime(milliseconds); }

}  // namespace rdmacheck
