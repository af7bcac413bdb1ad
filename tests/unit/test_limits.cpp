// Inputs at and past the limits (include/rdmacheck/limits.hpp): large inputs are
// read in linear time and space, too deep or too large ones are positioned
// errors, never a crash, and the engines agree on 64-bit arithmetic.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "../test_support.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/text_file.hpp"
#include "rdmacheck/unfold.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

std::string oneThread(const std::string& init, const std::string& body, const std::string& condition) {
    return "RDMA t\n{ " + init + " }\nP0@1 {\n" + body + "\n}\nexists (" + condition + ")\n";
}

// The message of the InputError that parsing and unfolding `text` throws ("" if none).
std::string inputError(const std::string& text) {
    try {
        unfold(parseLitmus(text, "t.litmus"), UnfoldOptions{});
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// What readTextFile throws for `path` ("" if it reads it): where, then what.
std::string readError(const std::string& path, const SourceLoc& cite = {}) {
    try {
        readTextFile(path, "litmus test", cite);
    } catch (const InputError& e) {
        return e.where().str() + ": " + e.detail();
    }
    return "";
}

// A file of `size` bytes that starts with `text`; the rest is a hole (no disk).
void sparseFile(const std::string& path, const std::string& text, off_t size) {
    std::ofstream(path, std::ios::binary) << text;
    ASSERT_EQ(::truncate(path.c_str(), size), 0) << path;
}

}  // namespace

// /dev/zero was read to 4 GB, a FIFO without a writer blocked for ever: only
// regular files are read, and opening one never blocks.
TEST(Limits, OnlyRegularFilesAreRead) {
    const TempDir tmp("regular");
    const std::string fifo = tmp / "fifo.litmus";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(readError(fifo), fifo + ": is a FIFO, not a regular file");
    EXPECT_EQ(readError("/dev/zero"), "/dev/zero: is a character device, not a regular file");
    EXPECT_EQ(readError(tmp.path()), tmp.path() + ": is a directory, not a litmus test");
    EXPECT_EQ(readError(tmp / "missing"), tmp / "missing" + ": cannot open file: No such file or directory");
    // Where a line names the file (a model's table), the error is there.
    EXPECT_EQ(readError(fifo, SourceLoc{"m.cat", 3, 1}), "m.cat:3:1: litmus test " + fifo + " is a FIFO, not a regular file");
    EXPECT_THROW(parseLitmusFile(fifo), InputError);
    // A directory named as an order table was "an empty table".
    std::filesystem::create_directory(tmp / "tables");
    try {
        parseModel("table t = \"tables\"", tmp / "m.cat", modelsDir(), {});
        ADD_FAILURE() << "a directory read as an order table";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().str() + ": " + e.detail(), tmp / "m.cat:1:1: order table " + tmp / "tables is a directory");
    }
}

TEST(Limits, FilesAreReadUpToTheirBound) {
    const TempDir tmp("bound");
    const std::string big = tmp / "big.litmus", atBound = tmp / "at-bound.litmus";
    sparseFile(big, "RDMA big\n", kMaxFileBytes + 1);
    EXPECT_EQ(readError(big), big + ": is larger than 256 MiB, the most rdmacheck reads from one file");
    // A file at the bound is read, and refused at its first bad byte (here the
    // hole's first NUL) with its line and column.
    sparseFile(atBound, "RDMA t\nab", kMaxFileBytes);
    EXPECT_EQ(readError(atBound), atBound + ":2:3: NUL byte in the file: a litmus test is text");
}

// The bytes are checked as they are read, 64 KiB at a time: a UTF-8 sequence
// cut by a read is whole once the rest comes, and a bad byte is found where it is.
TEST(Limits, BadBytesAreFoundWhileReading) {
    const TempDir tmp("bytes");
    const std::string cut = tmp / "cut.litmus", bad = tmp / "bad.litmus";
    const std::string across = std::string(65535, 'a') + "\xC3\xA9\n";  // é across the first read
    std::ofstream(cut, std::ios::binary) << across;
    EXPECT_EQ(readError(cut), "");
    EXPECT_EQ(readTextFile(cut, "litmus test"), across);
    std::ofstream(bad, std::ios::binary) << across << "ok\n\xC3(";
    EXPECT_EQ(readError(bad), bad + ":3:1: invalid UTF-8 (byte 0xC3): a litmus test is UTF-8 text");
    EXPECT_EQ(firstBadByte("a\xF0\x9F\x98\x80" "b\xFF", 0, 7), 6u);  // a 4-byte sequence, then 0xFF
}

// Quadratic parsing took 102 s for 40,000 declarations; these are 5 and 2.5 times larger.
TEST(Limits, LargeInitBlockAndLongThreadParseInLinearTime) {
    std::string init;
    for (int i = 0; i < 200000; ++i) init += "x" + std::to_string(i) + "@1; ";
    const LitmusTest declared = parseLitmus(oneThread(init, "x0 := 1", "x0 = 1"), "t.litmus");
    EXPECT_EQ(declared.locations.size(), 200000u);
    const LitmusTest statements = parseLitmus(oneThread("x@1", repeat("x := 1; ", 50000), "x = 1"), "t.litmus");
    EXPECT_EQ(statements.threads[0].body.size(), 50000u);
}

// The unfolder recursed once per statement and copied its state at every level.
TEST(Limits, LongThreadUnfoldsWithoutRecursion) {
    const LitmusTest test = parseLitmus(oneThread("x@1; a@1", repeat("a := x; ", 20000), "a = 0"), "t.litmus");
    const UnfoldedProgram program = unfold(test, UnfoldOptions{});
    ASSERT_EQ(program.paths[0].size(), 1u);
    EXPECT_EQ(program.paths[0][0].events.size(), 40000u);
}

