// libFuzzer target: arbitrary bytes as a model file (doc/model-language.md) through
// reading, naming, typing, includes, tables and the plan; a model that loads
// then checks a small fixed litmus test under it. Built with -DRDMACHECK_FUZZ=ON
// (clang only) beside fuzz_litmus; scripts/fuzz runs both, seeded with the
// shipped models and tests/fuzz/model.dict.
//
// The input is read as models/fuzz.cat, so that its includes and tables name
// the shipped files. A bad input must end in rdmacheck::InputError positioned
// in a file (LINE:COLUMN both positive) with a printable message; anything else
// escaping aborts, so that libFuzzer records the input as a crash.
//
// Budgets keep an input to milliseconds: the model loads within kSeconds, and the
// check (a Z3 context, about 70 ms under ASan) has the same time, one unrolling
// and few executions. Inputs naming a path with ".." are skipped: an include
// could otherwise read any file of the machine, a device that never ends among them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "fuzz_support.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/parse.hpp"

namespace {

using namespace rdmacheck;

constexpr size_t kMaxInput = 16 * 1024;  // bytes; larger inputs are ignored
constexpr double kSeconds = 2;           // to load the model, then to check the test

// Store buffering: two threads, four events, every model decides it.
const char* const kTest =
    "RDMA sb\n{ x@1; y@1; a@1; b@1; }\nP0@1 { x := 1; a := y }\nP1@1 { y := 1; b := x }\nexists (a = 0 /\\ b = 0)\n";

[[noreturn]] void fail(const std::string& stage, const std::string& what, const std::string& text = "") {
    fuzz::fail("fuzz_model", stage, what, text);
}

void checkMessage(const std::string& stage, const InputError& e) {
    if (e.where().line <= 0 || e.where().column <= 0) fail(stage, std::string("InputError not positioned: ") + e.what());
    if (printable(e.detail()) != e.detail()) fail(stage, std::string("InputError message not printable: ") + e.what());
}

void run(const std::string& text) {
    const std::string dir = shippedModelsDir();
    ModelOptions options;
    options.limits.seconds = kSeconds;
    Model model;
    try {
        model = parseModel(text, dir + "/fuzz.cat", dir, options);
    } catch (const InputError& e) {
        checkMessage("load", e);
        return;
    }
    static const LitmusTest test = parseLitmus(kTest, "sb.litmus");
    CheckOptions check;
    check.unroll = 1;
    check.maxExecutions = 64;
    check.limits.seconds = kSeconds;
    try {
        rdmacheck::check(test, model, check);
    } catch (const InputError& e) {  // a limit, at the test
        checkMessage("check", e);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return fuzz::runInput("fuzz_model", data, size, kMaxInput, [](const std::string& text) {
        if (text.find("..") != std::string::npos) return -1;
        run(text);
        return 0;
    });
}
