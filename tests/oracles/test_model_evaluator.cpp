// The Z3 compilation of model-language variants and of the shipped models
// against an independent evaluator of model expressions on Boolean matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "../test_support.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {
namespace {

using testing::modelsDir;

// ---- An independent evaluator: dense boolean matrices, Warshall closures.

using Matrix = std::vector<std::vector<bool>>;

class MatrixEvaluator {
public:
    MatrixEvaluator(const Model& m, const ExecutionGraph& ex)
        : m_(m), ex_(ex), n_(ex.events.size()) {}

    bool consistent() {
        for (const Axiom& a : m_.axioms) {
            const Matrix r = rel(a.expr);
            if (a.kind == Axiom::Kind::Empty && any(r)) return false;
            if (a.kind == Axiom::Kind::Irreflexive && anyDiagonal(r)) return false;
            if (a.kind == Axiom::Kind::Acyclic && anyDiagonal(plus(r))) return false;
        }
        return true;
    }

private:
    Matrix empty() const { return Matrix(n_, std::vector<bool>(n_, false)); }
    static bool any(const Matrix& r) {
        return std::any_of(r.begin(), r.end(), [](const auto& row) { return std::find(row.begin(), row.end(), true) != row.end(); });
    }
    bool anyDiagonal(const Matrix& r) const {
        for (size_t i = 0; i < n_; ++i)
            if (r[i][i]) return true;
        return false;
    }
    Matrix plus(Matrix r) const {  // Warshall
        for (size_t k = 0; k < n_; ++k)
            for (size_t i = 0; i < n_; ++i)
                for (size_t j = 0; r[i][k] && j < n_; ++j)
                    if (r[k][j]) r[i][j] = true;
        return r;
    }

    std::vector<bool> set(const ModelExpr& e) const {
        if (e.op == ModelExpr::Op::Name) {
            if (const Definition* d = m_.definition(e.name)) return set(d->expr);
            std::vector<bool> s(n_);
            for (size_t i = 0; i < n_; ++i) {
                const Event& ev = ex_.events[i];
                if (const BaseSet* b = findBaseSet(e.name)) {
                    s[i] = b->contains(ev);
                } else {
                    auto st = m_.stampOf.find(kindName(ev.kind));
                    s[i] = ev.thread >= 0 && st != m_.stampOf.end() && st->second == e.name;
                }
            }
            return s;
        }
        const auto a = set(e.args[0]), b = set(e.args[1]);
        std::vector<bool> s(n_);
        for (size_t i = 0; i < n_; ++i)
            s[i] = e.op == ModelExpr::Op::Union ? a[i] || b[i] : e.op == ModelExpr::Op::Inter ? a[i] && b[i] : a[i] && !b[i];
        return s;
    }

    Matrix base(const std::string& name) const {
        Matrix r = empty();
        if (const Definition* d = m_.definition(name)) {
            if (d->type == ExprType::Relation) return rel(d->expr);
            const auto s = set(d->expr);
            for (size_t i = 0; i < n_; ++i) r[i][i] = s[i];
            return r;
        }
        if (m_.tables.count(name)) {
            const OrderTable& t = m_.tables.at(name);
            for (const auto& events : ex_.threadEvents)
                for (size_t i = 0; i < events.size(); ++i)
                    for (size_t j = i + 1; j < events.size(); ++j) {
                        const Event& a = ex_.events[events[i]];
                        const Event& b = ex_.events[events[j]];
                        const Cell c = t.at(a.kind, b.kind);
                        r[events[i]][events[j]] = !(t.betweenCallsOnly && a.call == b.call) &&
                                                  (c == Cell::Ordered || (c == Cell::SameQueuePair && sameQueuePair(a, b)));
                    }
            return r;
        }
        if (name == "rf") {
            for (size_t i = 0; i < n_; ++i)
                if (ex_.rf[i] >= 0) r[ex_.rf[i]][i] = true;
        } else if (name == "mo" || name == "rb") {
            for (const auto& order : ex_.mo)
                for (size_t i = 0; i < order.size(); ++i)
                    for (size_t j = i + 1; j < order.size(); ++j) r[order[i]][order[j]] = true;
            if (name == "rb") {  // rf^-1 ; mo, minus identity
                Matrix rb = empty();
                for (size_t x = 0; x < n_; ++x)
                    for (size_t w = 0; ex_.rf[x] >= 0 && w < n_; ++w) rb[x][w] = x != w && r[ex_.rf[x]][w];
                return rb;
            }
        } else if (name == "nfo") {
            for (auto [a, b] : ex_.nfo) r[a][b] = true;
        } else if (name == "rao") {
            for (const auto& [node, order] : ex_.rao)
                for (size_t i = 0; i < order.size(); ++i)
                    for (size_t j = i + 1; j < order.size(); ++j) r[order[i]][order[j]] = true;
        } else {
            for (auto [a, b] : findBaseRelation(name)->pairs(ex_)) r[a][b] = true;
        }
        return r;
    }

