// The registry of libraries: a new one adds its front end here and its so
// edges to the model files.
#include "library.hpp"

namespace rdmacheck {

const LibraryFrontEnd* findLibrary(const std::string& name) {
    if (name == "sv") return &sharedVariables();
    if (name == "bal") return &barriers();
    return nullptr;
}

std::string knownLibraries() { return "sv, bal"; }

}  // namespace rdmacheck
