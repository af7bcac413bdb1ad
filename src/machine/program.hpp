// The machines' view of a program: each thread's statements flattened into a
// list of instructions with jumps, locations resolved to indices. Reads of an
// expression's locations are separate steps, taken in any order (doc/model-notes.md §N17).
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::machine {

// An expression whose locations are read slots and whose registers are indices.
struct CompiledExpr {
    enum class Kind { Const, Slot, Register, Operation };
    Kind kind = Kind::Const;
    long long value = 0;  // Const
    int index = 0;        // Slot / Register
    Operator op = Operator::Add;  // Operation (arith.hpp)
    std::vector<CompiledExpr> args;

    static CompiledExpr operation(Operator op, std::vector<CompiledExpr> args);

    long long eval(const std::vector<long long>& slots, const std::vector<long long>& registers) const;
};

struct Instr {
    enum class Op {
        Assign,     // loc := expr, after reading every slot
        Cas,        // carry := old value of loc; success iff it equals expr (after the slots)
        WriteCarry, // loc := carry (the CAS result, a separate CPU write)
        Assume,     // lR(loc) where `value compare this->value` holds
        Get,        // loc := source^node
        Put,        // loc^node := source (source < 0: the constant `value`)
        RCas,       // loc := RCAS(source^node, expr, expr2) (loc < 0: the result `_`, dropped)
        RFaa,       // loc := RFAA(source^node, expr) (loc < 0: the result `_`, dropped)
        Poll,
        RFence,
        MFence,
        Branch,     // continue at any of targets (choice, if)
        LoopEnter,  // counter of `loop` := 0, then fall through to the head
        LoopHead,   // plain loop: exit to targets[0] or run the body at pc+1
        WhileHead,  // read loc: stay while `value compare this->value` holds, else exit to targets[0];
                    // loc -1: `expr compare expr2` over constants (no read)
        Jump,       // to targets[0]
        JumpIf,     // X86: to targets[0] where `expr compare expr2` holds over registers, else on; a jump
                    // back counts in `loop`, along the run (the counter of the instruction it lands on)
        RegAssign,  // reg := expr
        RegLoad,    // reg := loc
        Xchg,       // swap loc and reg atomically
        LockedUpdate,  // loc += expr (xorUpdate: ^=) atomically (X86 LOCK ADD, INC, DEC, XOR); the result also to reg
        RegTest,    // continue only where `expr compare expr2` holds over registers (X86 jumps; no read)
    };
    Op op = Op::Jump;
    int loc = -1;
    int source = -1;
    int node = 0;
    int reg = -1;
    int loop = -1;
    // Put of a constant, RMW with result `_`: the hidden location unfold() gave
    // the constant or the result, which recorded runs name (-1 if unfold never
    // reached the statement: no run does either).
    int hidden = -1;
    long long value = 0;
    Comparison compare = Comparison::Eq;  // Assume, WhileHead, RegTest, JumpIf
    bool xorUpdate = false;               // LockedUpdate: xor, not add
    CompiledExpr expr, expr2;   // Assign / RegAssign: expr; Cas, RCas: expected, desired; RFaa: addend
    std::vector<int> slots;     // location read into each slot, in slot order
    std::vector<int> targets;
    SourceLoc where;
};

struct ThreadCode {
    int node = 1;
    std::vector<Instr> code;  // runs from 0; done at code.size()
    int loops = 0;            // loop counters
    std::vector<std::string> registers;
    std::vector<long long> registerInit;
    std::vector<int> remoteNodes;  // nodes this thread has queue pairs towards (sorted)
};

struct Program {
    std::vector<Location> locations;  // as resolved by unfold()
    std::vector<ThreadCode> threads;
    int nodes = 0;                    // highest node number
    bool wraps32 = false;             // X86: values wrap into 32 bits, as herd7's (unfold/wrap32.hpp)
};

// Compiles a test whose statements unfold() has already validated.
Program compile(const LitmusTest& test, const UnfoldedProgram& unfolded);

}  // namespace rdmacheck::machine
