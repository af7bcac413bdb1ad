#include "program.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "rdmacheck/arith.hpp"

namespace rdmacheck::machine {

long long CompiledExpr::eval(const std::vector<long long>& slots, const std::vector<long long>& registers) const {
    switch (kind) {
        case Kind::Const: return value;
        case Kind::Slot: return slots[index];
        case Kind::Register: return registers[index];
        case Kind::Operation:
            return arith::evaluate(*this, [&](const CompiledExpr& a) { return a.eval(slots, registers); });
    }
    return 0;
}

CompiledExpr CompiledExpr::operation(Operator op, std::vector<CompiledExpr> args) {
    return arith::operationNode(op, std::move(args));
}

namespace {

class ThreadCompiler {
public:
    ThreadCompiler(const LitmusTest& test, const UnfoldedProgram& unfolded, int thread, ThreadCode& out, bool wraps32)
        : unfolded_(unfolded), out_(out), wraps32_(wraps32) {
        const std::string prefix = std::to_string(thread) + ":";
        for (const auto& [key, value] : test.registerInit)
            if (key.compare(0, prefix.size(), prefix) == 0) out_.registerInit[reg(key.substr(prefix.size()))] = value;
    }

    void block(const Block& b) {
        for (const Stmt& st : b) statement(st);
    }

    // The thread's code; then the X86 jumps forward find their labels.
    void thread(const Block& body) {
        block(body);
        for (const auto& [jump, label] : forward_) out_.code[jump].targets = {labels_.at(label)};
    }

private:
    int location(const std::string& name) const {
        int l = unfolded_.locationIndex(name);
        if (l < 0) throw std::logic_error("machine: unresolved location " + name);
        return l;
    }

    int hidden(const Stmt& st) const {
        auto it = unfolded_.hiddenLocations.find(&st);
        return it == unfolded_.hiddenLocations.end() ? -1 : it->second;
    }

    // The counter of the X86 jumps back to instruction `address`.
    int counterOf(int address) {
        auto it = counters_.emplace(address, out_.loops).first;
        if (it->second == out_.loops) ++out_.loops;
        return it->second;
    }

    int reg(const std::string& name) {
        auto it = std::find(out_.registers.begin(), out_.registers.end(), name);
        if (it != out_.registers.end()) return static_cast<int>(it - out_.registers.begin());
        out_.registers.push_back(name);
        out_.registerInit.push_back(0);
        return static_cast<int>(out_.registers.size()) - 1;
    }

    void remoteNode(int node) {
        auto& nodes = out_.remoteNodes;
        if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
            nodes.push_back(node);
            std::sort(nodes.begin(), nodes.end());
        }
    }

    // One slot per distinct location of the expression (doc/model-notes.md §N17
    // rewrites every occurrence of a location at once).
    CompiledExpr expr(const Expr& e, Instr& in) {
        CompiledExpr c;
        switch (e.kind) {
            case Expr::Kind::Const: c.value = e.value; return c;
            case Expr::Kind::Location: {
                c.kind = CompiledExpr::Kind::Slot;
                const int l = location(e.name);
                auto it = std::find(in.slots.begin() + slotBase_, in.slots.end(), l);
                c.index = static_cast<int>(it - in.slots.begin());
                if (it == in.slots.end()) in.slots.push_back(l);
                return c;
            }
            case Expr::Kind::Register:
                c.kind = CompiledExpr::Kind::Register;
                c.index = reg(e.name);
                return c;
            case Expr::Kind::Operation: break;
        }
        std::vector<CompiledExpr> args;
        for (const Expr& a : e.args) args.push_back(expr(a, in));
        c = CompiledExpr::operation(e.op, std::move(args));
        return arith::wrapsTo32Bits(e.op) && wraps32_ ? wrapped(std::move(c)) : c;
    }

    // X86 values wrap into 32 bits, as herd7's (unfold/wrap32.hpp).
    static CompiledExpr wrapped(CompiledExpr c) {
        return arith::wrapped32(std::move(c), [](long long v) {
            CompiledExpr constant;
            constant.value = v;
            return constant;
        });
    }

    Instr& emit(Instr::Op op, const SourceLoc& where) {
        Instr in;
        in.op = op;
        in.where = where;
        out_.code.push_back(std::move(in));
        return out_.code.back();
    }

    int here() const { return static_cast<int>(out_.code.size()); }

