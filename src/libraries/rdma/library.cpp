// The core RDMA library's registry entry (RDMA^TSO, RDMA^WAIT_RMW). The
// unfolder lowers its statements itself, so it has no methods; it names the
// models' "rdma:" scope and labels its calls of several subevents.
#include <stdexcept>

#include "libraries/rdma/rdma.hpp"

namespace rdmacheck::rdma {

namespace {

class CoreRdma : public LibraryDescriptor {
public:
    CoreRdma() : LibraryDescriptor("rdma", {}) {}

    Value lower(const std::string& method, const std::vector<CallArgument>&, CallEmitter&, int) const override {
        throw std::logic_error("the core RDMA library has no method '" + method + "' to lower");
    }

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
