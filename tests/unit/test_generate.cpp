// Printer, random generator and shrinker: printed tests parse back to the same
// test, generated tests are valid and reproducible, shrinking reaches a minimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "../test_support.hpp"
#include "rdmacheck/crosscheck.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/shrink.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using rdmacheck::testing::statementCount;
using rdmacheck::testing::modelsDir;
using rdmacheck::testing::sourceDir;

namespace {

// Structural equality, source positions aside.
bool same(const Expr& a, const Expr& b) {
    if (a.kind != b.kind || a.value != b.value || a.name != b.name || a.remoteNode != b.remoteNode ||
        a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same(a.args[i], b.args[i])) return false;
    return true;
}

bool same(const LocRef& a, const LocRef& b) { return a.name == b.name && a.node == b.node; }

bool same(const Block& a, const Block& b);

bool same(const Stmt& a, const Stmt& b) {
    if (a.kind != b.kind || !same(a.target, b.target) || !same(a.source, b.source) ||
        a.sourceIsConst != b.sourceIsConst || a.constant != b.constant || !same(a.expr, b.expr) ||
        !same(a.expr2, b.expr2) || a.result != b.result || a.node != b.node || a.compare != b.compare ||
        !same(a.body, b.body) || !same(a.orelse, b.orelse) ||
        a.branches.size() != b.branches.size() || a.workId != b.workId || a.nodes != b.nodes ||
        a.library != b.library || a.method != b.method || a.hasResult != b.hasResult || a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.branches.size(); ++i)
        if (!same(a.branches[i], b.branches[i])) return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (a.args[i].isNodeSet != b.args[i].isNodeSet || a.args[i].nodes != b.args[i].nodes ||
            !same(a.args[i].expr, b.args[i].expr))
            return false;
    return true;
}

bool same(const Block& a, const Block& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

bool same(const Cond& a, const Cond& b) {
    if (a.kind != b.kind || a.loc != b.loc || a.thread != b.thread || a.equal != b.equal || a.value != b.value ||
        a.args.size() != b.args.size())
        return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same(a.args[i], b.args[i])) return false;
    return true;
}

bool same(const LitmusTest& a, const LitmusTest& b) {
    if (a.arch != b.arch || a.name != b.name || a.description != b.description ||
        a.locations.size() != b.locations.size() || a.threads.size() != b.threads.size() ||
        a.shown.size() != b.shown.size() || a.filter.has_value() != b.filter.has_value() ||
        a.quantifier != b.quantifier || !same(a.condition, b.condition))
        return false;
    for (size_t i = 0; i < a.locations.size(); ++i)
        if (a.locations[i].name != b.locations[i].name || a.locations[i].node != b.locations[i].node ||
            a.locations[i].init != b.locations[i].init || a.locations[i].shared != b.locations[i].shared)
            return false;
    for (size_t i = 0; i < a.threads.size(); ++i)
        if (a.threads[i].name != b.threads[i].name || a.threads[i].node != b.threads[i].node ||
            !same(a.threads[i].body, b.threads[i].body))
            return false;
    for (size_t i = 0; i < a.shown.size(); ++i)
        if (a.shown[i].name != b.shown[i].name || a.shown[i].thread != b.shown[i].thread) return false;
    return !a.filter || same(*a.filter, *b.filter);
}

LitmusTest reparse(const LitmusTest& t) { return parseLitmus(printLitmus(t), "printed.litmus"); }

// Printing a parsed test gives text that parses to the same test and prints identically.
void expectRoundTrip(const LitmusTest& t) {
    const std::string text = printLitmus(t);
    const LitmusTest back = parseLitmus(text, "printed.litmus");
    EXPECT_TRUE(same(t, back)) << text;
    EXPECT_EQ(printLitmus(back), text);
}

const Model& rdmaTso() {
    static const Model model = loadModel(modelsDir(), "rdma-tso");
    return model;
}

CheckResult checkRdmaTso(const LitmusTest& t) { return check(t, rdmaTso(), CheckOptions{}); }

bool containsConstantPut(const Block& b) {
    for (const Stmt& s : b) {
        if ((s.kind == Stmt::Kind::Put && s.sourceIsConst) || containsConstantPut(s.body) ||
            containsConstantPut(s.orelse))
            return true;
        for (const Block& branch : s.branches)
            if (containsConstantPut(branch)) return true;
    }
    return false;
}

// Some thread gets from node n and later polls n.
bool getThenPoll(const LitmusTest& t) {
    for (const ThreadDecl& thread : t.threads) {
        std::set<int> gotFrom;
        for (const Stmt& s : thread.body) {
            if (s.kind == Stmt::Kind::Get) gotFrom.insert(*s.source.node);
            if (s.kind == Stmt::Kind::Poll && gotFrom.count(s.node)) return true;
        }
    }
    return false;
}

// Distinct locations an expression reads.
void locationsOf(const Expr& e, std::set<std::string>& names) {
    if (e.kind == Expr::Kind::Location) names.insert(e.name);
    for (const Expr& arg : e.args) locationsOf(arg, names);
}

bool isRemoteRmw(const Stmt& s) { return s.kind == Stmt::Kind::RCas || s.kind == Stmt::Kind::RFaa; }

size_t remoteRmwCount(const LitmusTest& t) {
    size_t n = 0;
    for (const ThreadDecl& thread : t.threads)
        n += static_cast<size_t>(std::count_if(thread.body.begin(), thread.body.end(), isRemoteRmw));
    return n;
}

// Control flow nests at most one level deep, and polls are never inside it.
bool simpleBlock(const Block& b) {
    for (const Stmt& s : b) {
        switch (s.kind) {
            case Stmt::Kind::Assign:
            case Stmt::Kind::Put:
            case Stmt::Kind::Get:
            case Stmt::Kind::MFence: break;
            default: return false;
        }
    }
    return true;
}

}  // namespace

