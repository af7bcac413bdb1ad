// A library defined outside the engine: everything a MOWGLI library is, in one
// file, registered with one line (CONTRIBUTING.md, "Adding a library"). The flag
// library has one flag per variable and node: `flag.set(x)` raises the caller's
// copy of x (an lW of 1) and `a := flag.test(x)` reads it (an lR). It is well
// formed when every flag tested is set by some thread, and it adds the static
// relation setfirst. The tests run it through the normal parser and unfolder.
#include <gtest/gtest.h>

#include <algorithm>

#include "../test_support.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;

namespace {

// Declares the flag f when the mix draws sets, and draws `flag.set(f)`.
class SetDraws : public StatementGenerator {
public:
    void declareFixed(StatementDraw& d) override {
        if (!draws(d.options(), "flagset")) return;
        LocationDecl f{"f", 1, 0, {}};
        f.shared = true;
        d.declare(f);
    }
    Stmt draw(const std::string&, StatementDraw&) override {
        return libraryCall("flag", "set", {exprArg(Expr::location("f", {}))});
    }
};

class Flags : public LibraryDescriptor {
public:
    Flags() : LibraryDescriptor("flag", {{"set", {ArgKind::Variable}}, {"test", {ArgKind::Variable}, true}}) {}

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out, int) const override {
        const int copy = out.copyOf(args[0].variable, out.node());
        if (method == "set") {
            out.emit(EventKind::LW, copy, 0, -1, Value::of(1));
            return Value();
        }
        return Value::readBy(out.emit(EventKind::LR, copy, 0, -1));
    }

    std::optional<std::string> illFormed(const UnfoldedProgram& program, const ExecutionGraph& sk) const override {
        const std::vector<int> sets = events(sk, EventKind::LW);
        for (int test : events(sk, EventKind::LR)) {
            const int copy = sk.events[test].location;
            if (std::none_of(sets.begin(), sets.end(), [&](int set) { return sk.events[set].location == copy; }))
                return "flag " + program.locations[copy].name + " is tested but never set";
        }
        return std::nullopt;
    }

    std::vector<BaseRelation> relations() const override {
        return {{"setfirst", "every set of a flag's copy before every other thread's test of it",
                 "tests/unit/example_library.cpp", [this](const ExecutionGraph& sk) { return setFirst(sk); }}};
    }

    // Every call is one subevent, so no call gets a box.
    std::string callLabel(const std::set<EventKind>&) const override { return "flag"; }

    // Its generator hook: `--mix flagset=N` draws `flag.set(f)` on a flag `f@sv`.
    std::vector<GeneratedKind> generatedKinds() const override { return {{"flagset"}}; }
    std::unique_ptr<StatementGenerator> generator() const override { return std::make_unique<SetDraws>(); }

private:
    // The library's events of one kind, in skeleton order.
    std::vector<int> events(const ExecutionGraph& sk, EventKind kind) const {
        std::vector<int> out;
        for (const auto& thread : sk.threadEvents)
            for (int e : thread)
                if (sk.events[e].kind == kind && sk.events[e].library == findLibrary(name())) out.push_back(e);
        return out;
    }

    std::vector<std::pair<int, int>> setFirst(const ExecutionGraph& sk) const {
        std::vector<std::pair<int, int>> pairs;
        for (int set : events(sk, EventKind::LW))
            for (int test : events(sk, EventKind::LR))
                if (sk.events[set].location == sk.events[test].location && sk.events[set].thread != sk.events[test].thread)
                    pairs.emplace_back(set, test);
        return pairs;
    }
};

const Library flag = registerLibrary(std::make_unique<Flags>());

// A library whose calls need an event kind of their own: `latch.open(x)` is one
// event of kind "open" on the caller's copy of x, which reads and writes
// nothing. Its kind is declared here and registered with it, by the same one
// line; no engine file names it. `latch.join(g)` names a group g of its own
// (a Name argument, checked by checkArgument): the threads that join g take
// part in it, and each call opens g's hidden location once per their nodes.
inline constexpr LibraryKind OPEN{"open"};

class Latches : public LibraryDescriptor {
public:
    explicit Latches(std::string name = "latch", const LibraryKind* kind = &OPEN)
        : LibraryDescriptor(std::move(name), {{"open", {ArgKind::Variable}}, {"join", {ArgKind::Name}}}), kind_(kind) {}

    std::vector<const LibraryKind*> kinds() const override { return {kind_}; }

    void checkArgument(const Stmt& call, size_t i, CallScan& scan) const override {
        const CallArg& group = call.args[i];
        if (!isPlainName(group)) scan.expected("a latch group (a name)");
        scan.claimName(group.expr.name, "latch group", group.where);
        scan.takePart(group.expr.name);
    }

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out, int) const override {
        if (method == "open") {
            out.emit(*kind_, out.copyOf(args[0].variable, out.node()), 0, -1);
            return Value();
        }
        const int group = out.namedObject(args[0].variable);
        for (int n : out.participantNodes(args[0].variable)) out.emit(*kind_, group, n, -1);
        return Value();
    }

    std::string callLabel(const std::set<EventKind>&) const override { return name(); }

