#include "rdmacheck/relations.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>

#include "rdmacheck/choices.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/names.hpp"

namespace rdmacheck {

namespace {

// herd7 leaves the events of an instruction it builds out of po (an unlocked
// read-modify-write, MOV [x],[y], XCHG [x],[y]: one call) out of po with
// each other, but for its iico_ctrl pairs, which its cat po holds (checked
// against herd7 7.58): XCHG's read of each location to its write there.
bool inProgramOrder(const Event& a, const Event& b) {
    if (!sameInstructionOutOfPo(a, b)) return true;
    return a.locked && isRead(a.kind) && isWrite(b.kind) && a.location == b.location;
}

// Pairs (a, b) of one thread's events, a before b in po, that `keep` accepts.
template <class Keep>
EventPairs poPairs(const ExecutionGraph& sk, Keep keep) {
    EventPairs out;
    for (const auto& events : sk.threadEvents)
        for (size_t i = 0; i < events.size(); ++i)
            for (size_t j = i + 1; j < events.size(); ++j) {
                const Event &a = sk.events[events[i]], &b = sk.events[events[j]];
                if (inProgramOrder(a, b) && keep(a, b)) out.emplace_back(events[i], events[j]);
            }
    return out;
}

// Pairs of distinct events, in either order, that `keep` accepts.
template <class Keep>
EventPairs allPairs(const ExecutionGraph& sk, Keep keep) {
    EventPairs out;
    const int n = static_cast<int>(sk.events.size());
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b && keep(sk.events[a], sk.events[b])) out.emplace_back(a, b);
    return out;
}

bool sameThread(const Event& a, const Event& b) { return a.thread >= 0 && a.thread == b.thread; }

// `pairs` and (e, e) for each event `keep` accepts.
template <class Keep>
EventPairs withIdentity(const ExecutionGraph& sk, EventPairs pairs, Keep keep) {
    for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
        if (keep(sk.events[e])) pairs.emplace_back(e, e);
    return pairs;
}

// iso (RMW §3.2, LOCO Def. 3.8, doc/model-notes.md §N5): within one call, a read before the write it
// feeds on the same queue pair, and a failed CAS's fence before its read.
bool isIsoPair(EventKind a, EventKind b) {
    return (a == EventKind::NLR && b == EventKind::NRW) || (a == EventKind::NRR && b == EventKind::NLW) ||
           (a == EventKind::NAR && (b == EventKind::NAW || b == EventKind::NLW)) ||
           (a == EventKind::F && b == EventKind::LR);
}

EventPairs arPairs(const ExecutionGraph& sk) {
    EventPairs out;
    for (int r = 0; r < static_cast<int>(sk.events.size()); ++r)
        if (sk.events[r].kind == EventKind::NAR && atomicWriteOf(sk, r) >= 0) out.emplace_back(atomicWriteOf(sk, r), r);
    return out;
}

// Static relations: fixed by the skeleton.
BaseRelation staticRelation(const char* name, const char* meaning, const char* source,
                            std::function<EventPairs(const ExecutionGraph&)> pairs) {
    return BaseRelation{name, meaning, source, std::move(pairs), false};
}

std::vector<BaseRelation> makeBaseRelations() {
    std::vector<BaseRelation> relations = {
        staticRelation("po",
                       "program order: earlier to later events of one thread (not an unlocked X86 "
                       "read-modify-write's read to its write, as herd7)",
                       "RDMA^TSO paper Def. 4.2", [](const ExecutionGraph& sk) {
                           return poPairs(sk, [](const Event&, const Event&) { return true; });
                       }),
        // herd7's loc and int hold each event with itself too (irreflexive loc has no execution there)
        staticRelation("loc", "events on one location, each with itself (initial writes included)", "herd7",
                       [](const ExecutionGraph& sk) {
                           return withIdentity(sk, allPairs(sk, [](const Event& a, const Event& b) {
                                                   return a.location >= 0 && a.location == b.location;
                                               }), [](const Event& e) { return e.location >= 0; });
                       }),
        // herd7's int and ext (machModelChecker's comp_int, comp_ext): the initial writes are a group of
        // their own, in int with nothing, in ext with every thread's event but not with each other
        staticRelation("int", "events of one thread, each event with itself (no initial write)", "herd7",
                       [](const ExecutionGraph& sk) {
                           return withIdentity(sk, allPairs(sk, sameThread), [](const Event& e) { return e.thread >= 0; });
                       }),
        staticRelation("ext", "events of different threads, an initial write with any thread's event", "herd7",
                       [](const ExecutionGraph& sk) {
                           return allPairs(sk, [](const Event& a, const Event& b) {
                               return !sameThread(a, b) && (a.thread >= 0 || b.thread >= 0);
                           });
                       }),
        staticRelation("id", "every event to itself", "herd7",
                       [](const ExecutionGraph& sk) {
                           EventPairs out;
                           for (int e = 0; e < static_cast<int>(sk.events.size()); ++e) out.emplace_back(e, e);
                           return out;
                       }),
        staticRelation("sqp", "distinct NIC events of one queue pair (same thread, same remote node)",
                       "RDMA^TSO paper Def. 4.2", [](const ExecutionGraph& sk) { return allPairs(sk, sameQueuePair); }),
        staticRelation("same-call", "distinct subevents of one call", "LOCO Def. 3.3",
                       [](const ExecutionGraph& sk) {
                           return allPairs(sk, [](const Event& a, const Event& b) {
                               return sameThread(a, b) && a.call == b.call;
                           });
                       }),
        staticRelation("same-work", "distinct events (of different calls) of one thread with one work identifier",
                       "doc/model-notes.md §N3",
                       [](const ExecutionGraph& sk) {
                           return allPairs(sk, [](const Event& a, const Event& b) {
                               return sameThread(a, b) && a.workId >= 0 && a.workId == b.workId && a.call != b.call;
                           });
                       }),
        staticRelation("iso",
                       "one call's subevent order: a read before the write it feeds on one queue pair, a failed "
                       "CAS's fence before its read",
                       "RMW §3.2, LOCO Def. 3.8, doc/model-notes.md §N5",
                       [](const ExecutionGraph& sk) {
                           return poPairs(sk, [](const Event& a, const Event& b) {
                               return a.call == b.call && a.remote == b.remote && isIsoPair(a.kind, b.kind);
                           });
                       }),
        staticRelation("ar", "an RMW's narW to its own narR", "RMW App. D.2", arPairs),
        staticRelation("pf", "polls-from: a NIC operation's write to the poll waiting for it",
                       "the RDMA^TSO paper, §4", [](const ExecutionGraph& sk) { return sk.pollsFrom; }),
        staticRelation("locked-rmw",
                       "an X86 locked instruction's read to its write, where a model in herd7's terms sees the two "
                       "(empty for rdmacheck's own models: one CAS event)",
                       "herd7", [](const ExecutionGraph& sk) { return sk.lockedPairs; }),
        staticRelation("data",
                       "X86: a load to the write its value reaches through registers into a locked instruction's "
                       "operand or XCHG, an update's read of its location to its write, XCHG [x],[y]'s reads to the "
                       "other's write, a locked update's memory operand to its write (herd7's data)",
                       "herd7", [](const ExecutionGraph& sk) { return sk.dataDependencies; }),
        staticRelation("addr",
                       "X86: a load to the access its value reaches through registers by any other way, such as "
                       "MOV [y],EAX, and MOV [y],[x]'s or an unlocked update's memory operand to its write (herd7's "
                       "addr)",
                       "herd7", [](const ExecutionGraph& sk) { return sk.addressDependencies; }),
        staticRelation("ctrl", "X86: empty, as herd7 makes no branch event on X86 (herd7's ctrl)", "herd7",
                       [](const ExecutionGraph&) { return EventPairs{}; }),
    };
    for (const ChosenRelation& c : chosenRelations()) relations.push_back({c.name, c.meaning, c.source, nullptr, true});
    return relations;
}

std::vector<BaseSet> makeBaseSets() {
    std::vector<BaseSet> sets = {
        {"_", "every event", [](const Event&) { return true; }},
        {"IW", "the initial writes", [](const Event& e) { return isInitEvent(e); }},
        {"R", "reads: lR, CAS, nlR, nrR, narR, scR, scU", [](const Event& e) { return isRead(e.kind); }},
        {"W", "writes: lW, CAS, nlW, nrW, narW, scW, scU, and the initial writes",
         [](const Event& e) { return isWrite(e.kind); }},
        {"M", "R | W", [](const Event& e) { return isRead(e.kind) || isWrite(e.kind); }},
        {"Locked", "the reads and writes of X86 locked instructions, where a model in herd7's terms sees two events",
         [](const Event& e) { return e.locked; }},
        {"SFENCE", "X86 SFENCE events, where a model in herd7's terms sees them (F events)",
         [](const Event& e) { return e.weakFence == WeakFence::Store; }},
        {"LFENCE", "X86 LFENCE events, where a model in herd7's terms sees them (F events)",
         [](const Event& e) { return e.weakFence == WeakFence::Load; }},
        {"FW",
         "the final writes: each location's last write in mo, where the test observes its final value, as herd7's FW",
         nullptr, true},
        {"Inst",
         "instantaneous events: all but lW, nlW, nrW, narW and the write-stamped relCW, relNRW (the RDMA^TSO paper, "
         "§4)",
         [](const Event& e) { return isInstantaneous(e.kind); }},
    };
    for (int k = 0; k < eventKindCount(); ++k) {
        const EventKind kind = static_cast<EventKind>(k);
        sets.push_back({kindName(kind), std::string("events of kind ") + kindName(kind),
                        [kind](const Event& e) { return e.kind == kind && !isInitEvent(e); }});
    }
    return sets;
}

}  // namespace