TEST(PrintLitmus, CorpusRoundTripsAndChecksTheSame) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-tso")) {
        if (entry.path().extension() != ".litmus") continue;
        SCOPED_TRACE(entry.path().string());
        ++files;
        const LitmusTest original = parseLitmusFile(entry.path().string());
        expectRoundTrip(original);
        EXPECT_EQ(checkRdmaTso(original).states, checkRdmaTso(reparse(original)).states);
    }
    EXPECT_EQ(files, 29);  // 27 + LOCO Fig. 2c (z0, z1)
}

// The MOWGLI library corpora (barriers, locks with homes, SC locations) print
// and read back to the same test and the same states.
TEST(PrintLitmus, LibraryCorporaRoundTrip) {
    const Model model = loadModel(modelsDir(), "rdma-wait-rmw");
    int files = 0;
    for (const std::string corpus : {"bal", "locks", "sc", "rbl"})
        for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/" + corpus)) {
            if (entry.path().extension() != ".litmus") continue;
            SCOPED_TRACE(entry.path().string());
            ++files;
            const LitmusTest original = parseLitmusFile(entry.path().string());
            expectRoundTrip(original);
            EXPECT_EQ(check(original, model, CheckOptions{}).states,
                      check(reparse(original), model, CheckOptions{}).states);
        }
    EXPECT_EQ(files, 9 + 38 + 10 + 15);
}

TEST(PrintLitmus, EveryStatementAndConditionForm) {
    const LitmusTest t = parseLitmus(R"(RDMA all+forms
"every form"
{ x@1 = 3; y@2 = -2; }
P0@1 {
  a := y^2;
  y^2 := a;
  y^2 := -1;
  rfence(2); mfence;
  c := CAS(x, 3, a + 1);
  assume(x != -2);
  if (x = 1) { b := 2 } else { b := 3 };
  if (x = 1) { b := 2 };
  choice { b := 4 } or { b := 5 } or { };
  loop { d := d + 1 };
  while (x != 0) { x := x - 1; loop { } };
}
P1@2 { }
locations [x; y;]
filter a = 0 \/ ~(b = 1) \/ ~true
~exists (x = 1 /\ (y = 2 \/ true) /\ ~~false /\ (a = 1 /\ b != -3))
)", "all.litmus");
    expectRoundTrip(t);
    const LitmusTest back = reparse(t);
    EXPECT_EQ(back.condition.args.size(), 4u);
    EXPECT_EQ(back.condition.args[3].kind, Cond::Kind::And);
}

TEST(PrintLitmus, DescriptionLosesItsQuotes) {
    LitmusTest t = parseLitmus("RDMA d\n{ x@1; }\nP0@1 { x := 1 }\nexists (x = 1)\n", "d.litmus");
    t.description = "say \"hi\"";
    EXPECT_EQ(reparse(t).description, "say hi");
    t.description = "\"";  // nothing left to print: no description line
    EXPECT_EQ(printLitmus(t).find('"'), std::string::npos);
}

TEST(PrintLitmus, ExpressionsKeepTheirShape) {
    const LitmusTest t = parseLitmus(R"(RDMA exprs
{ x@1; }
P0@1 {
  a := (x - 1) - (2 - x);
  a := x * (x * 2) + (x + 1) * x;
  a := -(x + 1) - -1 * -x;
  a := --x;
  a := (((x)));
}
exists (a = 0)
)", "exprs.litmus");
    expectRoundTrip(t);
    const std::string text = printLitmus(t);
    EXPECT_NE(text.find("a := x - 1 - (2 - x);"), std::string::npos) << text;
    EXPECT_NE(text.find("a := x * (x * 2) + (x + 1) * x;"), std::string::npos) << text;
    EXPECT_NE(text.find("a := -(x + 1) - -1 * -x;"), std::string::npos) << text;
    EXPECT_NE(text.find("a := --x;"), std::string::npos) << text;
    EXPECT_NE(text.find("a := x;"), std::string::npos) << text;
}

