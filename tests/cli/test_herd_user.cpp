// What a herd7 user meets first (issue 28): finding models as herd7 finds
// them, and messages that point at the mistake a herd7 habit makes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

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

// An include is looked for as herd7 looks for it, the current folder first,
// then the search path, and beside the including file only where herd7 would
// stop; herd7's own library ($HERDLIB, or beside a herd7 on the PATH) comes
// after rdmacheck's models, for file names only.
TEST(HerdUser, IncludesAndHerd7sLibraryInHerd7sOrder) {
    const TempDir dir("include-order");
    std::filesystem::create_directories(dir / "model");
    std::filesystem::create_directories(dir / "cwd");
    std::ofstream(dir / "model/main.cat") << "\"main\"\ninclude \"part.cat\"\n";
    std::ofstream(dir / "model/part.cat") << "\"beside\"\nflag ~empty po as beside\n";
    std::ofstream(dir / "cwd/part.cat") << "\"cwd\"\nflag ~empty po as cwd\n";
    const std::string test = " --no-time --model " + dir / "model/main.cat" + " " + corpusTest();
    EXPECT_NE(runTool(test, "cd " + dir / "cwd" + " &&").out.find("\nFlag cwd\n"), std::string::npos);
    const ToolRun fromBeside = runTool(test, "cd / &&");
    EXPECT_NE(fromBeside.out.find("\nFlag beside\n"), std::string::npos) << fromBeside.out;

    std::filesystem::create_directories(dir / "prefix/bin");
    std::filesystem::create_directories(dir / "prefix/share/herdtools7/herd");
    std::ofstream(dir / "prefix/bin/herd7") << "#!/bin/sh\n";
    std::filesystem::permissions(dir / "prefix/bin/herd7", std::filesystem::perms::owner_all);
    writeIncluding(dir / "prefix/share/herdtools7/herd/herds.cat", sourceDir() + "/models/rdma-tso.cat");
    const std::string herds = " --no-time --model herds.cat " + corpusTest();
    EXPECT_EQ(runTool(herds, "cd / && HERDLIB= PATH=/usr/bin:/bin").status, 2);
    EXPECT_EQ(runTool(herds, "cd / && HERDLIB= PATH=" + dir / "prefix/bin" + ":/usr/bin:/bin").status, 0);
    EXPECT_EQ(runTool(herds, "cd / && HERDLIB=" + dir / "prefix/share/herdtools7/herd").status, 0);
    EXPECT_EQ(runTool(" --no-time --model herds " + corpusTest(), "cd / && HERDLIB=" + dir / "prefix/share/herdtools7/herd")
                  .status,
              2);  // a model's name is rdmacheck's: not looked for in herd7's library
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
    EXPECT_NE(r.err.find("x86.litmus:5:1: error: unsupported X86 instruction 'exist' (supported: MOV, MOVB, MOVW, MOVL, MOVQ, XCHG, "
                         "ADD, INC, DEC, XOR, OR, LOCK ADD/INC/DEC/XOR/XCHG, MFENCE, SFENCE, LFENCE, CMP, JE, JNE, JMP, SETNB, CMOVC) "
                         "(did you mean 'exists'?)"),
              std::string::npos)
        << r.err;
}

