// What the implementations of refine share: statement builders, one walk that
// rewrites a test's library calls, fresh names. The implementations themselves
// live in their libraries' folders (src/libraries/NAME/implementation.cpp).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rdmacheck/refine.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::rewrite {

// The locations the test can name (its plain locations and shared-variable
// copies), resolved by the unfolder; loops are not unrolled, only names are wanted.
std::vector<Location> namedLocations(const LitmusTest& test);

// Renames the final condition, the filter and `locations [...]` to the implementation's names.
void renameObservations(LitmusTest& test, const std::map<std::string, std::string>& names);

Stmt statement(Stmt::Kind kind, const SourceLoc& where);

LocRef ref(const std::string& name, const SourceLoc& where, std::optional<int> node = std::nullopt);

Stmt assignStmt(const std::string& target, Expr value, const SourceLoc& at);

Stmt waitStmt(const std::string& work, const SourceLoc& at);

Expr plusOne(const std::string& location, const SourceLoc& at);

// The nodes of a test, as the unfolder counts them (Node of doc/model-notes.md §N16):
// its threads', its declared locations', every `^n` and every node set.
std::vector<int> testNodes(const LitmusTest& test);

// The locks a test calls with `library`, in name order.
std::vector<std::string> locksOf(const LitmusTest& test, const std::string& library);

Stmt callOf(const std::string& library, const std::string& method, std::vector<CallArg> args, const SourceLoc& at);

CallArg nameArg(const std::string& name, const SourceLoc& at);

CallArg nodesArg(std::vector<int> nodes, const SourceLoc& at);

// target := sv.read(variable)
Stmt svRead(const std::string& target, const std::string& variable, const SourceLoc& at);

// A test `lhs op rhs` of `kind` (assume, if, while).
Stmt testStmt(Stmt::Kind kind, Expr lhs, Comparison op, Expr rhs, const SourceLoc& at);
// assume(lhs op rhs) on locations only the thread uses: their reads commute, so
// one order of them has every outcome (doc/model-notes.md §N27).
Stmt ownAssume(Expr lhs, Comparison op, Expr rhs, const SourceLoc& at);

// What the rewriting implementations share: the names the test takes, fresh
// names made on first use (one per key), and one walk that replaces the
// statements `rewrite` takes and keeps the others, their blocks walked.
class Rewriter {
public:
    virtual ~Rewriter() = default;

protected:
    explicit Rewriter(const LitmusTest& test) : used_(namesOf(test)) {}

    // Appends what replaces `st` and returns true, or returns false to keep it.
    virtual bool rewrite(const Stmt& st, Block& out) = 0;

    Block block(const Block& in) {
        Block out;
        for (const Stmt& st : in) {
            if (rewrite(st, out)) continue;
            Stmt s = st;
            s.body = block(st.body);
            s.orelse = block(st.orelse);
            for (Block& b : s.branches) b = block(b);
            out.push_back(std::move(s));
        }
        return out;
    }

    // The fresh name for `key`, made from `base` the first time.
    const std::string& named(const std::string& key, const std::string& base) {
        auto it = names_.find(key);
        if (it == names_.end()) it = names_.emplace(key, fresh(base, used_)).first;
        return it->second;
    }

    // A thread's own location in `role` for `object` (a lock, barrier or buffer).
    const std::string& owned(const std::string& thread, const std::string& object, const std::string& role) {
        return named(thread + "/" + object + "/" + role, role + "_" + thread + "_" + object);
    }

    // alarm := x - value, where the path fixes the value x must hold: the
    // implementation's own check, which refinement reports when not 0
    // (ImplementedTest::alarms). `key` names the check; its location is `base`
    // made fresh, on `node`.
    Stmt alarmUnless(const std::string& x, long long value, const std::string& key, const std::string& base, int node,
                     const SourceLoc& at) {
        const std::string& alarm = named(key, base);
        alarms_[alarm] = node;
        return assignStmt(alarm, Expr::operation(Operator::Sub, {Expr::location(x, at), Expr::constant(value, at)}, at),
                          at);
    }

    // Declares the alarm locations (initially 0) and lists them in `out`.
    void declareAlarms(ImplementedTest& out) const {
        for (const auto& [alarm, node] : alarms_) {
            out.test.locations.push_back(LocationDecl{alarm, node, 0, {}});
            out.alarms.push_back(alarm);
        }
    }

    std::set<std::string> used_;

private:
    std::map<std::string, std::string> names_;
    std::map<std::string, int> alarms_;  // alarm locations and their nodes
};

}  // namespace rdmacheck::rewrite
