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

// The value a read takes, and (recording) the write it comes from.
struct ReadSource {
    long long value = 0;
    int write = -1;
};

class Rules {
public:
    // With record on, states carry Tracking: each successor's records say what
    // its step did, so that a run can be replayed into its events (record.hpp).
    // The successors, and their order, are the same either way.
    Rules(const Program& program, const MachineParams& params, MachineKind kind, int unroll, bool reduce,
          bool record = false);

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
    void slotReadSteps(const State& s, int t, const Instr& in, std::vector<State>& out) const;
    void stayInLoop(State& n, int t, const Instr& in) const;
    void leaveLoop(State& n, int t, const Instr& in) const;
    void remoteRmwStep(const State& s, int t, const Instr& in, State& n) const;
    bool pollable(const State& s, int t, const Instr& in) const;
    void popCompletion(State& n, int t, const Instr& in) const;
    void lockedStep(const State& s, int t, const Instr& in, State& n) const;
    void casStep(const State& s, int t, const Instr& in, State& n) const;
    void nicStep(const State& s, int t, const Instr& in, State& n) const;
    void storeBufferSteps(const State& s, int t, Steps which, std::vector<State>& out) const;
    void concreteSteps(const State& s, int t, int q, Steps which, std::vector<State>& out) const;
    void simplifiedSteps(const State& s, int t, int q, Steps which, std::vector<State>& out) const;
    void writeBackSteps(const State& s, int t, int q, std::vector<State>& out) const;

    ReadSource cpuRead(const State& s, int t, int loc) const;
    void cpuWrite(State& s, int t, int loc, long long value, int event) const;
    ReadSource putValue(const State& s, const QueuePair& qp, const Entry& put) const;
    ReadSource getValue(const State& s, const QueuePair& qp, const Entry& get) const;
    ReadSource memoryAt(const State& s, int loc) const;
    int queuePairIndex(int t, int node) const;
    void advance(ThreadState& ts) const;

    // Recording; without it issue() returns -1 and the others only write memory.
    // issue: thread t's instruction at its pc issues an event of the call that
    // starts at `call` (-1: a call of its own), and returns its id.
    int issue(State& n, int t, EventKind kind, int location, int remote, int call = -1) const;
    int issueNicCall(State& n, int t, const Instr& in) const;
    void read(State& n, int event, const ReadSource& from) const;
    void cpuReadEvent(State& n, int t, int loc, const ReadSource& from) const;
    void noteWrite(State& n, int event, long long value) const;
    void store(State& n, int loc, long long value, int event) const;

    const Program& program_;
    MachineParams params_;
    MachineKind kind_;
    int unroll_;
    bool reduce_;
    bool record_;
};

}  // namespace rdmacheck::machine
