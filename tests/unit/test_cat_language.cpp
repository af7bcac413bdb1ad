// herd7's cat language as rdmacheck reads it (doc/model-language.md, "herd7's
// cat files"): scopes that shadow, functions, try, if "variant", ~, {},
// procedures, let rec functions, with co from, flags; and each construct it
// does not evaluate refused at its position. herd7's own x86tso.cat, tso.cat
// and sc.cat against herd7's logs: tests/corpus/test_x86_conformance.cpp.
#include <gtest/gtest.h>

#include "../test_support.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {
namespace {

using testing::modelsDir;

Model load(const std::string& text) { return parseModel(text, "m.cat", modelsDir()); }

std::string errorOf(const std::string& text) {
    try {
        load(text);
    } catch (const InputError& e) {
        return e.where().str() + ": " + e.detail();
    }
    return "no error";
}

// The axiom named `name`, as text.
std::string axiom(const Model& m, const std::string& name) {
    for (const Axiom& a : m.axioms)
        if (a.name == name) return a.expr.text();
    return "no axiom " + name;
}

TEST(CatLanguage, ALaterLetHidesAnEarlierOne) {
    const Model m = load("let a = po\nlet b = a\nlet a = rf\nacyclic a | b as x\n");
    EXPECT_EQ(axiom(m, "x"), "a | b");
    ASSERT_NE(m.definition("b"), nullptr);
    EXPECT_EQ(m.definition("b")->expr.text(), "a#1");  // the first a, renamed
    EXPECT_EQ(m.definition("a#1")->expr.text(), "po");
    EXPECT_EQ(m.definition("a")->expr.text(), "rf");
    // A function sees the bindings made before it, as herd7's closures do.
    const Model f = load("let a = po\nlet f(x) = x | a\nlet a = rf\nacyclic f(mo) as x\n"
                         "let g = let b = a in fun y -> y ; b\nlet b = po\nacyclic g(mo) as y\n");
    EXPECT_EQ(axiom(f, "x"), "mo | a#1");
    EXPECT_EQ(axiom(f, "y"), "mo;a");
    // A base name hidden by a definition: the definition is renamed, uses of the base keep it.
    const Model p = load("let P = M\nacyclic [P] ; po as x\n");
    EXPECT_EQ(axiom(p, "x"), "[P#1];po");
}

TEST(CatLanguage, FunctionsAreAppliedWhereTheyAreUsed) {
    const Model m = load("let WW(r) = r & (W * W)\nlet twice f = fun x -> f(f(x))\n"
                         "acyclic WW(po) as a\nacyclic twice(fun r -> r ; r)(po) as b\n"
                         "acyclic fencerel(F) as c\n");
    EXPECT_EQ(axiom(m, "a"), "po & (W * W)");
    EXPECT_EQ(axiom(m, "b"), "po;po;po;po");
    EXPECT_EQ(axiom(m, "c"), "(po & (_ * F));po");  // stdlib.cat's fencerel
    EXPECT_EQ(errorOf("let f(a, b) = a | b\nacyclic f(po) as x"), "m.cat:2:9: the function takes 2 arguments, given 1");
    EXPECT_EQ(errorOf("let f(x) = f\nacyclic f as x"),
              "m.cat:2:9: expected an event set or a relation; this is a function (apply it to its arguments)");
}

TEST(CatLanguage, TryIfComplementAndEmptySet) {
    const Model m = load("let A = (try X with {}) | (try Nothing with {})\n"
                         "let b = if \"opt\" then po else rf\nlet c = if not \"opt\" then po else rf\n"
                         "acyclic [~A] ; b ; [A] as x\nacyclic ~c & po as y\n");
    EXPECT_EQ(m.definition("A")->expr.text(), "X | {}");
    EXPECT_EQ(axiom(m, "x"), "[_ \\ A];b;[A]");
    EXPECT_EQ(m.definition("b")->expr.text(), "rf");  // rdmacheck sets no variant
    EXPECT_EQ(m.definition("c")->expr.text(), "po");
    EXPECT_EQ(axiom(m, "y"), "((_ * _) \\ c) & po");
    // {} bound by a let stays empty as a set and as a relation, as herd7 reads it.
    const Model e = load("let s = {}\nacyclic s as x\nacyclic [s] ; po as y\n");
    EXPECT_EQ(axiom(e, "x"), "s");
}

TEST(CatLanguage, ProceduresIfVariantBlocksAndLetRecFunctions) {
    const Model m = load("procedure irr(r) =\n  irreflexive r\nend\ncall irr(po ; rf) as one\n"
                         "if \"cos-opt\" let d = rf else let d = po end\nacyclic d as two\n"
                         "let rec f(x) = g(x) and g(x) = x\nacyclic f(mo) as three\n");
    EXPECT_EQ(axiom(m, "one"), "po;rf");
    EXPECT_EQ(m.definition("d")->expr.text(), "po");
    EXPECT_EQ(axiom(m, "three"), "mo");
    // A recursion without end stops at its bound.
    EXPECT_EQ(errorOf("let rec f(x) = f(x)\nacyclic f(po) as x"),
              "m.cat:1:16: nested more than 2000 deep as its functions are applied (a recursion that does not end?)");
}

// Functions that copy their argument twice, or call themselves twice, stop at
// the bound or the limits while the model loads, not at the memory's end.
TEST(CatLanguage, ExpandingFunctionsStopAtTheBoundAndTheLimits) {
    std::string doubling = "let g0(x) = x\n";
    for (int i = 1; i <= 21; ++i)
        doubling += "let g" + std::to_string(i) + "(x) = g" + std::to_string(i - 1) + "(x | x)\n";
    const std::string bound = "the model's definitions expand to more than 1000000 operators and function applications";
    EXPECT_EQ(errorOf(doubling + "acyclic g21(po) as x"), "m.cat:5:13: " + bound);
    EXPECT_EQ(errorOf("let rec f(x) = f(x | x)\nacyclic f(po) as x"), "m.cat:1:16: " + bound);
    std::string calls = "let f0(x) = x\n";
    for (int i = 1; i <= 40; ++i)
        calls += "let f" + std::to_string(i) + "(x) = f" + std::to_string(i - 1) + "(f" + std::to_string(i - 1) + "(x))\n";
    calls += "acyclic f40(po) as x";
    // Long unions count their operators once each (two of 800 terms load).
    std::string unions = "let a = po";
    for (int i = 0; i < 800; ++i) unions += " | po";
    unions += "\nlet b = rf";
    for (int i = 0; i < 800; ++i) unions += " | rf";
    EXPECT_EQ(errorOf(unions + "\nacyclic a | b as x"), "no error");
    ModelOptions limited;
    limited.limits.seconds = 0.05;
    try {
        parseModel(calls, "m.cat", modelsDir(), limited);
        ADD_FAILURE() << "no timeout";
    } catch (const TimeoutError& e) {
        EXPECT_EQ(e.where().file, "m.cat");
    }
}

TEST(CatLanguage, HerdsHeaderCommentsAndUnnamedChecks) {
    const Model m = load("X86 TSO\n# a line comment\n// another\n(* nested (* as herd7's *) *)\nacyclic po | rf\n"
                         "let fre = (rf^-1 ; mo) & ext\nlet coe = mo & ext\nempty rmw & (fre;coe)\n"
                         "let invrf = (rf) ^ -1\n");
    EXPECT_EQ(m.definition("invrf")->expr.text(), "rf^-1");  // herd7's '^' and '-1' are two tokens
    EXPECT_EQ(m.description, "X86 TSO");
    ASSERT_EQ(m.axioms.size(), 2u);  // a check without `as` is named by its text
    EXPECT_EQ(m.axioms[0].name, "po | rf");
    EXPECT_EQ(m.axioms[1].name, "rmw & (fre;coe)");
}

// herd7's let rec of a relation: its least fixed point, in closed form.
TEST(CatLanguage, LetRecOfARelationIsItsLeastFixedPoint) {
    const Model m = load("let rec a = po | a;a\nlet rec b = rf | b;po | a\nlet rec c = rf | po;c | c\n"
                         "let rec d = po;d\nacyclic a | b | c | d");
    EXPECT_EQ(m.definition("a")->expr.text(), "po+");
    EXPECT_EQ(m.definition("b")->expr.text(), "(rf | a);po*");
    EXPECT_EQ(m.definition("c")->expr.text(), "po*;rf");
    EXPECT_EQ(m.definition("d")->expr.text(), "0");
}

// let rec ... when T: T, a check that fails at a step of the fixed point where
// it fails at the fixed point, is the check after the definition; a negated
// one (read at the first step) is refused.
TEST(CatLanguage, LetRecWhenIsACheckAfterTheFixedPoint) {
    const Model m = load("let rec a = po | a;a when acyclic a as x\nlet rec b = rf | b;b\nwhen irreflexive b");
    ASSERT_EQ(m.axioms.size(), 2u);
    EXPECT_EQ(m.axioms[0].name, "x");
    EXPECT_EQ(m.axioms[0].where.line, 1);
    EXPECT_EQ(m.axioms[1].kind, Axiom::Kind::Irreflexive);
    EXPECT_EQ(m.axioms[1].where.line, 3);
    EXPECT_EQ(errorOf("let rec r = po | r;r when ~acyclic r"),
              "m.cat:1:27: 'let rec ... when ~' (a test of the first step) is herd7's, and rdmacheck does not "
              "evaluate it");
    EXPECT_EQ(errorOf("let rec r = po | r;r when empty (rf \\ r)"),
              "m.cat:1:27: 'let rec ... when' with a test whose relation does not grow with the definition (under "
              "'\\', '~' or a function: herd7 reads it at each step of the fixed point) is herd7's, and rdmacheck "
              "does not evaluate it");
    EXPECT_EQ(errorOf("let rec r = po | r;r when flag ~empty r"),
              "m.cat:1:27: expected acyclic, irreflexive or empty after 'when', found 'flag'");
    EXPECT_EQ(load("let rec r = po | r;r when empty (r \\ rf) & [W];r").axioms.size(), 1u);
}

// --skip (herd7's -skipchecks) drops tests by their own `as` names and the
// calls they are in, never an unnamed test by its expression; each name is
// looked up before any test is dropped.
TEST(CatLanguage, SkipDropsTestsByTheirNamesAndCalls) {
    auto skipping = [](std::vector<std::string> names, bool onlyPresent) {
        ModelOptions options;
        options.skip = std::move(names);
        options.skipOnlyPresent = onlyPresent;
        return options;
    };
    const std::string calls = "procedure q(r) =\n  acyclic r as qc\n  flag ~empty r as qf\nend\n"
                              "procedure p(r) =\n  call q(r)\nend\ncall p(po) as outer\nacyclic rf as sc\n";
    for (const std::vector<std::string>& names :
         {std::vector<std::string>{"outer", "qc"}, {"p"}, {"q"}, {"qc", "qf"}}) {
        const Model m = parseModel(calls, "m.cat", modelsDir(), skipping(names, false));
        EXPECT_EQ(m.axioms.size(), 1u) << names.front();
        EXPECT_EQ(m.axioms.front().name, "sc");
    }
    EXPECT_EQ(parseModel(calls, "m.cat", modelsDir(), skipping({"sc", "sc"}, false)).shownName(), "m without sc");
    const Model unnamed = parseModel("let hb = po\nacyclic hb\n", "m.cat", modelsDir(), skipping({"hb"}, true));
    EXPECT_EQ(unnamed.axioms.size(), 1u);
    EXPECT_TRUE(unnamed.skipped.empty());
    // As herd7, a dropped test is not evaluated: a definition only it uses may fail.
    const std::string failing = "let a = Fence.r.r\nacyclic a | po as x\nacyclic rf as y\n";
    const Model dropped = parseModel(failing, "m.cat", modelsDir(), skipping({"x"}, false));
    EXPECT_EQ(dropped.axioms.size(), 1u);
    EXPECT_EQ(dropped.shownName(), "m without x");
    EXPECT_THROW(parseModel(failing, "m.cat", modelsDir(), skipping({"y"}, false)), InputError);
}

// herd7 enumerates the coherence orders extending generate_cos's argument;
// rdmacheck's co is its own choice mo, which extends herd7's co0 always and
// any other argument (a union with co0) by an axiom.
TEST(CatLanguage, WithCoFromGenerateCos) {
    const std::string cross = "let generate_cos(pco) = linearisations(pco)\n";
    const Model m = load(cross + "with co from generate_cos(co0)\nacyclic po | co as x\n");
    EXPECT_EQ(axiom(m, "x"), "po | mo");
    ASSERT_EQ(m.axioms.size(), 1u);
    const Model n = load(cross + "with co from generate_cos(co0 | po)\nacyclic co as x\n");
    EXPECT_EQ(axiom(n, "generate_cos"), "(po & loc & (W * W)) \\ mo");
    // Without co0, herd7 chooses the final writes apart from co.
    EXPECT_EQ(errorOf(cross + "with co from generate_cos(po)\nacyclic co as x\n"),
              "m.cat:2:27: generate_cos(po): herd7 chooses each observed location's final write apart from co "
              "unless co0 (its final writes last) is in the union, and rdmacheck's co always ends at the final "
              "write: write co0 | ...");
    // A generator whose definition failed fails where `with` uses it, as herd7's lazy definitions do.
    EXPECT_EQ(errorOf("let generate_cos = Foo\nwith co from generate_cos(co0)").rfind("m.cat:1:20: unknown name 'Foo'", 0), 0u);
    EXPECT_EQ(errorOf("with co from co0"),
              "m.cat:1:1: 'with co from co0' is herd7's, and rdmacheck evaluates only 'with co from "
              "generate_cos(E)' or generate_orders(W, E) (its choice of the coherence order)");
}

// assert: the model keeps it apart from its axioms, with the model whose
// consistent executions fail it: the axioms before it (not those after), and
// it negated (an unnamed one is "(unknown)", as herd7 names it); --skip
// drops an axiom from before it too.
TEST(CatLanguage, AssertionsKeepTheAxiomsBeforeThem) {
    const Model m = load("acyclic po as a\nassert empty rf as r\nacyclic po | rf as b\nassert ~acyclic rf\n");
    ASSERT_EQ(m.axioms.size(), 2u);
    ASSERT_EQ(m.assertions.size(), 2u);
    ASSERT_EQ(m.failingAssertion.size(), 2u);
    const Model& first = *m.failingAssertion[0];
    ASSERT_EQ(first.axioms.size(), 2u);
    EXPECT_EQ(first.axioms[0].name, "a");
    EXPECT_EQ(first.axioms[1].name, "r");
    EXPECT_TRUE(first.axioms[1].negated);
    EXPECT_EQ(first.plan.negated.size(), 1u);
    const Model& second = *m.failingAssertion[1];
    ASSERT_EQ(second.axioms.size(), 3u);
    EXPECT_EQ(second.axioms[2].name, "(unknown)");
    EXPECT_FALSE(second.axioms[2].negated);
    EXPECT_EQ(second.plan.clocks.size(), 3u);  // a, b and the negated assertion, an ordinary acyclic axiom
    ModelOptions skipping;
    skipping.skip = {"a"};
    const Model skipped = parseModel("acyclic po as a\nassert empty rf as r\n", "m.cat", modelsDir(), skipping);
    ASSERT_EQ(skipped.failingAssertion.size(), 1u);
    EXPECT_EQ(skipped.failingAssertion[0]->axioms.size(), 1u);
}

TEST(CatLanguage, WhatIsNotEvaluatedIsRefusedAtItsPosition) {
    EXPECT_EQ(errorOf("let s = po(W)\nacyclic s"), "m.cat:1:9: 'po' is applied to an argument but is not a function"
              "; 's' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("let f(S) = match S with || {} -> {} || e ++ S -> S end\nacyclic [f(W)] as x"),
              "m.cat:1:12: 'match' is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("acyclic [domain(W)] as x"), "m.cat:1:10: domain takes a relation");
    EXPECT_EQ(errorOf("let rec r = po | [domain(r)];rf\nacyclic r as x"),
              "m.cat:1:16: 'let rec': rdmacheck computes a least fixed point where each definition grows with the "
              "relations defined (none under '\\' on the right, '~', domain or range), not 'po | ([domain(r)];rf)'");
    EXPECT_EQ(errorOf("let s = linearisations(W, po)\nacyclic s"),
              "m.cat:1:9: the primitive 'linearisations' is herd7's, and rdmacheck does not evaluate it"
              "; 's' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("acyclic iico_data | rf as x"),
              "m.cat:1:1: this axiom uses 'iico_data' (at m.cat:1:9), which is herd7's, and rdmacheck does not "
              "evaluate it: herd7's events inside an instruction, which rdmacheck does not make");
    EXPECT_EQ(errorOf("acyclic [B] ; po as x"),
              "m.cat:1:1: this axiom uses 'B' (at m.cat:1:10), which is herd7's, and rdmacheck does not evaluate "
              "it: branches make no event here");
    EXPECT_EQ(errorOf("forall e in W do empty po end"), "m.cat:1:1: 'forall' is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("enum Scopes = 'a || 'b"), "m.cat:1:1: 'enum' is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("if x = y then po else rf"),
              "m.cat:1:4: an 'if' that compares values is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("call nothing(po)"), "m.cat:1:1: 'nothing' is not a procedure");
    EXPECT_EQ(errorOf("procedure p() =\n  call p()\nend\ncall p()"),
              "m.cat:2:3: procedure 'p' is called while it runs (p → p), which herd7 does not allow (a procedure's "
              "name is bound after its body)");
    EXPECT_EQ(errorOf("procedure p() =\n  call q()\nend\nprocedure q() =\n  call p()\nend\ncall q()"),
              "m.cat:2:3: procedure 'q' is called while it runs (q → p → q), which herd7 does not allow (a procedure's "
              "name is bound after its body)");
    EXPECT_EQ(errorOf("procedure p() =\n  call q()\nend\ncall p() as q"), "m.cat:2:3: 'q' is not a procedure");
}

// A flag is no constraint: the report names it when some consistent
// execution raises it, after the witnesses, as herd7 prints it.
TEST(CatLanguage, FlagsAreRaisedByConsistentExecutions) {
    const Model m = load("acyclic po | rf | rb | mo as sc\nflag ~empty (rf & ext) as external-read\n"
                         "flag ~empty W \\ W as never\nflag empty [F] as no-fence\nflag empty po as unnamed-is-fine\n"
                         "flag ~empty rb\n");
    ASSERT_EQ(m.axioms.size(), 1u);
    ASSERT_EQ(m.flags.size(), 4u);  // herd7 ignores a flag without a name
    const LitmusTest sb = parseLitmus("X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                                      " MOV EAX,[y] | MOV EBX,[x] ;\nexists (0:EAX=0 /\\ 1:EBX=0)\n",
                                      "sb.litmus");
    const CheckResult r = check(sb, m, CheckOptions{});
    EXPECT_EQ(r.flags, (std::set<std::string>{"external-read", "no-fence"}));
    CheckOptions states;
    states.mode = CheckMode::States;
    EXPECT_TRUE(check(sb, m, states).flags.empty());  // only the executions mode visits every execution
}

}  // namespace
}  // namespace rdmacheck
