// Random RDMA litmus tests, for differential testing of the checker against
// itself and other engines. Every generated test parses and unfolds.
//
// The generator core (src/generate/) draws the core statements; a library adds
// the statements `--mix NAME=N` draws for it through its generator hook, the
// GeneratedKind list and StatementGenerator of its LibraryDescriptor (below).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

struct GeneratorOptions {
    int nodes = 2;                     // nodes 1..nodes
    int threads = 2;                   // threads P0..P{threads-1}; thread i runs on node (i % nodes) + 1
    int minLength = 1, maxLength = 4;  // statements per thread
    int sharedPerNode = 1;             // shared locations per node, named x, y, z, w, v, u, ... (home = that node)
    int values = 2;                    // constants written are 1..values
    double loopback = 0.1;             // probability a remote op targets the thread's own node
    // Relative weight of each statement kind. Besides these: rcas, rfaa, expr, assume, if, choice,
    // loop, while (weight 0 unless set), and the RDMA^WAIT kinds wait, svwrite, svread, svbcast,
    // svwait, gfence (weight 0 unless set). A mix that draws any RDMA^WAIT kind makes
    // work-identifier tests: puts, gets and RMWs get a work identifier d, e or none, `wait(d)`
    // waits for one the thread used before, poll is never drawn (its weight is ignored), and
    // with svwrite, svread or svbcast the test declares one or two SV variables `z@sv`, which
    // conditions name by their copies `z@2`. Broadcasts use work identifiers f, g or `_`, and
    // a test writes SV copies at most about four times (sv.write one, sv.bcast one per node),
    // since the declarative engine enumerates every broadcast's read-from choices.
    std::map<std::string, int> mix = {{"write", 3}, {"read", 2},   {"put", 3},    {"get", 3},
                                      {"poll", 2},  {"rfence", 1}, {"mfence", 1}, {"cas", 1}};
};

// "put=2,get=3,cas=0" sets those weights in options.mix (others are kept).
// Throws std::invalid_argument on an unknown kind or a weight that is not a non-negative integer.
void parseMix(const std::string& spec, GeneratorOptions& options);

// The test "random-<seed>" as RDMA-format text; the same (seed, options) give the
// same text on every platform. Throws std::invalid_argument on unusable options.
std::string generateLitmus(uint64_t seed, const GeneratorOptions& options);

// ---- Generator hooks: what a library writes to add statements to the mix.

// splitmix64, and only integer arithmetic on its output: the standard distributions
// are implementation-defined, and a seed must name the same test everywhere.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // 0..n-1 for n > 0 (the modulo bias is negligible for the small n used here).
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
    long long between(long long lo, long long hi) { return lo + static_cast<long long>(below(hi - lo + 1)); }
    // 53 random bits scaled to [0, 1) are exact in a double.
    bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

private:
    uint64_t state_;
};

// A statement kind a library adds to the mix. A library's kinds belong to the
// MOWGLI level: a mix that draws any of them makes work-identifier tests.
struct GeneratedKind {
    std::string name;           // as --mix writes it: "svwrite"
    long long paths = 1;        // how many paths it makes of each path before it, at most (a CAS: 2)
    bool opensSection = false;  // opens a critical section (StatementDraw::holdRelease); one at a time
    std::string needs{};        // when it can be impossible, for the message: "svwait an earlier svbcast with one"
};

// What a library's hook may use of the test being generated. Thread-level
// calls are for StatementGenerator::draw and possible, on the thread drawn for.
class StatementDraw {
public:
    virtual ~StatementDraw() = default;
    virtual Random& random() = 0;
    virtual const GeneratorOptions& options() const = 0;
    // The next name of the shared-location sequence (x, y, z, ...), and a declaration.
    virtual std::string nextSharedName() = 0;
    virtual void declare(LocationDecl location) = 0;

    virtual int threadIndex() const = 0;  // the thread drawn for: P<index>
    virtual int node() const = 0;         // its node
    virtual std::string localLocation() = 0;  // a location it reaches by CPU accesses
    virtual std::string freshPrivate() = 0;   // a new private location of it
    virtual long long value() = 0;            // a constant to write: 1..values
    // A non-empty set of nodes, in increasing order: any of them, or mostly others than the thread's.
    virtual std::vector<int> nodeSet(bool mostlyOthers) = 0;
    virtual void namesNodes(const std::vector<int>& nodes) = 0;  // the test names them (SV copies exist there)
    // Work identifier `id` ("_": none) used by the thread, noted in `used` (first use order).
    virtual void usesWork(std::vector<std::string>& used, const std::string& id) = 0;
    // One of `used` to wait on: one with work since its last wait if there is one.
    virtual std::string waitedWork(const std::vector<std::string>& used) = 0;
    // The statement just drawn opens a critical section that `release` closes, after one
    // statement or more and by the thread's end.
    virtual void holdRelease(Stmt release) = 0;
};

// A library's generator hook for one test: the declarations its statements
// need, and its statements, drawn only from StatementDraw's random source.
class StatementGenerator {
public:
    virtual ~StatementGenerator() = default;
    // Before the threads: locations whose names the mix fixes (every library's,
    // in registry order), then those whose number is drawn, so a draw never
    // shifts a fixed name.
    virtual void declareFixed(StatementDraw&) {}
    virtual void declareDrawn(StatementDraw&) {}
    // Whether the kind can be drawn now for the thread (svwait: after a broadcast).
    virtual bool possible(const std::string& /*kind*/, StatementDraw&) const { return true; }
    // Whether the kind is past a budget of the library: held back while anything else is possible.
    virtual bool overBudget(const std::string& /*kind*/) const { return false; }
    virtual Stmt draw(const std::string& kind, StatementDraw& draw) = 0;
};

// Whether the mix gives the kind a positive weight.
bool draws(const GeneratorOptions& options, const std::string& kind);

// `library.method(args)`, for a hook's draw.
Stmt libraryCall(const std::string& library, const std::string& method, std::vector<CallArg> args);
CallArg exprArg(Expr e);
CallArg nodeSetArg(std::vector<int> nodes);

}  // namespace rdmacheck
