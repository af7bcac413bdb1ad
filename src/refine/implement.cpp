// The implementations refine knows, as one table (the rewrites themselves are
// in impl_*.cpp), and the API of refine.hpp over it.
#include <algorithm>

#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/refine.hpp"
#include "rewrite.hpp"

namespace rdmacheck {

namespace {

// Every implementation refine knows: its name, the model its output runs
// under (empty: the model of its input), its placements and its rewrite.
struct ImplementationEntry {
    Implementation id;
    const char* name;
    const char* lowersTo;
    size_t (*placements)(const LitmusTest&);
    ImplementedTest (*rewrite)(const LitmusTest&, size_t placement);
};

size_t onePlacement(const LitmusTest&) { return 1; }

const ImplementationEntry kImplementations[] = {
    {Implementation::SharedVariables, "sv", "", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::sharedVariables(t); }},
    {Implementation::WaitByPolls, "wait-polls", "rdma-tso-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::waitByPolls(t, false); }},
    {Implementation::WaitByPollsFaithful, "wait-polls-faithful", "rdma-tso-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::waitByPolls(t, true); }},
    // Tickets, CAS and FAA are remote RMWs.
    {Implementation::NodeLocks, "nl", "rdma-wait-rmw", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::nodeLocks(t); }},
    {Implementation::WeakLocks, "wl", "rdma-wait-rmw", rewrite::weakLockPlacements,
     [](const LitmusTest& t, size_t p) { return rewrite::weakLocks(t, p); }},
    {Implementation::StrongLocks, "sl", "", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::strongLocks(t); }},
    {Implementation::SequentialConsistency, "sc", "rdma-wait-rmw", rewrite::sequentialConsistencyPlacements,
     [](const LitmusTest& t, size_t p) { return rewrite::sequentialConsistency(t, p); }},
    {Implementation::Barriers, "bal", "", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::barriers(t, true); }},
    {Implementation::BarriersWithoutEntryFence, "bal-no-entry-fence", "", onePlacement,
     [](const LitmusTest& t, size_t) { return rewrite::barriers(t, false); }},
    {Implementation::RingBuffers, "rbl", "", rewrite::ringBufferPlacements,
     [](const LitmusTest& t, size_t p) { return rewrite::ringBuffers(t, p, false); }},
    {Implementation::RingBuffersHeadFirst, "rbl-head-first", "", rewrite::ringBufferPlacements,
     [](const LitmusTest& t, size_t p) { return rewrite::ringBuffers(t, p, true); }},
};

const ImplementationEntry& entryOf(Implementation impl) {
    for (const ImplementationEntry& e : kImplementations)
        if (e.id == impl) return e;
    throw std::logic_error("an implementation without an entry");
}

}  // namespace

std::vector<Implementation> parseImplementations(const std::string& list) {
    std::vector<Implementation> chain;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string name = list.substr(start, comma - start);
        const auto* e = std::find_if(std::begin(kImplementations), std::end(kImplementations),
                                     [&](const ImplementationEntry& entry) { return name == entry.name; });
        if (e == std::end(kImplementations)) {
            std::vector<std::string> known;
            for (const ImplementationEntry& entry : kImplementations) known.push_back(entry.name);
            throw InputError(SourceLoc{}, "unknown implementation '" + name + "' (known: " + joined(known) + ")");
        }
        chain.push_back(e->id);
        start = comma + 1;
    }
    return chain;
}

const char* implementationName(Implementation impl) { return entryOf(impl).name; }

std::string loweredModel(Implementation impl, const std::string& model) {
    const char* lower = entryOf(impl).lowersTo;
    return *lower ? lower : model;
}

std::string loweredModel(const std::vector<Implementation>& chain, const std::string& model) {
    std::string lowered = model;
    for (Implementation impl : chain) lowered = loweredModel(impl, lowered);
    return lowered;
}

size_t placementCount(const LitmusTest& test, Implementation impl) { return entryOf(impl).placements(test); }

ImplementedTest implement(const LitmusTest& test, Implementation impl, const std::string& specModel,
                          size_t placement) {
    ImplementedTest out = entryOf(impl).rewrite(test, placement);
    out.model = loweredModel(impl, specModel);
    return out;
}

}  // namespace rdmacheck