TEST(PrintLitmus, NegativeConstantBuiltInTheTreeParsesBack) {
    LitmusTest t = parseLitmus("RDMA neg\n{ x@1; }\nP0@1 { x := 1 }\nexists (x = 1)\n", "neg.litmus");
    t.threads[0].body[0].expr = Expr::constant(-1, {});  // the parser makes Neg(1) of `-1`
    const std::string text = printLitmus(t);
    EXPECT_NE(text.find("x := -1;"), std::string::npos) << text;
    EXPECT_EQ(printLitmus(reparse(t)), text);
}

// Both spellings of an RMW print as RCAS(z, y^n, ...) / RFAA(z, y^n, ...); `_` stays `_`.
TEST(PrintLitmus, RemoteRmws) {
    const LitmusTest t = parseLitmus(R"(RDMA rmws
{ x@1; y@2; }
P0@1 {
  RCAS(a, y^2, 0, 1);
  RFAA(_, y^2, 3);
  b := RCAS(x^1, -1, 2);
  c := RFAA(y^2, 1);
  RCAS(_, x^1, 2, 0);
}
exists (a = 0)
)", "rmws.litmus");
    expectRoundTrip(t);
    const std::string text = printLitmus(t);
    for (const char* line : {"  RCAS(a, y^2, 0, 1);\n", "  RFAA(_, y^2, 3);\n", "  RCAS(b, x^1, -1, 2);\n",
                             "  RFAA(c, y^2, 1);\n", "  RCAS(_, x^1, 2, 0);\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << text;
}

// The MOWGLI forms (doc/LITMUS.md "RDMA^WAIT statements", "Library calls"): work
// identifiers on gets, puts and RMWs, wait, gfence, `x@sv`, SV calls, and the
// copies `x@n` in conditions and `locations [...]`.
TEST(PrintLitmus, WorkIdentifiersAndSharedVariables) {
    const LitmusTest t = parseLitmus(R"(RDMA mowgli+forms
{ x@sv = 2; y@2; z@2 = -1; w@sv; }
P0@1 {
  a :=^d y^2;
  y^2 :=^d a;
  y^2 :=^e -4;
  a := y^2;
  y^2 := 1;
  wait(d);
  RCAS(b, z^2, 0, 1, d);
  RFAA(_, z^2, 2, e);
  c := RCAS(z^2, 1, 2, f);
  RFAA(c, z^2, 1);
  gfence(1, 2);
  sv.write(x, 1);
  sv.write(x, a);
  b := sv.read(x);
  sv.bcast(x, d, {2, 1});
  sv.bcast(w, _, {2});
  sv.wait(d);
  sv.gf({1, 2});
  if (a = 1) { sv.wait(_) } else { choice { wait(e) } or { gfence(2) } };
  loop { sv.bcast(x, e, {1}) };
}
P1@2 { g := sv.read(w); sv.gf({1}) }
locations [x@1; x@2; w@2; y;]
filter x@1 != 0 \/ a = 0
exists (x@2 = 1 /\ ~(w@1 = 0) /\ b = 2)
)", "mowgli.litmus");
    expectRoundTrip(t);
    const std::string text = printLitmus(t);
    for (const char* piece :
         {"{ x@sv = 2; y@2 = 0; z@2 = -1; w@sv = 0; }", "  a :=^d y^2;\n", "  y^2 :=^d a;\n", "  y^2 :=^e -4;\n",
          "  a := y^2;\n", "  y^2 := 1;\n", "  wait(d);\n", "  RCAS(b, z^2, 0, 1, d);\n", "  RFAA(_, z^2, 2, e);\n",
          "  RCAS(c, z^2, 1, 2, f);\n", "  RFAA(c, z^2, 1);\n", "  gfence(1, 2);\n", "  sv.write(x, 1);\n",
          "  sv.write(x, a);\n", "  b := sv.read(x);\n", "  sv.bcast(x, d, {2, 1});\n", "  sv.bcast(w, _, {2});\n",
          "  sv.wait(d);\n", "  sv.gf({1, 2});\n", "sv.wait(_)", "wait(e)", "gfence(2)", "sv.bcast(x, e, {1})",
          "g := sv.read(w)", "locations [x@1;x@2;w@2;y;]", "x@1 != 0", "x@2 = 1", "w@1 = 0"})
        EXPECT_NE(text.find(piece), std::string::npos) << piece << "\n" << text;
    const LitmusTest back = reparse(t);
    EXPECT_TRUE(back.locations[0].shared);
    EXPECT_FALSE(back.locations[1].shared);
    EXPECT_EQ(back.threads[0].body[14].args.at(2).nodes, (std::vector<int>{2, 1}));
    // The printed test means the same: it unfolds to the same events.
    const UnfoldedProgram before = unfold(t, UnfoldOptions{});
    const UnfoldedProgram after = unfold(back, UnfoldOptions{});
    ASSERT_EQ(before.paths.size(), after.paths.size());
    for (size_t th = 0; th < before.paths.size(); ++th) {
        ASSERT_EQ(before.paths[th].size(), after.paths[th].size());
        for (size_t p = 0; p < before.paths[th].size(); ++p) {
            const auto& x = before.paths[th][p].events;
            const auto& y = after.paths[th][p].events;
            ASSERT_EQ(x.size(), y.size());
            for (size_t e = 0; e < x.size(); ++e) {
                EXPECT_EQ(x[e].kind, y[e].kind);
                EXPECT_EQ(x[e].location, y[e].location);
                EXPECT_EQ(x[e].remote, y[e].remote);
                EXPECT_EQ(x[e].call, y[e].call);
                EXPECT_EQ(x[e].workId, y[e].workId);
                EXPECT_EQ(x[e].library, y[e].library);
            }
        }
    }
}

// The MOWGLI corpus prints back to itself.
TEST(PrintLitmus, WaitCorpusRoundTrips) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/rdma-wait")) {
        if (entry.path().extension() != ".litmus") continue;
        SCOPED_TRACE(entry.path().string());
        ++files;
        expectRoundTrip(parseLitmusFile(entry.path().string()));
    }
    EXPECT_GT(files, 0);
}

