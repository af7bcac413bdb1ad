// Final-state conditions, shared by both front ends.
#pragma once

#include <functional>

#include "lexer.hpp"
#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// Parses an atom's left-hand side into the Cond fields `loc` / `thread`.
using AtomNameParser = std::function<void(Lexer&, Cond&)>;

Cond parseCondition(Lexer& lex, const AtomNameParser& parseName);

// `exists`, `~exists` (or `~ exists`), `forall`; false if the next token is none.
bool parseQuantifier(Lexer& lex, Quantifier& q);

// " (did you mean 'exists'?)" when `word` is a misspelt quantifier, else "":
// `exist (...)` otherwise reads as a thread or an instruction.
std::string quantifierHint(const std::string& word);

}  // namespace rdmacheck
