// The shared-variable library SV (LOCO §3.4, Def. 3.8): its specification
// (library.cpp), which emits core kinds only, and I_SV (implementation.cpp).
#pragma once

#include <memory>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::sv {

std::unique_ptr<const LibraryDescriptor> library();
std::vector<ImplementationDescriptor> implementations();  // sv
std::vector<GeneratedKind> generatedKinds();      // its generator hook (generate.cpp)
std::unique_ptr<StatementGenerator> generator();

}  // namespace rdmacheck::sv
