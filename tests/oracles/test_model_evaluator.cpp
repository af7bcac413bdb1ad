// The Z3 compilation of model-language variants and of the shipped models
// against an independent evaluator of model expressions on Boolean matrices.
#include <gtest/gtest.h>

#include <set>

#include "../test_support.hpp"
#include "brute_force.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {
namespace {

using testing::modelsDir;
using namespace oracles;

// ---- An independent evaluator of model expressions on brute_force.hpp's relations.

class ModelEvaluator {
public:
    ModelEvaluator(const Model& m, const ExecutionGraph& ex) : m_(m), ex_(ex), n_(ex.events.size()) {}

    bool consistent() const {
        for (const Axiom& a : m_.axioms) {
            const Relation r = rel(a.expr);
            if (a.kind == Axiom::Kind::Empty && !r.empty()) return false;
            if (a.kind == Axiom::Kind::Irreflexive && !r.irreflexive()) return false;
            if (a.kind == Axiom::Kind::Acyclic && !r.closure().irreflexive()) return false;
        }
        return true;
    }

private:
    bool inBaseOrStampSet(const std::string& name, const Event& ev) const {
        if (const BaseSet* b = findBaseSet(name)) return b->contains(ev);
        auto st = m_.stampOf.find(kindName(ev.kind));
        return ev.thread >= 0 && st != m_.stampOf.end() && st->second == name;
    }

    EventSet set(const ModelExpr& e) const {
        if (e.op == ModelExpr::Op::Name) {
            if (const Definition* d = m_.definition(e.name)) return set(d->expr);
            EventSet s = 0;
            for (size_t i = 0; i < n_; ++i)
                if (inBaseOrStampSet(e.name, ex_.events[i])) s |= single(i);
            return s;
        }
        const EventSet a = set(e.args[0]), b = set(e.args[1]);
        return e.op == ModelExpr::Op::Union ? a | b : e.op == ModelExpr::Op::Inter ? a & b : a & ~b;
    }

    // An order table: the pairs of po its cells order, between calls only if it says so.
    Relation table(const OrderTable& t) const {
        Relation r(n_);
        for (const auto& events : ex_.threadEvents)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    const Event& a = ex_.events[events[i]];
                    const Event& b = ex_.events[events[j]];
                    const Cell c = t.at(a.kind, b.kind);
                    if (!(t.betweenCallsOnly && a.call == b.call) &&
                        (c == Cell::Ordered || (c == Cell::SameQueuePair && sameQueuePair(a, b))))
                        r.add(events[i], events[j]);
                }
        return r;
    }

    // What the execution chose, read off its fields; the other base relations from the catalogue.
    Relation chosen(const std::string& name) const {
        Relation r(n_);
        if (name == "rf") {
            for (size_t i = 0; i < n_; ++i)
                if (ex_.rf[i] >= 0) r.add(ex_.rf[i], i);
        } else if (name == "mo" || name == "rb") {
            for (const auto& order : ex_.mo) addTotalOrder(r, order);
            if (name == "rb") {  // rf^-1 ; mo, minus identity
                Relation rb(n_);
                for (size_t x = 0; x < n_; ++x)
                    for (size_t w = 0; ex_.rf[x] >= 0 && w < n_; ++w)
                        if (x != w && r.has(ex_.rf[x], w)) rb.add(x, w);
                return rb;
            }
        } else if (name == "nfo") {
            for (auto [a, b] : ex_.nfo) r.add(a, b);
        } else if (const ChosenRelation* c = findChosenRelation(name); c && c->kind == ChoiceKind::GroupOrder) {
            for (const auto& [group, order] : ex_.orderOf(name)) addTotalOrder(r, order);
        } else {
            for (auto [a, b] : findBaseRelation(name)->pairs(ex_)) r.add(a, b);
        }
        return r;
    }

    Relation base(const std::string& name) const {
        if (const Definition* d = m_.definition(name))
            return d->type == ExprType::Relation ? rel(d->expr) : Relation::identity(n_, set(d->expr));
        if (m_.tables.count(name)) return table(m_.tables.at(name));
        return chosen(name);
    }

    Relation rel(const ModelExpr& e) const {
        using Op = ModelExpr::Op;
        switch (e.op) {
            case Op::Name: return base(e.name);
            case Op::Empty: return Relation(n_);
            case Op::Filter: return Relation::identity(n_, set(e.args[0]));
            case Op::Product: return Relation::product(n_, set(e.args[0]), set(e.args[1]));
            case Op::Scope: {
                EventSet in = 0;
                for (size_t i = 0; i < n_; ++i)
                    if (libraryName(ex_.events[i].library) == e.name) in |= single(i);
                return rel(e.args[0]).within(in);
            }
            case Op::Inverse: return rel(e.args[0]).inverse();
            case Op::Plus: return rel(e.args[0]).closure();
            case Op::Star: return rel(e.args[0]).closure().reflexive();
            case Op::Opt: return rel(e.args[0]).reflexive();
            default: break;
        }
        const Relation a = rel(e.args[0]), b = rel(e.args[1]);
        switch (e.op) {
            case Op::Union: return a | b;
            case Op::Inter: return a & b;
            case Op::Diff: return a - b;
            default: return a.then(b);
        }
    }

    const Model& m_;
    const ExecutionGraph& ex_;
    size_t n_;
};

