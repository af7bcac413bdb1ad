// The transition rules of the machines: the program side and CPU rules (§2-3),
// the concrete queue-pair rules G1-G6, P1-P5, RF (§4), the simplified rules
// S-* (§5), each with or without the PCIe premises (§4.1), the remote RMW rules
// R-* of the simplified PCIe machine (§6), and the sequential machine used for SC.
#pragma once

#include <vector>

#include "independence.hpp"
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
    Rules(const Program& program, const MachineParams& params, MachineKind kind, int unroll, bool record = false);

    State initial() const;
    // Every successor of s.
    void successors(const State& s, std::vector<State>& out) const;
    // The agent of each successor of s, in order, without keeping the
    // successors (scratch holds each in turn).
    void enabledAgents(const State& s, std::vector<AgentId>& agents, State& scratch) const;
    // The successors of agent a alone, in order (scratch as above).
    void agentSuccessors(const State& s, AgentId a, std::vector<State>& out, State& scratch) const;
    // Every agent that has a step at s, enabled or not, with the step's
    // footprint (independence.cpp).
    void pending(const State& s, std::vector<PendingStep>& out) const;
    // Thread t's next step is control flow over its registers alone (a choice,
    // a loop's head or bound, a jump, a register test or assignment): it
    // commutes with every step of the others, which never disable it.
    bool controlStep(const State& s, int t) const;
    // The parts of thread t's machine, in the order successors() and pending()
    // list their steps: its program, then on the queue-pair machines its store
    // buffer and, per queue pair, the NIC's rules and its write-backs.
    enum class Part { Program, StoreBuffer, Nic, WriteBack };
    template <class Visit>
    void forEachPart(const State& s, int t, Visit visit) const {
        visit(Part::Program, -1);
        if (params_.family == MachineFamily::Sequential) return;
        visit(Part::StoreBuffer, -1);
        for (size_t q = 0; q < s.threads[t].queuePairs.size(); ++q) {
            visit(Part::Nic, static_cast<int>(q));
            visit(Part::WriteBack, static_cast<int>(q));
        }
    }
    // Tests only: pending() leaves out the accesses the mutant says commute.
    void mutate(IndependenceMutant mutant) { mutant_ = mutant; }
    // Final in the sense of §7: programs done, store buffers and queue pairs
    // drained, wbL holding only completion notifications.
    bool isFinal(const State& s) const;
    bool programsDone(const State& s) const;

private:
    // The successors being listed, each with its agent if asked. With a
    // scratch state, only the agent `only`'s successors are kept; the others
    // are computed into the scratch, which takes thread t's part of s and the
    // shared memory and locks (all a step of t changes; assigned, so it
    // reuses its memory).
    struct Out {
        std::vector<State>& states;
        std::vector<AgentId>* agents;
        State* scratch = nullptr;
        AgentId only = 0;
        int thread = 0;  // whose steps are being listed
        State& add(const State& s, AgentId agent) {
            if (agents) agents->push_back(agent);
            if (scratch && agent != only) {
                if (scratch->threads.size() != s.threads.size()) *scratch = s;
                scratch->memory = s.memory;
                scratch->atomicLocks = s.atomicLocks;
                scratch->threads[thread] = s.threads[thread];
                return *scratch;
            }
            states.push_back(s);
            return states.back();
        }
    };
    void threadSuccessors(const State& s, int t, Out& out) const;

    void programSteps(const State& s, int t, Out& out) const;
    void slotReadSteps(const State& s, int t, const Instr& in, Out& out) const;
    void stayInLoop(State& n, int t, const Instr& in) const;
    void leaveLoop(State& n, int t, const Instr& in) const;
    bool iterate(ThreadState& nt, int t, int loop) const;
    void jumpIf(State& n, int t, const Instr& in) const;
    void remoteRmwStep(const State& s, int t, const Instr& in, State& n) const;
    bool pollable(const State& s, int t, const Instr& in) const;
    void popCompletion(State& n, int t, const Instr& in) const;
    void lockedStep(const State& s, int t, const Instr& in, State& n) const;
    void casStep(const State& s, int t, const Instr& in, State& n) const;
    void nicStep(const State& s, int t, const Instr& in, State& n) const;
    void storeBufferSteps(const State& s, int t, Out& out) const;
    void concreteSteps(const State& s, int t, int q, Out& out) const;
    void simplifiedSteps(const State& s, int t, int q, Out& out) const;
    void writeBackSteps(const State& s, int t, int q, Out& out) const;
    // Not recording: the serial of an entry thread t puts in its store buffer
    // (4 numbers each: a request's entries number on from it, following()).
    int serial(State& n, int t) const { return 4 * n.threads[t].issued++; }
    // The number of the entry a NIC request's entry e turns into (an ACK, a CN): the next.
    int following(const Entry& e) const { return record_ ? -1 : e.event + 1; }

    // pending(), by part of a thread (independence.cpp).
    void programFootprint(const State& s, int t, std::vector<PendingStep>& out) const;
    void storeBufferFootprint(const State& s, int t, std::vector<PendingStep>& out) const;
    void concreteFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const;
    void simplifiedFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const;
    void writeBackFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const;
    bool mutantDrops(AgentId agent, const Access& a) const;
    void readsPendingLocalWrites(Footprint& f, int t, int q, int loc) const;
    void readsPendingRemoteWrites(Footprint& f, int t, int q, int loc) const;
    void writesPendingLocalWrite(Footprint& f, int t, int q, int loc) const;

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
    bool record_;
    ObjectSpace objects_;
    IndependenceMutant mutant_ = IndependenceMutant::None;
};

}  // namespace rdmacheck::machine
