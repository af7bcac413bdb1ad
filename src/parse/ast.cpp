#include "rdmacheck/ast.hpp"

namespace rdmacheck {

Expr Expr::constant(long long v, SourceLoc w) {
    Expr e;
    e.kind = Kind::Const;
    e.value = v;
    e.where = std::move(w);
    return e;
}

}  // namespace rdmacheck
