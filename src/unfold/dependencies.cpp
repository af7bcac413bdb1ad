#include "dependencies.hpp"

#include <algorithm>

namespace rdmacheck {

namespace {

void registersIn(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == Expr::Kind::Register) out.push_back(e.name);
    for (const Expr& a : e.args) registersIn(a, out);
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

std::vector<std::string> RegisterFlow::registersRead(const Stmt& st) const {
    std::vector<std::string> read = st.alsoReads;
    registersIn(st.expr, read);
    return read;
}

// herd7 sorts each edge by the register read it leaves from: a read that is a
// "data port" (the operand of a locked instruction, either side of XCHG, the
// location an update reads) gives data, any other gives addr (herd7 7.58's
// MOV [y],EAX gives addr). X86 makes no branch events, so herd7's ctrl is empty.
void RegisterFlow::after(const Stmt& st, ThreadPath& path, size_t first) {
    const int start = static_cast<int>(first), last = static_cast<int>(path.events.size()) - 1;
    auto edge = [&](int from, int to, bool dataPort) {
        if (from != to) (dataPort ? path.dataDependencies : path.addressDependencies).emplace_back(from, to);
    };
    auto fromRegisters = [&](const std::vector<std::string>& registers, int to, bool dataPort) {
        for (int load : loadsOf(registers)) edge(load, to, dataPort);
    };
    switch (st.kind) {
        case Stmt::Kind::RegAssign: loadsInto_[st.result] = loadsOf(registersRead(st)); break;
        case Stmt::Kind::RegLoad:  // CMOVC's flag leads to its load, and no further
            fromRegisters(st.alsoReads, start, false);
            loadsInto_[st.result] = {start};
            break;
        case Stmt::Kind::Assign: fromRegisters(registersRead(st), last, false); break;
        case Stmt::Kind::Xchg:  // the register's old value to the write; the read into the register
            fromRegisters({st.result}, last, true);
            loadsInto_[st.result] = {start};
            break;
        case Stmt::Kind::LockedUpdate:
        case Stmt::Kind::UnlockedUpdate: {
            const bool locked = st.kind == Stmt::Kind::LockedUpdate;
            std::vector<std::string> operands;
            registersIn(st.expr, operands);
            std::vector<int> loads = loadsOf(operands);
            int read = start;  // with a memory operand ([source]), its read comes first
            if (!st.source.name.empty()) {
                edge(start, last, locked);
                loads.push_back(read++);
            }
            edge(read, last, true);
            loads.push_back(read);
            fromRegisters(operands, last, locked);
            if (!st.result.empty()) loadsInto_[st.result] = loads;
            break;
        }
        case Stmt::Kind::MemoryMove: edge(start, last, false); break;
        case Stmt::Kind::MemoryExchange:  // reads of x and y, then writes of x and y
            edge(start, start + 3, true);
            edge(start + 1, start + 2, true);
            break;
        default: break;
    }
}

}  // namespace rdmacheck