const std::vector<BaseRelation>& baseRelations() {
    static const std::vector<BaseRelation> relations = makeBaseRelations();
    return relations;
}

std::vector<const BaseRelation*> everyBaseRelation() {
    std::vector<const BaseRelation*> all;
    for (const BaseRelation& r : baseRelations()) all.push_back(&r);
    std::istringstream libraries(knownLibraries());  // "sv, bal"
    for (std::string name; std::getline(libraries >> std::ws, name, ',');)
        for (const BaseRelation& r : libraryDescriptor(*findLibrary(name)).relations())
            all.push_back(findLibraryRelation(r.name));  // the registry's own copy, which lives on
    return all;
}

const BaseRelation* findBaseRelation(const std::string& name) {
    for (const BaseRelation& r : baseRelations())
        if (r.name == name) return &r;
    return findLibraryRelation(name);
}

const std::vector<BaseSet>& baseSets() {
    static const std::vector<BaseSet> sets = makeBaseSets();
    return sets;
}

const BaseSet* findBaseSet(const std::string& name) {
    for (const BaseSet& s : baseSets())
        if (s.name == name) return &s;
    const std::optional<Library> library = findLibrary(name);
    if (!library) return nullptr;
    static std::map<std::string, BaseSet> libraries;
    static std::mutex guard;
    const std::lock_guard<std::mutex> lock(guard);
    const Library l = *library;
    return &libraries
                .emplace(name, BaseSet{name, "events of library " + name, [l](const Event& e) { return e.library == l; }})
                .first->second;
}

