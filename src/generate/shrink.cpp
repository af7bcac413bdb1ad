#include "rdmacheck/shrink.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

namespace {

// The reductions of a test, numbered in a fixed walk order (biggest cuts first);
// apply() performs reduction number `index`. Every reduction makes the test strictly
// smaller (fewer parts, or constants closer to 0 and 1), so shrinking cannot cycle.
class Reduction {
public:
    explicit Reduction(size_t index) : left_(index) {}

    // False when the test has at most `index` reductions.
    bool apply(LitmusTest& t) {
        if (t.threads.size() > 1)
            for (size_t i = 0; i < t.threads.size(); ++i)
                if (chosen()) return erase(t.threads, i);
        if (!t.shown.empty() && chosen()) {
            t.shown.clear();
            return true;
        }
        if (t.filter && chosen()) {
            t.filter.reset();
            return true;
        }
        if ((t.quantifier != Quantifier::Exists || t.condition.kind != Cond::Kind::True) && chosen()) {
            t.quantifier = Quantifier::Exists;
            t.condition = Cond{};
            return true;
        }
        for (ThreadDecl& thread : t.threads)
            if (block(thread.body)) return true;
        if (cond(t.condition) || (t.filter && cond(*t.filter))) return true;
        const std::set<std::string> used = usedNames(t);
        for (size_t i = 0; i < t.locations.size(); ++i) {
            if (!used.count(t.locations[i].name) && chosen()) return erase(t.locations, i);
            if (t.locations[i].init != 0 && chosen()) {
                t.locations[i].init = 0;
                return true;
            }
        }
        return false;
    }

private:
    bool chosen() { return left_-- == 0; }

    template <class T>
    static bool erase(std::vector<T>& v, size_t i) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
    }

    static std::vector<Block*> subBlocks(Stmt& s) {
        std::vector<Block*> blocks;
        if (s.kind == Stmt::Kind::If) blocks = {&s.body, &s.orelse};
        if (s.kind == Stmt::Kind::Loop || s.kind == Stmt::Kind::While) blocks = {&s.body};
        if (s.kind == Stmt::Kind::Choice)
            for (Block& b : s.branches) blocks.push_back(&b);
        return blocks;
    }

    bool block(Block& b) {
        for (size_t i = 0; i < b.size(); ++i) {
            if (chosen()) return erase(b, i);
            for (Block* sub : subBlocks(b[i])) {
                if (!sub->empty() && chosen()) {  // an empty body is the same as removing the statement
                    Block body = *sub;
                    b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
                    b.insert(b.begin() + static_cast<std::ptrdiff_t>(i), body.begin(), body.end());
                    return true;
                }
            }
            Stmt& s = b[i];
            if (s.kind == Stmt::Kind::Choice && s.branches.size() > 1)
                for (size_t k = 0; k < s.branches.size(); ++k)
                    if (chosen()) return erase(s.branches, k);
            if (statementParts(s)) return true;
            for (Block* sub : subBlocks(s))
                if (block(*sub)) return true;
        }
        return false;
    }

    bool statementParts(Stmt& s) {
        switch (s.kind) {
            case Stmt::Kind::Assign: return expr(s.expr);
            case Stmt::Kind::Cas: return expr(s.expr) || expr(s.expr2);
            case Stmt::Kind::Get: return workId(s);
            case Stmt::Kind::Put:
                if (workId(s)) return true;
                if (s.sourceIsConst) return constant(s.constant);
                for (long long v : {0, 1}) {
                    if (chosen()) {
                        s.sourceIsConst = true;
                        s.constant = v;
                        s.source = LocRef{};
                        return true;
                    }
                }
                return false;
            case Stmt::Kind::RCas:
            case Stmt::Kind::RFaa:
                if (workId(s)) return true;
                if (s.source.name != "_" && chosen()) {  // discard the old value: one location less
                    s.source.name = "_";
                    return true;
                }
                return constant(s.expr.value) || (s.kind == Stmt::Kind::RCas && constant(s.expr2.value));
            case Stmt::Kind::Assume:
            case Stmt::Kind::If:
            case Stmt::Kind::While:
                return (s.expr.kind == Expr::Kind::Const && constant(s.expr.value)) ||
                       (s.expr2.kind == Expr::Kind::Const && constant(s.expr2.value));
            case Stmt::Kind::GFence: return nodeSet(s.nodes);
            case Stmt::Kind::Call: return callArguments(s);
            default: return false;
        }
    }

    // A put, get or RMW with a work identifier: without one (a fresh identifier nothing
    // waits for). A wait is only ever removed.
    bool workId(Stmt& s) {
        if (s.workId.empty() || !chosen()) return false;
        s.workId.clear();
        return true;
    }

    // One node fewer, keeping at least one.
    bool nodeSet(std::vector<int>& nodes) {
        if (nodes.size() > 1)
            for (size_t k = 0; k < nodes.size(); ++k)
                if (chosen()) return erase(nodes, k);
        return false;
    }

