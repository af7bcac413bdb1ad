// The footprint of every pending step (independence.hpp): what the rules of
// rules.cpp read and write, rule by rule, whether the step is enabled or not.
// doc/machines.md says why each is what it is.
#include "independence.hpp"

#include <algorithm>

#include "rules.hpp"

namespace rdmacheck::machine {

using Kind = Entry::Kind;

ObjectSpace::ObjectSpace(int locations, int nodes, const std::vector<int>& queuePairsPerThread)
    : locations_(locations) {
    uint64_t next = static_cast<uint64_t>(locations + nodes + 1);
    for (int queuePairs : queuePairsPerThread) {
        base_.push_back(next);
        next += 2 + locations + perQueuePair() * queuePairs;
    }
}

void ObjectSpace::readWholeStoreBuffer(int t, Footprint& f) const {
    f.push_back({storeBufferHead(t), false});
    f.push_back({storeBufferTail(t), false});
}

void ObjectSpace::readBuffer(int t, int q, int buffer, Footprint& f) const {
    f.push_back({head(t, q, buffer), false});
    f.push_back({tail(t, q, buffer), false});
}

void Rules::pending(const State& s, std::vector<PendingStep>& out) const {
    for (int t = 0; t < static_cast<int>(s.threads.size()); ++t) {
        forEachPart(s, t, [&](Part part, int q) {
            switch (part) {
                case Part::Program: programFootprint(s, t, out); return;
                case Part::StoreBuffer: storeBufferFootprint(s, t, out); return;
                case Part::Nic:
                    if (kind_ == MachineKind::Concrete) concreteFootprints(s, t, q, out);
                    else simplifiedFootprints(s, t, q, out);
                    return;
                case Part::WriteBack: writeBackFootprints(s, t, q, out); return;
            }
        });
    }
    if (mutant_ == IndependenceMutant::None) return;
    for (PendingStep& p : out) {
        Footprint& f = p.footprint;
        f.erase(std::remove_if(f.begin(), f.end(), [&](const Access& a) { return mutantDrops(p.agent, a); }), f.end());
    }
}

bool Rules::mutantDrops(AgentId agent, const Access& a) const {
    const Role role = roleOf(agent);
    const bool cpu = role == Role::Program || role == Role::Slot || role == Role::StoreBuffer;
    if (a.write) return false;
    switch (mutant_) {
        case IndependenceMutant::NicReadsCommute: return !cpu && objects_.isMemory(a.object);
        case IndependenceMutant::CpuReadsCommute: return cpu && objects_.isMemory(a.object);
        case IndependenceMutant::PremisesCommute: return !cpu && !objects_.isMemory(a.object) && !objects_.isCausal(a.object);
        default: return false;
    }
}

namespace {

// A step's footprint, built from its parts.
class StepFootprint {
public:
    StepFootprint(std::vector<PendingStep>& out, AgentId agent) : f_(out.emplace_back().footprint) {
        out.back().agent = agent;
    }
    StepFootprint& reads(uint64_t object) { return add(object, false); }
    StepFootprint& writes(uint64_t object) { return add(object, true); }
    Footprint& footprint() { return f_; }

private:
    StepFootprint& add(uint64_t object, bool write) {
        f_.push_back({object, write});
        return *this;
    }
    Footprint& f_;
};

}  // namespace

// A program step writes the thread's program state (pc, registers, loop
// counters, carry) and its slots, which it clears; a slot read reads which
// instruction is current. A CPU read reads memory and the store buffer's
// writes to its location; an entry joins the store buffer's tail (a CPU write
// goes to memory on the sequential machine).
void Rules::programFootprint(const State& s, int t, std::vector<PendingStep>& out) const {
    const ThreadState& ts = s.threads[t];
    const ThreadCode& tc = program_.threads[t];
    if (ts.pc >= static_cast<int>(tc.code.size())) return;
    const Instr& in = tc.code[ts.pc];
    const bool buffered = params_.family == MachineFamily::QueuePairs;
    auto cpuRead = [&](StepFootprint& f, int loc) {
        f.reads(objects_.memory(loc));
        if (buffered) f.reads(objects_.storeBufferWrites(t, loc));
    };
    auto enqueue = [&](StepFootprint& f) {  // the entry gets the thread's next serial
        f.writes(objects_.storeBufferTail(t)).writes(ObjectSpace::entry(t, 4 * ts.issued));
    };
    if (ts.slotsRead + 1 != (1u << in.slots.size())) {
        for (size_t k = 0; k < in.slots.size(); ++k) {
            if (ts.slotsRead & (1u << k)) continue;
            StepFootprint f(out, agentId(t, Role::Slot, 0, static_cast<int>(k)));
            f.reads(ObjectSpace::program(t)).writes(ObjectSpace::slot(t, static_cast<int>(k)));
            cpuRead(f, in.slots[k]);
        }
        return;
    }
    StepFootprint f(out, agentId(t, Role::Program));
    f.writes(ObjectSpace::program(t));
    for (size_t k = 0; k < in.slots.size(); ++k) f.writes(ObjectSpace::slot(t, static_cast<int>(k)));
    switch (in.op) {
        case Instr::Op::Assign:
        case Instr::Op::WriteCarry:
            if (buffered) {
                enqueue(f);
                f.writes(objects_.storeBufferWrites(t, in.loc));
            } else {
                f.writes(objects_.memory(in.loc));
            }
            return;
        case Instr::Op::WhileHead:
            if (in.loc >= 0) cpuRead(f, in.loc);  // else a test of constants
            return;
        case Instr::Op::Assume:
        case Instr::Op::RegLoad: cpuRead(f, in.loc); return;
        case Instr::Op::Cas:
        case Instr::Op::Xchg:
        case Instr::Op::LockedUpdate:  // needs the store buffer empty, then reads and writes memory
            if (buffered) objects_.readWholeStoreBuffer(t, f.footprint());
            f.writes(objects_.memory(in.loc));
            return;
        case Instr::Op::MFence:
            if (buffered) objects_.readWholeStoreBuffer(t, f.footprint());
            return;
        case Instr::Op::Poll:  // consumes the CN at the head of wbL
            if (buffered) {
                const int q = queuePairIndex(t, in.node);
                const Queue& wbL = ts.queuePairs[q].buffers[WbL];
                f.writes(objects_.head(t, q, WbL));
                if (!wbL.empty()) f.writes(ObjectSpace::entry(t, wbL.front().event));
            }
            return;
        case Instr::Op::Get:
        case Instr::Op::Put:
            if (buffered) {
                enqueue(f);
            } else if (ts.phase == 0) {  // the sequential machine: the read, then the write
                if (in.source >= 0) f.reads(objects_.memory(in.source));
            } else {
                f.writes(objects_.memory(in.loc));
            }
            return;
        case Instr::Op::RCas:
        case Instr::Op::RFaa:
        case Instr::Op::RFence:
            if (buffered) enqueue(f);
            return;
        default: return;  // control flow: the program state only
    }
}

// D-W: a write reaches memory; D-RC: a request joins its queue pair's first buffer.
void Rules::storeBufferFootprint(const State& s, int t, std::vector<PendingStep>& out) const {
    const Queue& sb = s.threads[t].storeBuffer;
    if (sb.empty()) return;
    const Entry& head = sb.front();
    StepFootprint f(out, agentId(t, Role::StoreBuffer));
    f.writes(objects_.storeBufferHead(t)).writes(ObjectSpace::entry(t, head.event));
    if (head.kind == Kind::Write) {
        f.writes(objects_.storeBufferWrites(t, head.loc)).writes(objects_.memory(head.loc));
    } else {
        f.writes(objects_.tail(t, queuePairIndex(t, head.node), ReqL));
    }
}

// A step takes its entry from a buffer's head and appends to another's tail;
// both commute with the other end's steps whenever both are enabled (a FIFO
// that is not empty). A premise reads what it tests: PCIe's "wbR empty" the
// whole of wbR, its "wbL holds only CNs" the pending writes in wbL, RF's
// emptiness of the middle buffers. Each step writes the entries it changes.
void Rules::concreteFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const {
    const QueuePair& qp = s.threads[t].queuePairs[q];
    auto step = [&](Role role, const Entry& e, Buffer from) {
        StepFootprint f(out, agentId(t, role, q, role == Role::Entry ? e.event : 0));
        f.writes(ObjectSpace::entry(t, e.event));
        if (role != Role::Entry) f.writes(objects_.head(t, q, from));
        return f;
    };
    if (!qp.buffers[ReqL].empty()) {
        const Entry& head = qp.buffers[ReqL].front();
        StepFootprint f = step(Role::ReqLHead, head, ReqL);
        if (head.kind == Kind::Get) f.writes(objects_.tail(t, q, InR));  // G1
        if (head.kind == Kind::Put) {                                     // P1, P1'
            f.writes(objects_.tail(t, q, InR)).writes(ObjectSpace::entry(t, head.event + 1));
            readsPendingLocalWrites(f.footprint(), t, q, head.source);
            if (head.source >= 0) f.reads(objects_.memory(head.source));
        }
        if (head.kind == Kind::RFence)
            for (Buffer b : {InR, OutR, RspL}) objects_.readBuffer(t, q, b, f.footprint());
    }
    if (!qp.buffers[InR].empty()) {
        const Entry& head = qp.buffers[InR].front();
        StepFootprint f = step(Role::InRHead, head, InR);
        f.writes(objects_.tail(t, q, OutR));                                     // G2
        if (head.kind == Kind::PutValue)                                        // P2: and its ACK
            f.writes(objects_.tail(t, q, WbR)).writes(ObjectSpace::entry(t, head.event + 1))
                .writes(objects_.remoteWritesTo(t, q, head.loc));
    }
    const Queue& outR = qp.buffers[OutR];
    for (const Entry& e : outR) {
        if (e.kind != Kind::Get) continue;  // G3, G3'
        StepFootprint f = step(Role::Entry, e, OutR);
        f.writes(ObjectSpace::entry(t, e.event + 1)).reads(objects_.memory(e.source));
        readsPendingRemoteWrites(f.footprint(), t, q, e.source);
    }
    if (!outR.empty() && outR.front().kind != Kind::Get)
        step(Role::OutRHead, outR.front(), OutR).writes(objects_.tail(t, q, RspL));  // G4, P4
    if (!qp.buffers[RspL].empty()) {  // G5 (and its CN), P5 (the ACK's CN)
        const Entry& head = qp.buffers[RspL].front();
        StepFootprint f = step(Role::RspLHead, head, RspL);
        f.writes(objects_.tail(t, q, WbL)).writes(ObjectSpace::entry(t, head.event + 1));
        if (head.kind == Kind::GetValue) writesPendingLocalWrite(f.footprint(), t, q, head.loc);
    }
}

// The pipe's steps change their own entry in place, take its head or append
// to its tail; the "older entries" premises read the pipe's order, which only
// an RMW's atomic write, inserted older than its GETV, changes in a way that
// can disable them. The other reads are those of the concrete steps each
// merges (§5.1).
void Rules::simplifiedFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const {
    const Queue& pipe = s.threads[t].queuePairs[q].buffers[Pipe];
    auto step = [&](const Entry& e) {
        StepFootprint f(out, agentId(t, Role::Entry, q, e.event));
        f.reads(objects_.pipeOrder(t, q)).writes(ObjectSpace::entry(t, e.event));
        return f;
    };
    for (const Entry& e : pipe) {
        switch (e.kind) {
            case Kind::Put: {  // S-PLR
                StepFootprint f = step(e);
                f.writes(ObjectSpace::entry(t, e.event + 1));
                readsPendingLocalWrites(f.footprint(), t, q, e.source);
                if (e.source >= 0) f.reads(objects_.memory(e.source));
                break;
            }
            case Kind::PutValue:  // S-PRW: and its ACK
                step(e).writes(ObjectSpace::entry(t, e.event + 1)).writes(objects_.tail(t, q, WbR))
                    .writes(objects_.remoteWritesTo(t, q, e.loc));
                break;
            case Kind::AtomicWrite:  // R-AW
                step(e).writes(objects_.tail(t, q, WbR)).writes(objects_.remoteWritesTo(t, q, e.loc));
                break;
            case Kind::Get: {  // S-GRR
                StepFootprint f = step(e);
                f.writes(ObjectSpace::entry(t, e.event + 1)).reads(objects_.memory(e.source));
                readsPendingRemoteWrites(f.footprint(), t, q, e.source);
                break;
            }
            case Kind::RCas:
            case Kind::RFaa: {  // R-CASF, R-CASS, R-FAA: the AW and the GETV
                StepFootprint f = step(e);
                f.writes(objects_.pipeOrder(t, q)).writes(objects_.lock(e.node)).reads(objects_.memory(e.source));
                f.writes(ObjectSpace::entry(t, e.event + 1)).writes(ObjectSpace::entry(t, e.event + 2));
                objects_.readBuffer(t, q, WbR, f.footprint());
                break;
            }
            default: break;
        }
    }
    if (pipe.empty()) return;
    const Entry& head = pipe.front();
    if (head.kind == Kind::RFence || head.kind == Kind::Ack || head.kind == Kind::GetValue) {  // S-RF, S-ACK, S-GLW
        StepFootprint f(out, agentId(t, Role::PipeHead, q));
        f.writes(objects_.head(t, q, Pipe)).writes(ObjectSpace::entry(t, head.event));
        if (head.kind != Kind::RFence) f.writes(objects_.tail(t, q, WbL)).writes(ObjectSpace::entry(t, head.event + 1));
        if (head.kind == Kind::GetValue) writesPendingLocalWrite(f.footprint(), t, q, head.loc);
    }
}

// PCIe's premises read whether wbL holds a GETV, whether wbR is empty; without
// them the lookups read only the pending writes to the location.
void Rules::readsPendingLocalWrites(Footprint& f, int t, int q, int loc) const {
    if (params_.pcie) f.push_back({objects_.pendingLocalWrites(t, q), false});
    else if (loc >= 0) f.push_back({objects_.localWritesTo(t, q, loc), false});
}

void Rules::readsPendingRemoteWrites(Footprint& f, int t, int q, int loc) const {
    if (params_.pcie) objects_.readBuffer(t, q, WbR, f);
    else f.push_back({objects_.remoteWritesTo(t, q, loc), false});
}

// A GETV joining or leaving wbL (G5, S-GLW, G6, S-WBL); an RMW's `_` joins none.
void Rules::writesPendingLocalWrite(Footprint& f, int t, int q, int loc) const {
    if (loc < 0) return;
    f.push_back({objects_.pendingLocalWrites(t, q), true});
    f.push_back({objects_.localWritesTo(t, q, loc), true});
}

// P3 / S-WBR, R-AWB (which frees the lock) and G6 / S-WBL write memory; G6
// takes the oldest pending write of wbL, wherever it is.
void Rules::writeBackFootprints(const State& s, int t, int q, std::vector<PendingStep>& out) const {
    const QueuePair& qp = s.threads[t].queuePairs[q];
    if (!qp.buffers[WbR].empty()) {
        const Entry& head = qp.buffers[WbR].front();
        StepFootprint f(out, agentId(t, Role::WbRHead, q));
        f.writes(objects_.head(t, q, WbR)).writes(ObjectSpace::entry(t, head.event)).writes(objects_.memory(head.loc));
        f.writes(objects_.remoteWritesTo(t, q, head.loc));
        if (head.kind == Kind::AtomicWrite) f.writes(objects_.lock(head.node));
    }
    for (const Entry& e : qp.buffers[WbL]) {
        if (e.kind == Kind::Completion) continue;
        StepFootprint f(out, agentId(t, Role::WbLOldest, q));
        f.writes(ObjectSpace::entry(t, e.event)).writes(objects_.memory(e.loc));
        writesPendingLocalWrite(f.footprint(), t, q, e.loc);
        break;
    }
}

}  // namespace rdmacheck::machine
