// The random generator: generated tests are valid, reproducible and printer
// output, every statement mix gives what it asks for, and bad mixes and
// options are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "../test_support.hpp"
#include "print_support.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using rdmacheck::testing::isRemoteRmw;
using rdmacheck::testing::remoteRmwCount;
using rdmacheck::testing::reparse;
using rdmacheck::testing::same;

namespace {

// Distinct locations an expression reads.
void locationsOf(const Expr& e, std::set<std::string>& names) {
    if (e.kind == Expr::Kind::Location) names.insert(e.name);
    for (const Expr& arg : e.args) locationsOf(arg, names);
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
