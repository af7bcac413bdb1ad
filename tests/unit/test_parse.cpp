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
    EXPECT_EQ(b[5].compare, Comparison::Ne);
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

// doc/LITMUS.md's RCAS(z, y^n, v1, v2) and RFAA(z, y^n, v), the papers' z := RCAS(...)
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

// RMW §3.2, doc/LITMUS.md "RDMA^WAIT statements": gets and puts with a work
// identifier, wait(d), RMWs with a last work-identifier argument, gfence(n1, ...).
TEST(ParseRdma, WorkIdentifierForms) {
    LitmusTest t = parseLitmus(R"(RDMA wait
{ y@2; z@2; }
P0@1 {
  a :=^d y^2;
  y^2 :=^d a;
  y^2 :=^e 1;
  y^2 :=^d -3;
  wait(d);
  RCAS(b, z^2, 0, 1, d);
  RFAA(_, z^2, 2, e);
  c := RCAS(z^2, 1, 2, f);
  c := RFAA(z^2, 1);
  a := y^2;
  gfence(1, 2);
  gfence(2);
}
exists (a = 0)
)", "wait.litmus");
    const Block& b = t.threads[0].body;
    ASSERT_EQ(b.size(), 12u);
    EXPECT_EQ(b[0].kind, Stmt::Kind::Get);
    EXPECT_EQ(b[0].target.name, "a");
    EXPECT_FALSE(b[0].target.node.has_value());
    EXPECT_EQ(b[0].source.name, "y");
    EXPECT_EQ(b[0].source.node, 2);
    EXPECT_EQ(b[0].workId, "d");
    EXPECT_EQ(b[1].kind, Stmt::Kind::Put);
    EXPECT_EQ(b[1].target.name, "y");
    EXPECT_EQ(b[1].target.node, 2);
    EXPECT_FALSE(b[1].sourceIsConst);
    EXPECT_EQ(b[1].source.name, "a");
    EXPECT_EQ(b[1].workId, "d");
    EXPECT_EQ(b[2].kind, Stmt::Kind::Put);
    EXPECT_TRUE(b[2].sourceIsConst);
    EXPECT_EQ(b[2].constant, 1);
    EXPECT_EQ(b[2].workId, "e");
    EXPECT_TRUE(b[3].sourceIsConst);
    EXPECT_EQ(b[3].constant, -3);
    EXPECT_EQ(b[3].workId, "d");
    EXPECT_EQ(b[4].kind, Stmt::Kind::Wait);
    EXPECT_EQ(b[4].workId, "d");
    EXPECT_EQ(b[4].where.line, 8);
    EXPECT_EQ(b[4].where.column, 3);
    EXPECT_EQ(b[5].kind, Stmt::Kind::RCas);
    EXPECT_EQ(b[5].source.name, "b");
    EXPECT_EQ(b[5].target.name, "z");
    EXPECT_EQ(b[5].expr.value, 0);
    EXPECT_EQ(b[5].expr2.value, 1);
    EXPECT_EQ(b[5].workId, "d");
    EXPECT_EQ(b[6].kind, Stmt::Kind::RFaa);
    EXPECT_EQ(b[6].source.name, "_");
    EXPECT_EQ(b[6].expr.value, 2);
    EXPECT_EQ(b[6].workId, "e");
    EXPECT_EQ(b[7].kind, Stmt::Kind::RCas);  // the papers' spelling takes the identifier too
    EXPECT_EQ(b[7].source.name, "c");
    EXPECT_EQ(b[7].expr2.value, 2);
    EXPECT_EQ(b[7].workId, "f");
    EXPECT_EQ(b[8].kind, Stmt::Kind::RFaa);
    EXPECT_EQ(b[8].workId, "");  // none written
    EXPECT_EQ(b[9].kind, Stmt::Kind::Get);
    EXPECT_EQ(b[9].workId, "");
    EXPECT_EQ(b[10].kind, Stmt::Kind::GFence);
    EXPECT_EQ(b[10].nodes, (std::vector<int>{1, 2}));
    EXPECT_EQ(b[11].nodes, (std::vector<int>{2}));
    EXPECT_EQ(defaultModelName(t), "rdma-wait-rmw");
}

