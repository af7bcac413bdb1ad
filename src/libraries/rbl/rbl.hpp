// The ring buffer RBL (LOCO §5.1): its specification
// (library.cpp), its event kinds, and I_RBL (implementation.cpp).
#pragma once

#include <memory>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::rbl {

// Stamps only, on the buffer's location (LOCO §5.1): a successful
// submit's SUBCW (aCW, the writer node's copy) and SUBNRW (aNRW_n, node n's
// copy), both write stamps; a failed submit's SUBF (aWT); a successful
// receive's RECV (aCR) and a failed one's RECVF (aWT). A receive's `remote`
// is its reader's node, whose copy it reads.
inline constexpr LibraryKind SUBCW{"subCW", false, false, false};
inline constexpr LibraryKind SUBNRW{"subNRW", false, false, false};
inline constexpr LibraryKind SUBF{"subF"};
inline constexpr LibraryKind RECV{"recv"};
inline constexpr LibraryKind RECVF{"recvF"};

std::unique_ptr<const LibraryDescriptor> library();
std::vector<ImplementationDescriptor> implementations();  // rbl, rbl-head-first
std::vector<GeneratedKind> generatedKinds();      // its generator hook (generate.cpp)
std::unique_ptr<StatementGenerator> generator();

}  // namespace rdmacheck::rbl
