// LitmusTest -> RDMA-format text (doc/LITMUS.md): the inverse of the
// RDMA front end, used by the generator and the shrinker.
#pragma once

#include <string>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// parseLitmus(printLitmus(t)) is t up to source positions, and printing that
// again gives the same text. Throws std::invalid_argument for what the RDMA
// format cannot express (X86 tests, registers, unsupported statements, RMW
// operands that are not integers).
std::string printLitmus(const LitmusTest& test);

}  // namespace rdmacheck
