// rdmacheck diy (doc/diy.md): tests from cycles of edges as diy7 writes them.
// The 390 tests of the x86 suite that diy7 generated name their cycle (Orig=):
// from it, diy must write the same name and the same program.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "../test_support.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/diy.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck {
namespace {

std::vector<DiyEdge> cycleOf(const std::string& text, DiyArch arch = DiyArch::X86) {
    std::vector<DiyEdge> out;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        const std::optional<DiyEdge> e = findDiyEdge(arch, w);
        EXPECT_TRUE(e) << w;
        if (e) out.push_back(*e);
    }
    return out;
}

std::optional<DiyTest> testOf(const std::string& cycle) {
    std::string why;
    return diyTest(DiyArch::X86, cycleOf(cycle), why);
}

// The program's rows, from the thread names to the line before the condition.
std::string program(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.find(" P0 ") == 0) inside = true;
        if (inside && line.find(';') == std::string::npos) break;
        if (inside) out += line + "\n";
    }
    return out;
}

TEST(Diy, StoreBufferingIsItsCycle) {
    const std::optional<DiyTest> sb = testOf("PodWR Fre PodWR Fre");
    ASSERT_TRUE(sb);
    EXPECT_EQ(sb->name, "SB");
    EXPECT_EQ(sb->text, "X86 SB\n\"PodWR Fre PodWR Fre\"\nCycle=PodWR Fre PodWR Fre\n{\n}\n"
                        " P0          | P1          ;\n"
                        " MOV [x],$1  | MOV [y],$1  ;\n"
                        " MOV EAX,[y] | MOV EAX,[x] ;\n"
                        "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    // Any rotation names the same test: the writer of MP comes first.
    EXPECT_EQ(testOf("Fre PodWW Rfe PodRR")->name, "MP");
    EXPECT_EQ(testOf("MFencedWR Fre MFencedWR Fre")->name, "SB+mfences");
    EXPECT_EQ(testOf("Rfe PodRR Fre Rfe PodRR Fre")->name, "IRIW");
    std::string why;
    EXPECT_FALSE(diyTest(DiyArch::X86, cycleOf("PodWR Rfe"), why));
    EXPECT_EQ(why, "PodWR ends at R but Rfe starts at W");
    EXPECT_FALSE(diyTest(DiyArch::X86, cycleOf("Wse"), why));
    EXPECT_EQ(why, "a cycle needs two edges or more");
    EXPECT_FALSE(diyTest(DiyArch::X86, cycleOf("PodWR Fri"), why));
    EXPECT_EQ(why, "a cycle needs an external edge (Rfe, Fre, Wse)");
    // fr;co and co;co are one edge where both are external (or both internal),
    // as diy7 has them; an internal fr before an external co is a test.
    EXPECT_FALSE(diyTest(DiyArch::X86, cycleOf("Rfe PodRR Fre Wse PodWW"), why));
    EXPECT_EQ(why, "Fre Wse is one edge: nothing observes the write between");
    EXPECT_EQ(testOf("Rfe PosRR Fri Wse")->name, "CoRW2+pos-fri");
}

// Every diy7 test of the suite whose cycle uses edges diy reads (all but the
// 15 with diy7's Hat edge) but those edited by hand (X000..X006, x86-2+2W
// renamed, SB-XCHG's writes made XCHGs): the same program, and diy7's name
// but where diy7's run numbered it as a repeat (MP+po+po-po001): diy numbers
// the repeats of its own run.
TEST(Diy, WritesTheSuitesTestsFromTheirCycles) {
    const std::string dir = testing::sharedDir() + "/conformance/x86-tso/tests";
    size_t compared = 0, sameProgram = 0, renamed = 0, edited = 0;
    std::string mismatches;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string text = testing::readFile(entry.path().string());
        const size_t orig = text.find("\nOrig=");
        if (orig == std::string::npos || text.find("Hat") != std::string::npos) continue;
        const std::string cycle = text.substr(orig + 6, text.find('\n', orig + 1) - orig - 6);
        const std::optional<DiyTest> made = testOf(cycle);
        ASSERT_TRUE(made) << cycle;
        ++compared;
        const std::string name = text.substr(4, text.find('\n') - 4);
        const bool byHand = name.rfind("X00", 0) == 0 || name == "SB-XCHG" || name == "x86-2+2W";
        const bool repeat = name.size() > 3 && std::isdigit(static_cast<unsigned char>(name.back())) &&
                            name.substr(0, name.size() - 3) == made->name;
        if (byHand) {
            ++edited;
            continue;
        }
        if (repeat) ++renamed;
        else if (made->name != name) mismatches += name + " (" + cycle + "): named " + made->name + "\n";
        if (program(made->text) == program(text)) ++sameProgram;
        else mismatches += name + " (" + cycle + "): program\n" + made->text;
    }
    EXPECT_EQ(compared, 375u);
    EXPECT_EQ(edited, 9u);
    EXPECT_EQ(renamed, 18u);
    EXPECT_EQ(sameProgram, compared - edited);
    EXPECT_EQ(mismatches, "");
}