EventPairs tablePairs(const OrderTable& table, const ExecutionGraph& sk) {
    return poPairs(sk, [&](const Event& a, const Event& b) {
        if (table.betweenCallsOnly && a.call == b.call) return false;
        const Cell cell = table.at(a.kind, b.kind);
        return cell == Cell::Ordered || (cell == Cell::SameQueuePair && sameQueuePair(a, b));
    });
}

bool isNfoPair(const Event& a, const Event& b) {
    if (!sameQueuePair(a, b) || a.library != b.library) return false;
    auto localPair = [](EventKind r, EventKind w) { return r == EventKind::NLR && w == EventKind::NLW; };
    auto remotePair = [](EventKind r, EventKind w) {
        return (r == EventKind::NRR || r == EventKind::NAR) && (w == EventKind::NRW || w == EventKind::NAW);
    };
    return localPair(a.kind, b.kind) || localPair(b.kind, a.kind) || remotePair(a.kind, b.kind) ||
           remotePair(b.kind, a.kind);
}

int atomicWriteOf(const ExecutionGraph& sk, int read) {
    // An RMW's events are po-adjacent, and a thread's events are contiguous.
    const int next = read + 1;
    if (next < static_cast<int>(sk.events.size()) && sk.events[next].kind == EventKind::NAW &&
        sk.events[next].thread == sk.events[read].thread)
        return next;
    return -1;
}

