// A recorded run in the declarative engine's terms, so that pictures (and
// checks against the axioms) see the machine's runs as they see Z3's executions.
#pragma once

#include <vector>

#include "program.hpp"
#include "rdmacheck/encode.hpp"
#include "rdmacheck/model.hpp"
#include "state.hpp"

namespace rdmacheck::machine {

struct RecordedRun {
    Skeleton skeleton;
    Execution execution;
};

// The events a run issued, numbered as unfold() numbers a skeleton's (initial
// writes first, one per location, then each thread's events in program order),
// with the run's rf, mo (the order writes reached memory), read values, and the
// order it performed nfo pairs and remote atomic reads, if the model has them.
// `records` are a whole run's, from the initial state to `final`, a final state.
RecordedRun buildRecordedRun(const Program& program, const std::vector<RunRecord>& records, const State& final,
                             const Model& model);

}  // namespace rdmacheck::machine
