// The built-in libraries and implementations: one line each, one folder each
// (CONTRIBUTING.md, "Adding a library"). The library order fixes the registry's
// indices (the core RDMA library first: it is Library::Core) and so the
// indices of the libraries' event kinds; the implementation order is the
// order messages list them in.
#include "rdmacheck/refine.hpp"
#include "libraries/bal/bal.hpp"
#include "libraries/locks/locks.hpp"
#include "libraries/rbl/rbl.hpp"
#include "libraries/rdma/rdma.hpp"
#include "libraries/sc/sc.hpp"
#include "libraries/sv/sv.hpp"

namespace rdmacheck {

namespace {

template <class T>
void append(std::vector<T>& to, std::vector<T> more) {
    for (T& t : more) to.push_back(std::move(t));
}

}  // namespace

std::vector<std::unique_ptr<const LibraryDescriptor>> builtInLibraries() {
    std::vector<std::unique_ptr<const LibraryDescriptor>> libraries;
    libraries.push_back(rdma::library());
    libraries.push_back(sv::library());
    libraries.push_back(bal::library());
    append(libraries, locks::libraries());
    libraries.push_back(sc::library());
    libraries.push_back(rbl::library());
    return libraries;
}

std::vector<ImplementationDescriptor> builtInImplementations() {
    std::vector<ImplementationDescriptor> implementations;
    append(implementations, sv::implementations());
    append(implementations, rdma::implementations());
    append(implementations, locks::implementations());
    append(implementations, sc::implementations());
    append(implementations, bal::implementations());
    append(implementations, rbl::implementations());
    return implementations;
}

}  // namespace rdmacheck
