// The writers of the test families (families.cpp holds their registry): each
// appends one test of the given size, and its expectations, to out. Internal
// to src/generate.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/families.hpp"

namespace rdmacheck {

using Lines = std::vector<std::string>;

// parts with `separator` between them, each after `prefix`.
inline std::string joined(const Lines& parts, const std::string& separator, const std::string& prefix = "") {
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i) text += (i ? separator : "") + prefix + parts[i];
    return text;
}

// The exs variants, in the order `all` writes them.
const std::vector<std::string>& exsVariants();
void writeExsRing(int n, int s, const std::string& variant, FamilyOutput& out);

// x86 (herd7 syntax), under tso.
void writeSbRing(int n, FamilyOutput& out);
void writeSbMfencesRing(int n, FamilyOutput& out);
void write22WRing(int n, FamilyOutput& out);
void writeIriwRing(int k, FamilyOutput& out);
void writeIriwK(int k, FamilyOutput& out);
void writeMpChain(int n, FamilyOutput& out);

// RDMA, under rdma-tso: the RDMA^TSO paper's Fig. 3d (SBpp), 3a (SBp) and 3e
// (SBg) with n nodes around a ring.
void writeSbppRing(int n, FamilyOutput& out);
void writeSbpRing(int n, FamilyOutput& out);
void writeSbgRing(int n, FamilyOutput& out);

}  // namespace rdmacheck
