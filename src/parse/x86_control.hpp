// herd7's X86 jumps as the structured statements both engines run: a forward
// conditional jump over a stretch of code is an `if` around that stretch, a
// forward JMP makes it dead code, a conditional jump back over a stretch is a
// `while` after it; a forward jump that another jump crosses makes each branch
// run the rest of the code (which it then holds twice). A loop that code in it
// jumps out of keeps in registers whether it goes on and where it was left for
// (a `while` over the first, jumps after the loop over the second). A jump
// back out of a loop, into one before its label, or a second jump back to the
// head of a loop that is jumped out of, is refused at the jump.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// The registers CMP leaves a memory operand in, and an arithmetic
// instruction on memory its result, for the flags: names no test can write.
inline const char* const kCmpLeft = "CMP@left";
inline const char* const kCmpRight = "CMP@right";

// herd7's flag registers (herd/X86Sem.ml): ZF and SF as a comparison found
// its operands equal and greater, CF always 0; JE and JNE read ZF, SETNB and
// CMOVC read CF. A test may set them in its init block and name them in its
// condition, as any register.
inline const char* const kZeroFlag = "ZF";
inline const char* const kSignFlag = "SF";
inline const char* const kCarryFlag = "CF";

// The register `name` as an expression.
Expr registerOf(const std::string& name, const SourceLoc& where);

// A thread's code as written: statements, labels and jumps, in order.
struct X86Item {
    enum class Kind { Code, Label, Jump } kind = Kind::Code;
    std::vector<Stmt> code;          // Code
    std::string label;               // Label; Jump: its target
    std::optional<Comparison> when;  // Jump: taken when the last CMP's operands compare so (ZF); none: JMP
    SourceLoc where;
    // A jump made after a loop that code in it jumps out of (never written):
    // taken when that loop was left for this jump's label, which `exit` numbers.
    int exitOf = -1;
    long long exit = 0;
};

// The thread's statements; InputError at a jump rdmacheck cannot structure, or
// to a label the thread does not have.
Block structureX86(const std::vector<X86Item>& items);

}  // namespace rdmacheck