// BAL's methods are bare (its descriptor says so): `bal.bar(z)` prints as
// `bar(z)`, and the barrier corpus prints back to itself.
TEST(PrintLitmus, BarriersPrintBare) {
    const LitmusTest t = parseLitmus("RDMA bars\n{ }\nP0@1 { bar(z); bal.tbar(z) }\nP1@2 { bal.bar(z); tbar(z) }\n"
                                     "exists (true)\n",
                                     "bars.litmus");
    expectRoundTrip(t);
    const std::string text = printLitmus(t);
    EXPECT_EQ(text.find("bal."), std::string::npos) << text;
    EXPECT_NE(text.find("  bar(z);\n  tbar(z);\n}"), std::string::npos) << text;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir() + "/litmus/bal"))
        if (entry.path().extension() == ".litmus") expectRoundTrip(parseLitmusFile(entry.path().string()));
}

// A copy is `x@n` with n a number; a shared declaration prints as `x@sv`.
TEST(PrintLitmus, RefusesABadCopyName) {
    LitmusTest t = parseLitmus("RDMA c\n{ x@sv; }\nP0@1 { sv.write(x, 1) }\nexists (x@1 = 1)\n", "c.litmus");
    t.condition.loc = "x@n";
    EXPECT_THROW(printLitmus(t), std::invalid_argument);
    t.condition.loc = "x@";
    EXPECT_THROW(printLitmus(t), std::invalid_argument);
    t.condition.loc = "x@12";
    EXPECT_NE(printLitmus(t).find("exists (x@12 = 1)"), std::string::npos) << printLitmus(t);
}

TEST(PrintLitmus, RefusesWhatTheRdmaFormatCannotSay) {
    LitmusTest x86;
    x86.arch = Arch::X86;
    x86.name = "x86";
    EXPECT_THROW(printLitmus(x86), std::invalid_argument);
    LitmusTest rfaa = parseLitmus("RDMA r\n{ y@2; }\nP0@1 { RFAA(z, y^2, 1) }\nexists (y = 1)\n", "r.litmus");
    Expr location;  // RMW operands are integers only
    location.kind = Expr::Kind::Location;
    location.name = "z";
    rfaa.threads[0].body[0].expr = location;
    EXPECT_THROW(printLitmus(rfaa), std::invalid_argument);
    LitmusTest reg = parseLitmus("RDMA r\n{ x@1; }\nP0@1 { mfence }\nexists (x = 1)\n", "r.litmus");
    reg.threads[0].body[0].kind = Stmt::Kind::RegLoad;
    EXPECT_THROW(printLitmus(reg), std::invalid_argument);
}

TEST(GenerateLitmus, DefaultOptionsGiveValidTests) {
    const GeneratorOptions options;
    for (uint64_t seed = 0; seed < 1000; ++seed) {
        const std::string text = generateLitmus(seed, options);
        try {
            const LitmusTest t = parseLitmus(text, "gen.litmus");
            EXPECT_EQ(t.name, "random-" + std::to_string(seed));
            EXPECT_EQ(t.threads.size(), 2u);
            for (const ThreadDecl& thread : t.threads) {
                EXPECT_GE(thread.body.size(), 1u);
                EXPECT_LE(thread.body.size(), 4u);
            }
            unfold(t, UnfoldOptions{});
        } catch (const InputError& e) {
            ADD_FAILURE() << e.what() << "\n" << text;
        }
    }
}