TEST(Limits, DeepNestingIsAPositionedError) {
    const size_t depth = 100000;
    EXPECT_EQ(inputError(oneThread("x@1", repeat("loop { ", depth) + "x := 1" + repeat(" }", depth), "x = 1")),
              "t.litmus:4:699: error: nested more than 100 deep (blocks, parentheses and '~' count)");
    EXPECT_NE(inputError(oneThread("x@1", "x := 1", repeat("~", depth) + "x = 1")).find("nested more than 100"),
              std::string::npos);
    EXPECT_NE(inputError(oneThread("x@1", "x := " + repeat("(", depth) + "1" + repeat(")", depth), "x = 1"))
                  .find("nested more than 100"),
              std::string::npos);
    EXPECT_NE(inputError(oneThread("x@1", "x := 1" + repeat(" + 1", depth), "x = 1")).find("more than 1000 operators"),
              std::string::npos);
    // At the limit, everything works.
    EXPECT_EQ(inputError(oneThread("x@1", repeat("if (x = 0) { ", 99) + "x := 1" + repeat(" }", 99), "x = 1")), "");
}

// Nested loops grew without bound before any check; the event budget stops them
// whatever shape the program has.
TEST(Limits, UnfoldingStopsAtItsEventBudget) {
    const std::string whiles = repeat("while (x != 1) { ", 40) + "y := 1" + repeat(" }", 40);
    EXPECT_NE(inputError(oneThread("x@1; y@1", whiles, "y = 1")).find("makes more than 1000000 events"),
              std::string::npos);
    UnfoldOptions small;
    small.maxEvents = 100;
    EXPECT_THROW(unfold(parseLitmus(oneThread("x@1", repeat("x := 1; ", 101), "x = 1"), "t.litmus"), small),
                 InputError);
    EXPECT_NO_THROW(unfold(parseLitmus(oneThread("x@1", repeat("x := 1; ", 100), "x = 1"), "t.litmus"), small));
}

// Values up to 2^63-1 are exact on both engines; a step past them is an error on
// both, and a statement no execution runs is no error.
TEST(Limits, BothEnginesComputeInSixtyFourBitsOrStop) {
    const Model model = loadModel(modelsDir(), "rdma-tso");
    MachineOptions machine;
    auto outcomes = [&](const std::string& body) {
        const LitmusTest test = parseLitmus(oneThread("a@1; b@1; x@1", body, "a = 0"), "t.litmus");
        const CheckResult declarative = check(test, model, CheckOptions{});
        const CheckResult operational = explore(test, model, machine);
        EXPECT_EQ(declarative.states, operational.states) << body;
        return declarative.states;
    };
    const auto large = outcomes("b := 4611686018427387903; a := b * 2 + 1");
    ASSERT_EQ(large.size(), 1u);
    EXPECT_EQ(large.begin()->first, (FinalState{9223372036854775807}));
    EXPECT_EQ(outcomes("if (x = 1) { b := 999999999999999999; a := b * b }").size(), 1u);

    const LitmusTest overflow = parseLitmus(oneThread("a@1; b@1", "b := 4611686018427387904; a := b + b - 1", "a = 0"),
                                            "t.litmus");
    for (bool declarative : {true, false}) {
        try {
            declarative ? check(overflow, model, CheckOptions{}) : explore(overflow, model, machine);
            ADD_FAILURE() << "no overflow reported";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "t.litmus:4:27: error: arithmetic overflow: 4611686018427387904 + 4611686018427387904 does not "
                      "fit in 64 bits");
        }
    }
}

TEST(Limits, NumbersAreCheckedWhereTheyAreRead) {
    EXPECT_EQ(inputError(oneThread("x@1", "x := 9223372036854775807", "x = 1")), "");
    EXPECT_NE(inputError(oneThread("x@1", "x := 9223372036854775808", "x = 1")).find("does not fit in 64 bits"),
              std::string::npos);
    EXPECT_NE(inputError(oneThread("x@4097", "a := x^4097", "a = 1")).find("node numbers are 1 to 4096"),
              std::string::npos);
}

// Z3's "unknown" (here: out of time) is an error, never "no more executions".
TEST(Limits, ASolverTimeoutIsAnErrorNotFewerExecutions) {
    const LitmusTest test = parseLitmusFile(sharedDir() + "/conformance/x86-tso/tests/pso.litmus");
    CheckOptions options;
    options.limits.seconds = 0.001;
    try {
        check(test, loadModel(modelsDir(), "tso"), options);
        ADD_FAILURE() << "pso finished within 1 ms";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("timeout: no answer within 0.001 s"), std::string::npos) << e.what();
    }
}

// --max-states counted states, not bytes: 500 puts took 3.7 KB a state.
TEST(Limits, MachineMemoryIsBounded) {
    std::string puts = "RDMA t\n{ x@1; y@2 }\nP0@1 { " + repeat("y^2 := x; ", 500) + "}\nP1@2 { y := 1 }\nexists (y = 0)\n";
    MachineOptions options;
    options.limits.megabytes = memory_watch::residentMegabytes() + 60;
    try {
        explore(parseLitmus(puts, "t.litmus"), loadModel(modelsDir(), "rdma-tso"), options);
        ADD_FAILURE() << "500 puts explored within 60 MiB more";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("memory limit of"), std::string::npos) << e.what();
    }
}
