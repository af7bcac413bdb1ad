// What every command of the command line shares: number options that refuse
// what their type cannot hold, the limits of the commands that run tests,
// herd7's single-dash options and a hint after a mistyped option.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "rdmacheck/limits.hpp"

namespace rdmacheck::cli {

// For counts and bounds: CLI11 would read "-5" into an unsigned option as 2^64-5.
CLI::Validator notNegative();

// Adds a check to every integer and floating-point option of `app` and its
// commands that refuses what the option's type cannot hold.
void refuseUnrepresentable(CLI::App& app);

// Every command with a progress line on stderr takes --progress-interval with its limits.
void addLimits(CLI::App& command, ResourceLimits& limits);

// --models-dir DIR (herd7's -I DIR), repeatable: folders searched for models,
// includes and tables before the shipped models.
void addModelsDirs(CLI::App& command, std::vector<std::string>& dirs);

// -j's default: the CPUs the process may run on (its affinity, as nproc).
int defaultJobs();

// The command line with herd7's and mcompare7's options as rdmacheck's
// (src/cli/herd_options.cpp): -model, -show, -json ... as --model ...; -o DIR,
// -I DIR, -skipchecks A,B, -speedcheck true|false|fast, -conf FILE and the
// rest the user guide lists. InputError for one that has no meaning here.
std::vector<std::string> herdAliases(const CLI::App& app, int argc, char** argv);

// A command's long options, "--model" ...
std::vector<std::string> longOptionNames(const CLI::App& command);

// After "The following argument was not expected: --modle", the closest option.
void suggestOption(const CLI::App& app, const CLI::ParseError& e);

}  // namespace rdmacheck::cli