TEST(GenerateLitmus, LargerOptionsGiveValidTests) {
    GeneratorOptions options;
    options.nodes = 3;
    options.threads = 3;
    options.maxLength = 5;
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const std::string text = generateLitmus(seed, options);
        try {
            const LitmusTest t = parseLitmus(text, "gen.litmus");
            ASSERT_EQ(t.threads.size(), 3u);
            EXPECT_EQ(t.threads[2].node, 3);
            unfold(t, UnfoldOptions{});
        } catch (const InputError& e) {
            ADD_FAILURE() << e.what() << "\n" << text;
        }
    }
}

TEST(GenerateLitmus, EdgeOptionsGiveValidTests) {
    GeneratorOptions oneNode;  // every remote op is a loopback
    oneNode.nodes = 1;
    oneNode.threads = 3;
    oneNode.minLength = 0;
    GeneratorOptions noShared;  // no puts or gets: private locations only
    noShared.nodes = 3;
    noShared.sharedPerNode = 0;
    GeneratorOptions manyShared;  // more nodes than threads, several locations each
    manyShared.nodes = 4;
    manyShared.threads = 3;
    manyShared.sharedPerNode = 3;
    manyShared.values = 5;
    manyShared.loopback = 1;
    for (const GeneratorOptions& options : {oneNode, noShared, manyShared}) {
        for (uint64_t seed = 0; seed < 200; ++seed) {
            const std::string text = generateLitmus(seed, options);
            try {
                const LitmusTest t = parseLitmus(text, "gen.litmus");
                for (const ThreadDecl& thread : t.threads) {
                    for (const Stmt& s : thread.body) {
                        const bool remote = s.kind == Stmt::Kind::Put || s.kind == Stmt::Kind::Get;
                        EXPECT_FALSE(remote && options.sharedPerNode == 0) << text;
                        const LocRef& remoteLocation = s.kind == Stmt::Kind::Put ? s.target : s.source;
                        EXPECT_FALSE(remote && options.loopback == 1 && remoteLocation.node != thread.node) << text;
                    }
                }
                unfold(t, UnfoldOptions{});
            } catch (const InputError& e) {
                ADD_FAILURE() << e.what() << "\n" << text;
            }
        }
    }
}

// Generated text is printer output, so print∘parse must give it back unchanged.
TEST(GenerateLitmus, GeneratedTestsRoundTrip) {
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const std::string text = generateLitmus(seed, GeneratorOptions{});
        const LitmusTest t = parseLitmus(text, "gen.litmus");
        EXPECT_EQ(printLitmus(t), text);
        EXPECT_TRUE(same(t, reparse(t))) << text;
    }
}

TEST(GenerateLitmus, SeedDeterminesTheText) {
    EXPECT_EQ(generateLitmus(7, GeneratorOptions{}), generateLitmus(7, GeneratorOptions{}));
    std::set<std::string> texts;
    for (uint64_t seed = 0; seed < 100; ++seed) texts.insert(generateLitmus(seed, GeneratorOptions{}));
    EXPECT_GE(texts.size(), 95u);
}

// The generator uses only integer arithmetic on splitmix64: this text is the same on every platform.
TEST(GenerateLitmus, SeedGivesThisTextEverywhere) {
    EXPECT_EQ(generateLitmus(42, GeneratorOptions{}), R"(RDMA random-42
{ x@1 = 0; y@2 = 0; r1_0@2 = 0; }

P0@1 {
  y^2 := x;
  mfence;
}

P1@2 {
  y := 1;
  r1_0 := CAS(y, 2, 0);
}

exists (x = 0 /\ r1_0 = 0)
)");
}

TEST(GenerateLitmus, MixSelectsStatementKinds) {
    GeneratorOptions options;
    parseMix("write=0,read=0,put=1,get=0,poll=0,rfence=0,mfence=0,cas=0", options);
    EXPECT_EQ(options.mix.at("put"), 1);
    EXPECT_EQ(options.mix.at("get"), 0);
    for (uint64_t seed = 0; seed < 50; ++seed) {
        const LitmusTest t = parseLitmus(generateLitmus(seed, options), "gen.litmus");
        for (const ThreadDecl& thread : t.threads)
            for (const Stmt& s : thread.body) EXPECT_EQ(s.kind, Stmt::Kind::Put);
    }
}