std::vector<bool> SetEvaluator::set(const ModelExpr& e) {
    const size_t n = sk_.events.size();
    using Op = ModelExpr::Op;
    if (e.op == Op::Name) {
        if (const Definition* d = model_.definition(e.name)) {
            auto known = memo_.find(e.name);
            if (known == memo_.end()) known = memo_.emplace(e.name, set(d->expr)).first;
            return known->second;
        }
        std::vector<bool> out(n, false);
        const BaseSet* base = findBaseSet(e.name);
        if (base && base->dynamic) throw std::logic_error("the execution's set " + e.name + " evaluated on a skeleton");
        for (size_t i = 0; i < n; ++i) {
            const Event& ev = sk_.events[i];
            if (base) {
                out[i] = base->contains(ev);
            } else {  // a MOWGLI stamp
                auto stamp = model_.stampOf.find(kindName(ev.kind));
                out[i] = !isInitEvent(ev) && stamp != model_.stampOf.end() && stamp->second == e.name;
            }
        }
        return out;
    }
    if (e.op == Op::Empty) return std::vector<bool>(n, false);
    if (e.op == Op::Domain || e.op == Op::Range) throw std::logic_error("domain or range evaluated on a skeleton");
    const std::vector<bool> a = set(e.args[0]), b = set(e.args[1]);
    std::vector<bool> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = e.op == Op::Union ? a[i] || b[i] : e.op == Op::Inter ? a[i] && b[i] : a[i] && !b[i];
    return out;
}

std::vector<bool> evaluateSet(const Model& model, const ModelExpr& e, const ExecutionGraph& sk) {
    return SetEvaluator(model, sk).set(e);
}

namespace {

// Truth values of one concrete execution.
class ConcreteDomain {
public:
    using Value = bool;
    ConcreteDomain(const ExecutionGraph& ex) : ex_(ex) {}

    bool truth() const { return true; }
    bool isFalse(bool v) const { return !v; }
    bool isTrue(bool v) const { return v; }
    bool conj(bool a, bool b) const { return a && b; }
    bool disj(bool a, bool b) const { return a || b; }
    bool negate(bool a) const { return !a; }
    bool same(bool a, bool b) const { return a == b; }
    bool lastInMo(int w) const {
        const auto& order = ex_.mo[ex_.events[w].location];
        return !order.empty() && order.back() == w;
    }
    // One execution's relations are exact: the walker squares and iterates.
    std::optional<PairMap<bool>> upperClosure(const PairMap<bool>&, int) const { return std::nullopt; }
    static constexpr bool boundsAbove = false;