// Whether some choice of nfo directions and group orders makes one (rf, mo)
// candidate consistent.
bool someChoiceConsistent(const Model& model, const ExecutionGraph& ex) {
    std::vector<std::pair<std::string, int>> groupKeys;  // (chosen order, group)
    std::vector<std::vector<int>> groups;
    for (const auto& [name, orders] : ex.orders)
        for (const auto& [group, order] : orders) {
            groupKeys.emplace_back(name, group);
            groups.push_back(order);
        }
    ExecutionGraph v = ex;
    auto withNfo = [&](const Relation& nfo) {
        v.nfo.clear();
        for (size_t a = 0; a < nfo.size(); ++a)
            for (size_t b = 0; b < nfo.size(); ++b)
                if (nfo.has(a, b)) v.nfo.emplace_back(a, b);
        return someTotalOrders(groups, [&](const std::vector<std::vector<int>>& orders) {
            for (size_t g = 0; g < orders.size(); ++g) v.orders[groupKeys[g].first][groupKeys[g].second] = orders[g];
            return ModelEvaluator(model, v).consistent();
        });
    };
    return someOrientation(ex.nfo, withNfo, ex.events.size());
}

using Key = std::pair<std::vector<int>, std::vector<std::vector<int>>>;  // rf, mo

// The (rf, mo) of every consistent execution: by the Z3 encoding, and by the
// evaluator over every well-formed candidate and every choice of nfo and group orders.
void expectEncodingMatchesEvaluator(const Model& model, const LitmusTest& test) {
    const UnfoldedProgram program = unfold(test, UnfoldOptions{});
    SolverContext ctx;
    std::vector<size_t> choice(program.paths.size(), 0);
    for (bool more = program.skeletonCount() > 0; more; more = program.nextChoice(choice)) {
        const ExecutionGraph sk = program.skeleton(choice);
        std::set<Key> encoded, evaluated;
        ExecutionEncoding consistent(ctx, sk, model, program.locations.size());
        // The depth-first enumeration finds each (rf, mo) once.
        while (consistent.next())
            ASSERT_TRUE(encoded.insert({consistent.current().rf, consistent.current().mo}).second) << test.name;
        std::set<Key> candidateKeys;
        ExecutionEncoding candidates(ctx, sk, model, program.locations.size(), ExecutionEncoding::Mode::WellFormed);
        while (candidates.next()) {
            const ExecutionGraph ex = candidates.current();
            ASSERT_TRUE(candidateKeys.insert({ex.rf, ex.mo}).second) << test.name;
            ASSERT_LE(ex.events.size(), kMaxEvents) << test.name;
            if (someChoiceConsistent(model, ex)) evaluated.insert({ex.rf, ex.mo});
        }
        ASSERT_EQ(encoded, evaluated) << test.name << " under a variant of " << model.name;
    }
}

// Variants beyond a table cell: composed relations, inverses, closures,
// products, set operations, irreflexive and empty axioms, library scopes.
const char* const kVariants[] = {
    // rdma-tso without the tie: three independent axioms, the mixed one general.
    ("table ippo = \"rdma-tso.ippo\"\ntable oppo = \"rdma-tso.oppo\"\ninclude \"_buffers.cat\"\n"
     "let ib = (ippo | rf | pf | nfo | rb-i)+\nlet ob = (oppo | rf-e | [nlW];pf | nfo | rb | mo)+\n"
     "irreflexive ib as ib\nacyclic ob as ob\nempty ([Inst];ib;ob) & id as mixed\n"),
    // coherence written herd's way, with rb as rf^-1;mo \\ id, plus atomicity.
    ("let fr = (rf^-1;mo) \\ id\nacyclic po & loc | rf | fr | mo as uniproc\n"
     "empty (rb & int & (R * W)) \\ po^-1 as weird\nirreflexive (po;rf)+ as porf\n"),
    // sc over CPU and NIC writes only, a set difference and a product.
    "let Wn = W \\ (lW | IW)\nacyclic po | rf | rb | mo | (Wn * lR) & po as sc-ish\n",
    // optional and star closures, an inverse in a sequence.
    "let hb = po | rf\nirreflexive hb+;rb? as hb-rb\nempty (rf;po^-1) & loc \\ hb* as no-future\n",
    // a closure the axiom needs exactly (right of '\\'): an upper bound there would allow every rb.
    "acyclic po | rf | mo as base\nempty rb \\ (po | rf)+ as rb-along-porf\n",
};

TEST(ModelLanguage, EncodingAgreesWithAnIndependentEvaluatorOnVariants) {
    GeneratorOptions options;
    options.maxLength = 3;
    int checked = 0;
    for (const char* text : kVariants) {
        const Model model = parseModel(text, modelsDir() + "/variant.cat", modelsDir());
        for (uint64_t seed = 1; seed <= 25; ++seed) {
            const LitmusTest test = parseLitmus(generateLitmus(seed, options), "random.litmus");
            try {
                unfoldFor(test, model, UnfoldOptions{}.unroll);
            } catch (const InputError&) {
                continue;
            }
            SCOPED_TRACE(std::string(text) + "\n" + generateLitmus(seed, options));
            expectEncodingMatchesEvaluator(model, test);
            ++checked;
        }
    }
    EXPECT_GT(checked, 60);
}

// The shipped models too (their clocks, ties and mo read off a clock).
TEST(ModelLanguage, EncodingAgreesWithAnIndependentEvaluatorOnShippedModels) {
    GeneratorOptions options;
    options.maxLength = 3;
    for (const char* name : {"rdma-tso", "rdma-tso-nopcie", "tso", "sc"}) {
        const Model model = loadModel(modelsDir(), name);
        for (uint64_t seed = 100; seed <= 115; ++seed) {
            const LitmusTest test = parseLitmus(generateLitmus(seed, options), "random.litmus");
            try {
                unfoldFor(test, model, UnfoldOptions{}.unroll);
            } catch (const InputError&) {
                continue;
            }
            SCOPED_TRACE(std::string(name) + "\n" + generateLitmus(seed, options));
            expectEncodingMatchesEvaluator(model, test);
        }
    }
}

}  // namespace
}  // namespace rdmacheck
