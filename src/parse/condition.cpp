#include "condition.hpp"

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

namespace {

Cond parseOr(Lexer& lex, const AtomNameParser& parseName);
Cond parseAtom(Lexer& lex, const AtomNameParser& parseName);

Cond parseUnary(Lexer& lex, const AtomNameParser& parseName) {
    Cond c;
    c.where = lex.peek().where();
    if (lex.peek().is("~") || lex.peek().isWord("not")) {  // `not`: herd7's word for it
        const Lexer::Nesting nested(lex, lex.peek());
        lex.next();
        c.kind = Cond::Kind::Not;
        c.args.push_back(parseUnary(lex, parseName));
        return c;
    }
    if (lex.peek().is("(")) {
        const Lexer::Nesting nested(lex, lex.peek());
        lex.next();
        c = parseOr(lex, parseName);
        lex.expect(")", "to close the condition");
        return c;
    }
    if (lex.peek().isWord("true") || lex.peek().isWord("false")) {
        c.kind = lex.next().text == "true" ? Cond::Kind::True : Cond::Kind::False;
        return c;
    }
    return parseAtom(lex, parseName);
}

Cond parseAtom(Lexer& lex, const AtomNameParser& parseName) {
    Cond c;
    c.where = lex.peek().where();
    c.kind = Cond::Kind::Atom;
    parseName.name(lex, c);
    if (lex.peek().is("=") || lex.peek().is("==")) {  // herd7 reads both
        c.equal = true;
    } else if (lex.peek().is("!=") || lex.peek().is("<>")) {
        c.equal = false;
    } else {
        lex.failHere("expected '=' or '!=' in condition atom");
    }
    lex.next();
    if (parseName.startsName && parseName.startsName(lex)) {
        if (!c.equal) lex.failHere("herd7 compares two names with '=' only");
        Cond other;
        parseName.name(lex, other);
        c.sameAs = ObservedName{other.loc, other.thread, other.where};
        return c;
    }
    c.value = parseName.value ? parseName.value(lex) : lex.expectInt("as the value in a condition atom");
    return c;
}

using Operand = Cond (*)(Lexer&, const AtomNameParser&);

// operand (op operand)*, as one n-ary node when op occurs.
Cond parseChain(Lexer& lex, const AtomNameParser& parseName, const char* op, Cond::Kind kind, Operand operand) {
    Cond first = operand(lex, parseName);
    if (!lex.peek().is(op)) return first;
    Cond c;
    c.kind = kind;
    c.where = first.where;
    c.args.push_back(std::move(first));
    while (lex.peek().is(op)) {
        lex.next();
        c.args.push_back(operand(lex, parseName));
    }
    return c;
}

// `A => B`, herd7's implication: ~A \/ B, binding tighter than /\ and \/
// (herd7 reads `A /\ B => C` as `A /\ (B => C)`), to the right.
Cond parseImplication(Lexer& lex, const AtomNameParser& parseName) {
    Cond premise = parseUnary(lex, parseName);
    if (!lex.peek().is("=>")) return premise;
    lex.next();
    Cond c;
    c.kind = Cond::Kind::Or;
    c.where = premise.where;
    c.implication = true;
    Cond negated;
    negated.kind = Cond::Kind::Not;
    negated.where = premise.where;
    negated.args.push_back(std::move(premise));
    c.args.push_back(std::move(negated));
    c.args.push_back(parseImplication(lex, parseName));
    return c;
}

Cond parseAnd(Lexer& lex, const AtomNameParser& parseName) {
    return parseChain(lex, parseName, "/\\", Cond::Kind::And, parseImplication);
}

Cond parseOr(Lexer& lex, const AtomNameParser& parseName) {
    return parseChain(lex, parseName, "\\/", Cond::Kind::Or, parseAnd);
}

}  // namespace

Cond parseCondition(Lexer& lex, const AtomNameParser& parseName) { return parseOr(lex, parseName); }

bool endsObservedState(const Token& t) {
    return t.kind == Token::Kind::End || t.isWord("and") || t.isWord("with") || t.is("<<");
}

Cond parseObserved(Lexer& lex, const AtomNameParser& parseName) {
    Cond states;
    states.kind = Cond::Kind::Or;
    states.where = lex.peek().where();
    for (;;) {
        Cond state;
        state.kind = Cond::Kind::And;
        state.where = lex.peek().where();
        while (!endsObservedState(lex.peek())) {
            state.args.push_back(parseAtom(lex, parseName));
            lex.expect(";", "after each atom of an 'observed' state");
        }
        states.args.push_back(std::move(state));
        if (!lex.peek().isWord("and")) return states;
        lex.next();
    }
}

bool parseQuantifier(Lexer& lex, Quantifier& q) {
    const Token& t = lex.peek();
    if (t.isWord("exists")) {
        q = Quantifier::Exists;
    } else if (t.isWord("forall")) {
        q = Quantifier::Forall;
    } else if (t.isWord("~exists")) {
        q = Quantifier::NotExists;
    } else if (t.is("~")) {
        lex.next();
        if (!lex.peek().isWord("exists")) lex.failHere("expected 'exists' after '~'");
        q = Quantifier::NotExists;
    } else {
        return false;
    }
    lex.next();
    return true;
}

std::string quantifierHint(const std::string& word) { return didYouMean(word, {"exists", "~exists", "forall"}); }

}  // namespace rdmacheck