std::optional<DiyTest> rdmaTestOf(const std::string& cycle, std::string& why) {
    return diyTest(DiyArch::RDMA, cycleOf(cycle, DiyArch::RDMA), why);
}

bool allowedUnder(const DiyTest& test, const std::string& model) {
    return diyAllowed(test, loadModel(ModelSearchPath::withDefaults(), model), CheckOptions{});
}

// The cycles each mode keeps (diy7's gen/alt.ml): critical alternates internal
// and external edges (an fr or ws before an rf may both be external), default
// lets two internal edges follow each other where one keeps the location and
// the other changes it, or a write the next event reads sits beside a
// same-location edge; free keeps every cycle. An instruction's halves (Rmw,
// Put, Get) join anything.
std::set<std::string> cyclesOf(DiyArch arch, const std::string& edges, int size, DiyMode mode) {
    DiyCount count;
    std::set<std::string> out;
    for (const DiyTest& t : diyTests(arch, cycleOf(edges, arch), {}, size, mode, count)) out.insert(t.cycle);
    return out;
}

bool everyPairAllowed(const std::string& cycle, const std::function<bool(const DiyEdge&, const DiyEdge&)>& allowed,
                   DiyArch arch = DiyArch::X86) {
    const std::vector<DiyEdge> edges = cycleOf(cycle, arch);
    for (size_t i = 0; i < edges.size(); ++i)
        if (!allowed(edges[i], edges[(i + 1) % edges.size()])) return false;
    return true;
}

TEST(Diy, ModesKeepDiy7sCompositions) {
    const std::string x86 = "PodWW PodRR PodWR PosWR PosRR Rfi Fri Rfe Fre Wse Rmw";
    const std::set<std::string> free = cyclesOf(DiyArch::X86, x86, 5, DiyMode::Free),
                                byDefault = cyclesOf(DiyArch::X86, x86, 5, DiyMode::Default),
                                critical = cyclesOf(DiyArch::X86, x86, 5, DiyMode::Critical);
    for (const char* c : {"PodWW Rfe PodRR Fre", "PodWR Fre PodWR Fre", "Rfe PosRR Fre"}) {
        EXPECT_TRUE(critical.count(c)) << c;
        EXPECT_TRUE(byDefault.count(c)) << c;
    }
    // A read of one's own write before a read of another location: diy7's
    // default keeps it, critical does not; two reads of other locations in a
    // row only free keeps.
    EXPECT_TRUE(byDefault.count("PodWW Rfi PodRR Fre"));
    EXPECT_FALSE(critical.count("PodWW Rfi PodRR Fre"));
    EXPECT_TRUE(free.count("PodRR PodRR Fre Rfe"));
    EXPECT_FALSE(byDefault.count("PodRR PodRR Fre Rfe"));
    EXPECT_TRUE(critical.count("PodRR Rmw PodWR Fre Rfe"));  // an XCHG between reads; fr before rf
    for (const std::string& c : critical) {
        EXPECT_TRUE(byDefault.count(c)) << c;
        EXPECT_TRUE(everyPairAllowed(c, [](const DiyEdge& a, const DiyEdge& b) {
            return a.external != b.external || a.kind == DiyEdge::Kind::Rmw || b.kind == DiyEdge::Kind::Rmw ||
                   ((a.kind == DiyEdge::Kind::Fr || a.kind == DiyEdge::Kind::Ws) && b.kind == DiyEdge::Kind::Rf);
        })) << c;
    }
    for (const std::string& c : byDefault) {
        EXPECT_TRUE(free.count(c)) << c;
        EXPECT_TRUE(everyPairAllowed(c, [](const DiyEdge& a, const DiyEdge& b) {
            return a.external || b.external || a.kind == DiyEdge::Kind::Rmw || b.kind == DiyEdge::Kind::Rmw ||
                   a.sameLocation != b.sameLocation || a.name == "Rfi" || b.name == "Rfi" || a.name == "PosWR" ||
                   b.name == "PosWR";
        })) << c;
    }
    EXPECT_LT(critical.size(), byDefault.size());
    EXPECT_LT(byDefault.size(), free.size());
    // RDMA: a put's halves join the program order after them in every mode
    // (its remote write, then a read of the thread's node).
    const std::set<std::string> rdma = cyclesOf(DiyArch::RDMA, "Put PodnrWlR Rfe Fre", 4, DiyMode::Critical);
    EXPECT_TRUE(rdma.count("Put PodnrWlR Fre Rfe")) << (rdma.empty() ? "" : *rdma.begin());
}

