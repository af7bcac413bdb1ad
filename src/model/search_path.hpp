// Where model files are found (ModelSearchPath): herd7's search order, and
// what rdmacheck adds to it.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/model.hpp"

namespace rdmacheck {

// herd7's "implicit" file name: not from the root, ./ or ../, so searched for.
bool isImplicit(const std::string& name);

// A model's name (rdma-tso): no folder, no extension.
bool isModelName(const std::string& name);

// Where `name` is looked for, in order. A table is looked for beside the
// model naming it first; a model and an include in herd7's order (the current
// folder, -I, the library: herd7's, after rdmacheck's own), then, where herd7
// would stop, beside the file that includes it.
std::vector<std::string> lookedIn(const ModelSearchPath& path, const std::string& name,
                                  const std::string& besideFolder, bool besideFirst = true);

}  // namespace rdmacheck
