// The two front ends and the expression grammar they share.
#pragma once

#include "lexer.hpp"
#include "rdmacheck/ast.hpp"

namespace rdmacheck {

LitmusTest parseRdma(Lexer& lex);
LitmusTest parseX86(Lexer& lex);

// Consumes the architecture word and the rest of its line; the test name is the
// first run of non-blank characters after it. Returns the rest of the line.
std::string readHeader(Lexer& lex, std::string& name);

// E ::= T (('+'|'-') T)* ; T ::= F ('*' F)* ; F ::= int | loc | loc^n | '(' E ')' | '-' F
Expr parseExpr(Lexer& lex);

}  // namespace rdmacheck
