// Validation before unfolding (doc/LITMUS.md): what the whole test uses, read
// once, and the checks of every statement that need no path. Internal to
// src/unfold.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// What the whole test uses, read before unfolding: the nodes (a shared variable
// has a copy on each), the shared variables, and whether it polls or uses work
// identifiers (never both, doc/LITMUS.md). Library calls are checked here, so a bad
// call is reported even on a path no execution takes.
class TestScan {
public:
    explicit TestScan(const LitmusTest& test);

    std::set<int> nodes;
    std::vector<std::string> shared;  // in order of declaration, then of first use
    std::map<std::string, std::set<int>> barrierThreads;  // b(z): the threads that call bar(z)
    std::map<std::string, std::set<int>> bufferReaders;   // rthd(q): the threads that call rbl.receive(q)

    bool isShared(const std::string& name) const;

    // The nodes of a barrier's participants, or of a buffer's readers.
    std::vector<int> participantNodes(const std::string& name) const;

private:
    void addShared(const std::string& name);

    void usesPoll(const Stmt& st);

    void usesWorkId(const Stmt& st);

    [[noreturn]] static void throwMixed(const SourceLoc& at, const SourceLoc& other);

    void scan(const Block& block);

    void scanCall(const Stmt& st);

    // `rbl.submit(q, ...)`, `rbl.receive(q, ...)` (doc/LITMUS.md): one
    // thread submits to q, its readers are the threads that receive from it,
    // and every call on q carries as many values.
    template <class Expected>
    void scanBuffer(const Stmt& st, const CallArg& a, const Expected& expected);

    // `l^2`: a node lock and its home, the same in every call.
    template <class Expected>
    void scanHomedLock(const Stmt& st, const CallArg& a, const Expected& expected);

    // A name is one thing: a location, a shared variable, a barrier, or a lock
    // of one library (doc/LITMUS.md).
    void claimName(const std::string& name, const std::string& what, const SourceLoc& where);

    const LitmusTest& test_;
    int thread_ = 0;  // the thread being scanned
    std::optional<SourceLoc> pollAt_, workIdAt_;
    std::map<std::string, std::string> claimed_;  // barrier and lock names: what each is
    std::map<std::string, int> lockHomes_;        // node locks: their home node
    std::map<std::string, int> bufferArity_;      // buffers: the values each call carries
    std::map<std::string, int> bufferWriter_;     // buffers: the thread that submits
};

}  // namespace rdmacheck
