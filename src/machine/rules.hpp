// The transition rules of the machines: the program side and CPU rules (§2-3),
// the concrete queue-pair rules G1-G6, P1-P5, RF (§4), the simplified rules
// S-* (§5), each with or without the PCIe premises (§4.1), the remote RMW rules
// R-* of the simplified PCIe machine (§6), and the sequential machine used for SC.
#pragma once

#include <vector>

#include "program.hpp"
#include "rdmacheck/machine.hpp"
#include "rdmacheck/model.hpp"
#include "state.hpp"

namespace rdmacheck::machine {

class Rules {
public:
    Rules(const Program& program, const MachineParams& params, MachineKind kind, int unroll, bool reduce);

    State initial() const;
    // Every successor of s. With reduction on, when some thread has a step that
    // commutes with every other step and that no other step disables (control
    // flow, a write entering the store buffer, an entry moving between buffers
    // without touching memory or a premise), only that step is taken. Such a
    // step is a persistent set, and runs are finite, so the final states
    // reached are the same; `--no-reduction` explores everything to check this.
    void successors(const State& s, std::vector<State>& out) const;
    // Final in the sense of §7: programs done, store buffers and queue pairs
    // drained, wbL holding only completion notifications.
    bool isFinal(const State& s) const;
    bool programsDone(const State& s) const;

private:
    // Which steps a hardware rule function emits: all, or only those that
    // commute with every other step and that no step disables.
    enum class Steps { All, Independent };

    bool isEager(const State& s, int t) const;
    bool eagerHardwareStep(const State& s, int t, std::vector<State>& out) const;
    void programSteps(const State& s, int t, std::vector<State>& out) const;
    void storeBufferSteps(const State& s, int t, Steps which, std::vector<State>& out) const;
    void concreteSteps(const State& s, int t, int q, Steps which, std::vector<State>& out) const;
    void simplifiedSteps(const State& s, int t, int q, Steps which, std::vector<State>& out) const;
    void writeBackSteps(const State& s, int t, int q, std::vector<State>& out) const;

    long long cpuRead(const State& s, int t, int loc) const;
    void cpuWrite(State& s, int t, int loc, long long value) const;
    long long putValue(const State& s, const QueuePair& qp, const Entry& put) const;
    long long getValue(const State& s, const QueuePair& qp, const Entry& get) const;
    int queuePairIndex(int t, int node) const;
    void advance(ThreadState& ts) const;

    const Program& program_;
    MachineParams params_;
    MachineKind kind_;
    int unroll_;
    bool reduce_;
};

}  // namespace rdmacheck::machine
