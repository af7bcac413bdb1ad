// The resource limits through the real executable, in every command: the
// memory bound (a clear error, exit 2, never a signal; the next test untouched),
// out-of-range bounds as usage errors, and values at the 64-bit edge decoded
// exactly by every declarative path.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>

#include "../test_support.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;

namespace {

std::string corpusFile(const std::string& path) { return sourceDir() + "/litmus/" + path; }

void writeText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

// Below what the process itself takes, every command stops each test with the
// memory error (Z3's own bound could not make a context there: a segfault).
TEST(ResourceLimits, ATinyMemoryBoundIsAnErrorInEveryCommand) {
    const std::string sb = corpusFile("rdma-tso/fig1a-sb.litmus");
    for (const std::string command : {"", "robust ", "cross -j 1 ", "refine --impl wait-polls "}) {
        const std::string test = command.rfind("refine", 0) == 0 ? corpusFile("rdma-wait/loco-fig3a-put-wait-write-z1.litmus") : sb;
        const ToolRun r = runTool(command + "--max-memory 16 " + test);
        SCOPED_TRACE(command);
        EXPECT_EQ(r.status, 2) << r.out << r.err;
        EXPECT_NE((r.out + r.err).find("memory limit of 16 MiB reached (--max-memory)"), std::string::npos)
            << r.out << r.err;
    }
}

// Under ulimit -v the watch stops a test near the address-space limit: the
// error names that limit, not --max-memory's larger default.
// (GCC says AddressSanitizer with __SANITIZE_ADDRESS__, clang with __has_feature.)
#if defined(__SANITIZE_ADDRESS__)
#define RDMACHECK_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RDMACHECK_UNDER_ASAN 1
#endif
#endif
TEST(ResourceLimits, AnAddressSpaceLimitIsNamedInTheError) {
#ifdef RDMACHECK_UNDER_ASAN
    GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v lets it";
#else
    TempDir dir("ulimit");
    const std::string test = dir / "ring.litmus";
    const ToolRun ring = runTool("generate --family exs --n 16 --s 4 --variant flag-first");
    writeText(test, ring.out);
    const ToolRun r = runTool("--no-time " + test, "ulimit -v 80000;");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("error: memory limit reached: 90% of the address-space limit, 78 MiB (ulimit -v); "
                         "--max-memory is 4096 MiB"),
              std::string::npos)
        << r.err;
#endif
}

// Every command searches through the one loop with its limits: a timeout too
// short for any answer is the timeout error, exit 2, never a partial result.
TEST(ResourceLimits, ATinyTimeoutIsAnErrorInEveryCommand) {
    const std::string sb = corpusFile("rdma-tso/fig1a-sb.litmus");
    for (const std::string command : {"", "--explain ", "--states ", "--speedcheck ", "--engine operational ", "robust ",
                                      "cross -j 1 ", "refine --impl wait-polls "}) {
        const std::string test =
            command.rfind("refine", 0) == 0 ? corpusFile("rdma-wait/loco-fig3a-put-wait-write-z1.litmus") : sb;
        const ToolRun r = runTool(command + "--timeout 0.000001 " + test);
        SCOPED_TRACE(command);
        EXPECT_EQ(r.status, 2) << r.out << r.err;
        EXPECT_NE(r.err.find("error: timeout: "), std::string::npos) << r.out << r.err;
        EXPECT_NE(r.err.find("within 0.000001 s (--timeout)"), std::string::npos) << r.err;
        EXPECT_EQ(r.out.find("Observation"), std::string::npos) << r.out;  // no verdict from a partial search
    }
}

