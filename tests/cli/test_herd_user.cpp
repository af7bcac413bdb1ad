// What a herd7 user meets first (issue 28): finding models as herd7 finds
// them, and messages that point at the mistake a herd7 habit makes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_support.hpp"

using namespace rdmacheck::testing;

namespace {

std::string corpusTest() { return sourceDir() + "/litmus/rdma-tso/fig1a-sb.litmus"; }

// A model that includes the shipped rdma-tso by name and adds nothing: its
// verdicts are rdma-tso's.
void writeIncluding(const std::string& path, const std::string& include) {
    std::ofstream(path) << "\"wraps rdma-tso\"\ninclude \"" << include << "\"\n";
}

}  // namespace

// --models-dir (herd7's -I) and $RDMACHECK_MODELS add folders in front of the
// shipped models: the shipped names stay known, the added ones are found.
TEST(HerdUser, ModelFoldersAddToTheShippedOnes) {
    const TempDir dir("models");
    writeIncluding(dir / "mine.cat", sourceDir() + "/models/rdma-tso.cat");
    const ToolRun shipped = runTool("--no-time --model rdma-tso " + corpusTest());
    ASSERT_EQ(shipped.status, 0) << shipped.err;
    for (const auto& [args, env] : {std::pair<std::string, std::string>{"--models-dir " + dir.path(), ""},
                                    {"", "RDMACHECK_MODELS=/nonexistent:" + dir.path()}}) {
        const ToolRun mine = runTool(args + " --no-time --model mine " + corpusTest(), env);
        EXPECT_EQ(mine.status, 0) << mine.err;
        EXPECT_NE(mine.out.find("Model mine\n"), std::string::npos) << mine.out;
        const ToolRun still = runTool(args + " --no-time --model rdma-tso " + corpusTest(), env);
        EXPECT_EQ(still.out, shipped.out) << still.err;
        const ToolRun help = runTool(args + " --help", env);
        EXPECT_NE(help.out.find("rdma-sc"), std::string::npos);
        EXPECT_NE(help.out.find("rdma-wait-rmw-rblweak"), std::string::npos);
    }
}

// herd7's order for a file name: the current folder, then the folders; an
// include is found beside the file that names it, on the path, or as an
// absolute path.
TEST(HerdUser, ModelFilesAreFoundAsHerd7FindsThem) {
    const TempDir dir("models");
    std::filesystem::create_directory(dir / "sub");
    writeIncluding(dir / "sub/absolute.cat", sourceDir() + "/models/rdma-tso.cat");
    writeIncluding(dir / "sub/beside.cat", "absolute.cat");
    writeIncluding(dir / "sub/onpath.cat", "rdma-tso.cat");
    for (const std::string model : {"sub/absolute.cat", "sub/beside.cat", "sub/onpath.cat"}) {
        const ToolRun elsewhere = runTool("--no-time --model " + model + " " + corpusTest(), "cd / &&");
        EXPECT_EQ(elsewhere.status, 2) << model << ": found from another folder";
        const ToolRun here = runTool("--no-time --model " + model + " " + corpusTest(), "cd " + dir.path() + " &&");
        EXPECT_EQ(here.status, 0) << model << ": " << here.err;
        const ToolRun searched = runTool("--models-dir " + dir.path() + " --no-time --model " + model + " " +
                                         corpusTest());
        EXPECT_EQ(searched.status, 0) << model << ": " << searched.err;
    }
    const ToolRun shipped = runTool("--no-time --model rdma-tso.cat " + corpusTest(), "cd / &&");
    EXPECT_EQ(shipped.status, 0) << "a shipped file by its file name: " << shipped.err;
    const ToolRun missing = runTool("--model nosuch.cat " + corpusTest());
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("error: --model: cannot open model file nosuch.cat: not found (looked at nosuch.cat, "),
              std::string::npos)
        << missing.err;
}

// `exist` for `exists`: RDMA tests read it as a thread, X86 tests as an
// instruction; both say which keyword was meant.
TEST(HerdUser, AMisspeltQuantifierIsNamed) {
    const TempDir dir("quantifier");
    std::ofstream(dir / "rdma.litmus") << "RDMA t\n{ x@1 = 0; }\nP0@1 { x := 1 }\nexist (x = 1)\n";
    std::ofstream(dir / "x86.litmus") << "X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexist (x=1)\n";
    ToolRun r = runTool(dir / "rdma.litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("rdma.litmus:4:1: error: expected a thread 'NAME@node { ... }' or the final condition "
                         "(did you mean 'exists'?)"),
              std::string::npos)
        << r.err;
    r = runTool(dir / "x86.litmus");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("x86.litmus:5:1: error: unsupported X86 instruction 'exist' (supported: MOV, MFENCE, XCHG) "
                         "(did you mean 'exists'?)"),
              std::string::npos)
        << r.err;
}

// The usage line names the program; counts agree with their nouns; -I is
// herd7's spelling of --models-dir.
TEST(HerdUser, UsageAndCountsReadAsEnglish) {
    EXPECT_NE(runTool("--help").out.find("Usage: rdmacheck [OPTIONS]"), std::string::npos);
    EXPECT_NE(runTool("run --help").out.find("Usage: rdmacheck run [OPTIONS]"), std::string::npos);
    const ToolRun one = runTool("run --no-time " + corpusTest());
    EXPECT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.err.find("run: 1 test in "), std::string::npos) << one.err;
    const TempDir dir("models");
    writeIncluding(dir / "mine.cat", sourceDir() + "/models/rdma-tso.cat");
    const ToolRun herd = runTool("-I " + dir.path() + " -model mine " + corpusTest());
    EXPECT_EQ(herd.status, 0) << herd.err;
}
