// Location resolution (doc/LITMUS.md): the locations a test declares, the ones
// it names implicitly, each shared variable's copy per node, and the hidden
// locations of barriers, locks, buffers and constants. Internal to src/unfold.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/events.hpp"
#include "scan.hpp"

namespace rdmacheck {

// A location the test names (hidden constants have no name in the test); -1 if none.
int findLocation(const std::vector<Location>& locations, const std::string& name);

// Locations: declared ones first, then implicit ones in order of first use.
class LocationTable {
public:
    LocationTable(const LitmusTest& test, const TestScan& scan) : scan_(scan) {
        // An SC location is placed on the first node: no one reaches it but sc.* calls.
        for (const LocationDecl& d : test.locations)
            if (!d.shared) add(Location{d.name, d.sc ? nodeOfFirstCopy() : d.node, d.init, false});
        for (const LocationDecl& d : test.locations)
            if (d.sc) sc_.insert(d.name);
        // A shared variable `x` is one location `x@n` per node (LOCO §3.4, Def. 3.8).
        for (const std::string& name : scan.shared) {
            long long init = 0;
            for (const LocationDecl& d : test.locations)
                if (d.name == name) init = d.init;
            for (int n : scan.nodes) copies_[{name, n}] = add(Location{name + "@" + std::to_string(n), n, init, false});
        }
    }

    int find(const std::string& name) const { return findLocation(locations_, name); }
    size_t size() const { return locations_.size(); }
    bool isShared(const std::string& name) const { return scan_.isShared(name); }
    int copyOf(const std::string& variable, int node) const { return copies_.at({variable, node}); }

    // A barrier, a lock or a buffer is a hidden location: it holds nothing, and only its calls name it.
    int namedObject(const std::string& name) {
        auto it = objects_.find(name);
        if (it == objects_.end()) it = objects_.emplace(name, add(Location{name, 1, 0, true})).first;
        return it->second;
    }
    std::vector<int> participantNodes(const std::string& name) const { return scan_.participantNodes(name); }
    std::vector<int> allNodes() const { return {scan_.nodes.begin(), scan_.nodes.end()}; }
    // The hidden locations of names with participants (barriers, buffers), and their threads.
    std::map<int, std::set<int>> participants() const {
        std::map<int, std::set<int>> out;
        for (const auto& [name, location] : objects_)
            if (scan_.participants.count(name)) out[location] = scan_.participants.at(name);
        return out;
    }
    int nodeOfFirstCopy() const { return *scan_.nodes.begin(); }
    const std::map<const Stmt*, int>& hiddenByStatement() const { return hiddenOf_; }

    int add(Location l) {
        locations_.push_back(std::move(l));
        return static_cast<int>(locations_.size()) - 1;
    }

    // A CPU access (no ^n) from a thread on `node`.
    int local(const LocRef& ref, int node) {
        if (ref.node) throw InputError(ref.where, "expected a local location here, without '^'");
        rejectShared(ref);
        int i = find(ref.name);
        if (i < 0) return add(Location{ref.name, node, 0, false});
        if (locations_[i].node != node)
            throw InputError(ref.where, "location '" + ref.name + "' lives on node " +
                                            std::to_string(locations_[i].node) + ": a thread on node " +
                                            std::to_string(node) + " reaches it only through the NIC ('" +
                                            ref.name + "^" + std::to_string(locations_[i].node) + "')");
        return i;
    }

    // A NIC access `y^n`.
    int remote(const LocRef& ref) {
        int node = *ref.node;
        rejectShared(ref);
        int i = find(ref.name);
        if (i < 0) return add(Location{ref.name, node, 0, false});
        if (locations_[i].node != node)
            throw InputError(ref.where, "location '" + ref.name + "' lives on node " +
                                            std::to_string(locations_[i].node) + ", not on node " +
                                            std::to_string(node));
        return i;
    }

    // The constant of `y^n := 5`: one fresh location per statement, however
    // many paths run it.
    int hiddenConstant(const Stmt& put, int node) {
        return hidden(put, Location{"(" + std::to_string(put.constant) + ")", node, put.constant, true});
    }

    // The result of an RMW: a local location, or a fresh one for `_`.
    int rmwResult(const Stmt& rmw, int node) {
        if (rmw.source.name == "_") return hidden(rmw, Location{"_", node, 0, true});
        return local(rmw.source, node);
    }

    std::vector<Location> take() { return std::move(locations_); }

private:
    void rejectShared(const LocRef& ref) const {
        if (isShared(ref.name))
            throw InputError(ref.where, "'" + ref.name + "' is a shared variable: use sv.read, sv.write and sv.bcast");
        if (sc_.count(ref.name))
            throw InputError(ref.where, "'" + ref.name + "' is an SC location: use sc.read, sc.write, sc.cas and sc.faa");
    }

    int hidden(const Stmt& owner, Location l) {
        auto it = hiddenOf_.find(&owner);
        if (it != hiddenOf_.end()) return it->second;
        return hiddenOf_[&owner] = add(std::move(l));
    }

    const TestScan& scan_;
    std::vector<Location> locations_;
    std::map<const Stmt*, int> hiddenOf_;
    std::map<std::pair<std::string, int>, int> copies_;
    std::map<std::string, int> objects_;  // barriers and locks
    std::set<std::string> sc_;            // SC locations
};

// The names the condition, the filter and `locations [...]` observe, checked
// against the test's threads and locations (X86: a location only they name is
// declared, holding 0, as herd7 reads it, and so is one only code no path
// reaches names); InputError at the first unknown one. Returns, per location
// (UnfoldedProgram::observed), whether they name it.
std::vector<bool> resolveObservedNames(const LitmusTest& test, LocationTable& locations);

}  // namespace rdmacheck
