// An execution (or an explained candidate) as a Picture for Graphviz: the
// pictures module's side that knows executions and models (picture.hpp).
#pragma once

#include <set>
#include <string>

#include "rdmacheck/model.hpp"
#include "rdmacheck/names.hpp"
#include "rdmacheck/picture.hpp"
#include "rdmacheck/robust.hpp"

namespace rdmacheck {

// Relations drawn: po rf mo rb pf nfo (herd7's picture), any clock edge as the
// model file names it (ippo, oppo, rf-e, [nlW];pf ...), and a clock's axiom
// name (ib, ob) for all of that clock's edges. By default herd7's, rao, lo and
// the model's definitions named "...-so" (a library's so, such as wl-so).
std::set<std::string> defaultDrawnRelations(const Model& model);
// "po,rf,ob" -> set; InputError (no location) for names the model does not know.
std::set<std::string> parseDrawnRelations(const std::string& list, const Model& model);

// Initial writes are left out (as herd7 does without -showinitwrites), except
// those a highlighted cycle passes through, unless showInit.
Picture drawExecution(const LitmusTest& test, const std::vector<Location>& locations, const ExecutionGraph& ex,
                      const Model& model, const std::set<std::string>& relations, const std::string& name,
                      const std::string& caption, const Cycle* cycle = nullptr, bool showInit = false);

// A robustness witness (robust --dot, TEST-witness): its execution with its sc
// cycle highlighted, and each po segment of it the model does not order
// (doc/model-notes.md §N25) as a dashed red edge labelled "relaxed CELL".
Picture drawRobustnessWitness(const LitmusTest& test, const Model& model, const RobustnessWitness& witness);

}  // namespace rdmacheck
