#include "generate_run.hpp"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "common.hpp"
#include "rdmacheck/families.hpp"
#include "options.hpp"

namespace rdmacheck::cli {

namespace {

bool writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    if (out << text) return true;
    std::cerr << "rdmacheck: error: cannot write " << path << "\n";
    return false;
}

int runGenerate(uint64_t seed, int count, GeneratorFlags& generator, const std::string& outDir) {
    if (!generator.resolve() || !makeDirectory("--out", outDir)) return 2;
    try {
        for (int i = 0; i < count; ++i) {
            const uint64_t s = seed + static_cast<uint64_t>(i);
            const std::string text = generateLitmus(s, generator.options);
            if (outDir.empty()) {
                std::cout << text << "\n";
            } else if (!writeFile(outDir + "/random-" + std::to_string(s) + ".litmus", text)) {
                return 2;
            }
        }
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

// DIR/<test>.litmus and DIR/expected.csv; without a directory, the tests on stdout.
int runFamilies(const std::vector<std::string>& names, const FamilyParameters& parameters,
                const std::string& outDir) {
    FamilyOutput out;
    try {
        for (const std::string& name : names) generateFamily(name, parameters, out);
    } catch (const std::invalid_argument& e) {
        std::cerr << "rdmacheck: error: " << e.what() << "\n";
        return 2;
    }
    if (!makeDirectory("--out", outDir)) return 2;
    for (const FamilyTest& test : out.tests) {
        if (outDir.empty())
            std::cout << test.text << "\n";
        else if (!writeFile(outDir + "/" + test.file, test.text))
            return 2;
    }
    return outDir.empty() || writeFile(outDir + "/expected.csv", expectationsCsv(out.expectations)) ? 0 : 2;
}

// The options of the other kind of test that were given, as "--seed, --mix".
std::string givenOf(const std::vector<const CLI::Option*>& options) {
    std::string given;
    for (const CLI::Option* o : options)
        if (o->count() > 0) given += (given.empty() ? "" : ", ") + o->get_name();
    return given;
}

}  // namespace

void GeneratorFlags::add(CLI::App& app) {
    const size_t before = app.get_options().size();
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
    const std::vector<CLI::Option*> all = app.get_options();
    added.assign(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
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
    command = app.add_subcommand(
        "generate", "write random RDMA litmus tests, or a family of tests with their expected verdicts");
    randomOnly.push_back(command->add_option("--seed", seed, "seed of the first test (then seed+1, ...)")
                             ->capture_default_str()
                             ->check(notNegative()));
    randomOnly.push_back(command->add_option("--count", count, "how many tests")
                             ->capture_default_str()
                             ->check(CLI::Range(0, 10'000'000)));
    command->add_option("--out", outDir,
                        "write DIR/random-SEED.litmus files instead of printing; with --family, "
                        "DIR/TEST.litmus files and DIR/expected.csv (test,model,expect,source,states: each test's "
                        "verdict under the model it is for); without --out a family's tests are printed, without "
                        "their verdicts");
    generator.add(*command);
    randomOnly.insert(randomOnly.end(), generator.added.begin(), generator.added.end());
    command->add_option("--family", families,
                        "write a family of tests, each with its expected verdict, instead of random tests (may be "
                        "given several times, for families that take the same options): " + familyHelp());
    familyOnly = {command->add_option("--n", n, "--family: the size N (K readers for IRIW-ring and IRIW-K)"),
                  command->add_option("--s", s, "--family exs: the slots of the ring"),
                  command->add_option("--variant", variants,
                                      "--family exs: ok (the default), early-ack, no-credit, flag-first, or all; "
                                      "may be given several times")};
}

int GenerateFlags::run() {
    if (families.empty()) {
        if (const std::string given = givenOf(familyOnly); !given.empty()) {
            std::cerr << "rdmacheck: error: " << given << ": only with --family\n";
            return 2;
        }
        return runGenerate(seed, count, generator, outDir);
    }
    if (const std::string given = givenOf(randomOnly); !given.empty()) {
        std::cerr << "rdmacheck: error: " << given << ": for random tests, not with --family\n";
        return 2;
    }
    FamilyParameters parameters;
    if (command->count("--n") > 0) parameters.n = n;
    if (command->count("--s") > 0) parameters.s = s;
    parameters.variants = variants;
    return runFamilies(families, parameters, outDir);
}

}  // namespace rdmacheck::cli