TEST(GenerateLitmus, ControlFlowMixGivesValidTests) {
    GeneratorOptions options;
    parseMix("expr=2,assume=1,if=2,choice=1,loop=1,while=1", options);
    std::set<Stmt::Kind> seen;
    bool twoLocations = false, threeLocations = false, emptyElse = false;
    size_t mostPaths = 0;
    for (uint64_t seed = 0; seed < 500; ++seed) {
        const std::string text = generateLitmus(seed, options);
        try {
            const LitmusTest t = parseLitmus(text, "gen.litmus");
            EXPECT_EQ(printLitmus(t), text);
            for (const ThreadDecl& thread : t.threads) {
                for (const Stmt& s : thread.body) {
                    seen.insert(s.kind);
                    EXPECT_TRUE(simpleBlock(s.body) && simpleBlock(s.orelse)) << text;
                    for (const Block& branch : s.branches) EXPECT_TRUE(simpleBlock(branch)) << text;
                    if (s.kind == Stmt::Kind::If && s.orelse.empty()) emptyElse = true;
                    if (s.kind == Stmt::Kind::Assign) {
                        std::set<std::string> names;
                        locationsOf(s.expr, names);
                        twoLocations = twoLocations || names.size() == 2;
                        threeLocations = threeLocations || names.size() == 3;
                    }
                }
            }
            const UnfoldedProgram program = unfold(t, UnfoldOptions{});
            for (const auto& paths : program.paths) mostPaths = std::max(mostPaths, paths.size());
        } catch (const InputError& e) {
            ADD_FAILURE() << e.what() << "\n" << text;
        }
    }
    for (Stmt::Kind kind : {Stmt::Kind::If, Stmt::Kind::Choice, Stmt::Kind::Loop, Stmt::Kind::While,
                            Stmt::Kind::Assume, Stmt::Kind::Poll, Stmt::Kind::Cas})
        EXPECT_TRUE(seen.count(kind)) << static_cast<int>(kind);
    EXPECT_TRUE(twoLocations);
    EXPECT_TRUE(threeLocations);
    EXPECT_TRUE(emptyElse);
    EXPECT_LE(mostPaths, 64u);  // the path budget keeps unfolding small
}

TEST(GenerateLitmus, MixOfOnlyWhileGivesWhileStatements) {
    GeneratorOptions options;
    options.mix = {{"while", 1}};
    for (uint64_t seed = 0; seed < 50; ++seed) {
        const std::string text = generateLitmus(seed, options);
        const LitmusTest t = parseLitmus(text, "gen.litmus");
        for (const ThreadDecl& thread : t.threads)
            for (const Stmt& s : thread.body) {
                EXPECT_EQ(s.kind, Stmt::Kind::While) << text;
                EXPECT_EQ(s.compare, Comparison::Ne) << text;
                EXPECT_TRUE(simpleBlock(s.body)) << text;
            }
        unfold(t, UnfoldOptions{});
    }
}

TEST(GenerateLitmus, DefaultMixHasNoRemoteRmws) {
    const GeneratorOptions options;
    for (const char* kind : {"rcas", "rfaa"})
        EXPECT_TRUE(!options.mix.count(kind) || options.mix.at(kind) == 0) << kind;
    for (uint64_t seed = 0; seed < 500; ++seed) {
        const std::string text = generateLitmus(seed, options);
        EXPECT_EQ(remoteRmwCount(parseLitmus(text, "gen.litmus")), 0u) << text;
    }
}

TEST(GenerateLitmus, RmwMixGivesValidTests) {
    GeneratorOptions options;
    parseMix("rcas=2,rfaa=2", options);
    options.values = 3;
    std::set<Stmt::Kind> seen;
    bool discarded = false, reused = false, loopback = false;
    for (uint64_t seed = 0; seed < 300; ++seed) {
        const std::string text = generateLitmus(seed, options);
        try {
            const LitmusTest t = parseLitmus(text, "gen.litmus");
            EXPECT_EQ(printLitmus(t), text);
            EXPECT_TRUE(same(t, reparse(t))) << text;
            for (const ThreadDecl& thread : t.threads) {
                std::set<std::string> locals;  // the thread's private locations written so far
                for (const Stmt& s : thread.body) {
                    seen.insert(s.kind);
                    if (!isRemoteRmw(s)) {
                        if (s.kind == Stmt::Kind::Get || s.kind == Stmt::Kind::Assign) locals.insert(s.target.name);
                        locals.insert(s.result);
                        continue;
                    }
                    ASSERT_TRUE(s.target.node.has_value()) << text;
                    loopback = loopback || *s.target.node == thread.node;
                    discarded = discarded || s.source.name == "_";
                    reused = reused || locals.count(s.source.name);
                    locals.insert(s.source.name);
                    EXPECT_GE(s.expr.value, s.kind == Stmt::Kind::RCas ? 0 : 1) << text;  // RCAS may expect 0
                    EXPECT_LE(s.expr.value, options.values) << text;
                    if (s.kind == Stmt::Kind::RCas) {
                        EXPECT_GE(s.expr2.value, 1) << text;
                        EXPECT_LE(s.expr2.value, options.values) << text;
                    }
                }
            }
            unfold(t, UnfoldOptions{});
        } catch (const InputError& e) {
            ADD_FAILURE() << e.what() << "\n" << text;
        }
    }
    EXPECT_TRUE(seen.count(Stmt::Kind::RCas));
    EXPECT_TRUE(seen.count(Stmt::Kind::RFaa));
    EXPECT_TRUE(discarded);
    EXPECT_TRUE(reused);
    EXPECT_TRUE(loopback);
}

