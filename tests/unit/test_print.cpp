// The printer: printed tests parse back to the same test and print
// identically, for the corpora and every statement, condition and library form,
// and the printer refuses what the RDMA format cannot say.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "print_support.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using rdmacheck::testing::checkRdmaTso;
using rdmacheck::testing::modelsDir;
using rdmacheck::testing::reparse;
using rdmacheck::testing::same;
using rdmacheck::testing::sourceDir;

namespace {

// Printing a parsed test gives text that parses to the same test and prints identically.
void expectRoundTrip(const LitmusTest& t) {
    const std::string text = printLitmus(t);
    const LitmusTest back = parseLitmus(text, "printed.litmus");
    EXPECT_TRUE(same(t, back)) << text;
    EXPECT_EQ(printLitmus(back), text);
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
