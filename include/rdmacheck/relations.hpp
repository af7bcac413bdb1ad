// The relation catalogue: the base relations and event sets a model file can
// name (doc/model-language.md lists them, and a test keeps that list and this one in
// agreement), and the walker that evaluates a model's expressions over one
// skeleton. The walker is generic in its truth values: the encoder runs it on
// Z3 formulas over the execution's choices (its symbolic domain lives in
// src/encode/), the explanations and pictures on the booleans of one concrete
// execution, so both read the same definitions. Nothing here needs a solver.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/base_relation.hpp"
#include "rdmacheck/events.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {

inline bool isInitEvent(const Event& e) { return e.thread < 0; }

// Two events of one X86 instruction that herd7 builds out of po (Event::outOfPo).
inline bool sameInstructionOutOfPo(const Event& a, const Event& b) {
    return a.outOfPo && b.outOfPo && a.thread == b.thread && a.call == b.call;
}

// NIC events of one thread towards one remote node.
inline bool sameQueuePair(const Event& a, const Event& b) {
    return a.thread == b.thread && a.thread >= 0 && a.remote != 0 && a.remote == b.remote;
}

// The core relations (base_relation.hpp), in the order messages list them.
const std::vector<BaseRelation>& baseRelations();
// Those and every registered library's, in registration order.
std::vector<const BaseRelation*> everyBaseRelation();
// A core relation or a library's by the name models give it; nullptr if none.
const BaseRelation* findBaseRelation(const std::string& name);

struct BaseSet {
    std::string name;
    std::string meaning;
    std::function<bool(const Event&)> contains;  // fixed ones
    bool dynamic = false;  // FW: the execution's, which RelationWalker::members evaluates
};
// Fixed sets (_, IW, R, W, M, Inst), one per event kind, and herd7's FW; a
// registered library's name is the set of its events too.
const std::vector<BaseSet>& baseSets();
const BaseSet* findBaseSet(const std::string& name);

// The po pairs an order table keeps: its cell is ordered, or sqp on one queue
// pair; a stamp order relates subevents of different calls only.
EventPairs tablePairs(const OrderTable& table, const ExecutionGraph& sk);

// A same-queue-pair pair whose direction nfo chooses: (nlR, nlW) and
// (nrR or narR, nrW or narW), in either order.
bool isNfoPair(const Event& a, const Event& b);
// ar: the narW of the RMW whose narR is `read`, or -1 (a failed RCAS writes nothing).
int atomicWriteOf(const ExecutionGraph& sk, int read);

// Evaluates set expressions of `model` on one skeleton, each definition once
// however often the model uses it (`let s1 = s0 | s0`).
class SetEvaluator {
public:
    SetEvaluator(const Model& model, const ExecutionGraph& sk) : model_(model), sk_(sk) {}
    std::vector<bool> set(const ModelExpr& e);

private:
    const Model& model_;
    const ExecutionGraph& sk_;
    std::map<std::string, std::vector<bool>> memo_;  // definitions
};

// A relation as a map from event pairs to truth values; absent pairs are false.
template <class V>
using PairMap = std::map<std::pair<int, int>, V>;

// Evaluates sets and relations of `model` on one skeleton. Domain supplies the
// truth values: `Value`, `truth()`, `isTrue`, `isFalse`, `conj`, `disj`,
// `negate`, `same` (the same value as written), `dynamic(name)` for the
// dynamic base relations, `upperClosure(r, n)`: R+ or a relation the domain
// keeps above it, or nothing; `lastInMo(w)`: w is its location's last write
// in mo; and `boundsAbove`: whether least fixed points
// are kept above, and if so `upperVariables(pairs)` (a fresh value per pair)
// and `atLeast(v, because)` (because implies v).
//
// The axioms use every relation negatively (irreflexive and empty deny pairs,
// an acyclic one's clock must respect each edge), so a relation may be computed
// as any R' ⊇ R that equals R in some model: the symbolic domain makes a
// closure so, with fresh variables, instead of squaring (cubic formulas). Under
// the right of '\' a relation is used positively: there it is exact.
template <class Domain>
class RelationWalker {
public:
    using V = typename Domain::Value;
    using Relation = PairMap<V>;