// A poll needs an earlier remote op towards its node: RMWs are such ops.
TEST(GenerateLitmus, PollsWaitForRemoteRmws) {
    GeneratorOptions options;
    options.mix = {{"rfaa", 1}, {"rcas", 1}, {"poll", 2}};
    size_t polls = 0;
    for (uint64_t seed = 0; seed < 100; ++seed) {
        const std::string text = generateLitmus(seed, options);
        const LitmusTest t = parseLitmus(text, "gen.litmus");
        for (const ThreadDecl& thread : t.threads) {
            std::map<int, int> unpolled;
            for (const Stmt& s : thread.body) {
                if (isRemoteRmw(s)) ++unpolled[*s.target.node];
                if (s.kind != Stmt::Kind::Poll) continue;
                ++polls;
                EXPECT_GE(--unpolled[s.node], 0) << text;
            }
        }
        unfold(t, UnfoldOptions{});
    }
    EXPECT_GT(polls, 0u);
}

// An RCAS doubles the thread's paths (success, failure), so after three of them a loop
// (four paths per path) would pass the budget of 24 and is held back.
TEST(GenerateLitmus, RcasCountsInThePathBudget) {
    GeneratorOptions options;
    options.mix = {{"rcas", 1}, {"loop", 1}};
    options.maxLength = 6;
    bool loopAfterRcas = false;
    for (uint64_t seed = 0; seed < 300; ++seed) {
        const std::string text = generateLitmus(seed, options);
        const LitmusTest t = parseLitmus(text, "gen.litmus");
        for (const ThreadDecl& thread : t.threads) {
            long long paths = 1;
            for (const Stmt& s : thread.body) {
                if (s.kind == Stmt::Kind::Loop) {
                    EXPECT_LE(paths * 4, 24) << text;
                    loopAfterRcas = loopAfterRcas || paths % 4 != 0;  // an odd number of RCAS before it
                }
                paths *= s.kind == Stmt::Kind::RCas ? 2 : 4;
            }
        }
    }
    EXPECT_TRUE(loopAfterRcas);
}

TEST(GenerateLitmus, ParseMixRejectsBadSpecs) {
    GeneratorOptions options;
    EXPECT_THROW(parseMix("bogus=1", options), std::invalid_argument);
    EXPECT_THROW(parseMix("put=x", options), std::invalid_argument);
    EXPECT_THROW(parseMix("put=-1", options), std::invalid_argument);
    EXPECT_THROW(parseMix("put", options), std::invalid_argument);
    EXPECT_THROW(parseMix("put=1,", options), std::invalid_argument);
    EXPECT_EQ(options.mix, GeneratorOptions{}.mix);  // a rejected spec changes nothing
    parseMix("put=2,get=3,cas=0", options);
    EXPECT_EQ(options.mix.at("put"), 2);
    EXPECT_EQ(options.mix.at("get"), 3);
    EXPECT_EQ(options.mix.at("cas"), 0);
    EXPECT_EQ(options.mix.at("write"), 3);
    parseMix("expr=1,assume=2,if=3,choice=4,loop=5,while=6", options);
    EXPECT_EQ(options.mix.at("expr"), 1);
    EXPECT_EQ(options.mix.at("while"), 6);
    try {
        parseMix("for=1", options);
        ADD_FAILURE() << "for=1 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("choice, loop, while"), std::string::npos) << e.what();
    }
}

TEST(GenerateLitmus, RejectsUnusableOptions) {
    GeneratorOptions noNodes;
    noNodes.nodes = 0;
    EXPECT_THROW(generateLitmus(1, noNodes), std::invalid_argument);
    GeneratorOptions onlyPolls;
    onlyPolls.mix = {{"poll", 1}};
    EXPECT_THROW(generateLitmus(1, onlyPolls), std::invalid_argument);
}

TEST(ShrinkLitmus, SyntacticPropertyShrinksToGetThenPoll) {
    uint64_t seed = 0;
    LitmusTest start;
    for (;; ++seed) {
        start = parseLitmus(generateLitmus(seed, GeneratorOptions{}), "gen.litmus");
        if (getThenPoll(start) && statementCount(start) >= 6) break;
    }
    const LitmusTest small = shrink(start, getThenPoll);
    SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + printLitmus(small));
    EXPECT_TRUE(getThenPoll(small));
    ASSERT_EQ(small.threads.size(), 1u);
    const Block& body = small.threads[0].body;
    ASSERT_EQ(body.size(), 2u);
    EXPECT_EQ(body[0].kind, Stmt::Kind::Get);
    EXPECT_EQ(body[1].kind, Stmt::Kind::Poll);
    EXPECT_EQ(small.quantifier, Quantifier::Exists);
    EXPECT_EQ(small.condition.kind, Cond::Kind::True);
    EXPECT_LE(small.locations.size(), 2u);  // only the get's source and target may stay declared
    EXPECT_EQ(printLitmus(reparse(small)), printLitmus(small));
}

