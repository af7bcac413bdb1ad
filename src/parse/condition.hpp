// Final-state conditions, shared by both front ends.
#pragma once

#include <functional>

#include "lexer.hpp"
#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// How a front end reads an atom: `name` parses a name into the Cond fields
// `loc` / `thread`; `startsName`, when given (herd7's X86: `0:EAX=1:EAX`),
// says whether a name stands in place of the value on the right of '='.
struct AtomNameParser {
    std::function<void(Lexer&, Cond&)> name;
    std::function<bool(Lexer&)> startsName;
    std::function<long long(Lexer&)> value;  // reads the value on the right of '=' (default: an integer)
};

Cond parseCondition(Lexer& lex, const AtomNameParser& parseName);

// herd7's `observed` condition, after the word: states `A; B; ...;` separated
// by `and`, read as exists (A /\ B /\ ... \/ ...).
Cond parseObserved(Lexer& lex, const AtomNameParser& parseName);

// `exists`, `~exists` (or `~ exists`), `forall`; false if the next token is none.
bool parseQuantifier(Lexer& lex, Quantifier& q);

// " (did you mean 'exists'?)" when `word` is a misspelt quantifier, else "":
// `exist (...)` otherwise reads as a thread or an instruction.
std::string quantifierHint(const std::string& word);

}  // namespace rdmacheck