// Negations and implications in the Condition line as herd7 7.58 reads and
// prints them (run beside rdmacheck): `x!=1` and `~x=1` are `not (x=1)`,
// `not` reads as `~`, `=>` binds tighter than /\ and \/.
TEST(HerdUser, ConditionsPrintAsHerd7PrintsThem) {
    const TempDir dir("negations");
    const std::pair<const char*, const char*> cases[] = {
        {"~(1:EAX=1 /\\ 1:EBX=0)", "exists (not (1:EAX=1 /\\ 1:EBX=0))"},
        {"1:EAX=1 /\\ 1:EBX!=0", "exists (1:EAX=1 /\\ not (1:EBX=0))"},
        {"~(1:EAX=1 \\/ 1:EBX=0) /\\ 1:EAX=0", "exists (not (1:EAX=1 \\/ 1:EBX=0) /\\ 1:EAX=0)"},
        {"~~1:EAX=1", "exists (not (not (1:EAX=1)))"},
        {"not 1:EAX=1 /\\ 1:EBX=0", "exists (not (1:EAX=1) /\\ 1:EBX=0)"},
        {"1:EAX=1 /\\ 1:EBX=0 => 1:EBX=1", "exists (1:EAX=1 /\\ (1:EBX=0 => 1:EBX=1))"},
        {"(1:EAX=1 \\/ 1:EBX=0) => 1:EBX=1", "exists ((1:EAX=1 \\/ 1:EBX=0) => 1:EBX=1)"},
        {"(1:EAX=1 => 1:EBX=1) => 1:EAX=0", "exists (1:EAX=1 => 1:EBX=1 => 1:EAX=0)"},
    };
    for (const auto& [written, printed] : cases) {
        std::ofstream(dir / "t.litmus") << "X86 t\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
                                        << " MOV [y],$1 | MOV EBX,[x] ;\nexists (" << written << ")\n";
        const ToolRun r = runTool(dir / "t.litmus");
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find(std::string("Condition ") + printed + "\n"), std::string::npos) << written << "\n" << r.out;
    }
    // MP under x86-TSO: whoever sees the flag sees the data (herd7: Always 3 0).
    std::ofstream(dir / "mp.litmus") << "X86 t\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
                                     << " MOV [y],$1 | MOV EBX,[x] ;\nforall (1:EAX=1 => 1:EBX=1)\n";
    const ToolRun mp = runTool(dir / "mp.litmus");
    EXPECT_NE(mp.out.find("Observation t Always 3 0\n"), std::string::npos) << mp.out;
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

// -I DIR takes one folder, so the test may follow it (herd7's `herd7 -I DIR
// test.litmus`); -I +DIR is DIR in the shipped models' folder, as herd7 reads
// it in its libdir.
TEST(HerdUser, IncludeFolderTakesOneArgumentAndPlusMeansShipped) {
    const ToolRun plain = runTool("--no-time " + corpusTest());
    const ToolRun dirFirst = runTool("--no-time -I " + TempDir("models").path() + " " + corpusTest());
    EXPECT_EQ(dirFirst.status, 0) << dirFirst.err;
    EXPECT_EQ(dirFirst.out, plain.out);
    // A build's shipped models are the source tree's models/: the folder is
    // named from there, and is not found from the working directory.
    const TempDir dir("models");
    writeIncluding(dir / "mine.cat", sourceDir() + "/models/rdma-tso.cat");
    const std::string fromShipped = std::filesystem::relative(dir.path(), sourceDir() + "/models").string();
    const ToolRun shipped = runTool("--no-time -I +" + fromShipped + " -model mine " + corpusTest());
    EXPECT_EQ(shipped.status, 0) << shipped.err;
    EXPECT_NE(shipped.out.find("Model mine"), std::string::npos) << shipped.out;
    const ToolRun relative = runTool("-I " + fromShipped + " -model mine " + corpusTest());
    EXPECT_EQ(relative.status, 2) << relative.out;
    EXPECT_NE(relative.err.find("unknown model 'mine'"), std::string::npos) << relative.err;
}

namespace {

// X86 MP with `quantifier`: under tso three consistent executions, none with
// the proposition's state.
std::string writeMp(const TempDir& dir, const std::string& name, const std::string& quantifier) {
    const std::string path = dir / (name + ".litmus");
    std::ofstream(path) << "X86 " << name << "\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
                        << " MOV [y],$1 | MOV EBX,[x] ;\n" << quantifier << " (1:EAX=1 /\\ 1:EBX=0)\n";
    return path;
}

size_t digraphs(const std::string& dotFile) {
    const std::string text = readFile(dotFile);
    size_t n = 0;
    for (size_t at = text.find("digraph"); at != std::string::npos; at = text.find("digraph", at + 1)) ++n;
    return n;
}

}  // namespace

