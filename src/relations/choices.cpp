// The registry of chosen relations (choices.hpp): the RDMA^TSO paper's rf, mo,
// rb and nfo here; a library's own (the core's rao, the locks' lo) next to its
// descriptor, which declares them (LibraryDescriptor::choices).
#include "rdmacheck/choices.hpp"

#include <algorithm>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

std::vector<ChosenRelation> builtInChoices() {
    return {
        {"rf", "reads-from (chosen)", "RDMA^TSO paper Def. 4.2", {"rdma"},
         ChoiceKind::ReadsFrom, nullptr, {"red", "solid", 20}},
        {"mo", "modification order per location, initial write first (chosen)", "RDMA^TSO paper Def. 4.2",
         {"rdma"}, ChoiceKind::ModificationOrder, nullptr, {"blue", "solid", 30}},
        {"rb", "reads-before, (rf^-1;mo) \\ id", "RDMA^TSO paper Def. 4.2",
         {"rdma"}, ChoiceKind::ReadsBefore, nullptr, {"orange", "solid", 40}},
        {"nfo",
         "NIC flush order: one direction per same-queue-pair (nlR, nlW) and (nrR/narR, nrW/narW) pair (chosen)",
         "RDMA^TSO paper Def. 4.2", {"rdma"}, ChoiceKind::FlushDirection, nullptr, {"purple", "solid", 60}},
    };
}

// The RDMA^TSO paper's, then each registered library's in registry order, once
// each (the lock libraries share lo). Read once, when first asked, after the
// built-in libraries are registered.
std::vector<ChosenRelation> everyChoice() {
    std::vector<ChosenRelation> choices = builtInChoices();
    for (int l = 0; l < registeredLibraries(); ++l)
        for (ChosenRelation& c : libraryDescriptor(Library{l}).choices()) {
            auto same = [&](const ChosenRelation& known) { return known.name == c.name; };
            if (std::none_of(choices.begin(), choices.end(), same)) choices.push_back(std::move(c));
        }
    return choices;
}

}  // namespace

const std::vector<ChosenRelation>& chosenRelations() {
    static const std::vector<ChosenRelation> choices = everyChoice();
    return choices;
}

const ChosenRelation* findChosenRelation(const std::string& name) {
    const std::vector<ChosenRelation>& choices = chosenRelations();
    auto it = std::find_if(choices.begin(), choices.end(), [&](const ChosenRelation& c) { return c.name == name; });
    return it == choices.end() ? nullptr : &*it;
}

}  // namespace rdmacheck