// CPU events only: every thread on one node, x86-TSO's store buffering,
// which RDMA^SC forbids.
TEST(RdmaDiy, StoreBufferingOfCpuEventsIsOneNode) {
    std::string why;
    const std::optional<DiyTest> sb = rdmaTestOf("PodlWlR Fre PodlWlR Fre", why);
    ASSERT_TRUE(sb) << why;
    EXPECT_EQ(sb->name, "SB");
    EXPECT_EQ(sb->text, "RDMA SB\n\"PodlWlR Fre PodlWlR Fre\"\n{ x@1 = 0; y@1 = 0; r0@1; r1@1; }\n\n"
                        "P0@1 {\n  x := 1;\n  r0 := y;\n}\n\nP1@1 {\n  y := 1;\n  r1 := x;\n}\n\n"
                        "exists (r0 = 0 /\\ r1 = 0)\n");
    EXPECT_TRUE(allowedUnder(*sb, "rdma-tso"));
    EXPECT_FALSE(allowedUnder(*sb, "rdma-sc"));
}

// The RDMA^TSO paper's Fig. 3d and 3e as cycles: a put (and a get) towards
// the other node, polled (a poll per operation of the thread to that node so
// far), then a local read. 3d is allowed; 3e is forbidden with the PCIe
// guarantee and allowed without it (the paper's captions).
TEST(RdmaDiy, PolledPutsAndGetsAreFigure3) {
    std::string why;
    const std::optional<DiyTest> fig3d = rdmaTestOf("PolldnrWlR Fre PolldnrWlR Fre", why);
    ASSERT_TRUE(fig3d) << why;
    EXPECT_NE(fig3d->text.find("P0@1 {\n  x^2 := 1;\n  poll(2);\n  r0 := y;\n}"), std::string::npos) << fig3d->text;
    EXPECT_TRUE(allowedUnder(*fig3d, "rdma-tso"));
    const std::optional<DiyTest> fig3e = rdmaTestOf("PodnrWnrR PolldnrRlR Fre PodnrWnrR PolldnrRlR Fre", why);
    ASSERT_TRUE(fig3e) << why;
    EXPECT_NE(fig3e->text.find("P0@1 {\n  x^2 := 1;\n  r0 := y^2;\n  poll(2);\n  poll(2);\n  r1 := z;\n}"),
              std::string::npos)
        << fig3e->text;
    EXPECT_NE(fig3e->text.find("exists (r1 = 0 /\\ r3 = 0)"), std::string::npos) << fig3e->text;
    EXPECT_FALSE(allowedUnder(*fig3e, "rdma-tso"));
    EXPECT_TRUE(allowedUnder(*fig3e, "rdma-tso-nopcie"));
}

// A put or a get whose two halves are in the cycle copies the value its read
// reads; a location whose one write is such a copy is in the condition. WRC
// through a put and through a get is forbidden under rdma-tso.
TEST(RdmaDiy, PutAndGetCopyWhatTheyRead) {
    std::string why;
    const std::optional<DiyTest> put = rdmaTestOf("Rfe Put Rfe PodlRnrR Fre", why);
    ASSERT_TRUE(put) << why;
    EXPECT_NE(put->text.find("P1@1 {\n  y^2 := x;\n}"), std::string::npos) << put->text;
    EXPECT_NE(put->text.find("exists (y = 1 /\\ r0 = 1 /\\ r1 = 0)"), std::string::npos) << put->text;
    EXPECT_FALSE(allowedUnder(*put, "rdma-tso"));
    const std::optional<DiyTest> get = rdmaTestOf("Rfe Get Rfe PodlRnrR Fre", why);
    ASSERT_TRUE(get) << why;
    EXPECT_NE(get->text.find("P1@2 {\n  y := x^1;\n}"), std::string::npos) << get->text;
    EXPECT_FALSE(allowedUnder(*get, "rdma-tso"));
}

