// The path combinations of an unfolded program, and the skeleton of each:
// the chosen paths' events laid end to end after the initial writes.
#include "locations.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

size_t UnfoldedProgram::skeletonCount() const {
    size_t n = 1;
    for (const auto& p : paths) {
        if (p.empty()) return 0;
        n = n > SIZE_MAX / p.size() ? SIZE_MAX : n * p.size();
    }
    return n;
}

int UnfoldedProgram::locationIndex(const std::string& name) const { return findLocation(locations, name); }

bool UnfoldedProgram::nextChoice(std::vector<size_t>& choice) const {
    for (size_t t = 0; t < choice.size(); ++t) {
        if (++choice[t] < paths[t].size()) return true;
        choice[t] = 0;
    }
    return false;
}

ExecutionGraph UnfoldedProgram::skeleton(const std::vector<size_t>& choice, bool bindReceived) const {
    ExecutionGraph sk;
    sk.paths = choice;
    sk.observed = observed;
    for (size_t l = 0; l < locations.size(); ++l) {
        Event init;
        init.kind = EventKind::LW;
        init.location = static_cast<int>(l);
        init.written = Value::of(locations[l].init);
        sk.events.push_back(init);
    }
    for (size_t t = 0; t < paths.size(); ++t) {
        const ThreadPath& p = paths[t][choice[t]];
        const int offset = static_cast<int>(sk.events.size());
        sk.threadEvents.emplace_back();
        for (Event e : p.events) {
            e.written.shiftEvents(offset);
            for (Value& v : e.message) v.shiftEvents(offset);
            sk.threadEvents.back().push_back(static_cast<int>(sk.events.size()));
            sk.events.push_back(std::move(e));
        }
        auto shifted = [&](const auto& pairs, auto& into) {
            for (auto [a, b] : pairs) into.emplace_back(a + offset, b + offset);
        };
        shifted(p.pollsFrom, sk.pollsFrom);
        shifted(p.lockedPairs, sk.lockedPairs);
        shifted(p.dataDependencies, sk.dataDependencies);
        shifted(p.addressDependencies, sk.addressDependencies);
        for (ValueConstraint c : p.constraints) {
            c.lhs.shiftEvents(offset);
            c.rhs.shiftEvents(offset);
            sk.constraints.push_back(std::move(c));
        }
        std::map<std::string, Value> regs = p.registers;
        for (auto& [name, v] : regs) v.shiftEvents(offset);
        sk.registers.push_back(std::move(regs));
        for (Value v : p.computations) {
            v.shiftEvents(offset);
            sk.computations.push_back(std::move(v));
        }
        if (p.cut) sk.cutAt.push_back(p.cutAt);
    }
    if (bindReceived) bindValuesByLibraries(sk);
    sk.illFormed = illFormedByLibraries(*this, sk);
    return sk;
}

}  // namespace rdmacheck
