// The oracle of definition_oracle.hpp against check(): states and execution
// counts equal on hand-written and random tests under RDMA^TSO (Def. 4.4) and
// RDMA^TSO_RMW (Def. 20), Definition 20 against Definition 4.4 on RMW-free
// programs, and robust's verdicts against the oracle's own cycle search.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "../test_support.hpp"
#include "definition_oracle.hpp"
#include "rdmacheck/robust.hpp"

using namespace rdmacheck;
using namespace rdmacheck::testing;
using namespace rdmacheck::oracles::definition;

namespace {

void expectAgreement(const std::string& text, const std::string& modelName) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, "oracle.litmus");
    Model model = loadModel(modelsDir(), modelName);
    CheckResult r = check(test, model, CheckOptions{});
    OracleResult o = Oracle(test, model, r.shown).run();
    EXPECT_EQ(r.states, o.states) << modelName;
    EXPECT_EQ(r.positive, o.positive) << modelName;
    EXPECT_EQ(r.negative, o.negative) << modelName;
}

// Small random RDMA programs: 2 nodes, a thread per node (sometimes two on node 1),
// statements drawn from puts, gets, polls, rfences, mfences, CPU reads and writes.
std::string randomTest(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    const char* shared[3] = {"x", "y", "z"};  // x@1, y@2, z@2
    const int homes[3] = {1, 2, 2};
    std::string text = "RDMA random\n{ x@1; y@2; z@2; a@1; b@2; c@1; }\n";
    int threads = pick(4) == 0 ? 3 : 2;
    for (int t = 0; t < threads; ++t) {
        int node = t == 1 ? 2 : 1;
        int other = 3 - node;
        std::string local = node == 1 ? (t == 0 ? "a" : "c") : "b";
        text += "P" + std::to_string(t) + "@" + std::to_string(node) + " {";
        int length = 2 + pick(2);
        int remoteOps = 0, polls = 0;
        for (int i = 0; i < length; ++i) {
            int s = pick(8);
            int k = pick(3);
            std::string own = homes[k] == node ? shared[k] : (node == 1 ? "x" : "y");
            std::string far = homes[k] == other ? shared[k] : (other == 1 ? "x" : "z");
            std::string o = std::to_string(other);
            switch (s) {
                case 0: text += " " + far + "^" + o + " := " + std::to_string(1 + pick(2)) + ";"; ++remoteOps; break;
                case 1: text += " " + far + "^" + o + " := " + own + ";"; ++remoteOps; break;
                case 2: text += " " + own + " := " + far + "^" + o + ";"; ++remoteOps; break;
                case 3:
                    if (polls < remoteOps) {
                        text += " poll(" + o + ");";
                        ++polls;
                    }
                    break;
                case 4: text += " rfence(" + o + ");"; break;
                case 5: text += " mfence;"; break;
                case 6: text += " " + own + " := " + std::to_string(1 + pick(2)) + ";"; break;
                default: text += " " + local + " := " + own + ";"; break;
            }
        }
        text += " }\n";
    }
    text += "exists (x = 1 /\\ a = 0)\n";
    return text;
}

// check() under rdma-tso-rmw against Definition 20, on every location and register
// (not only the condition's). Returns the oracle's result for verdict checks.
OracleResult expectRmwAgreement(const std::string& text) {
    SCOPED_TRACE(text);
    LitmusTest test = parseLitmus(text, "oracle.litmus");
    test.shown = everyName(test);
    CheckResult r = check(test, loadModel(modelsDir(), "rdma-tso-rmw"), CheckOptions{});
    OracleResult o = Oracle(test, r.shown).run();
    EXPECT_EQ(r.states, o.states);
    EXPECT_EQ(r.positive, o.positive);
    EXPECT_EQ(r.negative, o.negative);
    return o;
}

