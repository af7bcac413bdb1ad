// The values of an encoding as Z3 terms: each read's value (Choices::readValue)
// and the terms of written values, constraints and registers over them.
// Internal to the encoder.
#pragma once

#include <optional>
#include <vector>

#include <z3++.h>

#include "symbolic.hpp"

namespace rdmacheck {

// Whether every value term of the skeleton is a difference term (a constant,
// or one read plus a constant): then Z3's difference-logic solver decides it.
bool isDifferenceLogic(const ExecutionGraph& sk);

// The value w writes when every execution writes the same: a constant, or
// the value of a location no one writes (a put's constant, kept in a hidden one).
std::optional<long long> constantWritten(const ExecutionGraph& sk, const std::vector<std::vector<int>>& writesOf, int w);

// The non-initial writes of each location, in event order.
std::vector<std::vector<int>> writesByLocation(const ExecutionGraph& sk, size_t locationCount);

// Read r's candidate sources: its location's initial write and every write
// but its own, less those its tests refuse. A source so refused is in no
// execution: left out, so that the search never tries it. When every source
// is refused the read has none (`none`), and the skeleton no execution; the
// candidates are then all kept, to read the encoding by.
std::vector<int> sourcesOf(const ExecutionGraph& sk, const std::vector<std::vector<int>>& writesOf, int r, bool& none);

// a op b on values.
z3::expr compareValues(Comparison op, const z3::expr& a, const z3::expr& b);

// A test of the skeleton (an assume's): through the rf Booleans where it
// compares a read whose source tells its value with a constant.
z3::expr constraintTerm(const Choices& choices, const ValueConstraint& constraint);

// v's term over the reads' values.
z3::expr valueTerm(const Choices& choices, const Value& v);

// Names every read's value, once rf's candidates and Booleans are made, and
// adds to `solver` that it equals its source's written value.
void nameReadValues(Choices& choices, z3::solver& solver);

// herd7 solves a candidate's values along rf and the dependencies of each
// written value on the reads it is computed from (herd/mem.ml, solve_mem): a
// value that a cycle of copies leaves free stays symbolic (S1...) and may be
// copied on, but a computation with it (an add, a xor, a flag), like a cycle
// that computes, has no solution, and the candidate no execution. Where the
// dependencies can close a cycle, each read a written value or a register
// value computes with (ExecutionGraph::computations, the flags of a CMP
// overwritten since included) must be grounded: its value comes down rf and
// dependencies, along a strictly falling numbering, to constants.
void forbidUngroundedComputations(const Choices& choices, z3::solver& solver);

// v == k; for a read whose source tells its value, through the rf Booleans.
z3::expr valueIsTerm(const Choices& choices, const Value& v, long long k);

}  // namespace rdmacheck
