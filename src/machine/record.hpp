// A recorded run as the execution graph the declarative engine decodes, so that
// pictures (and checks against the axioms) see the machine's runs as they see
// Z3's executions.
#pragma once

#include <vector>

#include "program.hpp"
#include "rdmacheck/events.hpp"
#include "rdmacheck/model.hpp"
#include "state.hpp"

namespace rdmacheck::machine {

// The execution graph of a recorded run: the events it issued, numbered as unfold() numbers a skeleton's (initial
// writes first, one per location, then each thread's events in program order),
// with the run's rf, mo (the order writes reached memory), read values, and the
// order it performed nfo pairs and the events of each group order (choices.hpp:
// remote atomic reads for rao), if the model has them.
// `records` are a whole run's, from the initial state to `final`, a final state.
ExecutionGraph recordedExecution(const Program& program, const std::vector<RunRecord>& records, const State& final,
                                  const Model& model);

}  // namespace rdmacheck::machine
