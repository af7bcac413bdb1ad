// Repairs of non-robust programs (doc/model-notes.md §N25, §N26): the
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
    // Original polls the insertions took over, "poll(2) at line 7 (P0)": they
    // completed on every path the operation such a poll waited for, so it is gone.
    std::vector<std::string> replaced;
    std::string file{};  // where the program was written, if it was (robust --repair)
};

struct RepairResult {
    int maxInsertions = 0;
    int size = 0;             // insertions per set when the search ended
    uint64_t candidates = 0;  // insertion sets re-checked (the well-formed ones making a program not checked yet)
    std::vector<Repair> repairs;  // every repair of the smallest size found; empty: none within maxInsertions
    // Why a limit (--timeout, --max-memory) ended the search before its bound,
    // else "": then sets smaller than `size` have no repair, and `repairs` may
    // miss some of that size.
    std::string stopped;
};

// Searches sets of up to maxInsertions insertions, smallest first. A set must
// place an insertion inside a relaxed segment (§5) of each witness met so far
// (the one given and those of the sets that failed): outside them, the
// witness's cycle would most likely survive. Every set is well formed by
// construction or skipped (the Inserter of repair.cpp): a flush polls what is
// outstanding, and an original poll left nothing to poll is taken over. A
// progress line with options.progress. InputError as checkRobustness.
RepairResult repairRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options,
                              const RobustnessWitness& witness, int maxInsertions);

}  // namespace rdmacheck