// A communication edge that names its events' kinds makes a thread of one
// event an operation's half (otherwise a CPU access), named by that kind: WRC
// whose first thread is a put, and a read in the middle that is a get's
// remote read. Such edges are not in the pool --size draws from.
TEST(RdmaDiy, TypedCommunicationEdgesMakeOneEventThreadsOperations) {
    std::string why;
    const std::optional<DiyTest> wrc = rdmaTestOf("RfenrWlR PodlRlW Rfe PodlRlR Fre", why);
    ASSERT_TRUE(wrc) << why;
    EXPECT_EQ(wrc->name, "WRC+nrW+po+po");
    EXPECT_NE(wrc->text.find("P0@1 {\n  x^2 := 1;\n}\n\nP1@2 {\n  r0 := x;\n  y := 1;\n}"), std::string::npos)
        << wrc->text;
    EXPECT_FALSE(allowedUnder(*wrc, "rdma-tso"));
    const std::optional<DiyTest> get = rdmaTestOf("PodlWlW RfelWnrR FrenrRlW PodlWlR Fre", why);
    ASSERT_TRUE(get) << why;
    EXPECT_EQ(get->name, "WW+R+WR+po+nrR+po");
    EXPECT_NE(get->text.find("P1@2 {\n  r0 := y^1;\n}"), std::string::npos) << get->text;
    EXPECT_TRUE(allowedUnder(*get, "rdma-tso"));
    EXPECT_FALSE(rdmaTestOf("RfenrWlR PodlRlW Rfe PodlRlR FrelRlW", why));
    EXPECT_EQ(why, "FrelRlW ends at lW but RfenrWlR starts at nrW");
    EXPECT_FALSE(findDiyEdge(DiyArch::RDMA, "RfelRlR"));  // rf goes from a write
    EXPECT_FALSE(findDiyEdge(DiyArch::X86, "RfeWR"));
    const std::vector<DiyEdge>& pool = diyEdges(DiyArch::RDMA);
    EXPECT_TRUE(std::none_of(pool.begin(), pool.end(), [](const DiyEdge& e) { return e.name == "RfenrWlR"; }));
}

// A CPU CAS is its read aR and write aW joined by Rmw, one CAS statement that
// succeeds where the cycle reads the value it expects; neither half goes alone.
TEST(RdmaDiy, CasIsAReadAndAWriteJoinedByRmw) {
    std::string why;
    const std::optional<DiyTest> cas = rdmaTestOf("Rfe PodlRaR Rmw PodaWlR Fre", why);
    ASSERT_TRUE(cas) << why;
    EXPECT_NE(cas->text.find("P1@1 {\n  r0 := x;\n  r1 := CAS(y, 0, 1);\n  r2 := x;\n}"), std::string::npos)
        << cas->text;
    EXPECT_NE(cas->text.find("exists (r0 = 1 /\\ r1 = 0 /\\ r2 = 0)"), std::string::npos) << cas->text;
    EXPECT_FALSE(allowedUnder(*cas, "rdma-tso"));
    const std::optional<DiyTest> lb = rdmaTestOf("Rfe Rmw PodaWlW Rfe Rmw PodaWlW", why);
    ASSERT_TRUE(lb) << why;
    EXPECT_NE(lb->text.find("P0@1 {\n  r0 := CAS(x, 1, 2);\n  y := 1;\n}"), std::string::npos) << lb->text;
    EXPECT_FALSE(allowedUnder(*lb, "rdma-tso"));
    EXPECT_FALSE(rdmaTestOf("PodlWaR Fre PodlWlR Fre", why));
    EXPECT_EQ(why, "a CAS's read aR and write aW go together, joined by Rmw");
    EXPECT_FALSE(rdmaTestOf("Rfe PodlRlR Fre Rmw PodaWlR Fre", why));
    const std::vector<DiyEdge>& pool = diyEdges(DiyArch::RDMA);
    EXPECT_TRUE(std::none_of(pool.begin(), pool.end(), [](const DiyEdge& e) { return e.name == "Rmw"; }));
    EXPECT_FALSE(findDiyEdge(DiyArch::RDMA, "PonaWnrR"));  // a CAS is no operation: no `n` place
}

// Cycles that make no RDMA test, with the reason.
TEST(RdmaDiy, RefusesWhatNoTestCanBe) {
    std::string why;
    EXPECT_FALSE(rdmaTestOf("PodlWnrW Rfe PodlRlR Fre", why));
    EXPECT_EQ(why, "nrW of y by P0 would access its own node");
    EXPECT_FALSE(rdmaTestOf("Rfe PodlRnlR Put Rfe Fre", why));
    EXPECT_EQ(why, "the value Put copies is not fixed by the cycle (its read has no Rf or Fr edge)");
    EXPECT_FALSE(rdmaTestOf("PodlWlR Put", why));
    EXPECT_EQ(why, "PodlWlR ends at lR but Put starts at nlR");
    EXPECT_FALSE(rdmaTestOf("PonnrWnrR Fre PodnrWnrR Fre", why));
    EXPECT_FALSE(findDiyEdge(DiyArch::RDMA, "PollslWlR"));  // a poll follows an operation
    EXPECT_FALSE(findDiyEdge(DiyArch::RDMA, "PoslWnrW"));   // one location is on one side
    EXPECT_FALSE(findDiyEdge(DiyArch::X86, "Put"));
}

}  // namespace
}  // namespace rdmacheck