private:
    const LibraryKind* kind_;
};

const Library latch = registerLibrary(std::make_unique<Latches>());

UnfoldedProgram unfoldTest(const std::string& text) { return unfold(parseLitmus(text, "flags.litmus"), UnfoldOptions()); }

// "line:column: message" of the error unfolding `text` raises, or "" if none.
std::string unfoldError(const std::string& text) {
    try {
        unfoldTest(text);
    } catch (const InputError& e) {
        return std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + ": " + e.detail();
    }
    return "";
}

const char* const kSetAndTests =
    "RDMA flags\n{ }\nP0@1 { flag.set(x) }\nP1@1 { a := flag.test(x) }\nP2@2 { b := flag.test(x); flag.set(x) }\n"
    "exists (a = 0)\n";

}  // namespace

TEST(ExampleLibrary, IsRegisteredAfterTheBuiltInOnes) {
    EXPECT_EQ(findLibrary("flag"), flag);
    EXPECT_EQ(flag.index, 8);  // rdma, sv, bal, wl, sl, nl, sc, rbl, then flag
    EXPECT_STREQ(libraryName(flag), "flag");
    EXPECT_EQ(knownLibraries(), "sv, bal, wl, sl, nl, sc, rbl, flag, latch");
    const BaseRelation* setfirst = findLibraryRelation("setfirst");
    ASSERT_NE(setfirst, nullptr);
    EXPECT_EQ(setfirst->source, "tests/unit/example_library.cpp");
    EXPECT_THROW(registerLibrary(std::make_unique<Flags>()), std::invalid_argument);  // the name is taken
}

TEST(ExampleLibrary, ALibraryDeclaresItsOwnEventKind) {
    EXPECT_EQ(latch.index, 9);
    const EventKind open = OPEN;
    EXPECT_GE(static_cast<int>(open), kCoreEventKinds);  // after the core's and the built-in libraries'
    EXPECT_EQ(eventKindCount(), static_cast<int>(open) + 1);
    EXPECT_STREQ(kindName(open), "open");
    EventKind named;
    ASSERT_TRUE(kindFromName("open", named));
    EXPECT_EQ(named, open);
    EXPECT_FALSE(isRead(open));
    EXPECT_FALSE(isWrite(open));
    EXPECT_TRUE(isInstantaneous(open));
    const UnfoldedProgram p = unfoldTest("RDMA latches\n{ }\nP0@1 { latch.open(x) }\nexists (x@1 = 0)\n");
    ASSERT_EQ(p.paths[0][0].events.size(), 1u);
    EXPECT_EQ(p.paths[0][0].events[0].kind, OPEN);
    EXPECT_EQ(p.paths[0][0].events[0].library, latch);
    // A kind is its name and flags: another kind named "open" (or as a core or built-in kind) is refused.
    static constexpr LibraryKind otherOpen{"open", true}, otherAcq{"acq", false, true}, otherLr{"lR"};
    EXPECT_THROW(registerLibrary(std::make_unique<Latches>("latch2", &otherOpen)), std::invalid_argument);
    EXPECT_THROW(registerLibrary(std::make_unique<Latches>("latch3", &otherAcq)), std::invalid_argument);
    EXPECT_THROW(registerLibrary(std::make_unique<Latches>("latch4", &otherLr)), std::invalid_argument);
    // A kind no registered library declares stands for no event kind.
    static constexpr LibraryKind unregistered{"shut"};
    EXPECT_THROW(static_cast<void>(static_cast<EventKind>(unregistered)), std::logic_error);
}

// A Name argument means what its library says: the library checks it before
// unfolding and records who takes part in it.
TEST(ExampleLibrary, ALibraryChecksItsNameArguments) {
    const UnfoldedProgram p =
        unfoldTest("RDMA groups\n{ y@1 = 0; }\nP0@1 { latch.join(g) }\nP1@2 { }\nP2@3 { latch.join(g) }\nexists (y = 0)\n");
    ASSERT_EQ(p.participants.size(), 1u);
    const auto& [group, threads] = *p.participants.begin();
    EXPECT_EQ(p.locations[group].name, "g");
    EXPECT_EQ(threads, (std::set<int>{0, 2}));
    const std::vector<Event>& join = p.paths[0][0].events;  // one open per node of a participant
    ASSERT_EQ(join.size(), 2u);
    EXPECT_EQ(join[0].remote, 1);
    EXPECT_EQ(join[1].remote, 3);
    EXPECT_EQ(unfoldError("RDMA g\n{ y@1 = 0; }\nP0@1 { latch.join(3) }\nexists (y = 0)\n"),
              "3:19: argument 1 of latch.join is a latch group (a name)");
    EXPECT_EQ(unfoldError("RDMA g\n{ g@1 = 0; }\nP0@1 { latch.join(g) }\nexists (g = 0)\n"),
              "3:19: 'g' is declared as a location; it cannot also be a latch group");
    EXPECT_EQ(unfoldError("RDMA g\n{ y@1 = 0; }\nP0@1 { latch.join(g); bar(g) }\nexists (y = 0)\n"),
              "3:27: 'g' is a latch group already; it cannot also be a barrier");
}

