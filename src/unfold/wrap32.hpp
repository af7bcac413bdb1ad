// herd7's X86 computes on 32-bit values that wrap around (herd/X86Sem.ml works
// on Int32): INC of 2147483647 is -2147483648. rdmacheck's values are 64-bit.
#pragma once

#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

// Whether some value of some execution of the program can leave the 32-bit
// range: intervals over the locations, widened along the writes as many
// rounds as there are events (a value is computed through at most that many
// writes, rf and dependencies being acyclic in an execution).
bool mayLeave32Bits(const UnfoldedProgram& program);

// Makes every sum, difference, product and negation of the program's values
// wrap into the 32-bit range, through a modulo every engine evaluates. Only
// when mayLeave32Bits: otherwise the values are the same and the solver keeps
// its difference logic.
void wrapTo32Bits(UnfoldedProgram& program);

}  // namespace rdmacheck
