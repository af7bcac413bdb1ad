// Stage 1: text -> LitmusTest. Throws InputError with file:line:column.
#pragma once

#include <string>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// Reads the file and parses it; the first word picks the front end
// (`RDMA` for doc/LITMUS.md v1, `X86` for herd7's x86 syntax).
LitmusTest parseLitmusFile(const std::string& path);
LitmusTest parseLitmus(const std::string& text, const std::string& fileName);

}  // namespace rdmacheck