// herd7's -show selects by the proposition (prop, neg) or by the quantifier
// (cond: the verdict's executions; wit: the refuting ones), as herd/top_herd.ml
// does (by default none under -o DIR, as herd7); -o DIR writes one DIR/TEST.dot
// per test, written even when empty.
TEST(HerdUser, ShowAndOutputDirAreHerd7s) {
    const TempDir dir("show");
    const std::string exists = writeMp(dir, "MPe", "exists"), never = writeMp(dir, "MPn", "~exists"),
                      always = writeMp(dir, "MPf", "forall");
    const std::map<std::string, std::map<std::string, size_t>> expected{
        {"prop", {{exists, 0}, {never, 0}, {always, 0}}}, {"neg", {{exists, 3}, {never, 3}, {always, 3}}},
        {"cond", {{exists, 0}, {never, 3}, {always, 0}}}, {"wit", {{exists, 0}, {never, 0}, {always, 3}}},
        {"all", {{exists, 3}, {never, 3}, {always, 3}}},  {"none", {{exists, 0}, {never, 0}, {always, 0}}}};
    for (const auto& [show, counts] : expected)
        for (const auto& [test, count] : counts) {
            const std::string out = dir / ("out-" + show);
            const ToolRun r = runTool("-o " + out + " -show " + show + " " + test);
            EXPECT_LE(r.status, 1) << r.err;
            const std::string dot = out + "/" + std::filesystem::path(test).stem().string() + ".dot";
            ASSERT_TRUE(std::filesystem::exists(dot)) << show << " " << test;
            EXPECT_EQ(digraphs(dot), count) << "-show " << show << " " << test;
        }
    // Without -show, herd7's -o DIR shows nothing (herd/opts.ml); rdmacheck's --dot keeps its cond.
    const std::string plain = dir / "out-plain";
    EXPECT_LE(runTool("-o " + plain + " " + never).status, 1);
    EXPECT_EQ(digraphs(plain + "/MPn.dot"), 0u);
    EXPECT_LE(runTool("--dot " + plain + " --dot-per-test " + never).status, 1);
    EXPECT_EQ(digraphs(plain + "/MPn.dot"), 3u);
    EXPECT_EQ(runTool("-o - " + exists).status, 2);
    EXPECT_EQ(runTool("--dot-per-test " + exists).status, 2);
}