    void statement(const Stmt& st) {
        switch (st.kind) {
            case Stmt::Kind::Assign: {
                Instr& in = emit(Instr::Op::Assign, st.where);
                in.loc = location(st.target.name);
                slotBase_ = 0;
                in.expr = expr(st.expr, in);
                return;
            }
            case Stmt::Kind::Cas: cas(st); return;
            case Stmt::Kind::Get: {
                Instr& in = emit(Instr::Op::Get, st.where);
                in.loc = location(st.target.name);
                in.source = location(st.source.name);
                in.node = *st.source.node;
                remoteNode(in.node);
                return;
            }
            case Stmt::Kind::Put: put(st); return;
            case Stmt::Kind::RCas:
            case Stmt::Kind::RFaa: remoteRmw(st); return;
            case Stmt::Kind::Poll: emit(Instr::Op::Poll, st.where).node = st.node; remoteNode(st.node); return;
            case Stmt::Kind::RFence: emit(Instr::Op::RFence, st.where).node = st.node; remoteNode(st.node); return;
            case Stmt::Kind::MFence: emit(Instr::Op::MFence, st.where); return;
            case Stmt::Kind::SFence:
            case Stmt::Kind::LFence: return;  // the machines run rdmacheck's own models, where they are no event
            case Stmt::Kind::Assume: assume(st, st.compare); return;
            case Stmt::Kind::If: ifThenElse(st); return;
            case Stmt::Kind::Choice: choice(st); return;
            case Stmt::Kind::Loop:
            case Stmt::Kind::While: loop(st); return;
            case Stmt::Kind::RegAssign: {
                Instr& in = emit(Instr::Op::RegAssign, st.where);
                in.reg = reg(st.result);
                in.expr = expr(st.expr, in);
                return;
            }
            case Stmt::Kind::RegLoad: {
                Instr& in = emit(Instr::Op::RegLoad, st.where);
                in.reg = reg(st.result);
                in.loc = location(st.target.name);
                return;
            }
            case Stmt::Kind::Xchg: {
                Instr& in = emit(Instr::Op::Xchg, st.where);
                in.reg = reg(st.result);
                in.loc = location(st.target.name);
                return;
            }
            case Stmt::Kind::LockedUpdate: {
                if (!st.source.name.empty())  // unfold() refuses it first for every model a machine runs
                    throw InputError(st.where, "the machines update memory with a register or a value, not "
                                               "with memory");
                Instr& in = emit(Instr::Op::LockedUpdate, st.where);
                in.xorUpdate = st.update == Operator::Xor;
                if (!st.result.empty()) in.reg = reg(st.result);
                in.loc = location(st.target.name);
                in.expr = expr(st.expr, in);
                return;
            }
            case Stmt::Kind::UnlockedUpdate:  // unfold() refuses these first for every model a machine runs
            case Stmt::Kind::MemoryMove:
            case Stmt::Kind::MemoryExchange:
                throw InputError(st.where, "the machines keep a thread's events in one order: an unlocked "
                                           "read-modify-write of memory, a MOV from memory to memory or an XCHG of "
                                           "two locations is supported only under a model in herd7's terms");
            case Stmt::Kind::Label: labels_[st.label] = here(); return;
            case Stmt::Kind::Jump: jump(st); return;
            case Stmt::Kind::Wait:
            case Stmt::Kind::GFence:
            case Stmt::Kind::Call:
                throw InputError(st.where, "the queue-pair machines run polls, not work identifiers or library "
                                           "calls; use the declarative engine");
        }
    }

    // CAS(x, E1, E2, z): the CAS, then z := the carried old value.
    void cas(const Stmt& st) {
        Instr& in = emit(Instr::Op::Cas, st.where);
        in.loc = location(st.target.name);
        // The expected and desired values are rewritten separately.
        slotBase_ = 0;
        in.expr = expr(st.expr, in);
        slotBase_ = static_cast<int>(in.slots.size());
        in.expr2 = expr(st.expr2, in);
        Instr& write = emit(Instr::Op::WriteCarry, st.where);
        write.loc = location(st.source.name);
    }

    void put(const Stmt& st) {
        Instr& in = emit(Instr::Op::Put, st.where);
        in.loc = location(st.target.name);
        in.node = *st.target.node;
        if (st.sourceIsConst) {
            in.value = st.constant;
            in.hidden = hidden(st);
        } else {
            in.source = location(st.source.name);
        }
        remoteNode(in.node);
    }

    void remoteRmw(const Stmt& st) {
        Instr& in = emit(st.kind == Stmt::Kind::RCas ? Instr::Op::RCas : Instr::Op::RFaa, st.where);
        // unfold() gives `_` a hidden location that nothing reads or reports.
        in.loc = st.source.name == "_" ? -1 : location(st.source.name);
        if (in.loc < 0) in.hidden = hidden(st);
        in.source = location(st.target.name);
        in.node = *st.target.node;
        in.expr = expr(st.expr, in);  // the parser admits only constants here
        if (st.kind == Stmt::Kind::RCas) in.expr2 = expr(st.expr2, in);
        remoteNode(in.node);
    }