// Small random programs with remote RMWs: P0@1, P1@2 (sometimes P2@1), 1-3
// statements each, half of them RCAS or RFAA. An RMW targets the other node, node
// 3 (w, as in Fig. 6b/6c) or its own node through loopback, so RMWs of different
// threads often share a target node and rao has to order them; puts, gets, polls
// (also of RMWs), fences and CPU accesses mix in.
std::string randomRmwTest(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    auto value = [&](int from) { return std::to_string(from + pick(2)); };
    std::string text = "RDMA random-rmw\n{ x@1; y@2; w@3; a@1; b@2; c@1; }\n";
    const int threads = pick(4) == 0 ? 3 : 2;
    for (int t = 0; t < threads; ++t) {
        const int node = t == 1 ? 2 : 1, other = 3 - node;
        const std::string own = node == 1 ? "x" : "y", far = node == 1 ? "y" : "x";
        const std::string local = node == 1 ? (t == 0 ? "a" : "c") : "b";
        text += "P" + std::to_string(t) + "@" + std::to_string(node) + " {";
        const int length = 1 + pick(threads == 3 ? 2 : 3);
        std::map<int, int> remoteOps, polls;  // per target node
        for (int i = 0; i < length; ++i) {
            const int where = pick(3);
            const int target = where == 0 ? other : where == 1 ? 3 : node;
            const std::string loc = (where == 0 ? far : where == 1 ? "w" : own) + "^" + std::to_string(target);
            const std::string result = pick(3) == 0 ? "_" : local;
            const int s = pick(2) ? pick(2) : 2 + pick(8);
            if (s <= 4) ++remoteOps[target];
            switch (s) {
                case 0: text += " RCAS(" + result + ", " + loc + ", " + value(0) + ", " + value(1) + ");"; break;
                case 1: text += " RFAA(" + result + ", " + loc + ", " + value(1) + ");"; break;
                case 2: text += " " + loc + " := " + value(1) + ";"; break;
                case 3: text += " " + loc + " := " + own + ";"; break;
                case 4: text += " " + local + " := " + loc + ";"; break;
                case 5: {
                    // A poll where some operation is still unpolled, else a fence.
                    auto it = std::find_if(remoteOps.begin(), remoteOps.end(),
                                           [&](const auto& ops) { return polls[ops.first] < ops.second; });
                    if (it != remoteOps.end()) {
                        text += " poll(" + std::to_string(it->first) + ");";
                        ++polls[it->first];
                    } else {
                        text += pick(2) ? " rfence(" + std::to_string(target) + ");" : " mfence;";
                    }
                    break;
                }
                case 6: text += " " + own + " := " + value(1) + ";"; break;
                case 7: text += " " + local + " := CAS(" + own + ", " + value(0) + ", " + value(1) + ");"; break;
                default: text += " " + local + " := " + own + ";"; break;
            }
        }
        text += " }\n";
    }
    text += "exists (w = 2)\n";
    return text;
}

}  // namespace

// A cycle that only ([Inst];ib;ob)+ forbids (in Def. 20: [Inst];ib in ob): z = 1,
// a = 0 needs nlR x →ib nrW z →pf P, then P →ob lR w →rb w's put →ob x's put →rf
// nlR x, and no ob edge reaches P.
const char* const kMixedCycle =
    "RDMA mixed-cycle\n{ x@1; w@1; z@2; a@1; }\nP0@1 { z^2 := x; poll(2); a := w }\nP1@2 { w^1 := 1; x^1 := 1 }\n"
    "exists (z = 1 /\\ a = 0)\n";

// Hand-written RDMA^TSO tests: the TSO paper's figures, a CPU CAS, loopback.
const char* const kTsoTests[] = {
    "RDMA 2b\n{ x@1; z@2; }\nP0@1 { z^2 := x; x := 1 }\nexists (z = 1)\n",
    "RDMA 2i\n{ x@1 = 1; y@2; z@2; }\nP0@1 { x := y^2; rfence(2); z^2 := x }\nexists (z = 1)\n",
    "RDMA 3d\n{ y@1; a@1; x@2; b@2; }\nP0@1 { x^2 := 1; poll(2); a := y }\nP1@2 { y^1 := 1; poll(1); b := x }\n"
    "exists (a = 0 /\\ b = 0)\n",
    "RDMA 3e\n{ y@1; w@1; a@1; c@1; x@2; z@2; b@2; d@2; }\n"
    "P0@1 { x^2 := 1; c := z^2; poll(2); poll(2); a := y }\n"
    "P1@2 { y^1 := 1; d := w^1; poll(1); poll(1); b := x }\nexists (a = 0 /\\ b = 0)\n",
    "RDMA cas\n{ x@1; }\nP0@1 { a := CAS(x, 0, 1) }\nP1@1 { x := 2; b := x }\nexists (a = 0)\n",
    "RDMA loopback\n{ x@1; z@1; }\nP0@1 { z^1 := x; x := 1; a := z^1; poll(1) }\nexists (z = 1)\n",
    kMixedCycle,
};