// A `:=^d` whose sides are neither a get nor a put is refused where the right side starts.
TEST(ParseRdma, WorkIdentifierOnlyOnGetsAndPuts) {
    try {
        parseLitmus("RDMA t\n{ y@2; }\nP0@1 { a :=^d 1 }\nexists (a = 0)\n", "w.litmus");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 3);
        EXPECT_EQ(e.where().column, 15);
        EXPECT_NE(std::string(e.what()).find("'a :=^d y^n' or 'y^n :=^d a'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseLitmus("RDMA t\n{ }\nP0@1 { wait(1) }\nexists (a = 0)\n", "w.litmus"), InputError);
    EXPECT_THROW(parseLitmus("RDMA t\n{ }\nP0@1 { gfence() }\nexists (a = 0)\n", "w.litmus"), InputError);
    EXPECT_THROW(parseLitmus("RDMA t\n{ }\nP0@1 { gfence(0) }\nexists (a = 0)\n", "w.litmus"), InputError);
}

// LOCO §3.4, Def. 3.8: `x@sv` declares a shared variable; calls are `lib.method(args)`,
// with `a :=` for a method that returns a value; conditions name one copy `x@n`.
TEST(ParseRdma, SharedVariableLibraryForms) {
    LitmusTest t = parseLitmus(R"(RDMA sv
{ x@sv = 4; w@sv; y@2 = 1; }
P0@1 {
  sv.write(x, 1);
  sv.write(x, a);
  b := sv.read(x);
  sv.bcast(x, d, {2, 1});
  sv.bcast(w, _, {2});
  sv.wait(d);
  sv.gf({1, 2});
}
P1@2 { c := sv.read(w) }
locations [x@1; x@2; y;]
filter x@1 != 0
exists (x@2 = 1 /\ ~(w@1 = 0) /\ b = 4)
)", "sv.litmus");
    ASSERT_EQ(t.locations.size(), 3u);
    EXPECT_EQ(t.locations[0].name, "x");
    EXPECT_TRUE(t.locations[0].shared);
    EXPECT_EQ(t.locations[0].init, 4);
    EXPECT_TRUE(t.locations[1].shared);
    EXPECT_EQ(t.locations[1].init, 0);
    EXPECT_FALSE(t.locations[2].shared);
    EXPECT_EQ(t.locations[2].node, 2);

    const Block& b = t.threads[0].body;
    ASSERT_EQ(b.size(), 7u);
    for (const Stmt& s : b) {
        EXPECT_EQ(s.kind, Stmt::Kind::Call);
        EXPECT_EQ(s.library, "sv");
    }
    EXPECT_EQ(b[0].method, "write");
    EXPECT_FALSE(b[0].hasResult);
    ASSERT_EQ(b[0].args.size(), 2u);
    EXPECT_FALSE(b[0].args[0].isNodeSet);
    EXPECT_EQ(b[0].args[0].expr.kind, Expr::Kind::Location);
    EXPECT_EQ(b[0].args[0].expr.name, "x");
    EXPECT_EQ(b[0].args[1].expr.kind, Expr::Kind::Const);
    EXPECT_EQ(b[0].args[1].expr.value, 1);
    EXPECT_EQ(b[0].args[1].where.line, 4);
    EXPECT_EQ(b[0].args[1].where.column, 15);
    EXPECT_EQ(b[1].args[1].expr.kind, Expr::Kind::Location);
    EXPECT_EQ(b[1].args[1].expr.name, "a");

    EXPECT_EQ(b[2].method, "read");
    EXPECT_TRUE(b[2].hasResult);
    EXPECT_EQ(b[2].target.name, "b");
    EXPECT_FALSE(b[2].target.node.has_value());
    ASSERT_EQ(b[2].args.size(), 1u);
    EXPECT_EQ(b[2].args[0].expr.name, "x");
    EXPECT_EQ(b[2].where.column, 3);  // the statement starts at the result

    EXPECT_EQ(b[3].method, "bcast");
    ASSERT_EQ(b[3].args.size(), 3u);
    EXPECT_EQ(b[3].args[1].expr.name, "d");
    EXPECT_TRUE(b[3].args[2].isNodeSet);
    EXPECT_EQ(b[3].args[2].nodes, (std::vector<int>{2, 1}));  // as written
    EXPECT_EQ(b[3].args[2].where.column, 18);
    EXPECT_EQ(b[4].args[1].expr.name, "_");
    EXPECT_EQ(b[4].args[2].nodes, (std::vector<int>{2}));

    EXPECT_EQ(b[5].method, "wait");
    ASSERT_EQ(b[5].args.size(), 1u);
    EXPECT_EQ(b[5].args[0].expr.name, "d");
    EXPECT_EQ(b[6].method, "gf");
    ASSERT_EQ(b[6].args.size(), 1u);
    EXPECT_EQ(b[6].args[0].nodes, (std::vector<int>{1, 2}));
    EXPECT_EQ(t.threads[1].body.at(0).target.name, "c");

    ASSERT_EQ(t.shown.size(), 3u);
    EXPECT_EQ(t.shown[0].name, "x@1");
    EXPECT_EQ(t.shown[1].name, "x@2");
    EXPECT_EQ(t.shown[2].name, "y");
    ASSERT_TRUE(t.filter.has_value());
    EXPECT_EQ(t.filter->loc, "x@1");
    ASSERT_EQ(t.condition.args.size(), 3u);
    EXPECT_EQ(t.condition.args[0].loc, "x@2");
    EXPECT_EQ(t.condition.args[0].value, 1);
    EXPECT_EQ(t.condition.args[1].args.at(0).loc, "w@1");
    EXPECT_EQ(t.condition.args[2].loc, "b");
    EXPECT_EQ(defaultModelName(t), "rdma-wait-rmw");
}

// The parser takes any `lib.method(args)`; which libraries and methods exist,
// and their arguments, are checked when unfolding (see tests/errors/).
TEST(ParseRdma, CallsOfUnknownLibrariesParse) {
    LitmusTest t = parseLitmus("RDMA t\n{ l@1; }\nP0@1 { wl.acq(l); nl.acq(l^1); sv.gf({2}, 3 + a) }\nexists (l = 0)\n",
                               "c.litmus");
    const Block& b = t.threads[0].body;
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].library, "wl");
    EXPECT_EQ(b[0].method, "acq");
    EXPECT_EQ(b[1].args.at(0).expr.remoteNode, 1);
    ASSERT_EQ(b[2].args.size(), 2u);
    EXPECT_TRUE(b[2].args[1].expr.is(Operator::Add));
}

// Only library calls, work identifiers and global fences select rdma-wait-rmw.
TEST(ParseRdma, DefaultModelFollowsTheLevel) {
    auto model = [](const std::string& body, const std::string& init = "y@2;") {
        return defaultModelName(parseLitmus("RDMA t\n{ " + init + " }\nP0@1 { " + body + " }\nexists (y = 0)\n", "m.litmus"));
    };
    EXPECT_EQ(model("a := y^2; poll(2)"), "rdma-tso");
    EXPECT_EQ(model("RCAS(a, y^2, 0, 1)"), "rdma-tso-rmw");
    EXPECT_EQ(model("a :=^d y^2"), "rdma-wait-rmw");
    EXPECT_EQ(model("RFAA(a, y^2, 1, d)"), "rdma-wait-rmw");
    EXPECT_EQ(model("choice { wait(d) } or { }"), "rdma-wait-rmw");
    EXPECT_EQ(model("loop { gfence(2) }"), "rdma-wait-rmw");
    EXPECT_EQ(model("if (a = 0) { } else { sv.gf({2}) }"), "rdma-wait-rmw");
    EXPECT_EQ(model("a := 1", "y@2; x@sv;"), "rdma-wait-rmw");
}