    // Library calls (SV): the work identifier of a broadcast becomes `_`, a node set loses a
    // node, a written value (a constant or a local location) goes towards 0 and 1. The first
    // argument of read, write and bcast names the variable, and sv.wait's identifier is only
    // ever removed with the call. A candidate that breaks a signature fails in unfold and is skipped.
    bool callArguments(Stmt& s) {
        for (size_t i = 0; i < s.args.size(); ++i) {
            CallArg& a = s.args[i];
            if (a.isNodeSet) {
                if (nodeSet(a.nodes)) return true;
            } else if (s.method == "bcast" && i == 1) {
                if (a.expr.name != "_" && chosen()) {
                    a.expr = Expr{};
                    a.expr.kind = Expr::Kind::Location;
                    a.expr.name = "_";
                    return true;
                }
            } else if (s.method == "write" && i == 1) {
                if (expr(a.expr)) return true;
            }
        }
        return false;
    }

    // Towards 0 and 1 only, never away from them.
    bool constant(long long& v) {
        if (v != 0 && chosen()) {
            v = 0;
            return true;
        }
        if (v != 0 && v != 1 && chosen()) {
            v = 1;
            return true;
        }
        return false;
    }

    bool expr(Expr& e) {
        if (e.kind == Expr::Kind::Const) return constant(e.value);
        for (long long v : {0, 1}) {
            if (chosen()) {
                e = Expr::constant(v, e.where);
                return true;
            }
        }
        for (size_t k = 0; k < e.args.size(); ++k) {
            if (chosen()) {
                Expr operand = e.args[k];
                e = std::move(operand);
                return true;
            }
        }
        for (Expr& a : e.args)
            if (expr(a)) return true;
        return false;
    }

    bool cond(Cond& c) {
        if (c.kind == Cond::Kind::Atom) return constant(c.value);
        for (size_t k = 0; k < c.args.size(); ++k) {
            if (chosen()) {
                Cond operand = c.args[k];
                c = std::move(operand);
                return true;
            }
        }
        if (c.args.size() > 2)  // a chain keeps at least two operands
            for (size_t k = 0; k < c.args.size(); ++k)
                if (chosen()) return erase(c.args, k);
        for (Cond& a : c.args)
            if (cond(a)) return true;
        return false;
    }

    static void exprNames(const Expr& e, std::set<std::string>& names) {
        if (e.kind == Expr::Kind::Location) names.insert(e.name);
        for (const Expr& a : e.args) exprNames(a, names);
    }

    static void blockNames(const Block& b, std::set<std::string>& names) {
        for (const Stmt& s : b) {
            names.insert(s.target.name);
            names.insert(s.source.name);
            names.insert(s.result);
            exprNames(s.expr, names);
            exprNames(s.expr2, names);
            for (const CallArg& a : s.args) exprNames(a.expr, names);  // shared variables, local operands
            blockNames(s.body, names);
            blockNames(s.orelse, names);
            for (const Block& branch : s.branches) blockNames(branch, names);
        }
    }

    // `x@2` names the copy of shared variable x: it uses x's declaration.
    static void condNames(const Cond& c, std::set<std::string>& names) {
        if (c.kind == Cond::Kind::Atom) names.insert(c.loc.substr(0, c.loc.find('@')));
        for (const Cond& a : c.args) condNames(a, names);
    }

    // Every location name the threads, the condition, the filter or `locations [...]` mention.
    static std::set<std::string> usedNames(const LitmusTest& t) {
        std::set<std::string> names;
        for (const ThreadDecl& thread : t.threads) blockNames(thread.body, names);
        condNames(t.condition, names);
        if (t.filter) condNames(*t.filter, names);
        for (const ObservedName& n : t.shown) names.insert(n.name.substr(0, n.name.find('@')));
        return names;
    }

    size_t left_;
};

LitmusTest reparse(const LitmusTest& t) { return parseLitmus(printLitmus(t), t.file); }

}  // namespace

LitmusTest shrink(const LitmusTest& failing, const std::function<bool(const LitmusTest&)>& stillFails,
                  int maxSteps) {
    LitmusTest current = reparse(failing);
    if (!stillFails(current)) throw std::invalid_argument("shrink: the test does not have the property to keep");
    int steps = 1;
    // Passes over the numbered reductions until one pass keeps none. After a kept
    // reduction the same number names the next candidate of the smaller test.
    for (bool changed = true; changed && steps < maxSteps;) {
        changed = false;
        for (size_t index = 0; steps < maxSteps;) {
            LitmusTest candidate = current;
            if (!Reduction(index).apply(candidate)) break;
            std::optional<LitmusTest> reparsed;
            try {
                reparsed = reparse(candidate);
                unfold(*reparsed, UnfoldOptions{});
                ++steps;
                if (!stillFails(*reparsed)) reparsed.reset();
            } catch (const InputError&) {
                reparsed.reset();
            }
            if (reparsed) {
                current = std::move(*reparsed);
                changed = true;
            } else {
                ++index;
            }
        }
    }
    return current;
}

}  // namespace rdmacheck
