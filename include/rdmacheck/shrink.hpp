// Test-case reduction: from a test with some property (a checker disagreement,
// a crash, a surprising verdict), a small test that still has it.
#pragma once

#include <functional>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// Greedy reduction to a fixpoint: returns a test for which stillFails(t) is true and
// no single reduction step keeps it true (unless maxSteps calls of stillFails ran
// out first; the smallest test found so far is returned then). Steps: remove a
// thread (one is kept), a statement anywhere or a choice branch; replace if, choice,
// loop or while by one of its bodies; replace an expression by 0, 1 or an operand,
// a constant by 0 or 1, an RMW's result by `_`, a work identifier by none (`_`
// for a broadcast), a node set by one with a node fewer, a condition by an operand; drop
// `locations [...]` and `filter`; make the condition `exists (true)`; remove unused
// init declarations; set init values to 0.
// Every candidate is printed and re-parsed, so the result round-trips as text;
// candidates that do not parse, or on which unfold() or stillFails throws
// InputError, are skipped. Throws std::invalid_argument when `failing` cannot be
// printed (printLitmus) or does not satisfy stillFails.
LitmusTest shrink(const LitmusTest& failing, const std::function<bool(const LitmusTest&)>& stillFails,
                  int maxSteps = 2000);

}  // namespace rdmacheck