// herd7's options where they mean something here, by herd7's spelling; the
// others refused by name.
TEST(HerdUser, Herd7OptionsAreReadOrRefusedByName) {
    const TempDir dir("options");
    const std::string mp = writeMp(dir, "MP", "exists");
    const std::string json = runTool("-json " + mp).out;
    EXPECT_EQ(json.rfind("{", 0), 0u) << "-json is --json, not -j son";
    // an X86 test's JSON has herd7's Hash, as its text does
    const std::string text = runTool(mp).out;
    const size_t hash = text.find("Hash=");
    ASSERT_NE(hash, std::string::npos) << text;
    EXPECT_NE(json.find("\"hash\":\"" + text.substr(hash + 5, 32) + "\""), std::string::npos) << json;
    EXPECT_EQ(runTool("-timeout 100 -q -nshow 1 -showone true -showinitwrites true -cat tso " + mp).status, 0);
    EXPECT_EQ(runTool("-nshow 0 " + mp).status, 0);  // herd7 7.58 reads it as 1
    const std::string loop = dir / "loop.litmus";
    std::ofstream(loop) << "RDMA loop\n{ x@1 = 0; }\nP0@1 { loop { x := 1 } }\nexists (x = 1)\n";
    EXPECT_EQ(runTool(loop).out.find("Warning: "), std::string::npos) << "herd7 prints its warnings on stderr";
    EXPECT_NE(runTool(loop).err.find("Warning: "), std::string::npos);
    EXPECT_EQ(runTool("-q " + loop).err.find("Warning: "), std::string::npos) << "herd7's -q: no warnings";
    ToolRun r = runTool("-variant mixed " + mp);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("rdmacheck: error: herd7's -variant has no meaning in rdmacheck"), std::string::npos) << r.err;
    r = runTool("-jsn " + mp);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown option -jsn (rdmacheck's options start with '--' (did you mean '--json'?))"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(runTool("-j2 --no-time " + mp).status, 0) << "-j2 stays -j 2";
    // A misspelt option is compared with the main command's and the given command's, not diy's --mode.
    EXPECT_NE(runTool("-modle x86tso.cat " + mp).err.find("(did you mean '--model'?)"), std::string::npos);
    EXPECT_EQ(runTool("-speedcheck fast " + mp).status, 0);
    // -speedcheck fast counts the execution it stops at, -speedcheck true every
    // execution that breaks the forall (herd7 7.58 prints these counts).
    const std::string mpForall = writeMp(dir, "MPforall", "forall");
    const ToolRun broken = runTool("-speedcheck fast " + mpForall);
    EXPECT_NE(broken.out.find("\nNo\nWitnesses\nPositive: 0 Negative: 1\n"), std::string::npos) << broken.out;
    EXPECT_NE(broken.out.find("\nObservation MPforall Never 0 1\n"), std::string::npos) << broken.out;
    const ToolRun deciding = runTool("-speedcheck true " + mpForall);
    EXPECT_NE(deciding.out.find("\nStates 3\n"), std::string::npos) << deciding.out;
    EXPECT_NE(deciding.out.find("\nObservation MPforall Never 0 3\n"), std::string::npos) << deciding.out;
    // herd7's switches are last-wins, as OCaml's Arg sets a reference.
    auto report = [&](const std::string& options) { return runTool("--no-time " + options + " " + mpForall).out; };
    EXPECT_EQ(report("-speedcheck fast -speedcheck true"), report("-speedcheck true"));
    EXPECT_EQ(report("-speedcheck true -speedcheck false -speedcheck fast"), report("-speedcheck fast"));
    EXPECT_EQ(report("-speedcheck true -speedcheck false"), report(""));
    EXPECT_NE(report("-speedcheck fast"), report(""));
    EXPECT_EQ(runTool("--deciding-executions --engine operational " + mp).status, 2);
    r = runTool("-speedcheck maybe " + mp);  // herd7: "bad tag for -speedcheck"
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "rdmacheck: error: herd7's -speedcheck takes false, true or fast, not 'maybe'\n");
    EXPECT_EQ(runTool("-showinitwrites yes " + mp).err,
              "rdmacheck: error: herd7's -showinitwrites takes true or false, not 'yes'\n");
    // -showone false takes nothing back (herd/herd.ml: `if b then nshow := Some 1`).
    const std::string pictures = dir / "pictures";
    EXPECT_EQ(runTool("-o " + pictures + " -show all -nshow 3 -showone true -showone false " + mp).status, 0);
    EXPECT_EQ(digraphs(pictures + "/MP.dot"), 1u);
    EXPECT_EQ(runTool("-o " + pictures + " -show all -showone false " + mp).status, 0);
    EXPECT_EQ(digraphs(pictures + "/MP.dot"), 3u);
    for (const std::string refused : {"-candidates", "-outcomereads"}) {
        r = runTool(refused + " true " + mp);
        EXPECT_EQ(r.status, 2);
        EXPECT_NE(r.err.find("herd7's " + refused + " has no meaning in rdmacheck"), std::string::npos) << r.err;
    }
}

// herd7's -hexa: the states' and the condition's values in hexadecimal, an
// X86 value in 32 bits (herd7 7.58's report of this test, Time aside).
TEST(HerdUser, HexadecimalValuesAsHerd7PrintsThem) {
    const TempDir dir("hexa");
    const std::string test = dir / "hx.litmus";
    std::ofstream(test) << "X86 hx\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$17 | MOV EAX,[x] ;\n"
                        << " MOV [y],$-1 | MOV EBX,[y] ;\nexists (1:EAX=17 /\\ 1:EBX=0 \\/ x=255)\n";
    const std::string herd7 = "Test hx Allowed\nStates 4\n1:EAX=0x0; 1:EBX=0xffffffff; [x]=0x11;\n"
                              "1:EAX=0x0; 1:EBX=0x0; [x]=0x11;\n1:EAX=0x11; 1:EBX=0xffffffff; [x]=0x11;\n"
                              "1:EAX=0x11; 1:EBX=0x0; [x]=0x11;\nOk\nWitnesses\nPositive: 1 Negative: 3\n"
                              "Condition exists (1:EAX=0x11 /\\ 1:EBX=0x0 \\/ [x]=0xff)\nObservation hx Sometimes 1 3\n"
                              "Hash=06ab23592d8c3a068d59c9e3f74bf822\n\n";
    auto withoutModel = [](std::string out) {
        const size_t model = out.find("Model ");
        return out.erase(model, out.find('\n', model) + 1 - model);
    };
    EXPECT_EQ(withoutModel(runTool("--no-time -hexa true " + test).out), herd7);
    EXPECT_EQ(withoutModel(runTool("--no-time -hexa true -hexa false --hexa " + test).out), herd7);
    EXPECT_EQ(runTool("--no-time -hexa true -hexa false " + test).out, runTool("--no-time " + test).out);
    const ToolRun rdma = runTool("--no-time --hexa " + sourceDir() + "/litmus/rdma-tso/fig1a-sb.litmus");
    EXPECT_NE(rdma.out.find("\n[a]=0x0; [b]=0x1;\n"), std::string::npos) << rdma.out;
}

