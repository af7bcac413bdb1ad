// An independent oracle for the Z3 encoding: the papers' consistency definitions
// transcribed literally. For each skeleton it enumerates every rf and mo, and for
// each of those every nfo (and rao) as a witness, builds the relations as Boolean
// matrices, closes them transitively and checks irreflexivity:
//  - RDMA^TSO (Definition 4.4 of the RDMA^TSO paper; rdma-tso, rdma-tso-nopcie) with
//    the model's ippo/oppo tables: ib, ob and ([Inst];ib;ob)+ irreflexive;
//  - RDMA^TSO_RMW (Definition 20 of the RMW paper; rdma-tso-rmw) with its own tables
//    and event classes written out in definition_oracle.cpp: ib and ob, which contain each other through
//    [Inst], computed as a mutual fixpoint, both irreflexive.
// Candidates, values, witnesses and relations: brute_force.hpp.
#pragma once

#include <utility>
#include <vector>

#include "brute_force.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::oracles::definition {

struct OracleResult : Outcomes {
    bool robust = true;  // no consistent execution has a cycle in po ∪ rf ∪ mo ∪ rb (doc/model-notes.md §N21)
};

class Oracle {
public:
    // RDMA^TSO (Def. 4.4) with the tables and nfo / same-buffer flags of `model`.
    // With `prefixes`, also every path cut before a test (robustness, doc/model-notes.md §N21).
    Oracle(const LitmusTest& test, const Model& model, const std::vector<ObservedName>& shown, bool prefixes = false)
        : test_(test), model_(&model), shown_(shown), program_(unfold(test, withPrefixes(prefixes))) {}
    // RDMA^TSO_RMW (Def. 20): no model, everything is written out in def20.
    Oracle(const LitmusTest& test, const std::vector<ObservedName>& shown)
        : test_(test), model_(nullptr), shown_(shown), program_(unfold(test, UnfoldOptions{})) {}

    OracleResult run() {
        forEachSkeleton(program_, /*bindReceived=*/true, [&](const ExecutionGraph& sk) {
            sk_ = sk;
            skeleton();
        });
        return result_;
    }

    // How many rf and mo candidates run() enumerates, over all skeletons.
    double candidates() const;

private:
    static UnfoldOptions withPrefixes(bool prefixes) {
        UnfoldOptions options;
        options.prefixes = prefixes;
        return options;
    }

    bool rmw() const { return model_ == nullptr; }
    bool scAcyclic() const;
    bool isR(EventKind k) const;
    bool isW(EventKind k) const;
    bool isInst(EventKind k) const;
    void skeleton();
    bool pollsFrom();
    void evaluate();
    bool withRao(const Relation& ib, const Relation& ob) const;
    bool nicBuffersInternal() const;
    bool rfInternal(int w, int r) const;
    bool rbInternal(int r, int w) const;
    bool ordered(bool issue, int a, int b) const;
    void baseEdges(Relation& ib, Relation& ob) const;
    bool consistent(Relation ib, Relation ob) const;
    void record(const std::vector<long long>& readValues);

    const LitmusTest& test_;
    const Model* model_;  // null: Definition 20
    std::vector<ObservedName> shown_;
    UnfoldedProgram program_;
    ExecutionGraph sk_;
    size_t n_ = 0;
    Relation po_;
    std::vector<size_t> reads_;
    std::vector<std::pair<int, int>> pf_;
    std::vector<int> arOf_;
    std::vector<std::vector<int>> raoGroups_;  // per target node, its narR events
    Candidate c_;
    OracleResult result_;
};

}  // namespace rdmacheck::oracles::definition
