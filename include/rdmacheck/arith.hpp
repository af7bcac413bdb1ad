// 64-bit arithmetic that stops instead of wrapping. The solver computes with
// unbounded integers and the evaluators (final states, the machines) with
// 64-bit ones; so that they can never disagree, a value that leaves the 64-bit
// range is an error in both, never a silently different number.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace rdmacheck {

// Thrown by the checked operations; callers that know the statement turn it
// into an InputError at its position.
class ArithmeticOverflow : public std::overflow_error {
public:
    using std::overflow_error::overflow_error;
};

namespace arith {

[[noreturn]] inline void overflow(long long a, const char* op, long long b) {
    throw ArithmeticOverflow("arithmetic overflow: " + std::to_string(a) + " " + op + " " + std::to_string(b) +
                             " does not fit in 64 bits");
}

// herd7's X86 values are 32-bit and wrap (herd/X86Sem.ml works on Int32): v
// into [-2^31, 2^31). The engines wrap an X86 test's sums, differences,
// products and negations so (src/unfold/wrap32.hpp).
inline long long wrap32(long long v) {
    const long long span = 1LL << 32, half = 1LL << 31;
    const long long m = ((v % span) + span) % span;
    return m >= half ? m - span : m;
}

inline long long add(long long a, long long b) {
    long long r;
    if (__builtin_add_overflow(a, b, &r)) overflow(a, "+", b);
    return r;
}

inline long long sub(long long a, long long b) {
    long long r;
    if (__builtin_sub_overflow(a, b, &r)) overflow(a, "-", b);
    return r;
}

inline long long mul(long long a, long long b) {
    long long r;
    if (__builtin_mul_overflow(a, b, &r)) overflow(a, "*", b);
    return r;
}

inline long long neg(long long a) { return sub(0, a); }

// Bitwise on the two's complement: never out of range.
inline long long bitXor(long long a, long long b) { return a ^ b; }
inline long long bitOr(long long a, long long b) { return a | b; }

// a % k for k > 0 (the parser takes only such divisors) in 0..k-1, also for a
// negative a: Euclidean, as the solver's mod.
inline long long mod(long long a, long long k) {
    const long long r = a % k;
    return r < 0 ? r + k : r;
}

}  // namespace arith

// The operators of every expression rdmacheck computes: the litmus text's
// (Expr), the events' values (Value) and the machines' (CompiledExpr). Mod: by
// a constant > 0; Xor, Or: bitwise on 64 bits (X86's XOR and OR; RDMA's `^`
// names a node); Eq, Gt: 1 when the first operand equals (is greater than) the
// second, else 0 (X86's flags); Neg: of the first operand alone.
enum class Operator { Add, Sub, Mul, Mod, Neg, Xor, Or, Eq, Gt };

namespace arith {

inline long long apply(Operator op, long long a, long long b) {
    switch (op) {
        case Operator::Add: return add(a, b);
        case Operator::Sub: return sub(a, b);
        case Operator::Mul: return mul(a, b);
        case Operator::Mod: return mod(a, b);
        case Operator::Neg: return neg(a);
        case Operator::Xor: return bitXor(a, b);
        case Operator::Or: return bitOr(a, b);
        case Operator::Eq: return a == b ? 1 : 0;
        case Operator::Gt: return a > b ? 1 : 0;
    }
    return 0;
}

inline bool isUnary(Operator op) { return op == Operator::Neg; }

// `node` (an Operation of Value or CompiledExpr) evaluated, `evalArg` evaluating an operand.
template <class Node, class EvalArg>
long long evaluate(const Node& node, const EvalArg& evalArg) {
    const long long a = evalArg(node.args[0]);
    return apply(node.op, a, isUnary(node.op) ? 0 : evalArg(node.args[1]));
}

// A node of any of the expression types (Expr, Value, CompiledExpr) applying
// `op` to `args`: each type's operation() is this.
template <class Node>
Node operationNode(Operator op, std::vector<Node> args) {
    Node node;
    node.kind = Node::Kind::Operation;
    node.op = op;
    node.args = std::move(args);
    return node;
}

// ((v + 2^31) mod 2^32) - 2^31, the modulo Euclidean: v wrapped into 32 bits
// as a node of its type, `constant` making a constant node.
template <class Node, class Constant>
Node wrapped32(Node v, const Constant& constant) {
    const long long half = 1LL << 31;
    Node shifted = operationNode(Operator::Add, std::vector<Node>{std::move(v), constant(half)});
    Node reduced = operationNode(Operator::Mod, std::vector<Node>{std::move(shifted), constant(2 * half)});
    return operationNode(Operator::Sub, std::vector<Node>{std::move(reduced), constant(half)});
}

// What an X86 test wraps to 32 bits (herd/X86Sem.ml works on Int32): sums,
// differences, products, negations. The bitwise operations of 32-bit values
// stay in 32 bits, flags are 0 or 1, Mod appears only in wrapping itself.
inline bool wrapsTo32Bits(Operator op) {
    return op == Operator::Add || op == Operator::Sub || op == Operator::Mul || op == Operator::Neg;
}

}  // namespace arith

}  // namespace rdmacheck
