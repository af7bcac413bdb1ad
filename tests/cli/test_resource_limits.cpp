// The resource limits through the real executable, in every command: the
// memory bound (a clear error, exit 2, never a signal; the next test untouched),
// out-of-range bounds as usage errors, and values at the 64-bit edge decoded
// exactly by every declarative path.
#include <gtest/gtest.h>

#include <fstream>
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

TEST(ResourceLimits, AMemoryBoundOutOfRangeIsAUsageError) {
    for (const std::string value : {"18446744073709551615", "1048577", "-1"}) {
        const ToolRun r = runTool("--max-memory " + value + " " + corpusFile("rdma-tso/fig1a-sb.litmus"));
        EXPECT_EQ(r.status, 2) << value;
        EXPECT_NE(r.err.find("--max-memory"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;  // no typo: a bad value
    }
}

// A test that passes the bound ends alone: its memory goes back before the
// next one starts, which then runs as it would on its own.
TEST(ResourceLimitsSlow, ATestStoppedAtTheMemoryBoundLeavesTheNextUntouched) {
    // Two receivers of four and two messages: the weak RBL model's hb over
    // these events takes well over 100 MiB of formulas.
    const TempDir tmp("memory");
    const std::string big = tmp / "big.litmus";
    std::string receives;
    for (int i = 0; i < 4; ++i)
        receives += "  r1_" + std::to_string(2 * i + 1) + " := rbl.receive(buf, r1_" + std::to_string(2 * i) + ");\n";
    writeText(big, "RDMA big\n{ x@1 = 0; y@2 = 0; r0_0@1; r1_0@2; r1_1@2; r1_2@2; r1_3@2; r1_4@2; r1_5@2; r1_6@2; "
                   "r1_7@2; r2_0@1; r2_1@1; r2_2@1; r2_3@1; r2_4@1; r2_5@1; }\n"
                   "P0@1 {\n  x := x + 1;\n  r0_0 :=^d y^2;\n  x := 2;\n  x := 1;\n}\n"
                   "P1@2 {\n" + receives + "  y := 1;\n}\n"
                   "P2@1 {\n  r2_1 := rbl.receive(buf, r2_0);\n  r2_2 := x;\n  x := 1;\n"
                   "  r2_4 := rbl.receive(buf, r2_3);\n  r2_5 := r2_1;\n}\nexists (r2_3 = 0)\n");
    const std::string small = corpusFile("rbl/rbl-fifo.litmus");
    const ToolRun r = runTool("--no-time --model rdma-wait-rmw-rblweak --max-memory 90 " + big + " " + small + " " +
                              big + " " + small);
    EXPECT_EQ(r.status, 2) << r.err;
    const std::string error = big + ":1:1: error: memory limit of 90 MiB reached (--max-memory)\n";
    EXPECT_EQ(r.err, error + error);
    const ToolRun alone = runTool("--no-time --model rdma-wait-rmw-rblweak " + small);
    EXPECT_EQ(r.out, alone.out + alone.out);
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
