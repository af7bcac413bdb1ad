// The registry of chosen relations (choices.hpp): the RDMA^TSO paper's rf, mo,
// rb and nfo and the core's rao here, each library's group orders next to its
// descriptor, listed here one line each.
#include "rdmacheck/choices.hpp"

#include <algorithm>

namespace rdmacheck {

// Defined next to the lock libraries' descriptor, in libraries/locks/library.cpp.
namespace locks {
ChosenRelation lockOrder();
}

namespace {

// rao (the RMW paper, App. D.2): per target node, a total order on its narR
// events, the core's remote RMWs on that node's memory.
ChosenRelation remoteAtomicOrder() {
    auto readsByNode = [](const ExecutionGraph& sk) {
        EventGroups reads;
        for (int e = 0; e < static_cast<int>(sk.events.size()); ++e)
            if (sk.events[e].kind == EventKind::NAR) reads[sk.events[e].remote].push_back(e);
        return reads;
    };
    return {"rao", "remote-atomic order: per target node, a total order on its narR events (chosen)",
            "RMW App. D.2", {"rdma"}, ChoiceKind::GroupOrder, readsByNode, {"brown", "solid", 70}};
}

std::vector<ChosenRelation> builtInChoices() {
    return {
        {"rf", "reads-from (chosen)", "RDMA^TSO paper Def. 4.2", {"rdma"},
         ChoiceKind::ReadsFrom, nullptr, {"red", "solid", 20}},
        {"mo", "modification order per location, initial write first (chosen)", "RDMA^TSO paper Def. 4.2",
         {"rdma"}, ChoiceKind::ModificationOrder, nullptr, {"blue", "solid", 30}},
        {"rb", "reads-before, (rf^-1;mo) \\ id", "RDMA^TSO paper Def. 4.2",
         {"rdma"}, ChoiceKind::ReadsBefore, nullptr, {"orange", "solid", 40}},
        {"nfo", "NIC flush order: one direction per same-queue-pair (nlR, nlW) and (nrR/narR, nrW/narW) pair (chosen)",
         "RDMA^TSO paper Def. 4.2", {"rdma"}, ChoiceKind::FlushDirection, nullptr, {"purple", "solid", 60}},
        remoteAtomicOrder(),
        locks::lockOrder(),
    };
}

}  // namespace

const std::vector<ChosenRelation>& chosenRelations() {
    static const std::vector<ChosenRelation> choices = builtInChoices();
    return choices;
}

const ChosenRelation* findChosenRelation(const std::string& name) {
    const std::vector<ChosenRelation>& choices = chosenRelations();
    auto it = std::find_if(choices.begin(), choices.end(), [&](const ChosenRelation& c) { return c.name == name; });
    return it == choices.end() ? nullptr : &*it;
}

}  // namespace rdmacheck