    Matrix rel(const ModelExpr& e) const {
        using Op = ModelExpr::Op;
        Matrix r = empty();
        auto cell = [&](auto f) {
            for (size_t i = 0; i < n_; ++i)
                for (size_t j = 0; j < n_; ++j) r[i][j] = f(i, j);
            return r;
        };
        switch (e.op) {
            case Op::Name: return base(e.name);
            case Op::Empty: return r;
            case Op::Filter: {
                const auto s = set(e.args[0]);
                return cell([&](size_t i, size_t j) { return i == j && s[i]; });
            }
            case Op::Product: {
                const auto a = set(e.args[0]), b = set(e.args[1]);
                return cell([&](size_t i, size_t j) { return a[i] && b[j]; });
            }
            case Op::Scope: {
                const Matrix a = rel(e.args[0]);
                auto in = [&](size_t i) { return libraryName(ex_.events[i].library) == e.name; };
                return cell([&](size_t i, size_t j) { return a[i][j] && in(i) && in(j); });
            }
            case Op::Inverse: {
                const Matrix a = rel(e.args[0]);
                return cell([&](size_t i, size_t j) { return a[j][i]; });
            }
            case Op::Plus: return plus(rel(e.args[0]));
            case Op::Star:
            case Op::Opt: {
                const Matrix a = e.op == Op::Star ? plus(rel(e.args[0])) : rel(e.args[0]);
                return cell([&](size_t i, size_t j) { return i == j || a[i][j]; });
            }
            default: break;
        }
        const Matrix a = rel(e.args[0]), b = rel(e.args[1]);
        return cell([&](size_t i, size_t j) {
            switch (e.op) {
                case Op::Union: return a[i][j] || b[i][j];
                case Op::Inter: return a[i][j] && b[i][j];
                case Op::Diff: return a[i][j] && !b[i][j];
                default:
                    for (size_t k = 0; k < n_; ++k)
                        if (a[i][k] && b[k][j]) return true;
                    return false;
            }
        });
    }

    const Model& m_;
    const ExecutionGraph& ex_;
    size_t n_;
};

// Every choice of nfo directions and rao orders for one (rf, mo) candidate.
std::vector<ExecutionGraph> choiceVariants(const ExecutionGraph& ex) {
    std::vector<ExecutionGraph> out{ex};
    for (size_t i = 0; i < ex.nfo.size(); ++i) {
        const size_t count = out.size();
        for (size_t k = 0; k < count; ++k) {
            ExecutionGraph flipped = out[k];
            std::swap(flipped.nfo[i].first, flipped.nfo[i].second);
            out.push_back(std::move(flipped));
        }
    }
    for (const auto& [node, order] : ex.rao) {
        std::vector<ExecutionGraph> next;
        std::vector<int> perm = order;
        std::sort(perm.begin(), perm.end());
        do {
            for (ExecutionGraph v : out) {
                v.rao[node] = perm;
                next.push_back(std::move(v));
            }
        } while (std::next_permutation(perm.begin(), perm.end()));
        out = std::move(next);
    }
    return out;
}

using Key = std::pair<std::vector<int>, std::vector<std::vector<int>>>;  // rf, mo

// The (rf, mo) of every consistent execution: by the Z3 encoding, and by the
// evaluator over every well-formed candidate and every choice of nfo and rao.
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
            for (const ExecutionGraph& v : choiceVariants(ex))
                if (MatrixEvaluator(model, v).consistent()) {
                    evaluated.insert({ex.rf, ex.mo});
                    break;
                }
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