// As herd7 (lib/testHash.ml), a test name is checked once: a copy of the
// same hash gives no second report, another test of that name an error.
TEST(HerdUser, ATestNameIsCheckedOnce) {
    const TempDir dir("names");
    const std::string mp = writeMp(dir, "MP", "exists");
    ToolRun r = runTool("--no-time " + mp + " " + mp);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("Test MP"), r.out.rfind("Test MP")) << r.out;
    const TempDir other("names2");  // another MP: its first write writes 2
    const std::string forall = other / "MP.litmus";
    std::ofstream(forall) << "X86 MP\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$2 | MOV EAX,[y] ;\n"
                          << " MOV [y],$1 | MOV EBX,[x] ;\nforall (1:EAX=1 /\\ 1:EBX=0)\n";
    r = runTool("--no-time " + mp + " " + forall + " " + mp);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out.find("Test MP"), r.out.rfind("Test MP")) << r.out;
    EXPECT_NE(r.err.find(forall + ":1:1: error: test MP was read before from " + mp +
                         " with another hash; as herd7 does, a test's name is checked once"),
              std::string::npos)
        << r.err;
    r = runTool("run --json -j 2 " + mp + " " + forall);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("\"type\":\"error\""), std::string::npos) << r.out;
}

// herd7's -conf FILE: `key value` lines, # comments; picture styles warned
// about and ignored, an unknown key refused at its line.
TEST(HerdUser, Herd7ConfigurationFiles) {
    const TempDir dir("conf");
    const std::string mp = writeMp(dir, "MP", "exists"), conf = dir / "x86.cfg";
    std::ofstream(conf) << "# herd7 style\nmodel = sc\nskipchecks sc\nsquished true\n\nspeedcheck true\n";
    ToolRun r = runTool("-conf " + conf + " " + mp);
    EXPECT_EQ(r.status, 0) << r.err;  // sc without its axiom reaches the outcome
    EXPECT_NE(r.out.find("Model sc without sc\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nPositive: 1 Negative: 0\n"), std::string::npos) << r.out;  // -speedcheck's count
    EXPECT_NE(r.err.find("x86.cfg:4:1: warning: herd7's picture setting 'squished' is ignored"), std::string::npos)
        << r.err;
    std::ofstream(conf, std::ios::app) << "  bogus 1\n";
    r = runTool("-conf " + conf + " " + mp);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("x86.cfg:7:3: error: unknown option -bogus"), std::string::npos) << r.err;
    std::ofstream(dir / "hexa.cfg") << "hexa true\n";  // -hexa's, not a picture setting
    r = runTool("-conf " + (dir / "hexa.cfg") + " " + mp);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\n1:EAX=0x1; 1:EBX=0x1;\n"), std::string::npos) << r.out;
    // Found as herd7's libfind finds it: on -I's folders (and herd7's library), a conf line's too.
    std::ofstream(dir / "outer.cfg") << "conf hexa.cfg\n";
    r = runTool("-I " + dir.path() + " -conf outer.cfg " + mp);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\n1:EAX=0x1; 1:EBX=0x1;\n"), std::string::npos) << r.out;
    std::ofstream(conf) << "conf " << conf << "\n";
    EXPECT_NE(runTool("-conf " + conf + " " + mp).err.find("nested more than 8 deep"), std::string::npos);
    // On the command line, a picture setting is warned about as in a file; -web is -conf web.cfg.
    r = runTool("-graph columns -squished true --no-time " + mp);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("warning: herd7's picture setting 'graph' is ignored"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("Observation MP"), std::string::npos) << r.out;
    EXPECT_NE(runTool("-graph").err.find("herd7's -graph needs an argument"), std::string::npos);
    std::ofstream(dir / "web.cfg") << "squished true\nshowinitwrites false\n";
    r = runTool("-I " + dir.path() + " -web --no-time " + mp);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("web.cfg:1:1: warning: herd7's picture setting 'squished'"), std::string::npos) << r.err;
    r = runTool("-c11 " + mp);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("herd7's -c11 has no meaning in rdmacheck: rdmacheck reads no C11 tests"), std::string::npos)
        << r.err;
}

