// The generate command, and the random-test options cross shares with it.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "rdmacheck/generate.hpp"

namespace rdmacheck::cli {

// --nodes, --threads, --min-length, --max-length, --shared, --mix.
struct GeneratorFlags {
    GeneratorOptions options;
    std::string mix;
    std::vector<const CLI::Option*> added;  // the options add() made

    void add(CLI::App& app);

    // Applies --mix; false after printing an error.
    bool resolve();
};

struct GenerateFlags {
    CLI::App* command = nullptr;
    uint64_t seed = 1;
    int count = 1;
    std::string outDir;
    GeneratorFlags generator;
    // --family NAME... [--n N] [--s S] [--variant V...]: a family of tests instead of random ones.
    std::vector<std::string> families;
    int n = 0, s = 0;
    std::vector<std::string> variants;
    // The options of one kind of test only, which the other kind refuses.
    std::vector<const CLI::Option*> randomOnly, familyOnly;

    void add(CLI::App& app);
    int run();
};

}  // namespace rdmacheck::cli
