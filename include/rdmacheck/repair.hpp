// Repairs of non-robust programs (ROBUSTNESS.md §5 "Repair", §7.3): the
// smallest sets of inserted statements that make the program robust, found by
// increasing size and re-checked with checkRobustness.
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/robust.hpp"

namespace rdmacheck {

// One statement (or, for a flush, a few) inserted after a statement of a thread.
struct Insertion {
    // poll(n) after a put or get towards n; rfence(n) after a remote operation
    // towards n that another one follows; mfence; flush(n) after a put towards n:
    // a get from a fresh location on n, then polls until that get is polled.
    enum class Kind { Poll, RFence, MFence, Flush };
    Kind kind = Kind::Poll;
    int thread = 0;
    int node = 0;      // towards; 0 for mfence
    SourceLoc after;   // the statement it follows
    int position = 0;  // that statement's index in the thread's statements, in text order

    std::string text() const;  // "poll(2) after line 4 (P0)"
};

struct Repair {
    std::vector<Insertion> insertions;
    LitmusTest program;  // the test with them
};

struct RepairResult {
    int maxInsertions = 0;
    uint64_t candidates = 0;  // insertion sets re-checked
    std::vector<Repair> repairs;  // every repair of the smallest size found; empty: none within maxInsertions
    std::string stopped;          // why the search ended before its bound (the time limit), else ""
};

// Searches sets of up to maxInsertions insertions, smallest first. A set must
// place an insertion inside a relaxed segment (§5) of each witness met so far
// (the one given and those of the sets that failed): outside them, the
// witness's cycle would most likely survive. InputError as checkRobustness.
RepairResult repairRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options,
                              const RobustnessWitness& witness, int maxInsertions);

}  // namespace rdmacheck
