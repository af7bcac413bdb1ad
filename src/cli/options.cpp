#include "options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <sched.h>
#include <thread>

#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/progress.hpp"

namespace rdmacheck::cli {

namespace {

// Why `value` is refused as a negative number, or "".
std::string negative(const std::string& value) {
    const size_t first = value.find_first_not_of(" \t");
    return first == std::string::npos || value[first] != '-' ? std::string() : "must not be negative, got " + value;
}

// Every number option refuses what its type cannot hold, whichever command
// has it: CLI11 (2.1) reads 18446744073709551616 into a 64-bit option as
// 2^64-1, and -1 into an unsigned one as 2^64-1; a double takes inf and nan.
CLI::Validator representable(const std::string& type) {
    return CLI::Validator(
        [type](std::string& value) -> std::string {
            const char* text = value.c_str();
            char* end = nullptr;
            errno = 0;
            if (type == "UINT") {
                if (const std::string why = negative(value); !why.empty()) return why;
                std::strtoull(text, &end, 0);
            } else if (type == "INT") {
                std::strtoll(text, &end, 0);
            } else if (!std::isfinite(std::strtod(text, &end)) && end != text) {
                return "must be a finite number, got " + value;
            }
            return errno == ERANGE ? "out of range, got " + value : "";
        },
        "");
}

}  // namespace

CLI::Validator notNegative() { return CLI::Validator([](std::string& value) { return negative(value); }, "NOT NEGATIVE"); }

// representable() on every integer and floating-point option.
void refuseUnrepresentable(CLI::App& app) {
    for (CLI::Option* option : app.get_options()) {
        const std::string type = option->get_type_name().substr(0, option->get_type_name().find(':'));
        if (type == "UINT" || type == "INT" || type == "FLOAT") option->check(representable(type));
    }
    for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) refuseUnrepresentable(*command);
}

std::vector<std::string> longOptionNames(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::Option* o : command.get_options())
        for (const std::string& name : o->get_lnames()) names.push_back("--" + name);
    return names;
}

void suggestOption(const CLI::App& app, const CLI::ParseError& e) {
    const std::string message = e.what();
    const size_t dash = message.find("--");
    if (dash == std::string::npos) return;
    // "--seed: out of range" names a known option too.
    const std::string given = message.substr(dash, message.find_first_of(" :\n", dash) - dash);
    std::vector<std::string> known;
    // The command given first (its options win a tie), then the main command's.
    for (const CLI::App* sub : app.get_subcommands()) {
        const std::vector<std::string> names = longOptionNames(*sub);
        known.insert(known.end(), names.begin(), names.end());
    }
    const std::vector<std::string> names = longOptionNames(app);
    known.insert(known.end(), names.begin(), names.end());
    // A known option used wrongly ("--repair-max requires --repair") is no typo.
    if (std::find(known.begin(), known.end(), given) != known.end()) return;
    const std::string hint = didYouMean(given, known);
    if (!hint.empty()) std::cerr << "rdmacheck: " << hint.substr(2, hint.size() - 3) << "\n";  // without " (" and ")"
}

void addLimits(CLI::App& command, ResourceLimits& limits) {
    command.add_option("--timeout", limits.seconds, "stop a test after this many seconds (0: never)")
        ->capture_default_str()->check(notNegative());
    command.add_option("--progress-interval", ProgressLine::interval(),
                       "seconds before the first progress line on stderr and between two (0: one at every step, "
                       "for tests)")
        ->capture_default_str()->check(notNegative());
    command.add_flag("--progress", ProgressLine::always(),
                     "progress lines on stderr also when it is not a terminal (herd7's -v)");
    command.add_option("--max-memory", limits.megabytes,
                       "stop the tests under way when the process passes this much resident memory, MiB (0: never)")
        ->capture_default_str()->check(notNegative())->check(CLI::Range(size_t(0), kMaxMegabytes));
}

void addModelsDirs(CLI::App& command, std::vector<std::string>& dirs) {
    command.add_option("--models-dir", dirs,
                       "a folder searched for models, their includes and tables before the shipped models (" +
                           shippedModelsDir() + "; +DIR is DIR in there, as herd7's -I +DIR) (herd7's -I); repeatable")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// The CPUs this process may run on, as nproc counts them: under Slurm or
// taskset they are fewer than the machine's.
int defaultJobs() {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace rdmacheck::cli
