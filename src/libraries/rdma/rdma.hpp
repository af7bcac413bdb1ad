// The core RDMA library "rdma" (RDMA^TSO, RDMA^WAIT_RMW): the unfolder lowers
// its statements itself, into the core event kinds of events.hpp; its
// registry entry names the models' "rdma:" scope and labels its calls of
// several subevents. Its implementation is wait(d) as polls.
#pragma once

#include <memory>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::rdma {

std::unique_ptr<const LibraryDescriptor> library();
std::vector<ImplementationDescriptor> implementations();  // wait-polls, wait-polls-faithful

}  // namespace rdmacheck::rdma