TEST(ResourceLimits, AMemoryBoundOutOfRangeIsAUsageError) {
    for (const std::string value : {"18446744073709551615", "1048577", "-1"}) {
        const ToolRun r = runTool("--max-memory " + value + " " + corpusFile("rdma-tso/fig1a-sb.litmus"));
        EXPECT_EQ(r.status, 2) << value;
        EXPECT_NE(r.err.find("--max-memory"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;  // no typo: a bad value
    }
}

// A test stopped by the bound ends alone: its memory goes back before the
// next one starts, which then runs as it would on its own. Declarative: a
// closure the axiom needs exactly (under '\'), squared over a 16-thread ring,
// takes some 260 MiB of formulas; operational: 500 puts take 3.7 KB a state.
TEST(ResourceLimitsSlow, ATestStoppedAtTheMemoryBoundLeavesTheNextUntouched) {
    const TempDir tmp("memory");
    const std::string heavyModel = tmp / "heavy.cat", ring = tmp / "ring.litmus", sb = tmp / "sb.litmus";
    writeText(heavyModel, "acyclic po | rf | rb | mo as sc\nempty [W] \\ ([W];(po | rf | rb | mo)+;[W]) as heavy\n");
    std::string text = "X86 ring\n{ }\n";
    auto row = [&](const std::function<std::string(int)>& cell) {
        for (int t = 0; t < 16; ++t) text += (t ? " | " : " ") + cell(t);
        text += " ;\n";
    };
    row([](int t) { return "P" + std::to_string(t); });
    row([](int t) { return "MOV [x" + std::to_string(t) + "],$1"; });
    row([](int t) { return "MOV [x" + std::to_string(t) + "],$2"; });
    row([](int) { return std::string("MFENCE"); });
    row([](int t) { return "MOV EAX,[x" + std::to_string((t + 1) % 16) + "]"; });
    writeText(ring, text + "exists (0:EAX=0)\n");
    writeText(sb, "X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
                  "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    const std::string puts = tmp / "puts.litmus", fig1a = corpusFile("rdma-tso/fig1a-sb.litmus");
    std::string putsText = "RDMA puts\n{ x@1; y@2 }\nP0@1 { ";
    for (int i = 0; i < 500; ++i) putsText += "y^2 := x; ";
    writeText(puts, putsText + "}\nP1@2 { y := 1 }\nexists (y = 0)\n");
    // X86 copies under other names: a test name is checked once, as herd7 does.
    const std::string ring2 = tmp / "ring2.litmus", sb2 = tmp / "sb2.litmus";
    writeText(ring2, "X86 ring2" + readFile(ring).substr(readFile(ring).find('\n')));
    writeText(sb2, "X86 SB2" + readFile(sb).substr(readFile(sb).find('\n')));
    const struct {
        std::string options, big, small, big2, small2;
        int megabytes;
    } runs[] = {{"--model " + heavyModel, ring, sb, ring2, sb2, 150},
                {"--engine operational", puts, fig1a, puts, fig1a, 100}};
    for (const auto& run : runs) {
        SCOPED_TRACE(run.options);
        const std::string bound = std::to_string(run.megabytes);
        const ToolRun r = runTool("--no-time " + run.options + " --max-memory " + bound + " " + run.big + " " +
                                  run.small + " " + run.big2 + " " + run.small2);
        EXPECT_EQ(r.status, 2) << r.err;
        auto error = [&](const std::string& big) {
            return big + ":1:1: error: memory limit of " + bound + " MiB reached (--max-memory)\n";
        };
        const ToolRun alone = runTool("--no-time " + run.options + " " + run.small);
        const ToolRun alone2 = runTool("--no-time " + run.options + " " + run.small2);
        // the small test's warnings, if any, as alone
        EXPECT_EQ(r.err, error(run.big) + alone.err + error(run.big2) + alone2.err);
        EXPECT_EQ(r.out, alone.out + alone2.out);
    }
}

// Values at the edge of 64 bits, with no arithmetic: the solver may place its
// clocks beyond them, and every path decodes the execution exactly.
TEST(ResourceLimits, ValuesAtTheEdgeOf64BitsAreDecodedExactly) {
    const TempDir tmp("values");
    const std::string test = tmp / "big-values.litmus";
    writeText(test, "RDMA big-values\n{ x@1 = 999999999999999999; y@2 = -999999999999999999; r@1; s@2; }\n"
                    "P0@1 {\n  r := y^2;\n  x := 9223372036854775807;\n}\n"
                    "P1@2 {\n  s := x^1;\n  y := -9223372036854775807;\n}\n"
                    "exists (r = -999999999999999999 /\\ s = 999999999999999999)\n");
    const ToolRun check = runTool("--no-time " + test);
    EXPECT_EQ(check.status, 0) << check.err;
    EXPECT_NE(check.out.find("[r]=-9223372036854775807; [s]=9223372036854775807;"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("Positive: 1 Negative: 3"), std::string::npos) << check.out;
    for (const std::string& options : {std::string("--explain"), "--dot " + (tmp / "dot"), std::string("--states"),
                                        std::string("--speedcheck")}) {
        const ToolRun r = runTool(options + " " + test);
        EXPECT_EQ(r.status, 0) << options << ": " << r.err;
    }
    const ToolRun cross = runTool("cross -j 1 " + test);
    EXPECT_EQ(cross.status, 0) << cross.err;
    EXPECT_NE(cross.out.find("0 with differences, 0 errors"), std::string::npos) << cross.out;
}

// A report that cannot be written (a full disk, a closed stdout) is an error
// with its reason, exit 2, in the text and the JSON report alike.
TEST(ResourceLimits, OutputThatCannotBeWrittenIsAnError) {
    const std::string sb = corpusFile("rdma-tso/fig1a-sb.litmus");
    for (const std::string redirect : {" > /dev/full", " --json > /dev/full", " >&-"}) {
        const ToolRun r = runTool(sb + redirect);
        SCOPED_TRACE(redirect);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("rdmacheck: error: the output could not be written: "), std::string::npos) << r.err;
    }
}
