// The core RDMA library's registry entry (RDMA^TSO, RDMA^WAIT_RMW). The
// unfolder lowers its statements itself, so it has no methods; it names the
// models' "rdma:" scope and labels its calls of several subevents.
#include <stdexcept>

#include "libraries/rdma/rdma.hpp"
#include "rdmacheck/choices.hpp"

namespace rdmacheck::rdma {

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

class CoreRdma : public LibraryDescriptor {
public:
    CoreRdma() : LibraryDescriptor("rdma", {}) {}

    Value lower(const std::string& method, const std::vector<CallArgument>&, CallEmitter&, int) const override {
        throw std::logic_error("the core RDMA library has no method '" + method + "' to lower");
    }

    std::vector<ChosenRelation> choices() const override { return {remoteAtomicOrder()}; }
    std::string callLabel(const std::set<EventKind>& kinds) const override {
        if (kinds.count(EventKind::NAR)) return "remote RMW";
        if (kinds.count(EventKind::NRR)) return "get";
        if (kinds.count(EventKind::F)) return "failed CAS";
        return "put";
    }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> library() { return std::make_unique<CoreRdma>(); }

}  // namespace rdmacheck::rdma
