#include "dependencies.hpp"

#include <algorithm>
#include <stdexcept>

namespace rdmacheck {

namespace {

std::vector<std::string> registersIn(const Expr& e) {
    std::vector<std::string> out;
    e.forEach([&](const Expr& x) {
        if (x.kind == Expr::Kind::Register) out.push_back(x.name);
    });
    return out;
}

// What the statement reads from registers: its expression's, and those its
// instruction reads besides (Stmt::alsoReads: SETNB's CF, the flags' operands).
std::vector<std::string> registersRead(const Stmt& st) {
    std::vector<std::string> read = registersIn(st.expr);
    read.insert(read.end(), st.alsoReads.begin(), st.alsoReads.end());
    return read;
}

// herd7 sorts each edge by the register read it leaves from: a read that is a
// "data port" (a locked instruction's operand, either side of XCHG, an
// update's read of its own location) gives data, any other gives addr (herd7
// 7.58 gives MOV [y],EAX addr). A locked instruction under rdmacheck's own
// models is one CAS event, whose read and write are the same event: no edge.
void addEdge(ThreadPath& path, int from, int to, bool dataPort) {
    if (from != to) (dataPort ? path.dataDependencies : path.addressDependencies).emplace_back(from, to);
}

// The events from `start` are those unfold makes for this instruction, in its order.
void expectEvents(const ThreadPath& path, int start, std::initializer_list<EventKind> kinds) {
    int e = start;
    for (EventKind k : kinds)
        if (e >= static_cast<int>(path.events.size()) || path.events[e++].kind != k)
            throw std::logic_error("RegisterFlow: not the events an X86 instruction makes");
}

}  // namespace

std::vector<int> RegisterFlow::loadsOf(const std::vector<std::string>& registers) const {
    std::vector<int> loads;
    for (const std::string& r : registers)
        if (auto it = loadsInto_.find(r); it != loadsInto_.end())
            loads.insert(loads.end(), it->second.begin(), it->second.end());
    std::sort(loads.begin(), loads.end());
    loads.erase(std::unique(loads.begin(), loads.end()), loads.end());
    return loads;
}

// X86 makes no branch event in herd7, so its ctrl is empty and jumps add nothing here.
void RegisterFlow::after(const Stmt& st, ThreadPath& path, size_t first) {
    const int start = static_cast<int>(first), last = static_cast<int>(path.events.size()) - 1;
    auto fromRegisters = [&](const std::vector<std::string>& registers, int to, bool dataPort) {
        for (int load : loadsOf(registers)) addEdge(path, load, to, dataPort);
    };
    switch (st.kind) {
        case Stmt::Kind::RegAssign: loadsInto_[st.result] = loadsOf(registersRead(st)); break;
        case Stmt::Kind::RegLoad: loadsInto_[st.result] = {start}; break;
        case Stmt::Kind::Assign: fromRegisters(registersRead(st), last, false); break;
        case Stmt::Kind::Xchg:  // the register's old value to the write; the read into the register
            fromRegisters({st.result}, last, true);
            loadsInto_[st.result] = {start};
            break;
        case Stmt::Kind::LockedUpdate:
        case Stmt::Kind::UnlockedUpdate: afterUpdate(st, path, start); break;
        case Stmt::Kind::MemoryMove:
            expectEvents(path, start, {EventKind::LR, EventKind::LW});
            addEdge(path, start, start + 1, false);
            break;
        case Stmt::Kind::MemoryExchange:  // reads of x and y, then writes of x and y
            expectEvents(path, start, {EventKind::LR, EventKind::LR, EventKind::LW, EventKind::LW});
            addEdge(path, start, start + 3, true);
            addEdge(path, start + 1, start + 2, true);
            break;
        default: break;
    }
}

// ADD, XOR, OR, INC, DEC of memory: its own read to its write (data), the
// operand's loads to the write (data under LOCK, else addr), and all of them
// into the flags (`result`). With a memory operand, its read comes first.
void RegisterFlow::afterUpdate(const Stmt& st, ThreadPath& path, int start) {
    const bool locked = st.kind == Stmt::Kind::LockedUpdate;
    const int last = static_cast<int>(path.events.size()) - 1;
    const std::vector<std::string> operands = registersIn(st.expr);
    std::vector<int> loads = loadsOf(operands);
    int read = start;
    if (!st.source.name.empty()) {
        expectEvents(path, start, {EventKind::LR, EventKind::LR, EventKind::LW});
        addEdge(path, start, last, locked);
        loads.push_back(read++);
    }
    addEdge(path, read, last, true);
    loads.push_back(read);
    for (int load : loadsOf(operands)) addEdge(path, load, last, locked);
    if (!st.result.empty()) loadsInto_[st.result] = loads;
}

}  // namespace rdmacheck
