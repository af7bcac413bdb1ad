// herd7's dependencies on X86 (its make_procrels over the register events of
// its X86 instructions): where a value read from memory goes through
// registers into an access. A path follows each register's loads while it
// unfolds, as herd7's rf-reg and its register events inside instructions do.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck {

class RegisterFlow {
public:
    // `st` ran and made the path's events from `first` on.
    void after(const Stmt& st, ThreadPath& path, size_t first);

private:
    // The memory loads whose values reach what these registers hold, through registers only.
    std::vector<int> loadsOf(const std::vector<std::string>& registers) const;
    void afterUpdate(const Stmt& st, ThreadPath& path, int start);
    std::map<std::string, std::vector<int>> loadsInto_;
};

}  // namespace rdmacheck
