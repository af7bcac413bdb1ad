// The relations an execution chooses: the dynamic base relations a model can
// name, one registry entry each. An entry says what the relation means, how its
// choices are grouped and ordered, and how pictures draw it; the encoder, the
// concrete evaluator, explanations, pictures, the machine recorder and the test
// oracles iterate this list instead of naming the relations.
//
// rf, mo, rb and nfo are the RDMA^TSO paper's own (§4), each of a kind of its
// own that the encoder and decoder know. Every other choice is a chosen strict
// total order per group of events (ChoiceKind::GroupOrder), which is all data:
// a grouping function. A library declares its own next to its descriptor: the
// core's remote RMWs choose rao, the lock libraries lo.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rdmacheck/events.hpp"

namespace rdmacheck {

enum class ChoiceKind {
    ReadsFrom,          // a source write per read
    ModificationOrder,  // a total order per location on its writes, initial write first
    ReadsBefore,        // derived from rf and mo: (rf^-1 ; mo) \ id
    FlushDirection,     // a direction per same-queue-pair pair (isNfoPair, relations.hpp)
    GroupOrder,         // a strict total order per group of events
};

// Events per group key (a target node, a lock's location), in event order.
using EventGroups = std::map<int, std::vector<int>>;

// How pictures draw the relation: a Graphviz colour and style, and where its
// legend lists it. The legend lists relations by slot, the chosen ones among
// the picture module's fixed ones (po 10, fr 45, pf 50, ippo 90 ...).
struct ChoiceDrawing {
    std::string colour;
    std::string style;  // solid, dashed, dotted
    int legendSlot = 0;
};

struct ChosenRelation {
    std::string name;     // as models write it
    std::string meaning;  // one line
    std::string source;   // where the papers or specs define it
    std::vector<std::string> libraries;  // the libraries (their litmus names) whose events it relates
    ChoiceKind kind = ChoiceKind::GroupOrder;
    // GroupOrder: the events each order ranks, per group, from the skeleton alone.
    std::function<EventGroups(const ExecutionGraph&)> groups;
    ChoiceDrawing drawing;
};

// Every chosen relation: rf, mo, rb, nfo, then the libraries' group orders in
// the order of their libraries. The encoder builds and the explanations
// enumerate the group orders in this order.
const std::vector<ChosenRelation>& chosenRelations();
const ChosenRelation* findChosenRelation(const std::string& name);  // nullptr if none

}  // namespace rdmacheck
