// herd7's X86 code as both engines run it: one flat block per thread, its
// labels and jumps statements of their own (Stmt::Kind::Label and Jump). The
// engines follow a jump to its label and bound the jumps back as herd7 does
// (herd/mem.ml: per address jumped back to, along the path), so every shape
// of jumps herd7 reads runs as herd7 runs it.
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

// A jump to `label` where ZF says the last CMP's operands compare so (`when`;
// none: JMP, always), and a label.
Stmt jumpTo(const std::string& label, std::optional<Comparison> when, const SourceLoc& where);
Stmt labelAt(const std::string& label, const SourceLoc& where);

// InputError at a label the thread defines twice, or a jump to one it does not define.
void checkLabels(const Block& thread);

// InputError at a label two threads define: herd7's labels are the test's.
void refuseSharedLabels(const std::vector<ThreadDecl>& threads);

// The code's labels in `code` renamed L00, L01, ... as herd7 hashes them.
void hashLabels(const std::vector<ThreadDecl>& threads, std::vector<std::vector<std::string>>& code);

}  // namespace rdmacheck
