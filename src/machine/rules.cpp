#include "rules.hpp"

#include <algorithm>
#include <numeric>

#include "rdmacheck/arith.hpp"

namespace rdmacheck::machine {

namespace {

using Kind = Entry::Kind;

// A value computed for an instruction; one outside 64 bits is an error at the
// instruction, as in the declarative engine.
template <class Compute>
long long atInstruction(const Instr& in, Compute compute) {
    try {
        return compute();
    } catch (const ArithmeticOverflow& x) {
        throw InputError(in.where, x.what());
    }
}

long long evaluate(const Instr& in, const CompiledExpr& e, const ThreadState& ts) {
    return atInstruction(in, [&] { return e.eval(ts.slots, ts.registers); });
}

bool onlyCompletions(const Queue& q) {
    return std::all_of(q.begin(), q.end(), [](const Entry& e) { return e.kind == Kind::Completion; });
}

// (M ◁ q)(loc): the newest write of that kind to loc in q, else memory (the
// store-buffer lookup of §3, and the no-PCIe lookups of §4.1).
ReadSource newestPendingWrite(const Queue& q, Kind kind, int loc, const ReadSource& memory) {
    for (auto it = q.rbegin(); it != q.rend(); ++it)
        if (it->kind == kind && it->loc == loc) return {it->value, it->event};
    return memory;
}

Entry entry(Kind kind, int loc, long long value, int event = -1) {
    Entry e;
    e.kind = kind;
    e.loc = loc;
    e.value = value;
    e.event = event;
    return e;
}

// The k-th event after the first of e's call: a call's events get consecutive ids.
int callEvent(const Entry& e, int k) { return e.event < 0 ? -1 : e.event + k; }

Entry completion(int event) { return entry(Kind::Completion, -1, 0, event); }

void popHead(Queue& q) { q.erase(q.begin()); }

// G6 / S-WBL act on the oldest entry that is not a CN.
int oldestNonCompletion(const Queue& q) {
    for (size_t i = 0; i < q.size(); ++i)
        if (q[i].kind != Kind::Completion) return static_cast<int>(i);
    return -1;
}

}  // namespace

namespace {

ObjectSpace objectsOf(const Program& program) {
    std::vector<int> queuePairs;
    for (const ThreadCode& tc : program.threads) queuePairs.push_back(static_cast<int>(tc.remoteNodes.size()));
    return ObjectSpace(static_cast<int>(program.locations.size()), program.nodes, queuePairs);
}

}  // namespace

Rules::Rules(const Program& program, const MachineParams& params, MachineKind kind, int unroll, bool record)
    : program_(program), params_(params), kind_(kind), unroll_(unroll), record_(record), objects_(objectsOf(program)) {}

State Rules::initial() const {
    State s;
    for (const Location& l : program_.locations) s.memory.push_back(l.init);
    for (const ThreadCode& tc : program_.threads) {
        ThreadState ts;
        size_t slots = 0;
        for (const Instr& in : tc.code) slots = std::max(slots, in.slots.size());
        ts.slots.assign(slots, 0);
        ts.loops.assign(tc.loops, 0);
        ts.registers = tc.registerInit;
        ts.queuePairs.resize(tc.remoteNodes.size());
        s.threads.push_back(std::move(ts));
    }
    if (params_.remoteAtomics) s.atomicLocks.assign(program_.nodes + 1, false);
    if (record_) {  // memory holds the initial writes, whose ids are the locations'
        Tracking tracking;
        tracking.writers.resize(s.memory.size());
        std::iota(tracking.writers.begin(), tracking.writers.end(), 0);
        tracking.nextEvent = static_cast<int>(s.memory.size());
        s.tracking = TrackingPtr(std::move(tracking));
    }
    return s;
}

int Rules::queuePairIndex(int t, int node) const {
    const auto& nodes = program_.threads[t].remoteNodes;
    return static_cast<int>(std::lower_bound(nodes.begin(), nodes.end(), node) - nodes.begin());
}

ReadSource Rules::memoryAt(const State& s, int loc) const {
    return {s.memory[loc], record_ ? s.tracking->writers[loc] : -1};
}

// (M ◁ B(t))(loc): the newest buffered CPU write to loc, else memory (§3).
ReadSource Rules::cpuRead(const State& s, int t, int loc) const {
    return newestPendingWrite(s.threads[t].storeBuffer, Kind::Write, loc, memoryAt(s, loc));
}

void Rules::cpuWrite(State& s, int t, int loc, long long value, int event) const {
    if (params_.family == MachineFamily::Sequential) {
        store(s, loc, value, event);
    } else {
        s.threads[t].storeBuffer.push_back(entry(Kind::Write, loc, value, record_ ? event : serial(s, t)));  // C-W
    }
}

// The value a put's NIC local read takes (P1 / S-PLR; P1' / S-PLR without PCIe).
ReadSource Rules::putValue(const State& s, const QueuePair& qp, const Entry& put) const {
    // A put of a constant reads a location nobody writes (write -1: its initial write).
    if (put.source < 0) return {put.value, -1};
    const ReadSource memory = memoryAt(s, put.source);
    return params_.pcie ? memory : newestPendingWrite(qp.buffers[WbL], Kind::GetValue, put.source, memory);
}

// The value a get's NIC remote read takes (G3 / S-GRR; G3' / S-GRR without PCIe).
ReadSource Rules::getValue(const State& s, const QueuePair& qp, const Entry& get) const {
    const ReadSource memory = memoryAt(s, get.source);
    return params_.pcie ? memory : newestPendingWrite(qp.buffers[WbR], Kind::PutValue, get.source, memory);
}

int Rules::issue(State& n, int t, EventKind kind, int location, int remote, int call) const {
    if (!record_) return -1;
    RunRecord r;
    r.kind = kind;
    r.event = n.tracking->nextEvent++;
    r.thread = t;
    r.pc = n.threads[t].pc;
    r.location = location;
    r.remote = remote;
    r.call = call < 0 ? r.event : call;
    n.tracking->records.push_back(r);
    return r.event;
}

// A get issues nrR then nlW, a put nlR (of the hidden location for a constant)
// then nrW, as one call; returns the first.
int Rules::issueNicCall(State& n, int t, const Instr& in) const {
    if (in.op == Instr::Op::Get) {
        const int read = issue(n, t, EventKind::NRR, in.source, in.node);
        issue(n, t, EventKind::NLW, in.loc, in.node, read);
        return read;
    }
    const int read = issue(n, t, EventKind::NLR, in.source < 0 ? in.hidden : in.source, in.node);
    issue(n, t, EventKind::NRW, in.loc, in.node, read);
    return read;
}

void Rules::read(State& n, int event, const ReadSource& from) const {
    if (!record_) return;
    RunRecord r;
    r.what = RunRecord::What::Read;
    r.event = event;
    r.source = from.write;
    r.value = from.value;
    n.tracking->records.push_back(r);
}

// An lR of thread t (an expression's slot, assume, while, register load).
void Rules::cpuReadEvent(State& n, int t, int loc, const ReadSource& from) const {
    read(n, issue(n, t, EventKind::LR, loc, 0), from);
}

void Rules::noteWrite(State& n, int event, long long value) const {
    if (!record_) return;
    RunRecord r;
    r.what = RunRecord::What::Write;
    r.event = event;
    r.value = value;
    n.tracking->records.push_back(r);
}

// A write reaching memory.
void Rules::store(State& n, int loc, long long value, int event) const {
    n.memory[loc] = value;
    if (!record_) return;
    n.tracking->writers[loc] = event;
    noteWrite(n, event, value);
}

void Rules::advance(ThreadState& ts) const {
    ++ts.pc;
    ts.slotsRead = 0;
    std::fill(ts.slots.begin(), ts.slots.end(), 0);
    ts.phase = 0;
}

bool Rules::programsDone(const State& s) const {
    for (size_t t = 0; t < s.threads.size(); ++t)
        if (s.threads[t].pc < static_cast<int>(program_.threads[t].code.size())) return false;
    return true;
}

bool Rules::isFinal(const State& s) const {
    if (!programsDone(s)) return false;
    for (const ThreadState& ts : s.threads) {
        if (!ts.storeBuffer.empty()) return false;
        for (const QueuePair& qp : ts.queuePairs) {
            for (int b = ReqL; b < WbL; ++b)
                if (!qp.buffers[b].empty()) return false;
            if (!onlyCompletions(qp.buffers[WbL])) return false;
        }
    }
    return true;
}

bool Rules::controlStep(const State& s, int t) const {
    const ThreadState& ts = s.threads[t];
    const ThreadCode& tc = program_.threads[t];
    if (ts.pc >= static_cast<int>(tc.code.size())) return false;
    switch (tc.code[ts.pc].op) {
        case Instr::Op::Branch:
        case Instr::Op::LoopEnter:
        case Instr::Op::LoopHead:
        case Instr::Op::Jump:
        case Instr::Op::RegTest:
        case Instr::Op::JumpIf:
        case Instr::Op::RegAssign: return true;
        case Instr::Op::WhileHead: return tc.code[ts.pc].loc < 0;  // over constants
        default: return false;
    }
}

void Rules::successors(const State& s, std::vector<State>& states) const {
    Out out{states, nullptr};
    for (size_t t = 0; t < s.threads.size(); ++t) threadSuccessors(s, static_cast<int>(t), out);
}

void Rules::enabledAgents(const State& s, std::vector<AgentId>& agents, State& scratch) const {
    std::vector<State> none;
    Out out{none, &agents, &scratch, ~AgentId(0)};  // no agent has that id: every step goes to scratch
    for (size_t t = 0; t < s.threads.size(); ++t) threadSuccessors(s, static_cast<int>(t), out);
}

void Rules::agentSuccessors(const State& s, AgentId a, std::vector<State>& states, State& scratch) const {
    Out out{states, nullptr, &scratch, a};
    threadSuccessors(s, threadOf(a), out);
}

void Rules::threadSuccessors(const State& s, int t, Out& out) const {
    out.thread = t;
    forEachPart(s, t, [&](Part part, int q) {
        switch (part) {
            case Part::Program: programSteps(s, t, out); return;
            case Part::StoreBuffer: storeBufferSteps(s, t, out); return;
            case Part::Nic:
                if (kind_ == MachineKind::Concrete) concreteSteps(s, t, q, out);
                else simplifiedSteps(s, t, q, out);
                return;
            case Part::WriteBack: writeBackSteps(s, t, q, out); return;
        }
    });
}

void Rules::programSteps(const State& s, int t, Out& out) const {
    const ThreadState& ts = s.threads[t];
    const ThreadCode& tc = program_.threads[t];
    if (ts.pc >= static_cast<int>(tc.code.size())) return;
    const Instr& in = tc.code[ts.pc];
    if (ts.slotsRead + 1 != (1u << in.slots.size())) {
        slotReadSteps(s, t, in, out);
        return;
    }
    auto next = [&]() -> State& { return out.add(s, agentId(t, Role::Program)); };
    switch (in.op) {
        case Instr::Op::Assign: {
            State& n = next();
            const long long value = evaluate(in, in.expr, ts);
            cpuWrite(n, t, in.loc, value, issue(n, t, EventKind::LW, in.loc, 0));
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::Cas:
            if (ts.storeBuffer.empty()) casStep(s, t, in, next());  // C-CASS and C-CASF need it empty
            return;
        case Instr::Op::WriteCarry: {
            State& n = next();
            cpuWrite(n, t, in.loc, ts.carry, issue(n, t, EventKind::LW, in.loc, 0));
            n.threads[t].carry = 0;
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::RegTest:
            if (holds(in.compare, evaluate(in, in.expr, ts), evaluate(in, in.expr2, ts))) advance(next().threads[t]);
            return;
        case Instr::Op::Assume: {
            const ReadSource r = cpuRead(s, t, in.loc);
            if (!holds(in.compare, r.value, in.value)) return;
            State& n = next();
            cpuReadEvent(n, t, in.loc, r);
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::Get:
        case Instr::Op::Put: nicStep(s, t, in, next()); return;
        case Instr::Op::RCas:
        case Instr::Op::RFaa: remoteRmwStep(s, t, in, next()); return;
        case Instr::Op::Poll: {
            if (!pollable(s, t, in)) return;
            State& n = next();
            popCompletion(n, t, in);
            issue(n, t, EventKind::P, -1, in.node);
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::RFence: {
            State& n = next();
            if (params_.family == MachineFamily::QueuePairs) {  // C-RF
                Entry e;
                e.kind = Kind::RFence;
                if (!record_) e.event = serial(n, t);
                e.node = in.node;
                n.threads[t].storeBuffer.push_back(e);
            }
            issue(n, t, EventKind::NF, -1, in.node);
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::MFence: {
            if (!ts.storeBuffer.empty()) return;  // C-MF
            State& n = next();
            issue(n, t, EventKind::F, -1, 0);
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::Branch:
            for (int target : in.targets) next().threads[t].pc = target;
            return;
        case Instr::Op::LoopEnter: {
            State& n = next();
            n.threads[t].loops[in.loop] = 0;
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::LoopHead:
            leaveLoop(next(), t, in);
            stayInLoop(next(), t, in);
            return;
        case Instr::Op::WhileHead: {
            State& n = next();
            bool stay = false;
            if (in.loc < 0) {
                stay = holds(in.compare, evaluate(in, in.expr, ts), evaluate(in, in.expr2, ts));
            } else {
                const ReadSource r = cpuRead(s, t, in.loc);
                cpuReadEvent(n, t, in.loc, r);
                stay = holds(in.compare, r.value, in.value);
            }
            if (stay) {
                stayInLoop(n, t, in);
            } else {
                leaveLoop(n, t, in);
            }
            return;
        }
        case Instr::Op::Jump: next().threads[t].pc = in.targets[0]; return;
        case Instr::Op::JumpIf: jumpIf(next(), t, in); return;
        case Instr::Op::RegAssign: {
            State& n = next();
            n.threads[t].registers[in.reg] = evaluate(in, in.expr, ts);
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::RegLoad: {
            State& n = next();
            const ReadSource r = cpuRead(s, t, in.loc);
            cpuReadEvent(n, t, in.loc, r);
            n.threads[t].registers[in.reg] = r.value;
            advance(n.threads[t]);
            return;
        }
        case Instr::Op::Xchg:
        case Instr::Op::LockedUpdate:
            // A locked read-modify-write: like a successful CAS, it needs an empty store buffer.
            if (ts.storeBuffer.empty()) lockedStep(s, t, in, next());
            return;
    }
}

// Expression rewriting: read any not-yet-read location of the instruction
// (lR), in any order.
void Rules::slotReadSteps(const State& s, int t, const Instr& in, Out& out) const {
    for (size_t k = 0; k < in.slots.size(); ++k) {
        if (s.threads[t].slotsRead & (1u << k)) continue;
        State& n = out.add(s, agentId(t, Role::Slot, 0, static_cast<int>(k)));
        const ReadSource r = cpuRead(s, t, in.slots[k]);
        n.threads[t].slots[k] = r.value;
        n.threads[t].slotsRead |= 1u << k;
        cpuReadEvent(n, t, in.slots[k], r);
    }
}

// Another iteration of the loop, or the thread stops at the unroll bound.
void Rules::stayInLoop(State& n, int t, const Instr& in) const {
    ThreadState& nt = n.threads[t];
    if (iterate(nt, t, in.loop)) advance(nt);
}

// Counts one more iteration of `loop`; false when the bound stops the thread here instead.
bool Rules::iterate(ThreadState& nt, int t, int loop) const {
    if (nt.loops[loop] >= unroll_) {
        nt.cutAt = nt.pc;
        nt.pc = static_cast<int>(program_.threads[t].code.size());
        return false;
    }
    ++nt.loops[loop];
    return true;
}

void Rules::leaveLoop(State& n, int t, const Instr& in) const {
    n.threads[t].loops[in.loop] = 0;
    n.threads[t].pc = in.targets[0];
}

// An X86 jump, taken or not; the unroll bound stops the thread at a jump back past it.
void Rules::jumpIf(State& n, int t, const Instr& in) const {
    ThreadState& nt = n.threads[t];
    if (!holds(in.compare, evaluate(in, in.expr, nt), evaluate(in, in.expr2, nt))) return advance(nt);
    if (in.loop < 0 || iterate(nt, t, in.loop)) nt.pc = in.targets[0];
}

// C-RCAS / C-RFAA, into n (a copy of s). Only the simplified machine runs them
// (explore() checks).
void Rules::remoteRmwStep(const State& s, int t, const Instr& in, State& n) const {
    Entry e;
    e.kind = in.op == Instr::Op::RCas ? Kind::RCas : Kind::RFaa;
    e.node = in.node;
    e.loc = in.loc;
    e.source = in.source;
    e.value = evaluate(in, in.expr, s.threads[t]);
    if (in.op == Instr::Op::RCas) e.newValue = evaluate(in, in.expr2, s.threads[t]);
    // narR, narW (a failed RCAS never writes it), nlW of the old value: one call.
    e.event = record_ ? issue(n, t, EventKind::NAR, in.source, in.node) : serial(n, t);
    issue(n, t, EventKind::NAW, in.source, in.node, e.event);
    issue(n, t, EventKind::NLW, in.loc < 0 ? in.hidden : in.loc, in.node, e.event);
    n.threads[t].storeBuffer.push_back(e);
    advance(n.threads[t]);
}

// C-POLL: the head of wbL is a completion notification (the sequential
// machine has no queue pairs, so a poll always passes).
bool Rules::pollable(const State& s, int t, const Instr& in) const {
    if (params_.family != MachineFamily::QueuePairs) return true;
    const Queue& wbL = s.threads[t].queuePairs[queuePairIndex(t, in.node)].buffers[WbL];
    return !wbL.empty() && wbL.front().kind == Kind::Completion;
}

void Rules::popCompletion(State& n, int t, const Instr& in) const {
    if (params_.family == MachineFamily::QueuePairs) popHead(n.threads[t].queuePairs[queuePairIndex(t, in.node)].buffers[WbL]);
}

// XCHG (the register's value in, the old value to the register) or LOCK ADD
// or XOR (the old value plus, or xor, the operand in, and to the flags
// register): one CAS event.
void Rules::lockedStep(const State& s, int t, const Instr& in, State& n) const {
    const int cas = issue(n, t, EventKind::CAS, in.loc, 0);
    read(n, cas, memoryAt(s, in.loc));
    const long long old = s.memory[in.loc];
    const bool exchange = in.op == Instr::Op::Xchg;
    auto update = [&] {
        const long long operand = evaluate(in, in.expr, s.threads[t]);
        if (in.xorUpdate) return arith::bitXor(old, operand);
        return program_.wraps32 ? arith::wrap32(arith::add(old, operand)) : arith::add(old, operand);
    };
    const long long stored = exchange ? s.threads[t].registers[in.reg] : atInstruction(in, update);
    store(n, in.loc, stored, cas);
    if (in.reg >= 0) n.threads[t].registers[in.reg] = exchange ? old : stored;
    advance(n.threads[t]);
}

// C-CASS / C-CASF, into n (a copy of s): succeeds iff memory holds the expected
// value. A success is one CAS event; a failure a fence and a read, one call, as
// unfold() has them.
void Rules::casStep(const State& s, int t, const Instr& in, State& n) const {
    const ThreadState& ts = s.threads[t];
    const ReadSource old = memoryAt(s, in.loc);
    if (old.value == evaluate(in, in.expr, ts)) {
        const int cas = issue(n, t, EventKind::CAS, in.loc, 0);
        read(n, cas, old);
        store(n, in.loc, evaluate(in, in.expr2, ts), cas);
    } else {
        const int fence = issue(n, t, EventKind::F, -1, 0);
        read(n, issue(n, t, EventKind::LR, in.loc, 0, fence), old);
    }
    n.threads[t].carry = old.value;
    advance(n.threads[t]);
}

// C-GET / C-PUT into n (a copy of s); on the sequential machine, the read, then
// the write in a second step.
void Rules::nicStep(const State& s, int t, const Instr& in, State& n) const {
    ThreadState& nt = n.threads[t];
    if (params_.family == MachineFamily::QueuePairs) {
        Entry e;
        e.kind = in.op == Instr::Op::Get ? Kind::Get : Kind::Put;
        e.node = in.node;
        e.loc = in.loc;
        e.source = in.source;
        e.value = in.value;
        e.event = record_ ? issueNicCall(n, t, in) : serial(n, t);
        nt.storeBuffer.push_back(e);
        advance(nt);
    } else if (nt.phase == 0) {
        const int first = issueNicCall(n, t, in);
        const ReadSource value = in.source < 0 ? ReadSource{in.value, -1} : memoryAt(s, in.source);
        read(n, first, value);
        nt.carry = value.value;
        nt.carryEvent = first < 0 ? -1 : first + 1;
        nt.phase = 1;
    } else {
        store(n, in.loc, nt.carry, nt.carryEvent);
        nt.carry = 0;
        nt.carryEvent = -1;
        advance(nt);
    }
}

// D-W and D-RC: the store buffer's head reaches memory or its queue pair.
void Rules::storeBufferSteps(const State& s, int t, Out& out) const {
    const Queue& sb = s.threads[t].storeBuffer;
    if (sb.empty()) return;
    const Entry head = sb.front();
    State& n = out.add(s, agentId(t, Role::StoreBuffer));
    ThreadState& nt = n.threads[t];
    popHead(nt.storeBuffer);
    if (head.kind == Kind::Write) {
        store(n, head.loc, head.value, head.event);
    } else {
        nt.queuePairs[queuePairIndex(t, head.node)].buffers[ReqL].push_back(head);  // reqL, or the pipe
    }
}

// G1-G6, P1-P5 and RF of queue pair q (G6 and P3 in writeBackSteps).
void Rules::concreteSteps(const State& s, int t, int q, Out& out) const {
    const QueuePair& qp = s.threads[t].queuePairs[q];
    State* last = nullptr;  // the successor next() made
    auto next = [&](Role role, int index = 0) -> QueuePair& {
        last = &out.add(s, agentId(t, role, q, index));
        return last->threads[t].queuePairs[q];
    };
    auto moveHead = [&](Role role, Buffer from, Buffer to) {
        QueuePair& n = next(role);
        n.buffers[to].push_back(n.buffers[from].front());
        popHead(n.buffers[from]);
    };
    const Queue& reqL = qp.buffers[ReqL];
    const Queue& inR = qp.buffers[InR];
    const Queue& outR = qp.buffers[OutR];
    const Queue& rspL = qp.buffers[RspL];

    if (!reqL.empty()) {
        const Entry& head = reqL.front();
        if (head.kind == Kind::Get) {
            moveHead(Role::ReqLHead, ReqL, InR);  // G1
        } else if (head.kind == Kind::Put) {
            if (!params_.pcie || onlyCompletions(qp.buffers[WbL])) {  // P1 (P1' without PCIe)
                QueuePair& n = next(Role::ReqLHead);
                const ReadSource value = putValue(s, qp, head);
                read(*last, head.event, value);
                n.buffers[InR].push_back(entry(Kind::PutValue, head.loc, value.value, callEvent(head, 1)));
                popHead(n.buffers[ReqL]);
            }
        } else if (head.kind == Kind::RFence && inR.empty() && outR.empty() && rspL.empty()) {
            popHead(next(Role::ReqLHead).buffers[ReqL]);  // RF
        }
    }
    if (!inR.empty()) {
        if (inR.front().kind == Kind::Get) {
            moveHead(Role::InRHead, InR, OutR);  // G2
        } else {  // P2: PUTV to wbR, and an ACK to outR
            QueuePair& n = next(Role::InRHead);
            n.buffers[WbR].push_back(n.buffers[InR].front());
            n.buffers[OutR].push_back(entry(Kind::Ack, -1, 0, following(n.buffers[InR].front())));
            popHead(n.buffers[InR]);
        }
    }
    if (!params_.pcie || qp.buffers[WbR].empty()) {
        for (size_t i = 0; i < outR.size(); ++i) {  // G3: any GET in outR
            if (outR[i].kind != Kind::Get) continue;
            const ReadSource value = getValue(s, qp, outR[i]);
            next(Role::Entry, outR[i].event).buffers[OutR][i] =
                entry(Kind::GetValue, outR[i].loc, value.value, callEvent(outR[i], 1));
            read(*last, outR[i].event, value);
        }
    }
    if (!outR.empty() && outR.front().kind != Kind::Get) moveHead(Role::OutRHead, OutR, RspL);  // G4 (GETV), P4 (ACK)
    if (!rspL.empty()) {
        const Entry head = rspL.front();
        QueuePair& n = next(Role::RspLHead);
        popHead(n.buffers[RspL]);
        if (head.kind == Kind::GetValue) n.buffers[WbL].push_back(head);  // G5: the write, then its CN
        n.buffers[WbL].push_back(completion(following(head)));              // P5: the ACK's CN
    }
}

// The simplified rules S-* of queue pair q (S-WBR, S-WBL in writeBackSteps),
// and the remote RMW rules of §6: R-CASF, R-CASS and R-FAA read memory and
// test or take a lock that other RMWs test; R-AW moves the atomic write to wbR.
void Rules::simplifiedSteps(const State& s, int t, int q, Out& out) const {
    const QueuePair& qp = s.threads[t].queuePairs[q];
    const Queue& pipe = qp.buffers[Pipe];
    if (pipe.empty()) return;
    State* last = nullptr;  // the successor next() made
    auto next = [&](Role role, int index = 0) -> QueuePair& {
        last = &out.add(s, agentId(t, role, q, index));
        return last->threads[t].queuePairs[q];
    };
    // The "older entries" conditions: so far only {GET, GETV, ACK}; so far no PUT and no RF
    // (S-PLR's set admits RCAS, RFAA and AW).
    bool olderOnlyGetsAndAcks = true;
    bool olderNoPutOrFence = true;
    for (size_t i = 0; i < pipe.size(); ++i) {
        const Entry& e = pipe[i];
        if (e.kind == Kind::Put && olderNoPutOrFence && (!params_.pcie || onlyCompletions(qp.buffers[WbL]))) {
            const ReadSource value = putValue(s, qp, e);
            next(Role::Entry, e.event).buffers[Pipe][i] = entry(Kind::PutValue, e.loc, value.value, callEvent(e, 1));  // S-PLR
            read(*last, e.event, value);
        } else if (e.kind == Kind::PutValue && olderOnlyGetsAndAcks) {
            QueuePair& n = next(Role::Entry, e.event);  // S-PRW
            n.buffers[WbR].push_back(e);
            n.buffers[Pipe][i] = entry(Kind::Ack, -1, 0, following(e));
        } else if (e.kind == Kind::Get && olderOnlyGetsAndAcks && (!params_.pcie || qp.buffers[WbR].empty())) {
            const ReadSource value = getValue(s, qp, e);
            next(Role::Entry, e.event).buffers[Pipe][i] = entry(Kind::GetValue, e.loc, value.value, callEvent(e, 1));  // S-GRR
            read(*last, e.event, value);
        } else if ((e.kind == Kind::RCas || e.kind == Kind::RFaa) && olderOnlyGetsAndAcks &&
                   qp.buffers[WbR].empty() && !s.atomicLocks[e.node]) {
            // R-CASF, R-CASS, R-FAA (the wbR premise is PCIe's; §6 has no other variant):
            // GETV of the old value, and for a write an AW older than it, holding A(n(y)).
            const ReadSource old = memoryAt(s, e.source);
            QueuePair& n = next(Role::Entry, e.event);
            read(*last, e.event, old);
            n.buffers[Pipe][i] = entry(Kind::GetValue, e.loc, old.value, callEvent(e, 2));
            if (e.kind == Kind::RFaa || old.value == e.value) {
                const long long written = e.kind == Kind::RFaa ? arith::add(old.value, e.value) : e.newValue;
                Entry write = entry(Kind::AtomicWrite, e.source, written, callEvent(e, 1));
                write.node = e.node;
                n.buffers[Pipe].insert(n.buffers[Pipe].begin() + static_cast<long>(i), write);
                last->atomicLocks[e.node] = true;
            }
        } else if (e.kind == Kind::AtomicWrite && olderOnlyGetsAndAcks) {
            QueuePair& n = next(Role::Entry, e.event);  // R-AW: to wbR, and unlike S-PRW no ACK
            n.buffers[WbR].push_back(e);
            n.buffers[Pipe].erase(n.buffers[Pipe].begin() + static_cast<long>(i));
        }
        if (e.kind == Kind::Put || e.kind == Kind::RFence) olderNoPutOrFence = false;
        if (e.kind != Kind::Get && e.kind != Kind::GetValue && e.kind != Kind::Ack) olderOnlyGetsAndAcks = false;
    }
    const Entry& head = pipe.front();
    if (head.kind == Kind::RFence || head.kind == Kind::Ack || head.kind == Kind::GetValue) {
        QueuePair& n = next(Role::PipeHead);
        popHead(n.buffers[Pipe]);  // S-RF
        // S-GLW: the write (dropped for an RMW's `_`), then its CN. Nothing reads
        // `_`, so a recorded run has its write take effect here, before the CN.
        if (head.kind == Kind::GetValue && head.loc >= 0) n.buffers[WbL].push_back(head);
        if (head.kind == Kind::GetValue && head.loc < 0) noteWrite(*last, head.event, head.value);
        if (head.kind != Kind::RFence) n.buffers[WbL].push_back(completion(following(head)));  // S-ACK, S-GLW
    }
}

// P3 / S-WBR, R-AWB and G6 / S-WBL: pending NIC writes reach memory.
void Rules::writeBackSteps(const State& s, int t, int q, Out& out) const {
    const QueuePair& qp = s.threads[t].queuePairs[q];
    if (!qp.buffers[WbR].empty()) {
        State& n = out.add(s, agentId(t, Role::WbRHead, q));
        Queue& wbR = n.threads[t].queuePairs[q].buffers[WbR];
        store(n, wbR.front().loc, wbR.front().value, wbR.front().event);
        if (wbR.front().kind == Kind::AtomicWrite) n.atomicLocks[wbR.front().node] = false;  // R-AWB
        popHead(wbR);
    }
    const int i = oldestNonCompletion(qp.buffers[WbL]);
    if (i >= 0) {
        State& n = out.add(s, agentId(t, Role::WbLOldest, q));
        Queue& wbL = n.threads[t].queuePairs[q].buffers[WbL];
        store(n, wbL[i].loc, wbL[i].value, wbL[i].event);
        wbL.erase(wbL.begin() + i);
    }
}

}  // namespace rdmacheck::machine