// mcompare7's -nohash: two logs that give one test two hashes are compared
// anyway; without it, compare stops as mcompare7 does.
TEST(HerdUser, CompareWithoutHashes) {
    const TempDir dir("nohash");
    const std::string mp = writeMp(dir, "MP", "exists");
    std::ofstream(dir / "a.log") << runTool("--no-time " + mp).out;
    std::string other = runTool("--no-time " + mp).out;
    other.replace(other.find("Hash=") + 5, 4, "0000");
    std::ofstream(dir / "b.log") << other;
    EXPECT_EQ(runTool("compare " + (dir / "a.log") + " " + (dir / "b.log")).status, 2);
    const ToolRun r = runTool("compare -nohash " + (dir / "a.log") + " " + (dir / "b.log"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("MP"), std::string::npos) << r.out;
    for (const std::string option : {"-show s", "-o out.txt", "-kinds k.txt", "-terse"}) {
        const ToolRun refused = runTool("compare " + option + " " + (dir / "a.log"));
        EXPECT_EQ(refused.status, 2) << option;
        EXPECT_NE(refused.err.find("has no counterpart: rdmacheck compare prints mcompare7's default table"),
                  std::string::npos)
            << refused.err;
    }
}

// run --expect reads the corpus's own CSV (test,model,expect,source): each
// test's expectation for the model it runs under.
TEST(HerdUser, ExpectReadsTheCorpusFormat) {
    const std::string corpus = sourceDir() + "/litmus/rdma-tso";
    for (const std::string model : {"", "--model rdma-sc "}) {
        const ToolRun r = runTool("run --no-time " + model + "--expect " + corpus + "/expected.csv " + corpus);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.err.find("expectations: 0 mismatched, 0 tests not listed"), std::string::npos) << r.err;
    }
    const TempDir dir("expect");
    std::string csv = readFile(corpus + "/expected.csv");
    const std::string row = "\nfig1a-sb.litmus,rdma-sc,No,";
    ASSERT_NE(csv.find(row), std::string::npos);
    csv.replace(csv.find(row), row.size(), "\nfig1a-sb.litmus,rdma-sc,Ok,");
    std::ofstream(dir / "expected.csv") << csv;
    const ToolRun sc = runTool("run --no-time --model rdma-sc --expect " + (dir / "expected.csv") + " " + corpus);
    EXPECT_EQ(sc.status, 1);
    EXPECT_NE(sc.err.find("expectations: 1 mismatched"), std::string::npos) << sc.err;
    EXPECT_EQ(runTool("run --no-time --expect " + (dir / "expected.csv") + " " + corpus).status, 0)
        << "rdma-tso's rows are not rdma-sc's";
}

namespace {

// The (from, to) pairs of a DOT file's edges of `relation`.
std::set<std::pair<std::string, std::string>> edgesOf(const std::string& dot, const std::string& relation) {
    const std::regex edge("(\\w+) -> (\\w+)\\s*\\[[^\\]]*relation=\"?" + relation + "\"?[,\\]\\s]");
    std::set<std::pair<std::string, std::string>> out;
    for (std::sregex_iterator it(dot.begin(), dot.end(), edge), end; it != end; ++it) out.insert({(*it)[1], (*it)[2]});
    return out;
}

}  // namespace

// --edges draws a model's relation as herd7 does, without the edges its
// other edges imply (herd7 reduces every shown relation; ob drew its closure).
TEST(HerdUser, RelationsAreDrawnReduced) {
    const TempDir dir("reduced");
    const ToolRun r = runTool("--edges po,ob --show all --dot " + dir.path() + " --dot-per-test " +
                              sourceDir() + "/litmus/rdma-tso/fig3e-sb-polled-gets.litmus");
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string dot = readFile(dir / "fig3e-sb-polled-gets.dot");
    size_t graphs = 0, obEdges = 0;
    for (size_t at = 0, next; at < dot.size(); at = next) {
        next = std::min(dot.find("digraph", at + 1), dot.size());
        const auto ob = edgesOf(dot.substr(at, next - at), "ob");
        obEdges += ob.size();
        for (const auto& [a, b] : ob)
            for (const auto& [b2, c] : ob)
                if (b == b2) {
                    EXPECT_EQ(ob.count({a, c}), 0u) << a << " -> " << c << " is implied by " << b;
                }
        ++graphs;
    }
    EXPECT_GT(graphs, 1u);
    EXPECT_GT(obEdges, 0u);
}