    PairMap<bool> dynamic(const std::string& name) const {
        PairMap<bool> out;
        for (const auto& p : dynamicPairs(name)) out.emplace(p, true);
        return out;
    }

private:
    EventPairs dynamicPairs(const std::string& name) const {
        EventPairs out;
        auto totalOrder = [&](const std::vector<int>& order) {
            for (size_t i = 0; i < order.size(); ++i)
                for (size_t j = i + 1; j < order.size(); ++j) out.emplace_back(order[i], order[j]);
        };
        switch (findChosenRelation(name)->kind) {
            case ChoiceKind::ReadsFrom:
                for (size_t r = 0; r < ex_.rf.size(); ++r)
                    if (ex_.rf[r] >= 0) out.emplace_back(ex_.rf[r], static_cast<int>(r));
                break;
            case ChoiceKind::ModificationOrder:
                for (const auto& order : ex_.mo) totalOrder(order);
                break;
            case ChoiceKind::ReadsBefore:
                for (size_t r = 0; r < ex_.rf.size(); ++r) {
                    if (ex_.rf[r] < 0) continue;
                    const auto& order = ex_.mo[ex_.events[r].location];
                    auto source = std::find(order.begin(), order.end(), ex_.rf[r]);
                    for (auto w = source + 1; source != order.end() && w != order.end(); ++w)
                        if (*w != static_cast<int>(r)) out.emplace_back(static_cast<int>(r), *w);
                }
                break;
            case ChoiceKind::FlushDirection: out = ex_.nfo; break;
            case ChoiceKind::GroupOrder:
                for (const auto& [group, order] : ex_.orderOf(name)) totalOrder(order);
                break;
        }
        return out;
    }

    const ExecutionGraph& ex_;
};

}  // namespace

std::set<std::pair<int, int>> evaluateRelation(const Model& model, const ModelExpr& e, const ExecutionGraph& ex) {
    ConcreteDomain domain(ex);
    RelationWalker<ConcreteDomain> walker(model, ex, domain);
    std::set<std::pair<int, int>> out;
    for (const auto& [key, v] : walker.relation(e))
        if (v) out.insert(key);
    return out;
}

bool testHolds(const Model& model, const Axiom& test, const ExecutionGraph& ex) {
    const std::set<std::pair<int, int>> pairs = evaluateRelation(model, test.expr, ex);
    bool holds = std::none_of(pairs.begin(), pairs.end(), [&](const auto& p) { return test.breaks(p.first, p.second); });
    if (test.kind == Axiom::Kind::Acyclic) {  // peel off events without a predecessor; a cycle remains
        std::map<int, int> predecessors;
        std::map<int, std::vector<int>> next;
        for (const auto& [a, b] : pairs) {
            ++predecessors[b];
            predecessors.emplace(a, 0);
            next[a].push_back(b);
        }
        std::vector<int> free;
        for (const auto& [e, count] : predecessors)
            if (count == 0) free.push_back(e);
        size_t peeled = 0;
        for (; !free.empty(); ++peeled) {
            const int e = free.back();
            free.pop_back();
            for (int b : next[e])
                if (--predecessors[b] == 0) free.push_back(b);
        }
        holds = peeled == predecessors.size();
    }
    return holds != test.negated;
}

namespace {

// `walked`: the definitions already searched, without finding `base`.
bool references(const Model& model, const ModelExpr& e, const std::string& base, std::set<std::string>& walked) {
    if (e.op == ModelExpr::Op::Name) {
        if (const Definition* d = model.definition(e.name))
            return walked.insert(e.name).second && references(model, d->expr, base, walked);
        return e.name == base;
    }
    return std::any_of(e.args.begin(), e.args.end(),
                       [&](const ModelExpr& a) { return references(model, a, base, walked); });
}

}  // namespace

bool references(const Model& model, const ModelExpr& e, const std::string& base) {
    std::set<std::string> walked;
    return references(model, e, base, walked);
}

