// The barrier library BAL (LOCO Def. 4.1): its specification
// (library.cpp), its event kind, and I_BAL (implementation.cpp).
#pragma once

#include <memory>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::bal {

// A barrier call's exit, stamped aCR but reading nothing; its entries are core
// gF events, one per node it fences.
inline constexpr LibraryKind BX{"barX"};

std::unique_ptr<const LibraryDescriptor> library();
std::vector<ImplementationDescriptor> implementations();  // bal, bal-no-entry-fence

}  // namespace rdmacheck::bal
