// The model language (doc/model-language.md): errors at file:line:column, --skip,
// fingerprints and the machines' refusal of variants, bounds and limits. The Z3
// compilation against an independent evaluator: tests/oracles/test_model_evaluator.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "../test_support.hpp"
#include "rdmacheck/explain.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {
namespace {

using testing::modelsDir;
using testing::readFile;
using testing::TempDir;

std::string errorOf(const std::string& text, const ModelOptions& options = {}) {
    try {
        parseModel(text, "m.cat", modelsDir(), options);
    } catch (const InputError& e) {
        return e.where().str() + ": " + e.detail();
    }
    return "no error";
}

TEST(ModelLanguage, MistakesArePositionedAndNameTheChoices) {
    // The definitions herd7 predefines (models/_herd7.cat) and its stdlib's (models/stdlib.cat) are in scope.
    EXPECT_EQ(errorOf("acyclic po | rff as x"),
              "m.cat:1:14: unknown name 'rff' (did you mean 'rf'?) (relations: po, loc, int, ext, id, sqp, same-call, same-work, iso, ar, "
              "pf, locked-rmw, data, addr, ctrl, rf, mo, rb, nfo, rao, lo, round, rf-msg, fb, rmw, amo, sm, si, pco, po-loc, rfe, rfi, co0, "
              "lxsx; event sets: rdma, sv, bal, wl, sl, nl, sc, rbl, _, IW, R, W, M, Locked, SFENCE, LFENCE, FW, Inst, "
              "lR, lW, CAS, F, P, nlR, nrW, nrR, nlW, nF, narR, narW, wait, gF, barX, acq, relCW, relGF, relRF, relNRW, "
              "scR, scW, scU, subCW, subNRW, subF, recv, recvF, X, MFENCE, Exp, NExp, EXEC, SPEC, SPURIOUS, emptyset)");
    EXPECT_EQ(errorOf("let a = po\nacylic a"),
              "m.cat:2:1: expected a declaration (let, include, acyclic, irreflexive, empty, flag, show, procedure, "
              "call, with, if, table, stamps, events, libraries), found 'acylic'");
    EXPECT_EQ(errorOf("let a = R ; po\nacyclic a"), "m.cat:1:9: ';' takes a relation, 'R' is an event set"
              "; 'a' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("let a = po | W\nacyclic a"),
              "m.cat:1:14: '|' with a relation on its left takes a relation, 'W' is an event set"
              "; 'a' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("let a = b\nlet b = a\nacyclic b"),
              "m.cat:1:9: 'b' is defined later, at m.cat:2:1; a definition may use only earlier ones, so definitions "
              "form no cycle; 'a' is used at m.cat:2:9; 'b' is used at m.cat:3:9");
    EXPECT_EQ(errorOf("let a = a | po\nacyclic a"), "m.cat:1:9: 'a' refers to itself: definitions are not recursive"
              "; 'a' is used at m.cat:2:9");
    // As herd7, a definition is evaluated where a check, a flag or another
    // definition uses it: one that fails is an error there (at its own place), else nothing.
    EXPECT_EQ(errorOf("let a = Fence.r.r\nlet b = R ; po\nacyclic po"), "no error");
    EXPECT_EQ(errorOf("let a = Fence.r.r\nlet b = a | po\nflag ~empty b as f"),
              "m.cat:1:9: unknown name 'Fence.r.r' (relations: po, loc, int, ext, id, sqp, same-call, same-work, iso, "
              "ar, pf, locked-rmw, data, addr, ctrl, rf, mo, rb, nfo, rao, lo, round, rf-msg, fb, rmw, amo, sm, si, pco, po-loc, rfe, "
              "rfi, co0, lxsx; event sets: rdma, sv, bal, wl, sl, nl, sc, rbl, _, IW, R, W, M, Locked, SFENCE, "
              "LFENCE, FW, Inst, lR, lW, CAS, F, P, nlR, nrW, nrR, nlW, nF, narR, narW, wait, gF, barX, acq, relCW, "
              "relGF, relRF, relNRW, scR, scW, scU, subCW, subNRW, subF, recv, recvF, X, MFENCE, Exp, NExp, EXEC, "
              "SPEC, SPURIOUS, emptyset); 'a' is used at m.cat:2:9; 'b' is used at m.cat:3:13");
    EXPECT_EQ(errorOf("let f = Foo\ncall f(po)").rfind("m.cat:1:9: unknown name 'Foo' (relations: ", 0), 0u);
    EXPECT_EQ(errorOf("let b = let rec a = po | rf;a;rf in a\nacyclic b"),
              "m.cat:1:24: a 'let rec' of relations inside an expression (let ... in) is computed only in the closed "
              "forms r = A | B;r | r;C | r;r (B, C free of r), not 'rf;a;rf': define it at the top level"
              "; 'b' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("let rec a = po | rf \\ a\nacyclic a"),
              "m.cat:1:16: 'let rec': rdmacheck computes a least fixed point where each definition grows with the "
              "relations defined (none under '\\' on the right, '~', domain or range), not 'po | (rf \\ a)'");
    EXPECT_EQ(errorOf("let rec a = po | f(a) and f(x) = x\nacyclic a"),
              "m.cat:1:27: a 'let rec' of functions and relations together is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("let rec s = W and t = s\nacyclic [s]"),
              "m.cat:1:13: a 'let rec' of event sets is herd7's, and rdmacheck does not evaluate it");
    EXPECT_EQ(errorOf("let rec a = po | b and b = rf | a;a\nacyclic a\nirreflexive rf \\ b as x"),
              "m.cat:3:1: this test needs the least fixed point 'b' (let rec at m.cat:1:1) exactly, under '\\' on the "
              "right, in domain or range, or negated; rdmacheck computes it there only in the closed forms of a single let rec");
    // A group's names are relations: a set use is a type error at the use, not a cycle of the set evaluator.
    EXPECT_EQ(errorOf("let rec r = po | r;rf and s = r\nlet x = [r]\nacyclic x;po as ax"),
              "m.cat:2:10: [S] takes an event set, 'r' is a relation; 'x' is used at m.cat:3:9");
    // Under two '\\' still exact, as the walker computes it.
    EXPECT_EQ(errorOf("let rec g = po | g;g | h and h = g & loc\nacyclic po \\ (rf \\ g) as x"),
              "m.cat:2:1: this test needs the least fixed point 'g' (let rec at m.cat:1:1) exactly, under '\\' on the "
              "right, in domain or range, or negated; rdmacheck computes it there only in the closed forms of a single let rec");
    EXPECT_EQ(errorOf("let rec a = po | ((a;rf) \\ id)\nflag ~empty domain(a) as y\nempty domain(a) as x"),
              "m.cat:3:1: this test needs the least fixed point 'a' (let rec at m.cat:1:1) exactly, under '\\' on the "
              "right, in domain or range, or negated; rdmacheck computes it there only in the closed forms of a single let rec");
    EXPECT_EQ(errorOf("let rec a = po | a & rf\n~acyclic a as x"),
              "m.cat:2:1: this test needs the least fixed point 'a' (let rec at m.cat:1:1) exactly, under '\\' on the "
              "right, in domain or range, or negated; rdmacheck computes it there only in the closed forms of a single let rec");
    EXPECT_EQ(errorOf("let a = po x\nacyclic a"), "m.cat:1:9: 'po' is applied to an argument but is not a function"
              "; 'a' is used at m.cat:2:9");
    EXPECT_EQ(errorOf("acyclic foo:rf as x"), "m.cat:1:9: unknown library 'foo' (known: rdma, sv, bal, wl, sl, nl, sc, rbl)");
    EXPECT_EQ(errorOf("acyclic W"), "m.cat:1:9: an axiom constrains a relation; this is an event set (use [S] for "
                                    "its identity relation)");
    EXPECT_EQ(errorOf("(* open"), "m.cat:1:1: comment not closed: expected '*)'");
    EXPECT_EQ(errorOf("let a = rf ^ 1"), "m.cat:1:12: expected '^-1' (the inverse)");
    EXPECT_EQ(errorOf("(* (* nested *) open"), "m.cat:1:1: comment not closed: expected '*)'");
    EXPECT_EQ(errorOf("acyclic (po | rf as x"), "m.cat:1:18: expected ')' to close '(', found 'as'");
    EXPECT_NE(errorOf("table t = \"missing.ippo\"").find("m.cat:1:1: cannot open order table"), std::string::npos);
    // herd7's order (the current folder, the search path), then beside the including file.
    const std::string missing = errorOf("include \"nosuch.cat\"");
    EXPECT_EQ(missing.rfind("m.cat:1:1: cannot find included model file nosuch.cat (looked at nosuch.cat, ", 0), 0u)
        << missing;
    EXPECT_EQ(missing.substr(missing.size() - 15), ", ./nosuch.cat)") << missing;
    EXPECT_EQ(errorOf("events lR, lX"), "m.cat:1:12: unknown event kind 'lX' (known: lR, lW, CAS, F, P, nlR, nrW, "
                                        "nrR, nlW, nF, narR, narW, wait, gF, barX, acq, relCW, relGF, relRF, relNRW, scR, scW, scU, subCW, subNRW, "
              "subF, recv, recvF)");
    EXPECT_EQ(errorOf("acyclic po as a", ModelOptions{{"ob"}}), "--skip: model m has no check, flag or assertion named 'ob' (names: a)");
}

// herd7 gives `*` (product and closure), `+`, `?` and `~` one precedence
// without associativity: what it cannot group is refused at the same token
// (herd7 7.58: "unexpected '*'" at line 1, characters 11-12, and so on).
TEST(ModelLanguage, GroupingsHerd7RefusesAreRefused) {
    const std::string closureAfter = ": herd7 reads neither grouping (one precedence, no associativity); add parentheses, found ";
    EXPECT_EQ(errorOf("let r = ~W * R"), "m.cat:1:12: '*' after a complement '~'" + closureAfter + "'*'");
    EXPECT_EQ(errorOf("let r = ~po+"), "m.cat:1:12: '+' after a complement '~'" + closureAfter + "'+'");
    EXPECT_EQ(errorOf("let r = W * R * W"), "m.cat:1:15: '*' after a product" + closureAfter + "'*'");
    EXPECT_EQ(errorOf("let r = W * R?"), "m.cat:1:14: '?' after a product" + closureAfter + "'?'");
    EXPECT_EQ(errorOf("let r = W * ~R"), "m.cat:1:13: a complement right of '*': herd7 reads it as neither a product "
                                         "nor a closure; write W * (~R), found '~'");
    for (const char* grouped : {"let r = (~W) * R", "let r = ~(W * R)", "let r = ~(po+)", "let r = W * (~R)",
                                "let r = ~po^-1", "let r = po*?", "let r = ~~po", "let r = (W * R)+"})
        EXPECT_EQ(errorOf(grouped), "no error") << grouped;
}

TEST(ModelLanguage, ModelIsANameOrAPath) {
    EXPECT_EQ(loadModel(modelsDir(), "rdma-tso").name, "rdma-tso");
    EXPECT_EQ(loadModel("/nonexistent", modelsDir() + "/tso.cat").name, "tso");
    try {
        loadModel(modelsDir(), "arm");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown model 'arm' (known: mowgli-tso-rmw, rdma-sc, rdma-tso, "
                                             "rdma-tso-nopcie, rdma-tso-rmw, rdma-tso-rwd, rdma-wait, rdma-wait-rmw, rdma-wait-rmw-rblweak, sc, tso"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ModelLanguage, TheRdmaTsoConditionIsTwoTiedClocks) {
    const Model m = loadModel(modelsDir(), "rdma-tso");
    ASSERT_EQ(m.plan.clocks.size(), 2u);
    EXPECT_EQ(m.plan.issueClock, 0);
    EXPECT_EQ(m.plan.observeClock, 1);
    EXPECT_EQ(m.plan.mixedAxiom, "inst-ib-ob");
    EXPECT_TRUE(m.plan.general.empty());
    std::vector<std::string> members;
    for (const ModelExpr& e : m.plan.clocks[1].members) members.push_back(e.text());
    EXPECT_EQ(members, (std::vector<std::string>{"oppo", "rf-e", "[nlW];pf", "nfo", "rb", "mo"}));
}

TEST(ModelLanguage, SkipDropsAnAxiomByName) {
    const std::string sb = "RDMA sb\n{ x@1; y@1; a@1; b@1; }\nP0@1 { x := 1; a := y }\nP1@1 { y := 1; b := x }\n"
                           "exists (a = 0 /\\ b = 0)\n";
    const LitmusTest test = parseLitmus(sb, "sb.litmus");
    EXPECT_TRUE(check(test, loadModel(modelsDir(), "sc"), CheckOptions{}).ok == false);
    EXPECT_TRUE(check(test, loadModel(modelsDir(), "sc", ModelOptions{{"sc"}}), CheckOptions{}).ok);
}

// The machines implement the shipped models exactly; a comment does not change
// a model, an edit or --skip does, and the machine then refuses it.
TEST(ModelLanguage, MachinesImplementTheShippedModelsAndRefuseVariants) {
    for (const MachineEntry& m : machineRegistry())
        EXPECT_EQ(loadModel(modelsDir(), m.model).fingerprint, m.fingerprint) << m.model;
    const std::string text = readFile(modelsDir() + "/rdma-tso.cat");
    const Model commented = parseModel(text + "\n(* a note *)\n", modelsDir() + "/mine.cat", modelsDir());
    EXPECT_EQ(findMachine(commented), findMachine(loadModel(modelsDir(), "rdma-tso")));
    EXPECT_NE(findMachine(commented), nullptr);
    const Model skipped = loadModel(modelsDir(), "rdma-tso", ModelOptions{{"inst-ib-ob"}});
    EXPECT_EQ(findMachine(skipped), nullptr);
    const LitmusTest test = parseLitmus("RDMA t\n{ x@1; }\nP0@1 { x := 1 }\nexists (x=1)\n", "t.litmus");
    try {
        explore(test, skipped, MachineOptions{});
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(e.detail().find("differs from the rdma-tso the operational machine implements"), std::string::npos);
    }
    EXPECT_THROW(explore(test, loadModel(modelsDir(), "rdma-wait"), MachineOptions{}), InputError);
}

// An empty axiom's witness is one edge, printed as such.
TEST(ModelLanguage, ExplainNamesABrokenEmptyAxiom) {
    const Model model = parseModel("empty rf & ext as no-messages\nacyclic po | rf | rb | mo as sc\n",
                                   modelsDir() + "/local.cat", modelsDir());
    const LitmusTest test = parseLitmus(
        "RDMA mp\n{ x@1; a@1; }\nP0@1 { x := 1 }\nP1@1 { a := x }\nexists (a = 1)\n", "mp.litmus");
    const ExplainResult x = explain(test, model, ExplainOptions{});
    ASSERT_TRUE(x.applicable);
    ASSERT_EQ(x.shown.size(), 1u);
    const Cycle& c = x.shown[0].cycles[0];
    EXPECT_EQ(c.axiom, "no-messages");
    EXPECT_FALSE(c.closed);
    EXPECT_EQ(cycleText(x.shown[0].executions[0], x.locations, c), "a:lW x →rf & ext b");
}

// Each definition uses the one before twice: as trees the axiom would reach 2^60
// copies; shared, reading, checking and explaining take the text's length. The
// relations and the event sets (the tie set of a clock, [S], S * S) both double.
std::string doublingModel() {
    std::string text = "let r0 = po | rf | rb | mo\nlet s0 = _\n";
    for (int i = 1; i <= 60; ++i) {
        const std::string n = std::to_string(i), p = std::to_string(i - 1);
        text += "let r" + n + " = r" + p + " | r" + p + "\nlet s" + n + " = s" + p + " | s" + p + "\n";
    }
    return text + "acyclic [s60] ; r60 & s60 * s60 as sc\nirreflexive ([s60] ; r60)+ as sc-again\n"
                  "empty [s60 \\ s59] as nothing\n";
}

TEST(ModelLanguage, DefinitionsAreSharedNotExpanded) {
    const Model model = parseModel(doublingModel(), "doubling.cat", modelsDir());
    EXPECT_EQ(model.usedBaseNames, (std::set<std::string>{"po", "rf", "rb", "mo"}));
    const LitmusTest sb = parseLitmus("RDMA sb\n{ x@1; y@1; a@1; b@1; }\nP0@1 { x := 1; a := y }\n"
                                      "P1@1 { y := 1; b := x }\nexists (a = 0 /\\ b = 0)\n",
                                      "sb.litmus");
    EXPECT_FALSE(check(sb, model, CheckOptions{}).ok);  // as under sc
    const ExplainResult why = explain(sb, model, ExplainOptions{});
    ASSERT_EQ(why.shown.size(), 1u);
    EXPECT_EQ(why.shown[0].cycles[0].axiom, "sc");
}

// A definition is found by its name, not by a search: 40,000 read in linear time.
TEST(ModelLanguage, ManyDefinitionsAreReadInLinearTime) {
    std::string text = "let d0 = po | rf | rb | mo\n";
    for (int i = 1; i < 40000; ++i) text += "let d" + std::to_string(i) + " = d" + std::to_string(i / 2) + "\n";
    const Model model = parseModel(text + "acyclic d39999 as sc\n", "many.cat", modelsDir());
    const size_t preludes = parseModel("", "empty.cat", modelsDir()).definitions.size();
    EXPECT_EQ(model.definitions.size(), 40000u + preludes);
    EXPECT_EQ(model.plan.clocks[0].members.size(), 4u);
}

std::string repeated(const std::string& line, size_t times) {
    std::string text;
    for (size_t i = 0; i < times; ++i) text += line;
    return text;
}

// The bounds of kMaxModelItems, kMaxModelAxioms, kMaxModelDepth and
// kMaxModelBytes, each at the item past it, includes counted.
TEST(ModelLanguage, ModelsAreBounded) {
    EXPECT_EQ(errorOf(repeated("let a = po\n", 1) + repeated("acyclic a\n", 1000) + "acyclic a as b\n"),
              "m.cat:1002:1: the model has more than 1000 axioms");
    std::string chain = "let d0 = po\n";
    for (int i = 1; i <= 1001; ++i) chain += "let d" + std::to_string(i) + " = d" + std::to_string(i - 1) + "\n";
    EXPECT_EQ(errorOf(chain), "m.cat:1002:1: nested more than 1000 deep (operators, and the definitions it uses and theirs)");
    std::string wide = "let d0 = po\n";
    for (int i = 1; i < 100000; ++i) wide += "let d" + std::to_string(i) + " = d0\n";
    EXPECT_EQ(errorOf(wide + "acyclic d1 as a\n"), "m.cat:100001:1: the model has more than 100000 declarations (with "
                                                   "its includes)");

    const TempDir dir("bounds");
    auto lets = [](const std::string& prefix, int count) {
        std::string text;
        for (int i = 0; i < count; ++i) text += "let " + prefix + std::to_string(i) + " = po\n";
        return text;
    };
    std::ofstream(dir / "inc.cat") << lets("b", 40001);
    std::ofstream(dir / "main.cat") << "include \"inc.cat\"\n" << lets("a", 59999);
    try {
        loadModel(modelsDir(), dir / "main.cat");
        ADD_FAILURE() << "a model past 100000 declarations was read";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().str() + ": " + e.detail(),
                  dir / "inc.cat" + ":40001:1: the model has more than 100000 declarations (with its includes)");
    }
    std::ofstream(dir / "big.cat") << "(*" << std::string(kMaxModelBytes, ' ') << "*)\n";
    std::ofstream(dir / "uses-big.cat") << "\n  include \"big.cat\"\n";
    try {
        loadModel(modelsDir(), dir / "uses-big.cat");
        ADD_FAILURE() << "a model past 4 MiB was read";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().str() + ": " + e.detail(),
                  dir / "uses-big.cat" + ":2:3: included model file " + dir.path() + "/big.cat is larger than 4 MiB, the most rdmacheck reads from one included model file");
    }
}

// --timeout and --max-memory stop the loading of a model too: at the item
// reached, or at the test the model is loaded for.
TEST(ModelLanguage, LoadingStopsAtTheLimits) {
    std::string text;
    for (int i = 0; i < 1000; ++i) text += "let d" + std::to_string(i) + " = po\n";
    ModelOptions fast;
    fast.limits.seconds = 0.000001;  // less than reading the text takes
    EXPECT_EQ(errorOf(text, fast), "m.cat:1:1: timeout: the model did not load within 0.000001 s (--timeout)");
    ModelOptions small;
    small.limits.megabytes = 1;
    EXPECT_EQ(errorOf(text, small), "m.cat:1:1: memory limit of 1 MiB reached (--max-memory)");
    fast.test = "t.litmus";  // loaded for a test: the test's limit, at the test
    EXPECT_EQ(errorOf(text, fast), "t.litmus:1:1: timeout: no answer within 0.000001 s (--timeout)");
}

// A model is UTF-8 text: a NUL byte or a byte that is not UTF-8 is refused
// where it is, and a message quoting a control character shows it escaped.
TEST(ModelLanguage, RawBytesAreRefusedWhereTheyAre) {
    EXPECT_EQ(errorOf(std::string("let a = po\nacyclic a\0 as b\n", 27)), "m.cat:2:10: NUL byte in the file: a model is text");
    EXPECT_EQ(errorOf("let a = po\n  acyclic \xff\xfe"), "m.cat:2:11: invalid UTF-8 (byte 0xFF): a model is UTF-8 text");
    EXPECT_EQ(errorOf("let a = po \x1b[2J"), "m.cat:1:12: unexpected character '\\x1B'");
    EXPECT_EQ(errorOf("acyclic \"na\x01me\""), "m.cat:1:9: expected a set or relation (a name, '(', '[' or 0), found "
                                                "'na\\x01me'");
}

}  // namespace
}  // namespace rdmacheck
