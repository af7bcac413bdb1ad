#include "solver_context.hpp"

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "rdmacheck/limits.hpp"

namespace rdmacheck {

namespace {

// Each Z3 context (4.8.12) fills two tables of 8.5 MB as it is made: 4,400 page
// faults, 45-60 ms of a test's 80 on a virtual machine, which a process checking
// one test pays in full. On transparent huge pages they cost a few faults
// (doc/performance.md, "Process start-up"). glibc would ask for huge pages
// itself (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only when told before the
// process starts; so here, in each thread that makes a context (before its
// first), the top of the thread's heap (glibc's arena: the main heap, or the
// thread's own) is grown by a free block whose pages are marked for huge pages,
// and allocations up to 64 MB are taken from the heap rather than mapped apart,
// so that the tables land in that block. With -j 2 the second thread's tables
// faulted page by page: the 487 x86 tests' --speedcheck took 366 ms of CPU and
// 5,037 page faults, 275 ms and 683 with both threads' blocks. Nothing depends
// on it: where the kernel, the allocator or the memory limit refuses, it is skipped.
void reserveHugePagesForTables() {
    constexpr uintptr_t hugePage = uintptr_t{2} << 20;
    constexpr size_t reserve = size_t{40} << 20;  // the tables and what a check allocates next
    if (mallopt(M_MMAP_THRESHOLD, 64 << 20) == 0 || mallopt(M_TRIM_THRESHOLD, 64 << 20) == 0) return;
    char* block = static_cast<char*>(std::malloc(reserve));
    if (!block) return;
    const uintptr_t at = reinterpret_cast<uintptr_t>(block);
    const uintptr_t start = (at + hugePage - 1) & ~(hugePage - 1), end = (at + reserve) & ~(hugePage - 1);
    madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
    std::free(block);  // back to the heap's top, which the trim threshold keeps
    // The block's part before its first huge page stays taken for the process
    // (a request 8 bytes short of it fills it, in glibc's layout), so that the
    // top, where the next large allocation begins, starts on a huge page: freed,
    // that part would merge with the top again. (volatile: an allocation never
    // read is otherwise removed by the compiler.)
    thread_local void* volatile beforeHugePages = start - at > 8 ? std::malloc(start - at - 8) : nullptr;
    (void)beforeHugePages;
}

}  // namespace

Z3Settings::Z3Settings() {
    thread_local const bool tablesPlaced = (reserveHugePagesForTables(), true);
    (void)tablesPlaced;
    // Z3 compacts every model it returns by default, which cost a third of the
    // 487 x86 tests' time; the decoder only reads the choice constants.
    static const bool uncompactedModels = (z3::set_param("model.compact", false), true);
    (void)uncompactedModels;
}

// The solvers: Z3's plain SMT core (the default combined solver re-reads its
// tactics' parameters on each call, which costs more than a small test's
// search), without relevancy propagation, and with the difference-logic
// arithmetic solver where the encoding allows it (scripts/bench measures both).
SolverContext::Impl::Lent& SolverContext::Impl::lend(bool differenceLogic) {
    auto free = std::find_if(solvers_.begin(), solvers_.end(),
                             [&](const Lent& s) { return !s.busy && s.differenceLogic == differenceLogic; });
    if (free == solvers_.end()) {
        z3::solver solver(z3(), z3::solver::simple());
        z3::params p(z3());
        p.set("relevancy", 0u);  // also what reading executions at the final check relies on (watched_choices.hpp)
        // Z3's default phase caching decides each variable again as in the last
        // model, which after a refuted execution (choice_watch.hpp) walks back
        // into its conflict; the conservative variant halves the EXS ring's
        // enumeration (doc/performance.md).
        p.set("phase_selection", 4u);
        if (differenceLogic) p.set("arith.solver", 1u);
        solver.set(p);
        free = solvers_.insert(solvers_.end(), Lent{solver, differenceLogic, false, nullptr});
    }
    free->busy = true;
    return *free;
}

SolverLoan::SolverLoan(SolverContext& ctx, bool differenceLogic) : lent_(ctx.impl().lend(differenceLogic)) {
    lent_.solver.push();
}

// Made at the solver's first encoding, once its assertions are in: attaching
// it sets Z3's configuration up, which reads the assertions to choose it.
ChoiceWatch& SolverLoan::watch() {
    if (!lent_.watch) lent_.watch = std::make_unique<ChoiceWatch>(lent_.solver);
    return *lent_.watch;
}

void SolverLoan::limitTime(unsigned milliseconds) {
    z3::params p(lent_.solver.ctx());
    p.set("timeout", milliseconds == 0 ? UINT_MAX : milliseconds);
    lent_.solver.set(p);
    timed_ = true;
}

// The scope goes, and with it the encoding's assertions and time limit (reset
// only when set: setting parameters costs as much as a small check).
SolverLoan::~SolverLoan() {
    lent_.busy = false;
    try {
        lent_.solver.pop();
        if (timed_) {
            z3::params unbounded(lent_.solver.ctx());
            unbounded.set("timeout", UINT_MAX);
            lent_.solver.set(unbounded);
        }
    } catch (const z3::exception&) {
        // Only an interrupted context refuses (memory_watch); it is not used again.
    }
}

namespace {

Z3_context makeContext() {
    Z3_config config = Z3_mk_config();
    Z3_context context = config ? Z3_mk_context_rc(config) : nullptr;
    if (config) Z3_del_config(config);
    if (!context) throw std::bad_alloc();
    return context;
}

}  // namespace

SolverContext::Impl::Impl()
    : owned_{makeContext()}, view_(owned_.context), watchId_(memory_watch::onTrip([this] {
          interrupted_ = true;
          z3().interrupt();
      })) {}

SolverContext::Impl::~Impl() { memory_watch::forget(watchId_); }

SolverContext::SolverContext() : impl_(std::make_unique<Impl>()) {}

SolverContext::~SolverContext() = default;

bool SolverContext::interrupted() const { return impl_->interrupted_; }

namespace {
thread_local std::unique_ptr<SolverContext> threadContext_;
}

SolverContext& threadContext() {
    dropInterruptedThreadContext();
    if (!threadContext_) threadContext_ = std::make_unique<SolverContext>();
    return *threadContext_;
}

void dropInterruptedThreadContext() {
    if (!threadContext_ || !threadContext_->interrupted()) return;
    threadContext_.reset();
    memory_watch::release();
}

}  // namespace rdmacheck
