// The lock libraries WLOCK, SLOCK and NLOCK (RMW §4, RMW §4): their
// specifications (library.cpp), the event kinds they share, and I_NL, I_WL and
// I_SL (implementation.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rdmacheck/library.hpp"

namespace rdmacheck {
struct ImplementationDescriptor;  // refine.hpp
}  // namespace rdmacheck

namespace rdmacheck::locks {

// The subevents touch no memory and carry only a stamp, on the lock's location:
// an acquire's ACQ (aMF), and a release's RCW (aCW, a write stamp), RGF
// (aGF_n), RRF (aRF_n) and RNRW (aNRW_n, a write stamp).
inline constexpr LibraryKind ACQ{"acq"};
inline constexpr LibraryKind RCW{"relCW", false, false, false};
inline constexpr LibraryKind RGF{"relGF"};
inline constexpr LibraryKind RRF{"relRF"};
inline constexpr LibraryKind RNRW{"relNRW", false, false, false};

std::vector<std::unique_ptr<const LibraryDescriptor>> libraries();  // wl, sl, nl
std::vector<ImplementationDescriptor> implementations();             // nl, wl, sl
// Their generator hook (generate.cpp): a critical section on the lock `l`, `l^1` for nl.
GeneratedKind generatedKind(const std::string& library);
std::unique_ptr<StatementGenerator> generator(const std::string& library, bool homed);

}  // namespace rdmacheck::locks
