// libFuzzer target: arbitrary bytes through parse -> unfold -> check (and, for
// small programs, the operational engine), plus the printer round trip on RDMA
// tests. Built with -DRDMACHECK_FUZZ=ON (clang only); run it with scripts/fuzz.
//
// A bad input must end in rdmacheck::InputError, positioned in the input
// ("fuzz.litmus:LINE:COLUMN: error: ...") and free of NUL bytes. Anything else
// escaping (another exception type, a failed round trip, a bad message) aborts,
// so that libFuzzer records the input as a crash; ASan and UBSan catch the rest.
//
// Every run has explicit budgets so that an input is decided in milliseconds:
// one loop iteration, few paths per thread, small programs for the Z3 checker,
// smaller ones for the machines, and caps on executions and machine states.
// The checker makes a Z3 context per call, about 70 ms under ASan, a hundred
// times the rest of a run; so it runs on a fixed share of the inputs within its
// budget: 1 in $FUZZ_LITMUS_CHECK_ONE_IN (default 16; 1 checks every input),
// picked by a hash of the input, so that a reproducer always takes the same path.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>

#include "fuzz_support.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/unfold.hpp"

namespace {

using namespace rdmacheck;

const char* const kFile = "fuzz.litmus";

constexpr size_t kMaxInput = 8 * 1024;     // bytes; larger inputs are ignored
constexpr int kUnroll = 1;                 // loop iterations, for every engine
constexpr size_t kMaxPaths = 64;           // per thread, while measuring the program
constexpr size_t kMaxUnfoldEvents = 20000; // per thread, while unfolding
constexpr size_t kCheckSkeletons = 8;      // declarative checker: at most this many skeletons
constexpr size_t kCheckEvents = 16;        //   and this many events in the largest skeleton
constexpr uint64_t kMaxExecutions = 64;    //   and this many consistent executions
constexpr size_t kMachineSkeletons = 4;    // operational engine: smaller still
constexpr size_t kMachineEvents = 12;
constexpr uint64_t kMaxStates = 20000;
constexpr uint64_t kCheckOneInDefault = 16;

[[noreturn]] void fail(const std::string& stage, const std::string& what, const std::string& text = "") {
    fuzz::fail("fuzz_litmus", stage, what, text);
}

bool isDigits(const std::string& s, size_t from, size_t to) {
    if (from >= to) return false;
    for (size_t i = from; i < to; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

// "fuzz.litmus:LINE:COLUMN: error: ...", LINE and COLUMN positive, no NUL byte.
void checkMessage(const std::string& stage, const InputError& e) {
    // what() is a C string and would end at a NUL: look at the detail string itself.
    if (e.detail().find('\0') != std::string::npos)
        fail(stage, "InputError message contains a NUL byte (what() shows it cut short): " + std::string(e.what()));
    const std::string m = e.what();
    const std::string prefix = std::string(kFile) + ":";
    bool ok = m.compare(0, prefix.size(), prefix) == 0;
    if (ok) {
        const size_t line = prefix.size();
        const size_t colon1 = m.find(':', line);
        const size_t colon2 = colon1 == std::string::npos ? colon1 : m.find(':', colon1 + 1);
        ok = colon2 != std::string::npos && isDigits(m, line, colon1) && isDigits(m, colon1 + 1, colon2) &&
             m.compare(line, 1, "0") != 0 && m.compare(colon1 + 1, 1, "0") != 0 &&
             m.compare(colon2, 9, ": error: ") == 0;
    }
    if (!ok) fail(stage, "InputError not positioned in the input: " + m);
}

uint64_t checkOneIn() {
    static const uint64_t n = [] {
        const char* v = std::getenv("FUZZ_LITMUS_CHECK_ONE_IN");
        const unsigned long long parsed = v ? std::strtoull(v, nullptr, 10) : 0;
        return parsed > 0 ? static_cast<uint64_t>(parsed) : kCheckOneInDefault;
    }();
    return n;
}

// FNV-1a: whether this input is one of the share that goes through the checker.
bool sampledForCheck(const std::string& text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h % checkOneIn() == 0;
}

const Model& modelFor(const LitmusTest& test) {
    static std::map<std::string, Model> models;  // loaded once per model
    const std::string name = defaultModelName(test);
    auto it = models.find(name);
    if (it == models.end()) {
        try {
            it = models.emplace(name, loadModel(shippedModelsDir(), name)).first;
        } catch (const InputError& e) {
            fail("loadModel", std::string("cannot load the default model: ") + e.what());
        }
    }
    return it->second;
}

// print(parse(print(t))) == print(t) for every test the printer accepts.
void roundTrip(const LitmusTest& test) {
    if (test.arch != Arch::Rdma) return;
    std::string first;
    try {
        first = printLitmus(test);
    } catch (const std::invalid_argument&) {
        return;  // the RDMA format cannot express this test (documented in print.hpp)
    }
    LitmusTest again;
    try {
        again = parseLitmus(first, "printed.litmus");
    } catch (const InputError& e) {
        fail("round trip", std::string("the printed test does not parse: ") + e.what(), first);
    }
    std::string second;
    try {
        second = printLitmus(again);
    } catch (const std::invalid_argument& e) {
        fail("round trip", std::string("the reparsed test does not print: ") + e.what(), first);
    }
    if (second != first)
        fail("round trip", "printing the reparsed test gives other text", first + "\n----- second -----\n" + second);
}

void run(const std::string& text) {
    LitmusTest test;
    try {
        test = parseLitmus(text, kFile);
    } catch (const InputError& e) {
        checkMessage("parse", e);
        return;
    }
    roundTrip(test);

    std::string stage = "unfold";
    try {
        UnfoldOptions unfoldOptions;
        unfoldOptions.unroll = kUnroll;
        unfoldOptions.maxPaths = kMaxPaths;
        unfoldOptions.maxEvents = kMaxUnfoldEvents;
        const UnfoldedProgram program = unfold(test, unfoldOptions);
        const size_t skeletons = program.skeletonCount();
        size_t events = 0;  // in the largest skeleton
        for (const auto& paths : program.paths) {
            size_t most = 0;
            for (const ThreadPath& p : paths) most = std::max(most, p.events.size());
            events += most;
        }
        if (skeletons == 0 || skeletons > kCheckSkeletons || events > kCheckEvents) return;

        const Model& model = modelFor(test);
        if (sampledForCheck(text)) {
            stage = "check";
            CheckOptions checkOptions;
            checkOptions.unroll = kUnroll;
            checkOptions.maxExecutions = kMaxExecutions;
            check(test, model, checkOptions);
        }

        if (skeletons > kMachineSkeletons || events > kMachineEvents) return;
        stage = "explore";
        MachineOptions machineOptions;
        machineOptions.unroll = kUnroll;
        machineOptions.maxStates = kMaxStates;
        explore(test, model, machineOptions);
    } catch (const InputError& e) {
        checkMessage(stage, e);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return fuzz::runInput("fuzz_litmus", data, size, kMaxInput, [](const std::string& text) {
        run(text);
        return 0;
    });
}