TEST(ExampleLibrary, CallsLowerToItsEvents) {
    const UnfoldedProgram p = unfoldTest(kSetAndTests);
    const int x1 = p.locationIndex("x@1"), x2 = p.locationIndex("x@2");
    ASSERT_GE(x1, 0);
    ASSERT_GE(x2, 0);
    const std::vector<Event>& set = p.paths[0][0].events;
    ASSERT_EQ(set.size(), 1u);
    EXPECT_EQ(set[0].kind, EventKind::LW);
    EXPECT_EQ(set[0].location, x1);
    EXPECT_EQ(set[0].written.constant, 1);
    EXPECT_EQ(set[0].library, flag);
    // The test is the library's lR; writing its result to a is the core's lW.
    const std::vector<Event>& test = p.paths[1][0].events;
    ASSERT_EQ(test.size(), 2u);
    EXPECT_EQ(test[0].kind, EventKind::LR);
    EXPECT_EQ(test[0].location, x1);
    EXPECT_EQ(test[0].library, flag);
    EXPECT_EQ(test[1].kind, EventKind::LW);
    EXPECT_EQ(test[1].library, Library::Core);
    EXPECT_EQ(test[1].written.event, 0);
    EXPECT_EQ(p.paths[2][0].events[0].location, x2);
}

TEST(ExampleLibrary, WellFormednessIsCheckedOnEachPathCombination) {
    const UnfoldedProgram p = unfoldTest(kSetAndTests);
    EXPECT_EQ(p.skeleton({0, 0, 0}).illFormed, std::nullopt);
    // P0 sets x only on its first branch, so the second combination tests x@1 unset.
    const UnfoldedProgram choice = unfoldTest(
        "RDMA flags\n{ }\nP0@1 { choice { flag.set(x) } or { } }\nP1@1 { a := flag.test(x) }\nexists (a = 0)\n");
    ASSERT_EQ(choice.paths[0].size(), 2u);
    EXPECT_EQ(choice.skeleton({0, 0}).illFormed, std::nullopt);
    EXPECT_EQ(choice.skeleton({1, 0}).illFormed, "flag x@1 is tested but never set");
}

TEST(ExampleLibrary, SetFirstRelatesSetsToOtherThreadsTestsOfTheSameCopy) {
    const UnfoldedProgram p = unfoldTest(kSetAndTests);
    const ExecutionGraph sk = p.skeleton({0, 0, 0});
    // P0's set and P1's test share x@1; P2 tests and sets x@2 itself, which is no pair.
    const std::vector<std::pair<int, int>> expected{{sk.threadEvents[0][0], sk.threadEvents[1][0]}};
    EXPECT_EQ(findLibraryRelation("setfirst")->pairs(sk), expected);
}

TEST(ExampleLibrary, PrintsBackAsLitmusText) {
    const std::string text = printLitmus(parseLitmus(kSetAndTests, "flags.litmus"));
    EXPECT_NE(text.find("  flag.set(x);\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  a := flag.test(x);\n"), std::string::npos) << text;
    EXPECT_EQ(printLitmus(parseLitmus(text, "again.litmus")), text);
}

// The generator core names no library: a library's hook adds its kind to the mix.
TEST(ExampleLibrary, TheGeneratorDrawsItsStatements) {
    GeneratorOptions options;
    parseMix("flagset=1,write=0,read=0,put=0,get=0,poll=0,rfence=0,mfence=0,cas=0", options);
    const std::string text = generateLitmus(3, options);
    EXPECT_NE(text.find("f@sv = 0"), std::string::npos) << text;
    EXPECT_NE(text.find("  flag.set(f);\n"), std::string::npos) << text;
    EXPECT_NO_THROW(unfoldTest(text)) << text;
    try {
        parseMix("nosuchkind=1", options);
        FAIL() << "an unknown kind is accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(", rbl, flagset)"), std::string::npos) << e.what();
    }
}

TEST(ExampleLibrary, AModelWithoutTheLibraryRejectsItsCalls) {
    try {
        unfoldFor(parseLitmus(kSetAndTests, "flags.litmus"), loadModel(rdmacheck::testing::modelsDir(), "rdma-wait-rmw"),
                  UnfoldOptions{}.unroll);
        FAIL() << "expected an error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("has no library 'flag'"), std::string::npos) << e.what();
    }
}

// The library's model file names its relation and scope like any base relation.
TEST(ExampleLibrary, AModelFileUsesItsRelation) {
    const Model model = loadModel(rdmacheck::testing::modelsDir(), rdmacheck::testing::sourceDir() + "/tests/unit/flag.cat");
    EXPECT_TRUE(model.libraries.count(flag));
    const LitmusTest test = parseLitmus(kSetAndTests, "flags.litmus");
    const CheckResult r = check(test, model, CheckOptions{});
    EXPECT_FALSE(r.ok);  // a = 0 would test x@1 before P0's set
    EXPECT_EQ(r.states.size(), 1u);
}
