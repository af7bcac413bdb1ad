// Helpers shared by the printer, generator and shrinker tests (test_print.cpp,
// test_generate.cpp, test_shrink.cpp).
#pragma once

#include <algorithm>
#include <cstddef>

#include "../test_support.hpp"
#include "rdmacheck/print.hpp"

namespace rdmacheck::testing {

// Structural equality, source positions aside.
inline bool same(const Expr& a, const Expr& b) {
    if (a.kind != b.kind || a.value != b.value || a.name != b.name || a.remoteNode != b.remoteNode ||
        a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same(a.args[i], b.args[i])) return false;
    return true;
}

inline bool same(const LocRef& a, const LocRef& b) { return a.name == b.name && a.node == b.node; }

inline bool same(const Block& a, const Block& b);

inline bool same(const Stmt& a, const Stmt& b) {
    if (a.kind != b.kind || !same(a.target, b.target) || !same(a.source, b.source) ||
        a.sourceIsConst != b.sourceIsConst || a.constant != b.constant || !same(a.expr, b.expr) ||
        !same(a.expr2, b.expr2) || a.result != b.result || a.node != b.node || a.compare != b.compare ||
        !same(a.body, b.body) || !same(a.orelse, b.orelse) ||
        a.branches.size() != b.branches.size() || a.workId != b.workId || a.nodes != b.nodes ||
        a.library != b.library || a.method != b.method || a.hasResult != b.hasResult || a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.branches.size(); ++i)
        if (!same(a.branches[i], b.branches[i])) return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (a.args[i].isNodeSet != b.args[i].isNodeSet || a.args[i].nodes != b.args[i].nodes ||
            !same(a.args[i].expr, b.args[i].expr))
            return false;
    return true;
}

inline bool same(const Block& a, const Block& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

inline bool same(const Cond& a, const Cond& b) {
    if (a.kind != b.kind || a.loc != b.loc || a.thread != b.thread || a.equal != b.equal || a.value != b.value ||
        a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same(a.args[i], b.args[i])) return false;
    return true;
}

inline bool same(const LitmusTest& a, const LitmusTest& b) {
    if (a.arch != b.arch || a.name != b.name || a.description != b.description ||
        a.locations.size() != b.locations.size() || a.threads.size() != b.threads.size() ||
        a.shown.size() != b.shown.size() || a.filter.has_value() != b.filter.has_value() ||
        a.quantifier != b.quantifier || !same(a.condition, b.condition))
        return false;
    for (size_t i = 0; i < a.locations.size(); ++i)
        if (a.locations[i].name != b.locations[i].name || a.locations[i].node != b.locations[i].node ||
            a.locations[i].init != b.locations[i].init || a.locations[i].shared != b.locations[i].shared)
            return false;
    for (size_t i = 0; i < a.threads.size(); ++i)
        if (a.threads[i].name != b.threads[i].name || a.threads[i].node != b.threads[i].node ||
            !same(a.threads[i].body, b.threads[i].body))
            return false;
    for (size_t i = 0; i < a.shown.size(); ++i)
        if (a.shown[i].name != b.shown[i].name || a.shown[i].thread != b.shown[i].thread) return false;
    return !a.filter || same(*a.filter, *b.filter);
}

inline LitmusTest reparse(const LitmusTest& t) { return parseLitmus(printLitmus(t), "printed.litmus"); }

inline const Model& rdmaTso() {
    static const Model model = loadModel(modelsDir(), "rdma-tso");
    return model;
}

inline CheckResult checkRdmaTso(const LitmusTest& t) { return check(t, rdmaTso(), CheckOptions{}); }

inline bool isRemoteRmw(const Stmt& s) { return s.kind == Stmt::Kind::RCas || s.kind == Stmt::Kind::RFaa; }

inline size_t remoteRmwCount(const LitmusTest& t) {
    size_t n = 0;
    for (const ThreadDecl& thread : t.threads)
        n += static_cast<size_t>(std::count_if(thread.body.begin(), thread.body.end(), isRemoteRmw));
    return n;
}

}  // namespace rdmacheck::testing
