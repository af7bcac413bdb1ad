// The registry of implementations refine knows (each is in its library's
// folder, listed in src/libraries/registry.cpp), and the API of refine.hpp over it.
#include <algorithm>
#include <deque>
#include <stdexcept>

#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/refine.hpp"

namespace rdmacheck {

// The built-in implementations, in the order messages list them (src/libraries/registry.cpp).
std::vector<ImplementationDescriptor> builtInImplementations();

namespace {

Implementation add(std::deque<ImplementationDescriptor>& implementations, ImplementationDescriptor implementation) {
    for (const ImplementationDescriptor& other : implementations)
        if (other.name == implementation.name)
            throw std::invalid_argument("implementation '" + implementation.name + "' is registered already");
    implementations.push_back(std::move(implementation));
    return Implementation{static_cast<int>(implementations.size()) - 1};
}

// A deque: registering an implementation moves no entry.
std::deque<ImplementationDescriptor>& registry() {
    static std::deque<ImplementationDescriptor> implementations = [] {
        std::deque<ImplementationDescriptor> all;
        for (ImplementationDescriptor& i : builtInImplementations()) add(all, std::move(i));
        return all;
    }();
    return implementations;
}

const ImplementationDescriptor& entryOf(Implementation impl) { return registry().at(impl.index); }

}  // namespace

Implementation registerImplementation(ImplementationDescriptor implementation) {
    return add(registry(), std::move(implementation));
}

std::optional<Implementation> findImplementation(const std::string& name) {
    const std::deque<ImplementationDescriptor>& implementations = registry();
    for (size_t i = 0; i < implementations.size(); ++i)
        if (implementations[i].name == name) return Implementation{static_cast<int>(i)};
    return std::nullopt;
}

std::vector<Implementation> parseImplementations(const std::string& list) {
    std::vector<Implementation> chain;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string name = list.substr(start, comma - start);
        const std::optional<Implementation> impl = findImplementation(name);
        if (!impl) {
            std::vector<std::string> known;
            for (const ImplementationDescriptor& entry : registry()) known.push_back(entry.name);
            throw InputError(SourceLoc{}, "unknown implementation '" + name + "' (known: " + joined(known) + ")");
        }
        chain.push_back(*impl);
        start = comma + 1;
    }
    return chain;
}

const char* implementationName(Implementation impl) { return entryOf(impl).name.c_str(); }

std::string loweredModel(Implementation impl, const std::string& model) {
    const std::string& lower = entryOf(impl).lowersTo;
    return lower.empty() ? model : lower;
}

std::string loweredModel(const std::vector<Implementation>& chain, const std::string& model) {
    std::string lowered = model;
    for (Implementation impl : chain) lowered = loweredModel(impl, lowered);
    return lowered;
}

size_t placementCount(const LitmusTest& test, Implementation impl) {
    const ImplementationDescriptor& entry = entryOf(impl);
    return entry.placements ? entry.placements(test) : 1;
}

ImplementedTest implement(const LitmusTest& test, Implementation impl, const std::string& specModel,
                          size_t placement) {
    ImplementedTest out = entryOf(impl).rewrite(test, placement);
    out.model = loweredModel(impl, specModel);
    return out;
}

}  // namespace rdmacheck
