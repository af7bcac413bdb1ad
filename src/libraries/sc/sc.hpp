// RDMA^SC_RMW (RMW §5.1, RMW §5): its specification (library.cpp),
// its event kinds, and I_SC (implementation.cpp).
#pragma once

#include <memory>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::sc {

// One aMF event per call on an SC location: SCR a read (Read_SC, a failed
// CAS_SC), SCW a write (Write_SC), SCU an update that reads and writes (a
// successful CAS_SC, FAA_SC).
inline constexpr LibraryKind SCR{"scR", true, false, true};
inline constexpr LibraryKind SCW{"scW", false, true, true};
inline constexpr LibraryKind SCU{"scU", true, true, true};

std::unique_ptr<const LibraryDescriptor> library();
std::vector<ImplementationDescriptor> implementations();  // sc
std::vector<GeneratedKind> generatedKinds();      // its generator hook (generate.cpp)
std::unique_ptr<StatementGenerator> generator();

}  // namespace rdmacheck::sc
