// Formulas over an encoding's choices, for the solver's answer-only modes
// (result.hpp), which ask about final states rather than executions. Internal
// to the encoder and the solver: the public ExecutionEncoding (encode.hpp)
// speaks no Z3.
#pragma once

#include <z3++.h>

#include "rdmacheck/encode.hpp"

namespace rdmacheck {

// A location ends with value k (its mo-last write's).
z3::expr finalValueIs(const ExecutionEncoding& encoding, int location, long long k);
// A value under the execution's read values is k.
z3::expr valueIs(const ExecutionEncoding& encoding, const Value& v, long long k);
// The value a location ends with, and a value, as integer terms.
z3::expr finalValueTerm(const ExecutionEncoding& encoding, int location);
z3::expr valueTermOf(const ExecutionEncoding& encoding, const Value& v);
// Keeps only executions where `condition` holds in later next() calls.
void require(ExecutionEncoding& encoding, const z3::expr& condition);
// Before the first next(): whether an execution where `condition` holds exists
// (then current() is one), with `condition` assumed, not kept.
bool firstExecutionWhere(ExecutionEncoding& encoding, const z3::expr& condition);
// Whether the encoding has any execution, under what require() kept.
bool anyExecution(ExecutionEncoding& encoding);

}  // namespace rdmacheck
