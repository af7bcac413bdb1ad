#include "generate_run.hpp"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "common.hpp"
#include "options.hpp"

namespace rdmacheck::cli {

namespace {

int runGenerate(uint64_t seed, int count, GeneratorFlags& generator, const std::string& outDir) {
    if (!generator.resolve() || !makeDirectory("--out", outDir)) return 2;
    try {
        for (int i = 0; i < count; ++i) {
            const uint64_t s = seed + static_cast<uint64_t>(i);
            const std::string text = generateLitmus(s, generator.options);
            if (outDir.empty()) {
                std::cout << text << "\n";
            } else {
                const std::string path = outDir + "/random-" + std::to_string(s) + ".litmus";
                std::ofstream out(path);
                if (!(out << text)) {
                    std::cerr << "rdmacheck: error: cannot write " << path << "\n";
                    return 2;
                }
            }
        }
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

}  // namespace

void GeneratorFlags::add(CLI::App& app) {
    app.add_option("--nodes", options.nodes, "random tests: nodes")->capture_default_str()->check(CLI::Range(1, 9));
    app.add_option("--threads", options.threads, "random tests: threads")->capture_default_str()
        ->check(CLI::Range(1, 9));
    app.add_option("--min-length", options.minLength, "random tests: fewest statements per thread")
        ->capture_default_str()->check(CLI::Range(0, 1000));
    app.add_option("--max-length", options.maxLength, "random tests: most statements per thread")
        ->capture_default_str()->check(CLI::Range(0, 1000));
    app.add_option("--shared", options.sharedPerNode, "random tests: shared locations per node")
        ->capture_default_str()->check(CLI::Range(0, 6));
    app.add_option("--mix", mix,
                   "random tests: statement weights, e.g. put=3,get=3,poll=2,cas=0; wait, svwrite, svread, "
                   "svbcast, svwait or gfence make RDMA^WAIT tests (work identifiers, no polls)");
}

bool GeneratorFlags::resolve() {
    try {
        if (!mix.empty()) parseMix(mix, options);
        if (options.minLength > options.maxLength) throw std::invalid_argument("--min-length exceeds --max-length");
        // A mix that can draw nothing fails at the first statement, whatever
        // the seed: found here, before cross or generate makes any test.
        generateLitmus(0, options);
        return true;
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << e.what() << "\n";
        return false;
    }
}

void GenerateFlags::add(CLI::App& app) {
    command = app.add_subcommand("generate", "write random RDMA litmus tests");
    command->add_option("--seed", seed, "seed of the first test (then seed+1, ...)")->capture_default_str()
        ->check(notNegative());
    command->add_option("--count", count, "how many tests")->capture_default_str()->check(CLI::Range(0, 10'000'000));
    command->add_option("--out", outDir, "write DIR/random-SEED.litmus files instead of printing");
    generator.add(*command);
}

int GenerateFlags::run() {
    return runGenerate(seed, count, generator, outDir);
}

}  // namespace rdmacheck::cli
