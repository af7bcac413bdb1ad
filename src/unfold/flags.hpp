// X86's flags ZF, SF and CF as values: herd7 sets them to 1 or 0 from a
// comparison (herd/X86Sem.ml's write_all_flags: ZF when equal, SF when
// greater, CF always 0) and a jump takes the branch on 1.
#pragma once

#include "rdmacheck/events.hpp"

namespace rdmacheck {

// A flag of two constants becomes its constant; any other value is kept.
Value foldedFlag(Value v);

// `ZF = 1`, `ZF != 0`, ... of a flag set from a comparison of a and b becomes
// that comparison (a = b), as a CMP before a jump reads: Z3's difference logic
// takes it, and a comparison of constants prunes the path at once.
void testFlagDirectly(Value& lhs, Comparison& op, Value& rhs);

}  // namespace rdmacheck
