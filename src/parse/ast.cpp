#include <algorithm>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

Expr Expr::constant(long long v, SourceLoc w) {
    Expr e;
    e.kind = Kind::Const;
    e.value = v;
    e.where = std::move(w);
    return e;
}

static void collectLocations(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == Expr::Kind::Location) {
        if (std::find(out.begin(), out.end(), e.name) == out.end()) out.push_back(e.name);
    }
    for (const Expr& a : e.args) collectLocations(a, out);
}

std::vector<std::string> Expr::locations() const {
    std::vector<std::string> out;
    collectLocations(*this, out);
    return out;
}

}  // namespace rdmacheck
