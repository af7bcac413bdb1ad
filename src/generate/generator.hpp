// The generator core: one test's threads, drawn statement by statement from
// the catalogue's kinds (the core statements here and in core_statements.cpp,
// a library's through its StatementGenerator), and its condition. Internal to
// src/generate.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalogue.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck {

class Generator : public StatementDraw {
public:
    Generator(uint64_t seed, const GeneratorOptions& options);

    LitmusTest run();

    // StatementDraw
    Random& random() override { return random_; }
    const GeneratorOptions& options() const override { return options_; }
    std::string nextSharedName() override;
    void declare(LocationDecl location) override { test_.locations.push_back(std::move(location)); }
    int threadIndex() const override { return th_->index; }
    int node() const override { return th_->node; }
    std::string localLocation() override;
    std::string freshPrivate() override;
    long long value() override { return random_.between(1, options_.values); }
    std::vector<int> nodeSet(bool mostlyOthers) override;
    void namesNodes(const std::vector<int>& nodes) override { testNodes_.insert(nodes.begin(), nodes.end()); }
    void usesWork(std::vector<std::string>& used, const std::string& id) override;
    std::string waitedWork(const std::vector<std::string>& used) override;
    void holdRelease(Stmt release) override { th_->release = std::move(release); }

private:
    struct ThreadState {
        int index;
        int node;
        std::vector<std::string> privates;  // r<index>_<k>, home = the thread's node
        std::map<int, int> unpolled;        // remote node -> remote ops not yet polled (straight-line only)
        long long paths = 1;                // estimated paths so far (see StatementKind::paths)
        std::vector<std::string> rdmaIds;   // work identifiers of earlier puts, gets and RMWs (first use order)
        std::set<std::string> unwaited;     // of the thread's work identifiers, those used since their last wait
        std::optional<Stmt> release{};      // the release of the open critical section, if any
    };

    void declareLocations();
    ThreadDecl thread(int index);
    // A top-level statement, and whether its kind can be drawn now.
    Stmt statement(ThreadState& th);
    bool possible(const StatementKind& kind, ThreadState& th, const std::vector<int>& pollable);
    bool overBudget(const StatementKind& kind) const;
    const std::string& pickWeighted(const std::vector<std::pair<std::string, int>>& candidates, long long total);
    Cond condition(const std::vector<LocationDecl>& locations);

    // The core statements (core_statements.cpp).
    Stmt coreStatement(const std::string& kind, ThreadState& th, const std::vector<int>& pollable);
    Stmt localAccess(const std::string& kind, ThreadState& th);
    Stmt nicStatement(const std::string& kind, ThreadState& th, const std::vector<int>& pollable);
    Stmt remoteAccess(const std::string& kind, ThreadState& th);
    Stmt casStatement();
    Stmt control(const std::string& kind, ThreadState& th);
    Stmt expressionWrite(ThreadState& th);
    std::string simpleKind();
    Block simpleBlock(ThreadState& th, long long lo, long long hi);
    void test(Stmt& s, bool equal);
    void remoteWorkId(Stmt& s, ThreadState& th);
    int remoteNode(int own);
    std::string writeTarget(ThreadState& th);
    std::string rmwResult(ThreadState& th);

    uint64_t seed_;
    Random random_;
    const GeneratorOptions& options_;
    const std::vector<StatementKind> kinds_;
    std::vector<std::unique_ptr<StatementGenerator>> libraries_;  // by registry index; null for none
    const bool workIds_;  // the mix draws MOWGLI kinds: work identifiers, no polls
    std::vector<std::vector<std::string>> sharedOn_;  // by node; index 0 unused
    int nextSharedIndex_ = 0;                         // sharedName index of the next library location
    std::set<int> testNodes_;  // nodes the test names (threads, locations, targets, node sets): SV copies exist there
    LitmusTest test_;
    ThreadState* th_ = nullptr;  // the thread being drawn
};

// Bound on the estimated paths of a thread (unroll 2): kinds that would go over it are left
// out of the draw while others remain, so mixes with control flow keep unfolding small.
constexpr long long kPathBudget = 24;

}  // namespace rdmacheck
