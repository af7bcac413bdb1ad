// Validation before unfolding (doc/LITMUS.md): what the whole test uses, read
// once, and the checks of every statement that need no path. Internal to
// src/unfold.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/library.hpp"

namespace rdmacheck {

// What the whole test uses, read before unfolding: the nodes (a shared variable
// has a copy on each), the shared variables, and whether it polls or uses work
// identifiers (never both, doc/LITMUS.md). Library calls are checked here, so a bad
// call is reported even on a path no execution takes: the core checks their
// signatures and core arguments, each library its Name arguments (CallScan).
class TestScan : private CallScan {
public:
    explicit TestScan(const LitmusTest& test);

    std::set<int> nodes;
    std::vector<std::string> shared;  // in order of declaration, then of first use
    // Per name a library's calls share, the threads that take part (CallScan::takePart).
    std::map<std::string, std::set<int>> participants;

    bool isShared(const std::string& name) const;

    // The nodes of the threads that take part in `name`.
    std::vector<int> participantNodes(const std::string& name) const;

private:
    void addShared(const std::string& name);

    void usesPoll(const Stmt& st);

    void usesWorkId(const Stmt& st);

    [[noreturn]] static void throwMixed(const SourceLoc& at, const SourceLoc& other);

    void scan(const Block& block);

    void scanCall(const Stmt& st);
    void scanArgument(const Stmt& st, const MethodSignature& m, size_t i);

    // CallScan, for the argument being checked.
    const LitmusTest& test() const override { return test_; }
    int thread() const override { return thread_; }
    [[noreturn]] void expected(const std::string& what) const override;
    void claimName(const std::string& name, const std::string& what, const SourceLoc& where) override;
    void takePart(const std::string& name) override { participants[name].insert(thread_); }
    void addNode(int node) override { nodes.insert(node); }
    int firstSaid(const std::string& fact, const std::string& name, int value) override {
        return firstSaid_.emplace(std::make_pair(fact, name), value).first->second;
    }

    const LitmusTest& test_;
    int thread_ = 0;  // the thread being scanned
    const Stmt* call_ = nullptr;  // the call and argument being checked
    size_t argument_ = 0;
    std::optional<SourceLoc> pollAt_, workIdAt_;
    std::map<std::string, std::string> claimed_;  // names the libraries claimed: what each is
    std::map<std::pair<std::string, std::string>, int> firstSaid_;  // (fact, name): the first call's value
};

}  // namespace rdmacheck
