// The diy command: tests from cycles of edges, in diy7's conventions.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "rdmacheck/diy.hpp"
#include "rdmacheck/model.hpp"

namespace rdmacheck::cli {

struct DiyFlags {
    CLI::App* command = nullptr;
    std::string arch = "X86";
    std::vector<std::string> cycles;  // --cycle "E E ...", each one test
    int size = 0;                     // --size N: every cycle of at most N edges
    std::string mode = "default";     // --mode: which edges may follow which (diy7's -mode)
    std::vector<std::string> safe, relax;
    std::string outDir;
    std::string model;                   // --model M: the map of what M relaxes
    std::vector<std::string> distinguishing;  // --distinguish M1,M2
    std::string table;                        // --table NAME: M's order table NAME rebuilt (RDMA)

    void add(CLI::App& app);
    int run(const ModelSearchPath& models, const ResourceLimits& limits);

private:
    DiyArch architecture() const { return arch == "RDMA" ? DiyArch::RDMA : DiyArch::X86; }
    DiyMode diyMode() const {
        return mode == "critical" ? DiyMode::Critical : mode == "free" ? DiyMode::Free : DiyMode::Default;
    }
    int write(const std::vector<DiyTest>& tests, size_t considered) const;
    int writeAll(const std::vector<DiyEdge>& safeEdges, const std::vector<DiyEdge>& relaxEdges) const;
    int readTable(const ModelLoader& load, const CheckOptions& checking) const;
    int map(const Model& m, const std::vector<DiyEdge>& safeEdges, std::vector<DiyEdge> candidates,
            const CheckOptions& checking) const;
};

}  // namespace rdmacheck::cli
