// Front ends: what they accept and the trees they build.
#include <gtest/gtest.h>

#include "../test_support.hpp"

using namespace rdmacheck;

TEST(ParseRdma, ExampleOfLitmusSpec) {
    LitmusTest t = parseLitmus(R"(RDMA SB+polls
"Store buffering"
{ y@1 = 0; a@1; x@2 = 0; b@2; }
P0@1 { x^2 := 1; poll(2); a := y; }
P1@2 { y^1 := 1; poll(1); b := x }
exists (a = 0 /\ b = 0)
)", "sb.litmus");
    EXPECT_EQ(t.arch, Arch::Rdma);
    EXPECT_EQ(t.name, "SB+polls");
    EXPECT_EQ(t.description, "Store buffering");
    ASSERT_EQ(t.locations.size(), 4u);
    EXPECT_EQ(t.locations[2].name, "x");
    EXPECT_EQ(t.locations[2].node, 2);
    ASSERT_EQ(t.threads.size(), 2u);
    EXPECT_EQ(t.threads[1].node, 2);
    ASSERT_EQ(t.threads[0].body.size(), 3u);
    EXPECT_EQ(t.threads[0].body[0].kind, Stmt::Kind::Put);
    EXPECT_TRUE(t.threads[0].body[0].sourceIsConst);
    EXPECT_EQ(*t.threads[0].body[0].target.node, 2);
    EXPECT_EQ(t.threads[0].body[1].kind, Stmt::Kind::Poll);
    EXPECT_EQ(t.threads[0].body[2].kind, Stmt::Kind::Assign);
    EXPECT_EQ(t.quantifier, Quantifier::Exists);
    EXPECT_EQ(t.condition.kind, Cond::Kind::And);
}

TEST(ParseRdma, AllStatementForms) {
    LitmusTest t = parseLitmus(R"(RDMA all
{ x@1 = 3; y@2; }
P0@1 {
  a := y^2;      // get
  y^2 := a;      (* put *)
  rfence(2); mfence;
  c := CAS(x, 3, a + 1);
  assume(x != 2);
  if (x = 1) { b := 2 } else { b := 3 };
  choice { b := 4 } or { b := 5 } or { skipme := 0 };
  loop { d := d + 1 };
  while (x != 0) { x := x - 1 };
}
locations [x; y;]
filter a = 0 \/ ~(b = 1)
~exists (x = 1 /\ (y = 2 \/ true))
)", "all.litmus");
    const Block& b = t.threads[0].body;
    ASSERT_EQ(b.size(), 10u);
    EXPECT_EQ(b[0].kind, Stmt::Kind::Get);
    EXPECT_EQ(b[0].source.name, "y");
    EXPECT_EQ(b[1].kind, Stmt::Kind::Put);
    EXPECT_EQ(b[1].source.name, "a");
    EXPECT_EQ(b[2].kind, Stmt::Kind::RFence);
    EXPECT_EQ(b[3].kind, Stmt::Kind::MFence);
    EXPECT_EQ(b[4].kind, Stmt::Kind::Cas);
    EXPECT_EQ(b[4].result, "c");
    EXPECT_EQ(b[4].target.name, "x");
    EXPECT_EQ(b[5].kind, Stmt::Kind::Assume);
    EXPECT_FALSE(b[5].equal);
    EXPECT_EQ(b[6].kind, Stmt::Kind::If);
    EXPECT_EQ(b[6].orelse.size(), 1u);
    EXPECT_EQ(b[7].branches.size(), 3u);
    EXPECT_EQ(b[8].kind, Stmt::Kind::Loop);
    EXPECT_EQ(b[9].kind, Stmt::Kind::While);
    EXPECT_EQ(t.shown.size(), 2u);
    ASSERT_TRUE(t.filter.has_value());
    EXPECT_EQ(t.filter->kind, Cond::Kind::Or);
    EXPECT_EQ(t.quantifier, Quantifier::NotExists);
}

// LITMUS.md's RCAS(z, y^n, v1, v2) and RFAA(z, y^n, v), the papers' z := RCAS(...)
// spelling, and `_` for a discarded result.
TEST(ParseRdma, RemoteRmwForms) {
    LitmusTest t = parseLitmus(R"(RDMA rmw
{ y@2; }
P0@1 { RCAS(a, y^2, 0, -1); b := RFAA(y^2, 3); RFAA(_, y^2, 1); c := RCAS(y^2, 1, 2) }
exists (a = 0)
)", "rmw.litmus");
    const Block& b = t.threads[0].body;
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(b[0].kind, Stmt::Kind::RCas);
    EXPECT_EQ(b[0].source.name, "a");
    EXPECT_EQ(b[0].target.name, "y");
    EXPECT_EQ(*b[0].target.node, 2);
    EXPECT_EQ(b[0].expr.value, 0);
    EXPECT_EQ(b[0].expr2.value, -1);
    EXPECT_EQ(b[1].kind, Stmt::Kind::RFaa);
    EXPECT_EQ(b[1].source.name, "b");
    EXPECT_EQ(b[1].expr.value, 3);
    EXPECT_EQ(b[2].source.name, "_");
    EXPECT_EQ(b[3].kind, Stmt::Kind::RCas);
    EXPECT_EQ(b[3].source.name, "c");
    EXPECT_EQ(b[3].expr2.value, 2);
}

TEST(ParseRdma, PositionsAreLineAndColumn) {
    try {
        parseLitmus("RDMA t\n{ x@1; }\nP0@1 {\n  x := 1\n  x := 2; }\nexists (x = 1)\n", "pos.litmus");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 5);
        EXPECT_EQ(e.where().column, 3);
        EXPECT_EQ(std::string(e.what()).rfind("pos.litmus:5:3: error: expected ';' between statements", 0), 0u)
            << e.what();
    }
}

TEST(ParseX86, HerdSyntax) {
    LitmusTest t = parseLitmus(R"(X86 SB+rmw "doc"
Cycle=Fre PodWR Fre PodWR
{ x=0; y=0; P1:EBX = 7; }
 P0          | P1           ;
 MOV [x],$1  | mov [y], 1   ;
 MFENCE      | XCHG [x],EBX ;
 MOV EAX,[y] |              ;
locations [x;]
exists (0:EAX=0 /\ P1:EBX=0 /\ [y]=1)
<< ignored >>
)", "x.litmus");
    EXPECT_EQ(t.arch, Arch::X86);
    EXPECT_EQ(t.name, "SB+rmw");
    EXPECT_EQ(t.description, "doc");
    ASSERT_EQ(t.threads.size(), 2u);
    EXPECT_EQ(t.threads[0].body.size(), 3u);
    EXPECT_EQ(t.threads[1].body.size(), 2u);
    EXPECT_EQ(t.threads[1].body[1].kind, Stmt::Kind::Xchg);
    EXPECT_EQ(t.threads[0].body[2].kind, Stmt::Kind::RegLoad);
    EXPECT_EQ(t.registerInit.at("1:EBX"), 7);
    EXPECT_EQ(t.condition.args[1].thread, 1);
    EXPECT_EQ(t.condition.args[2].loc, "y");
}

TEST(ParseX86, FinalWithIsReadAsExists) {
    LitmusTest t = parseLitmus(R"(X86 amd
{x = 0; y = 0};
 P0 | P1 ;
 mov [x], 1 | mov [y], 1 ;
final (P0:EAX = 0 /\ P1:EBX = 0);
with
tso: ~exists;
)", "amd.litmus");
    EXPECT_EQ(t.quantifier, Quantifier::Exists);
}