TEST(ShrinkLitmus, ReducesInsideBlocksAndConstants) {
    const LitmusTest start = parseLitmus(R"(RDMA nested
"nested"
{ x@1 = 5; y@2 = 3; unused@1 = 7; }
P0@1 {
  a := x + 2;
  if (x = 4) { b := 1 } else { choice { mfence } or { loop { while (x != 3) { y^2 := 4; } } } };
}
P1@2 { c := y * 2 }
locations [x; y;]
filter y = 3 \/ x = 5
forall (x = 5 /\ c = 6 /\ a != 1)
)", "nested.litmus");
    const auto putsAConstant = [](const LitmusTest& t) {
        for (const ThreadDecl& thread : t.threads)
            if (containsConstantPut(thread.body)) return true;
        return false;
    };
    const LitmusTest small = shrink(start, putsAConstant);
    EXPECT_EQ(printLitmus(small), "RDMA nested\n\"nested\"\n{ y@2 = 0; }\n\nP0@1 {\n  y^2 := 0;\n}\n\nexists (true)\n");
}

TEST(ShrinkLitmus, ReducesRemoteRmws) {
    const LitmusTest start = parseLitmus(R"(RDMA rmws
{ x@1 = 0; y@2 = 0; a@1 = 0; b@1 = 0; }
P0@1 {
  RCAS(a, y^2, 2, 3);
  b := RFAA(x^1, 2);
}
exists (a = 2 /\ b = 1)
)", "rmws.litmus");
    const auto hasRcas = [](const LitmusTest& t) {
        for (const ThreadDecl& thread : t.threads)
            for (const Stmt& s : thread.body)
                if (s.kind == Stmt::Kind::RCas) return true;
        return false;
    };
    const LitmusTest small = shrink(start, hasRcas);
    EXPECT_EQ(printLitmus(small), "RDMA rmws\n{ y@2 = 0; }\n\nP0@1 {\n  RCAS(_, y^2, 0, 0);\n}\n\nexists (true)\n");
}

// A model without ar;rao lets two RMWs on one location read the same value (a lost
// update): the shrinker keeps that difference from rdma-tso-rmw, down to two RMWs.
TEST(ShrinkLitmus, KeepsACrossDifferenceOnRemoteRmws) {
    std::map<std::string, Model> models;
    models.emplace("rdma-tso-rmw", loadModel(modelsDir(), "rdma-tso-rmw"));
    std::string text = rdmacheck::testing::readFile(modelsDir() + "/rdma-tso-rmw.cat");
    const std::string arRao = " | ar;rao";
    ASSERT_NE(text.find(arRao), std::string::npos);
    text.erase(text.find(arRao), arRao.size());
    models.emplace("lossy", parseModel(text, modelsDir() + "/lossy.cat", modelsDir()));
    CrossOptions options;
    options.configs = {{"declarative", "rdma-tso-rmw"}, {"declarative", "lossy"}};
    options.againstFirst = true;
    GeneratorOptions generator;
    parseMix("rcas=2,rfaa=2", generator);
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const LitmusTest start = parseLitmus(generateLitmus(seed, generator), "gen.litmus");
        if (statementCount(start) < 6) continue;
        const std::optional<Difference> d = crossCheck(start, models, options);
        if (!d) continue;
        SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + d->reproducer);
        EXPECT_TRUE(d->onlySecond.size() > 0 && d->onlyFirst.empty());  // lossy only adds states
        const LitmusTest small = parseLitmus(d->reproducer, "small.litmus");
        EXPECT_EQ(remoteRmwCount(small), 2u);
        EXPECT_EQ(statementCount(small), 2u);
        CrossOptions noShrink = options;
        noShrink.shrink = false;
        EXPECT_TRUE(crossCheck(small, models, noShrink).has_value());
        return;
    }
    ADD_FAILURE() << "no generated test shows the lost update";
}

TEST(ShrinkLitmus, CheckerPropertyShrinksToASmallTest) {
    const auto severalStates = [](const LitmusTest& t) { return checkRdmaTso(t).states.size() > 1; };
    LitmusTest start;
    for (uint64_t seed = 0;; ++seed) {
        start = parseLitmus(generateLitmus(seed, GeneratorOptions{}), "gen.litmus");
        if (statementCount(start) >= 6 && severalStates(start)) break;
    }
    const LitmusTest small = shrink(start, severalStates);
    SCOPED_TRACE(printLitmus(start) + "shrinks to\n" + printLitmus(small));
    EXPECT_TRUE(severalStates(small));
    EXPECT_LE(statementCount(small), 2u);
}

TEST(ShrinkLitmus, RefusesATestWithoutTheProperty) {
    const LitmusTest t = parseLitmus("RDMA t\n{ x@1; }\nP0@1 { x := 1 }\nexists (x = 1)\n", "t.litmus");
    EXPECT_THROW(shrink(t, [](const LitmusTest&) { return false; }), std::invalid_argument);
}