TEST(DefinitionOracle, PaperFigures) {
    for (const char* t : kTsoTests)
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
}

// Enough to exercise every statement kind together; the brute force is exponential.
constexpr int kRandomPrograms = 250;

// Slow tier (suite name ending in Slow, tests/CMakeLists.txt), as is the next.
TEST(DefinitionOracleSlow, RandomPrograms) {
    std::mt19937 rng(20261122);
    for (int i = 0; i < kRandomPrograms; ++i) {
        std::string t = randomTest(rng);
        for (const char* m : {"rdma-tso", "rdma-tso-nopcie"}) expectAgreement(t, m);
        if (::testing::Test::HasFailure()) break;
    }
}

// randomTest with an assume in most threads: the thread's own location against 0
// or 1, at a random place, so that some violations show only in a prefix.
std::string withAssumes(const std::string& text, std::mt19937& rng) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" {"), close = line.rfind(" }");
        if (line.rfind("P", 0) != 0 || open == std::string::npos || rng() % 4 == 0) {
            out += line + "\n";
            continue;
        }
        const int thread = line[1] - '0';
        const std::string local = thread == 0 ? "a" : thread == 1 ? "b" : "c";
        std::vector<std::string> statements;
        std::istringstream body(line.substr(open + 2, close - open - 2));
        for (std::string st; std::getline(body, st, ';');)
            if (st.find_first_not_of(' ') != std::string::npos) statements.push_back(st + ";");
        const std::string assume = " assume(" + local + " = " + std::to_string(rng() % 2) + ");";
        statements.insert(statements.begin() + static_cast<long>(rng() % (statements.size() + 1)), assume);
        out += line.substr(0, open + 2);
        for (const std::string& st : statements) out += st;
        out += " }\n";
    }
    return out;
}

// robust's verdict equals this oracle's (every consistent execution of every
// prefix searched for a cycle of po ∪ rf ∪ mo ∪ rb with the oracle's own
// matrices) on 300 random programs with assumes, under rdma-sc and rdma-tso
// (doc/model-notes.md §N24); some are non-robust only through a prefix.
TEST(DefinitionOracleSlow, RobustnessOfRandomPrograms) {
    std::mt19937 rng(20261125);
    int notRobust = 0, prefixOnly = 0;
    for (int i = 0; i < 300 && !::testing::Test::HasFailure(); ++i) {
        const std::string text = withAssumes(randomTest(rng), rng);
        SCOPED_TRACE(text);
        const LitmusTest test = parseLitmus(text, "random.litmus");
        for (const char* m : {"rdma-sc", "rdma-tso"}) {
            const Model model = loadModel(modelsDir(), m);
            const bool robust = checkRobustness(test, model, CheckOptions{}).robust();
            EXPECT_EQ(robust, Oracle(test, model, {}, true).run().robust) << m;
            notRobust += !robust;
            prefixOnly += !robust && Oracle(test, model, {}, false).run().robust;
        }
    }
    std::cout << "[robustness] 300 programs x 2 models: " << notRobust << " not robust, " << prefixOnly
              << " of them only through a prefix\n";
    EXPECT_GT(notRobust, 0);
    EXPECT_GT(prefixOnly, 0);
}