// X86 pictures: no RDMA node box, herd7's R[x]/W[x] with the register a read
// fills, herd7's co and fr for mo and rb; robust's witness names threads as the test does.
TEST(HerdUser, X86PicturesAndThreadNames) {
    const TempDir dir("x86pictures");
    const std::string mp = writeMp(dir, "MP", "exists");
    EXPECT_EQ(runTool("-o " + dir.path() + " -show all " + mp).status, 0);
    const std::string dot = readFile(dir / "MP.dot");
    EXPECT_EQ(dot.find("label=\"node "), std::string::npos) << dot;
    EXPECT_NE(dot.find("R[y]=1 (EAX)"), std::string::npos) << dot;
    EXPECT_NE(dot.find("W[x]=1"), std::string::npos) << dot;
    EXPECT_NE(dot.find("label=fr"), std::string::npos) << dot;
    EXPECT_EQ(dot.find("label=rb"), std::string::npos) << dot;
    EXPECT_EQ(dot.find("label=mo"), std::string::npos) << dot;
    const ToolRun robust = runTool("robust " + sourceDir() + "/litmus/exs/exs-pull-norfence.litmus");
    EXPECT_NE(robust.out.find("Witness S:2/2 R:4/4 "), std::string::npos) << robust.out;
}

// herd7's flags, with herd7's own x86tso.cat included: the Flag lines herd7
// 7.58 printed for this model on SB, MP and LB (herd7 -I HERD_LIBDIR -model
// flags.cat, Time lines aside), in its order, and the JSON's flags.
TEST(HerdUser, FlagsArePrintedAsHerd7PrintsThem) {
    const TempDir dir("flags");
    std::ofstream(dir / "flags.cat") << "X86 flags\ninclude \"x86tso.cat\"\nflag ~empty (rf & ext) as zz-read\n"
                                        "flag ~empty (fr & ext) ; po as aa-fre\n"
                                        "flag ~acyclic po | rf | fr | co as Sc-violation\n";
    const std::string tests = sharedDir() + "/conformance/x86-tso/tests/";
    const std::string args = "-I " + sharedDir() + "/conformance/herd-cat --model " + (dir / "flags.cat") + " " + tests +
                             "SB.litmus " + tests + "MP.litmus " + tests + "LB.litmus";
    const ToolRun r = runTool("--no-time " + args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::string flagLines;
    std::istringstream out(r.out);
    for (std::string line; std::getline(out, line);)
        if (line.rfind("Flag ", 0) == 0 || line.rfind("Test ", 0) == 0 || line.rfind("Positive", 0) == 0 ||
            line.rfind("Condition", 0) == 0)
            flagLines += line + "\n";
    EXPECT_EQ(flagLines,
              "Test SB Allowed\nPositive: 1 Negative: 3\nFlag Sc-violation\nFlag aa-fre\nFlag zz-read\n"
              "Condition exists (0:EAX=0 /\\ 1:EAX=0)\n"
              "Test MP Forbidden\nPositive: 3 Negative: 0\nFlag aa-fre\nFlag zz-read\n"
              "Condition ~exists (1:EAX=1 /\\ 1:EBX=0)\n"
              "Test LB Required\nPositive: 3 Negative: 0\nFlag zz-read\n"
              "Condition forall (0:EAX=0 /\\ (1:EAX=1 \\/ 1:EAX=0) \\/ 0:EAX=1 /\\ 1:EAX=0)\n");
    const ToolRun json = runTool("--json " + args);
    ASSERT_EQ(json.status, 0) << json.err;
    EXPECT_NE(json.out.find("\"flags\":[\"Sc-violation\",\"aa-fre\",\"zz-read\"]"), std::string::npos) << json.out;
}
