// The operational engine: an explicit-state explorer of the queue-pair machines
// of the RDMA^TSO paper §3 and RMW App. D.1 (concrete: six buffers per queue pair;
// simplified: pipe, wbR, wbL), with or without the PCIe premises as the model
// file says, and of the sequential machine for SC. It lists the final memories
// that some run reaches, independently of the declarative checker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"
#include "rdmacheck/check.hpp"
#include "rdmacheck/limits.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/result.hpp"

namespace rdmacheck {

enum class MachineKind { Concrete, Simplified };

// The operational machines of the RDMA^TSO paper §3 and RMW App. D.1.
enum class MachineFamily {
    QueuePairs,  // store buffers and per-(thread, node) queue pairs: RDMA^TSO, and x86-TSO on CPU-only tests
    Sequential,  // every event takes effect in program order, one thread at a time: SC
};

struct MachineParams {
    MachineFamily family = MachineFamily::QueuePairs;
    bool pcie = true;            // the PCIe flush premises of G3/P1 (S-GRR/S-PLR)
    bool remoteAtomics = false;  // RCAS/RFAA and the locks A(n): simplified PCIe machine only (§6)
};

// A machine states the model it implements: the model's name and the
// fingerprint (Model::fingerprint) of the definition it was checked against.
struct MachineEntry {
    std::string model;
    std::string fingerprint;
    MachineParams params;
};
const std::vector<MachineEntry>& machineRegistry();

// The machine of exactly this model. InputError if no machine implements the
// model, or if the model is a variant (its definition differs from the one the
// machine implements: an edited copy, or --skip), reported at `where` (the
// test being run, whose run is refused).
const MachineParams& machineFor(const Model& model, const SourceLoc& where);
// The same without the error: nullptr when no machine implements the model.
const MachineEntry* findMachine(const Model& model);

// Tests only: a dependence the reduced search is told to ignore, to show that
// comparing it with --no-reduction catches a wrongly declared independence.
enum class IndependenceMutant {
    None,
    NicReadsCommute,  // the NIC's reads of memory commute with every write
    CpuReadsCommute,  // so do the CPU's reads
    PremisesCommute,  // a NIC step's premises (PCIe, RF, the pipe's order) commute with what changes them
};

struct MachineOptions {
    std::optional<MachineKind> kind;    // unset: simplified if the model has remote atomics, else concrete
    int unroll = 2;                     // loop iterations, as the declarative unfolding counts them
    uint64_t maxStates = 20'000'000;    // stop with an error past this many configurations
    bool progress = false;              // report on stderr once a run takes over a second
    // The reduced stateless search (src/machine/dpor.cpp); false: every
    // interleaving over hashed configurations (--no-reduction), its oracle.
    bool reduce = true;
    IndependenceMutant mutant = IndependenceMutant::None;
    ResourceLimits limits;              // --timeout, --max-memory
};

const char* machineName(MachineKind kind);

// Explores every run of the test on the model's machine (InputError if the model
// has none, or if the test has remote RMWs and the machine no rules for them).
// CheckResult::positive/negative count distinct final memories;
// machineStates the configurations visited, machineRuns the runs the reduced
// search followed to their end.
//
// With visit, the search also keeps how it first reached each state (8 bytes a
// state), and each distinct final memory kept by the filter is handed to visit
// once, in the order of final memories: the first run found to reach it,
// replayed as the skeleton of the events it executed (numbered as unfold()
// numbers them) and the execution it chose (rf, mo in the order writes reached
// memory, and nfo and rao in the order it performed them if the model has them).
CheckResult explore(const LitmusTest& test, const Model& model, const MachineOptions& options,
                    const ExecutionVisitor& visit = nullptr);

}  // namespace rdmacheck
