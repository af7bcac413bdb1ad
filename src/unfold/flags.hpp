// X86 values as herd7 builds them. The flags ZF, SF and CF: herd7 sets them
// to 1 or 0 from a comparison (herd/X86Sem.ml's write_all_flags: ZF when
// equal, SF when greater, CF always 0) and a jump takes the branch on 1. And
// a register operand, which herd7 reads as an unknown solved later.
#pragma once

#include "rdmacheck/ast.hpp"
#include "rdmacheck/events.hpp"

namespace rdmacheck {

// A flag of two constants becomes its constant; any other value is kept.
Value foldedFlag(Value v);

// `ZF = 1`, `ZF != 0`, ... of a flag set from a comparison of a and b becomes
// that comparison (a = b), as a CMP before a jump reads: Z3's difference logic
// takes it, and a comparison of constants prunes the path at once.
void testFlagDirectly(Value& lhs, Comparison& op, Value& rhs);

// `v`, the value of operand `e`; a 0 a register holds as 0 + 0: herd7 builds
// an instruction over a register's value before it solves it, so x + EAX is
// no copy of x (Value::copiedRead), though EAX is 0, where x + $0 is.
Value operandValue(const Expr& e, Value v);

}  // namespace rdmacheck
