// Reading an execution off the solver's trail, the literals its last search
// assigned, instead of building a model, which costs several times more per
// execution (the model's values of every term of the encoding, where the
// decoder needs the choices only). Internal to the encoder.
//
// It agrees with the model because the solvers run without relevancy
// propagation (solver_context.cpp: keep it so): Z3 then assigns every Boolean
// it internalised, and the trail holds them all, base level included. An nfo
// Boolean absent from the trail was never internalised, and the model's
// completion makes it false: backward, here too.
#pragma once

#include <unordered_map>
#include <utility>
#include <vector>
#include <z3++.h>

#include "symbolic.hpp"

namespace rdmacheck {

class TrailDecoder {
public:
    TrailDecoder(z3::context& ctx, const Choices& choices) : ctx_(ctx), choices_(choices) {}

    // The terms whose literals on the trail tell the choices: each of a read's
    // candidate sources (true for the one it takes), an mo decision's proxy
    // (a before b), an nfo pair's direction.
    void noteSources(int read);
    void noteCoherence(const z3::expr& proxy, int a, int b);
    void noteFlush(int pair);

    // The execution's rf, values read, mo, nfo and group orders into `found`.
    // False when the trail does not tell them all: before every mo decision
    // has its proxy, with a group order on two events or more (ranks are
    // integers), when values read depend on each other in a cycle or leave 64
    // bits (the model's values and messages then decide).
    bool decode(z3::solver& solver, size_t locationCount, ExecutionGraph& found) const;

private:
    struct Term {
        enum class Kind { Source, Coherence, Flush };
        Kind kind;
        int index;          // the read, the noted proxy, the nfo pair
        int candidate = 0;  // a source's place among the read's candidates
    };
    // A trail literal: positive or not, the term it is about (none if no
    // choice's).
    struct Literal {
        const Term* term = nullptr;
        bool positive = true;
    };

    Literal read(Z3_ast a) const;
    const Literal& remembered(Z3_ast literal) const;
    bool sourcesFrom(const std::vector<int>& source, ExecutionGraph& found) const;
    bool valuesFromSources(ExecutionGraph& found) const;
    bool orderWrites(const std::vector<signed char>& before, size_t locationCount, ExecutionGraph& found) const;

    z3::context& ctx_;
    const Choices& choices_;
    std::unordered_map<unsigned, Term> terms_;  // by Z3 AST id
    std::vector<std::pair<int, int>> coherence_;  // per noted proxy: its writes, a before b
    // Trail literals read, each once; its slot by AST id; the literals held.
    mutable std::vector<Literal> seen_;
    mutable std::vector<int> slot_;
    mutable std::vector<z3::expr> held_;
};

}  // namespace rdmacheck
