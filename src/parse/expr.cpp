#include "front_ends.hpp"

namespace rdmacheck {

namespace {

Expr binary(Operator op, Expr lhs, Expr rhs) {
    const SourceLoc where = lhs.where;
    return Expr::operation(op, {std::move(lhs), std::move(rhs)}, where);
}

Expr parseSum(Lexer& lex);

Expr parseFactor(Lexer& lex) {
    const Token t = lex.peek();
    if (t.kind == Token::Kind::Int) {
        lex.next();
        return Expr::constant(t.value, t.where());
    }
    if (t.is("-")) {
        lex.countOperator(t);
        const Lexer::Nesting nested(lex, t);
        lex.next();
        return Expr::operation(Operator::Neg, {parseFactor(lex)}, t.where());
    }
    if (t.is("(")) {
        const Lexer::Nesting nested(lex, t);
        lex.next();
        Expr e = parseSum(lex);
        lex.expect(")", "to close the expression");
        return e;
    }
    if (t.kind == Token::Kind::Ident) {
        lex.next();
        Expr e;
        e.kind = Expr::Kind::Location;
        e.name = t.text;
        e.where = t.where();
        if (lex.peek().is("^")) {
            lex.next();
            e.remoteNode = lex.expectNode("after '^'");
        }
        return e;
    }
    lex.failHere("expected an expression");
}

// The divisor of `%`: an integer > 0, so that no execution divides by zero and
// the solver's mod (Euclidean) and the machines' agree (arith::mod).
Expr parseDivisor(Lexer& lex) {
    const Token t = lex.peek();
    if (t.kind != Token::Kind::Int || t.value == 0) lex.failHere("expected an integer > 0 after '%'");
    lex.next();
    return Expr::constant(t.value, t.where());
}

Expr parseTerm(Lexer& lex) {
    Expr e = parseFactor(lex);
    while (lex.peek().is("*") || lex.peek().is("%")) {
        const Token op = lex.next();
        lex.countOperator(op);
        e = op.is("*") ? binary(Operator::Mul, std::move(e), parseFactor(lex))
                       : binary(Operator::Mod, std::move(e), parseDivisor(lex));
    }
    return e;
}

Expr parseSum(Lexer& lex) {
    Expr e = parseTerm(lex);
    while (lex.peek().is("+") || lex.peek().is("-")) {
        const Token op = lex.next();
        lex.countOperator(op);
        e = binary(op.is("+") ? Operator::Add : Operator::Sub, std::move(e), parseTerm(lex));
    }
    return e;
}

}  // namespace

Expr parseExpr(Lexer& lex) {
    lex.beginExpression();
    return parseSum(lex);
}

}  // namespace rdmacheck