bool isExecutionSet(const Model& model, const ModelExpr& e) {
    std::set<std::string> walked;  // each definition once: a chain of them may share its parts
    std::function<bool(const ModelExpr&)> dynamic = [&](const ModelExpr& x) {
        if (x.op == ModelExpr::Op::Domain || x.op == ModelExpr::Op::Range) return true;
        if (x.op == ModelExpr::Op::Name) {
            if (const Definition* d = model.definition(x.name)) return walked.insert(x.name).second && dynamic(d->expr);
            const BaseSet* base = findBaseSet(x.name);
            return base && base->dynamic;
        }
        return std::any_of(x.args.begin(), x.args.end(), dynamic);
    };
    return dynamic(e);
}

namespace {

// The write that follows w in its location's mo, or -1.
int moSuccessor(const ExecutionGraph& ex, const Event& ev, int w) {
    const auto& order = ex.mo[ev.location];
    auto it = std::find(order.begin(), order.end(), w);
    return it == order.end() || it + 1 == order.end() ? -1 : *(it + 1);
}

}  // namespace

namespace {

// The events just before the i-th of a thread's `events` in po (its
// reduction): the one before it, but where an instruction's events are out of
// po, the latest of its call's earlier events and of the call before that
// which are po-before it. An earlier call's events precede the whole call
// before, which precedes this event: none of them is latest.
std::vector<int> poPredecessors(const ExecutionGraph& ex, const std::vector<int>& events, size_t i) {
    auto po = [&](int a, int b) { return inProgramOrder(ex.events[a], ex.events[b]); };
    auto callOf = [&](size_t j) { return ex.events[events[j]].call; };
    size_t from = i;
    while (from > 0 && callOf(from - 1) == callOf(i)) --from;
    for (const int before = from > 0 ? callOf(from - 1) : -1; from > 0 && callOf(from - 1) == before;) --from;
    std::vector<int> candidates;
    for (size_t j = from; j < i; ++j)
        if (po(events[j], events[i])) candidates.push_back(events[j]);
    std::vector<int> latest;
    for (int a : candidates)
        if (std::none_of(candidates.begin(), candidates.end(), [&](int c) { return c > a && po(a, c); }))
            latest.push_back(a);
    return latest;
}

}  // namespace

std::vector<RelationEdge> executionEdges(const ExecutionGraph& ex) {
    std::vector<RelationEdge> edges;
    for (const auto& events : ex.threadEvents)
        for (size_t i = 1; i < events.size(); ++i)
            for (int before : poPredecessors(ex, events, i)) edges.push_back({before, events[i], "po"});
    for (size_t r = 0; r < ex.rf.size(); ++r) {
        if (ex.rf[r] < 0) continue;
        edges.push_back({ex.rf[r], static_cast<int>(r), "rf"});
        const int next = moSuccessor(ex, ex.events[r], ex.rf[r]);
        if (next >= 0 && next != static_cast<int>(r)) edges.push_back({static_cast<int>(r), next, "rb"});
    }
    // mo from an initial write is implied (it precedes everything), as in herd7's pictures.
    for (const auto& order : ex.mo)
        for (size_t i = 2; i < order.size(); ++i) edges.push_back({order[i - 1], order[i], "mo"});
    for (auto [w, p] : ex.pollsFrom) edges.push_back({w, p, "pf"});
    for (auto [a, b] : ex.nfo) edges.push_back({a, b, "nfo"});
    for (const ChosenRelation& c : chosenRelations())
        for (const auto& [group, order] : ex.orderOf(c.name))
            for (size_t i = 1; i < order.size(); ++i) edges.push_back({order[i - 1], order[i], c.name});
    return edges;
}

std::vector<RelationEdge> clockEdges(const ExecutionGraph& ex, const Model& model) {
    std::vector<RelationEdge> edges;
    ConcreteDomain domain(ex);
    RelationWalker<ConcreteDomain> walker(model, ex, domain);
    for (int c = 0; c < static_cast<int>(model.plan.clocks.size()); ++c)
        for (const ModelExpr& member : model.plan.clocks[c].members)
            for (const auto& [key, v] : walker.relation(member))
                if (v) edges.push_back({key.first, key.second, relationText(member, model), c});
    return edges;
}

}  // namespace rdmacheck