    // Branch to the then part (its test assumed) or the else part (the negation).
    void ifThenElse(const Stmt& st) {
        const int branch = here();
        emit(Instr::Op::Branch, st.where);
        const int thenStart = here();
        assume(st, st.compare);
        block(st.body);
        const int jump = here();
        emit(Instr::Op::Jump, st.where);
        const int elseStart = here();
        assume(st, negated(st.compare));
        block(st.orelse);
        out_.code[branch].targets = {thenStart, elseStart};
        out_.code[jump].targets = {here()};
    }

    void choice(const Stmt& st) {
        const int branch = here();
        emit(Instr::Op::Branch, st.where);
        std::vector<int> jumps, starts;
        for (const Block& b : st.branches) {
            starts.push_back(here());
            block(b);
            jumps.push_back(here());
            emit(Instr::Op::Jump, st.where);
        }
        out_.code[branch].targets = starts;
        for (int j : jumps) out_.code[j].targets = {here()};
    }

    // An X86 jump: back to a label seen already (counted), or forward (found at the end).
    void jump(const Stmt& st) {
        Instr& in = emit(Instr::Op::JumpIf, st.where);
        testOfRegisters(st, st.compare, in);
        if (auto back = labels_.find(st.label); back != labels_.end()) {
            in.targets = {back->second};
            in.loop = counterOf(back->second);
        } else {
            forward_.emplace_back(here() - 1, st.label);
        }
    }

    // loop and while: enter, a head that stays or leaves (bounded by the unroll), the body, a jump back.
    void loop(const Stmt& st) {
        const int index = out_.loops++;
        emit(Instr::Op::LoopEnter, st.where).loop = index;
        const int head = here();
        Instr& h = emit(st.kind == Stmt::Kind::Loop ? Instr::Op::LoopHead : Instr::Op::WhileHead, st.where);
        h.loop = index;
        if (st.kind == Stmt::Kind::While && !readsMemory(st.expr) && !readsMemory(st.expr2)) {
            testOfRegisters(st, st.compare, h);  // of constants: no read
        } else if (st.kind == Stmt::Kind::While) {
            test(st, st.compare, h);
        }
        block(st.body);
        emit(Instr::Op::Jump, st.where).targets = {head};
        out_.code[head].targets = {here()};
    }

    void assume(const Stmt& st, Comparison op) {
        if (!readsMemory(st.expr) && !readsMemory(st.expr2)) {  // a test of registers (X86's SETNB, CMOVC) or constants
            testOfRegisters(st, op, emit(Instr::Op::RegTest, st.where));
            return;
        }
        test(st, op, emit(Instr::Op::Assume, st.where));
    }

    // `expr op expr2` of the statement, over registers and constants, into `in`.
    void testOfRegisters(const Stmt& st, Comparison op, Instr& in) {
        in.expr = expr(st.expr, in);
        in.expr2 = expr(st.expr2, in);
        in.compare = op;
    }

    static bool readsMemory(const Expr& e) {
        return e.kind == Expr::Kind::Location ||
               std::any_of(e.args.begin(), e.args.end(), [](const Expr& a) { return readsMemory(a); });
    }

    // A machine step reads one location: tests are `x CMP k`, k an integer.
    void test(const Stmt& st, Comparison op, Instr& in) {
        const Expr& k = st.expr2;
        const bool negative = k.is(Operator::Neg) && k.args[0].kind == Expr::Kind::Const;
        if (st.expr.kind != Expr::Kind::Location || st.expr.remoteNode || (k.kind != Expr::Kind::Const && !negative))
            throw InputError(st.where, "the queue-pair machines test one local location against an integer, "
                                       "e.g. 'x < 2'; use the declarative engine");
        in.loc = location(st.expr.name);
        in.value = negative ? -k.args[0].value : k.value;
        in.compare = op;
    }

    const UnfoldedProgram& unfolded_;
    ThreadCode& out_;
    std::map<int, int> counters_;  // X86: the address jumps go back to -> their counter
    std::map<std::string, int> labels_;  // X86: each label's address
    std::vector<std::pair<int, std::string>> forward_;  // X86 jumps to labels further on
    int slotBase_ = 0;  // slots below this belong to an earlier expression of the instruction
    const bool wraps32_;  // Program::wraps32
};

}  // namespace

Program compile(const LitmusTest& test, const UnfoldedProgram& unfolded) {
    Program p;
    p.wraps32 = test.arch == Arch::X86;
    p.locations = unfolded.locations;
    for (const Location& l : p.locations) p.nodes = std::max(p.nodes, l.node);
    for (size_t t = 0; t < test.threads.size(); ++t) {
        ThreadCode code;
        code.node = test.threads[t].node;
        p.nodes = std::max(p.nodes, code.node);
        ThreadCompiler(test, unfolded, static_cast<int>(t), code, p.wraps32).thread(test.threads[t].body);
        p.threads.push_back(std::move(code));
    }
    return p;
}

}  // namespace rdmacheck::machine