// The RMW paper's Fig. 6 and 7 (doc/model-notes.md §N19 (T6, T7); litmus/rdma-tso-rmw), each
// with the paper's verdict, plus two atomicity shapes of our corpus and the mixed
// cycle above.
TEST(DefinitionOracle, RmwPaperFigures) {
    const std::pair<const char*, bool> tests[] = {
        {"RDMA 6a\n{ x@2 = 0; a@1; }\nP0@1 { RCAS(a, x^2, 0, 2) }\nP1@2 { x := 1 }\nexists (x = 2)\n", true},
        {"RDMA 6b\n{ x@3 = 0; a@1; }\nP0@1 { RCAS(a, x^3, 0, 2) }\nP1@2 { x^3 := 1 }\nexists (x = 2)\n", true},
        {"RDMA 6c\n{ x@3 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^3, 0, 2) }\nP1@2 { RFAA(b, x^3, 1) }\nexists (x = 2)\n",
         false},
        {"RDMA 7a\n{ x@2 = 0; y@2 = 0; a@1; b@2; }\nP0@1 { a := x^2; y^2 := 1 }\nP1@2 { b := y; x := 1 }\n"
         "exists (a = 1 /\\ b = 1)\n",
         true},
        {"RDMA 7b\n{ x@2 = 0; y@2 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^2, 8, 9); y^2 := 1 }\nP1@2 { b := y; x := 1 }\n"
         "exists (a = 1 /\\ b = 1)\n",
         false},
        {"RDMA 7c\n{ y@1 = 0; x@2 = 0; a@1; b@2; }\nP0@1 { RFAA(_, x^2, 1); poll(2); a := y }\n"
         "P1@2 { RFAA(_, y^1, 1); poll(1); b := x }\nexists (a = 0 /\\ b = 0)\n",
         true},
        {"RDMA rcas-rcas-loopback\n{ x@1 = 0; a@1; b@2; }\nP0@1 { RCAS(a, x^1, 0, 1) }\nP1@2 { RCAS(b, x^1, 0, 2) }\n"
         "exists (a = 0 /\\ b = 0)\n",
         false},
        {"RDMA rfaa-rfaa\n{ x@3 = 0; a@1; b@2; }\nP0@1 { RFAA(a, x^3, 1) }\nP1@2 { RFAA(b, x^3, 1) }\n"
         "exists (x = 1)\n",
         false},
        {kMixedCycle, false},
    };
    for (const auto& [text, allowed] : tests) {
        OracleResult o = expectRmwAgreement(text);
        EXPECT_EQ(o.positive > 0, allowed) << text;
    }
}

// Every test of the RMW corpus, whatever its condition.
TEST(DefinitionOracle, RmwCorpus) {
    size_t compared = 0;
    for (const std::string& f : litmusFiles(sourceDir() + "/litmus/rdma-tso-rmw")) {
        expectRmwAgreement(readFile(f));
        ++compared;
    }
    EXPECT_GT(compared, 0u);
}

constexpr int kRandomRmwPrograms = 150;

TEST(DefinitionOracleSlow, RmwRandomPrograms) {
    std::mt19937 rng(20261123);
    for (int i = 0; i < kRandomRmwPrograms; ++i) {
        expectRmwAgreement(randomRmwTest(rng));
        if (::testing::Test::HasFailure()) break;
    }
}

// RDMA^TSO_RMW without RMW events is RDMA^TSO (doc/model-notes.md §N3): on
// RMW-free programs Definition 20, with its own 12-column tables, gives the states
// and counts of Definition 4.4 with rdma-tso's tables. Oracle against oracle, so
// cheap enough for many programs, except the rare one with six writes to a
// location (720 mo orders each): those are skipped.
constexpr int kRmwFreePrograms = 500;
constexpr double kMaxCandidates = 1e5;

TEST(DefinitionOracle, RmwDefinitionWithoutRmwsIsRdmaTso) {
    std::mt19937 rng(20261124);
    const Model tso = loadModel(modelsDir(), "rdma-tso");
    std::vector<std::string> texts(std::begin(kTsoTests), std::end(kTsoTests));
    for (int i = 0; i < kRmwFreePrograms; ++i) texts.push_back(randomTest(rng));
    size_t skipped = 0;
    for (const std::string& text : texts) {
        SCOPED_TRACE(text);
        LitmusTest test = parseLitmus(text, "oracle.litmus");
        test.shown = everyName(test);
        const std::vector<ObservedName> shown = shownNames(test);
        Oracle definition44(test, tso, shown);
        if (definition44.candidates() > kMaxCandidates) {
            ++skipped;
            continue;
        }
        OracleResult old = definition44.run();
        OracleResult def20 = Oracle(test, shown).run();
        EXPECT_EQ(old.states, def20.states);
        EXPECT_EQ(old.positive, def20.positive);
        EXPECT_EQ(old.negative, def20.negative);
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_LE(skipped, texts.size() / 50);
}