    RelationWalker(const Model& model, const ExecutionGraph& sk, Domain& domain)
        : model_(model), sk_(sk), domain_(domain), n_(static_cast<int>(sk.events.size())), sets_(model, sk) {}

    // An event set as its members' truth values: fixed by the skeleton, or
    // chosen by the execution (FW).
    using Members = std::map<int, V>;

    const Relation& relation(const ModelExpr& e);
    // The relation exactly, never an upper bound: for a positive use.
    Relation exactly(const ModelExpr& e);
    int eventCount() const { return n_; }

private:
    Members members(const ModelExpr& e);
    Relation compute(const ModelExpr& e);
    Relation named(const std::string& name);
    Relation scoped(const std::string& library, const Relation& r);
    const Members& definedMembers(const std::string& name, const Definition& d);
    Members finalWrites() const;
    Relation filter(const Members& s) const;
    Relation product(const Members& a, const Members& b) const;
    Relation fromPairs(const EventPairs& pairs) const;
    Relation identity() const;
    Relation unite(Relation a, const Relation& b) const;
    Relation intersect(const Relation& a, const Relation& b) const;
    Relation subtract(const Relation& a, const Relation& b) const;
    Relation compose(const Relation& a, const Relation& b) const;
    Relation closure(const Relation& r) const;
    void fixedPoint(const Definition& member);
    void upperFixedPoint(const std::vector<const Definition*>& group);
    std::vector<Relation> kleene(const std::vector<const Definition*>& group, bool keysOnly);
    void forget(const ModelExpr& e);
    bool same(const Relation& a, const Relation& b) const;
    // Adds a member (a pair or an event) under `value`, disjoined with any it has.
    template <class Map>
    void put(Map& r, const typename Map::key_type& key, V value) const;

    const Model& model_;
    const ExecutionGraph& sk_;
    Domain& domain_;
    int n_;
    bool exact_ = false;  // under the right of '\': no upper bounds
    // Per mode (upper bound, exact): definitions, base relations, tables; and
    // what relation() handed out.
    std::map<std::string, Relation> memo_[2];
    std::map<const ModelExpr*, Relation> exprMemo_[2];
    std::map<std::string, Members> setMemo_;  // set definitions (sets are exact)
    SetEvaluator sets_;
};

// The set of events a set expression denotes, on one skeleton (a SetEvaluator's).
std::vector<bool> evaluateSet(const Model& model, const ModelExpr& e, const ExecutionGraph& sk);
// The pairs of a relation expression on one concrete execution.
std::set<std::pair<int, int>> evaluateRelation(const Model& model, const ModelExpr& e, const ExecutionGraph& ex);
// Whether a test (an axiom's, a flag's) holds on one concrete execution.
bool testHolds(const Model& model, const Axiom& test, const ExecutionGraph& ex);
// The expressions a name stands for: a definition's body, else the name itself.
bool references(const Model& model, const ModelExpr& e, const std::string& base);
// Whether a set expression depends on the execution (FW, domain, range), through definitions too.
bool isExecutionSet(const Model& model, const ModelExpr& e);

// One edge of a concrete execution, between skeleton event indices.
struct RelationEdge {
    int from = -1, to = -1;
    std::string relation;  // po, pf, a chosen relation (choices.hpp); or a clock member as the model file writes it
    int clock = -1;        // for clock edges: the plan clock it constrains
};

// The execution's relations as herd7 draws them: po (immediate), rf, mo
// (immediate, from the first non-initial write on), rb (to the mo-successor of
// the source), pf, nfo and the group orders (immediate, in registry order). Initial
// writes take part in rf and rb.
std::vector<RelationEdge> executionEdges(const ExecutionGraph& ex);

// Every edge of every clock member of the model's plan, initial writes'
// included (a model in herd7's terms may order an event before one).
std::vector<RelationEdge> clockEdges(const ExecutionGraph& ex, const Model& model);

}  // namespace rdmacheck

#include "rdmacheck/relation_walker.ipp"
