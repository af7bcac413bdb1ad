// The two front ends and the expression grammar they share.
#pragma once

#include "lexer.hpp"
#include "rdmacheck/ast.hpp"

namespace rdmacheck {

LitmusTest parseRdma(Lexer& lex);
LitmusTest parseX86(Lexer& lex);

// E ::= T (('+'|'-') T)* ; T ::= F ('*' F)* ; F ::= int | loc | loc^n | '(' E ')' | '-' F
Expr parseExpr(Lexer& lex);

}  // namespace rdmacheck
