#include "flags.hpp"

namespace rdmacheck {

namespace {

bool isFlag(const Value& v) { return v.is(Operator::Eq) || v.is(Operator::Gt); }

}  // namespace

Value foldedFlag(Value v) {
    if (!isFlag(v) || v.args[0].kind != Value::Kind::Const || v.args[1].kind != Value::Kind::Const) return v;
    return Value::of(v.eval({}));
}

void testFlagDirectly(Value& lhs, Comparison& op, Value& rhs) {
    if (!isFlag(lhs) || rhs.kind != Value::Kind::Const || (rhs.constant != 0 && rhs.constant != 1)) return;
    if (op != Comparison::Eq && op != Comparison::Ne) return;
    const bool set = (op == Comparison::Eq) == (rhs.constant == 1);  // the test holds when the flag is 1
    const Comparison kept = lhs.op == Operator::Eq ? Comparison::Eq : Comparison::Gt;
    op = set ? kept : negated(kept);
    Value a = std::move(lhs.args[0]), b = std::move(lhs.args[1]);
    lhs = std::move(a);
    rhs = std::move(b);
}

Value operandValue(const Expr& e, Value v) {
    if (e.kind != Expr::Kind::Register || v.kind != Value::Kind::Const || v.constant != 0) return v;
    return Value::operation(Operator::Add, {std::move(v), Value::of(0)});
}

}  // namespace rdmacheck
