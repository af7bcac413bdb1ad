#include "diy_run.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "common.hpp"
#include "rdmacheck/diy.hpp"

namespace rdmacheck::cli {

namespace {

// Edge names separated by spaces or commas; false after printing an error.
bool edgesOf(const std::string& option, const std::vector<std::string>& texts, std::vector<DiyEdge>& out) {
    for (std::string text : texts) {
        for (char& c : text)
            if (c == ',') c = ' ';
        std::istringstream words(text);
        for (std::string w; words >> w;) {
            const std::optional<DiyEdge> e = findDiyEdge(w);
            if (!e) {
                std::vector<std::string> known;
                for (const DiyEdge& k : x86DiyEdges()) known.push_back(k.name);
                std::cerr << "rdmacheck: error: " << option << ": unknown edge '" << w << "'" << didYouMean(w, known)
                          << " (X86 edges: " << joined(known) << ")\n";
                return false;
            }
            out.push_back(*e);
        }
    }
    return true;
}

}  // namespace

void DiyFlags::add(CLI::App& app) {
    command = app.add_subcommand("diy", "tests from cycles of relaxations, as diy7 makes them (doc/diy.md)");
    command->add_option("--arch", arch, "the tests' architecture (X86; RDMA is not read yet)")->capture_default_str();
    command->add_option("--cycle", cycles, "one test from this cycle of edges, e.g. \"PodWR Fre PodWR Fre\" (repeatable)");
    command->add_option("--size", size, "every cycle of at most N edges over --safe and --relax")
        ->check(CLI::Range(1, 8));
    command->add_option("--safe", safe, "edges every cycle may use (diy7's -safe; default every X86 edge)");
    command->add_option("--relax", relax, "edges of which every cycle uses one (diy7's -relax)");
    command->add_option("--out", outDir, "write DIR/NAME.litmus and DIR/@all, the files' names (default: stdout)");
}

int DiyFlags::run() {
    if (arch != "X86") {
        std::cerr << "rdmacheck: error: --arch " << arch << ": only X86 cycles are read yet\n";
        return 2;
    }
    if (cycles.empty() == (size == 0)) {
        std::cerr << "rdmacheck: error: diy takes --cycle or --size, one of them\n";
        return 2;
    }
    std::vector<std::vector<DiyEdge>> chosen;
    for (const std::string& c : cycles) {
        chosen.emplace_back();
        if (!edgesOf("--cycle", {c}, chosen.back())) return 2;
    }
    size_t considered = cycles.size();
    if (size > 0) {
        std::vector<DiyEdge> safeEdges, relaxEdges;
        if (!edgesOf("--safe", safe, safeEdges) || !edgesOf("--relax", relax, relaxEdges)) return 2;
        if (safe.empty()) safeEdges = x86DiyEdges();
        considered = 0;
        chosen = diyCycles(safeEdges, relaxEdges, size, considered);
    }
    if (!makeDirectory("--out", outDir)) return 2;
    std::map<std::string, int> names;
    std::string index;
    for (const std::vector<DiyEdge>& cycle : chosen) {
        std::string why;
        std::optional<DiyTest> test = diyTest(cycle, why);
        if (!test) {
            std::cerr << "rdmacheck: error: --cycle: no test from this cycle: " << why << "\n";
            return 2;
        }
        if (const int seen = names[test->name]++; seen > 0) {  // diy7 numbers a name met again: 001, 002, ...
            const std::string number = std::to_string(seen);
            test->name += std::string(3 - std::min<size_t>(3, number.size()), '0') + number;
            test->text = "X86 " + test->name + test->text.substr(test->text.find('\n'));
        }
        if (outDir.empty()) {
            std::cout << test->text << "\n";
            continue;
        }
        const std::string file = test->name + ".litmus";
        std::ofstream out(outDir + "/" + file);
        if (!(out << test->text)) {
            std::cerr << "rdmacheck: error: cannot write " << outDir << "/" << file << "\n";
            return 2;
        }
        index += file + "\n";
    }
    if (!outDir.empty() && !(std::ofstream(outDir + "/@all") << index)) {
        std::cerr << "rdmacheck: error: cannot write " << outDir << "/@all\n";
        return 2;
    }
    std::cerr << "diy: " << chosen.size() << (chosen.size() == 1 ? " test" : " tests") << " from " << considered
              << (considered == 1 ? " cycle" : " cycles") << " considered\n";
    return 0;
}

}  // namespace rdmacheck::cli
