#include "rdmacheck/repair.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"

namespace rdmacheck {

namespace {

// Inserted statements carry their anchor's line and column in this file, so a
// witness event from one maps back to where it was inserted.
const char* const kInserted = "(inserted)";

bool isRemoteOperation(const Stmt& s) {
    return s.kind == Stmt::Kind::Put || s.kind == Stmt::Kind::Get || s.kind == Stmt::Kind::RCas ||
           s.kind == Stmt::Kind::RFaa;
}

int towards(const Stmt& s) { return s.kind == Stmt::Kind::Get ? s.source.node.value_or(0) : s.target.node.value_or(0); }

// A thread's statements in text order, nested ones after the statement that holds them.
std::vector<const Stmt*> statementsInOrder(const Block& block) {
    std::vector<const Stmt*> out;
    anyStatement(block, [&](const Stmt& s) {
        out.push_back(&s);
        return false;  // every statement
    });
    return out;
}

std::vector<Insertion> candidateInsertions(const LitmusTest& test) {
    std::vector<Insertion> out;
    for (int t = 0; t < static_cast<int>(test.threads.size()); ++t) {
        const std::vector<const Stmt*> order = statementsInOrder(test.threads[t].body);
        for (int i = 0; i < static_cast<int>(order.size()); ++i) {
            const Stmt& s = *order[i];
            auto add = [&](Insertion::Kind kind, int node) { out.push_back({kind, t, node, s.where, i}); };
            if (i + 1 < static_cast<int>(order.size())) add(Insertion::Kind::MFence, 0);
            if (!isRemoteOperation(s)) continue;
            const int n = towards(s);
            add(Insertion::Kind::Poll, n);
            const bool another = std::any_of(order.begin() + i + 1, order.end(), [&](const Stmt* later) {
                return isRemoteOperation(*later) && towards(*later) == n;
            });
            if (another) add(Insertion::Kind::RFence, n);
            if (s.kind == Stmt::Kind::Put) add(Insertion::Kind::Flush, n);
        }
    }
    return out;
}

Stmt nodeStatement(Stmt::Kind kind, int node, const SourceLoc& where) {
    Stmt s;
    s.kind = kind;
    s.node = node;
    s.where = where;
    return s;
}

// Rebuilds a thread's blocks with the insertions, counting the operations each
// node has outstanding (in text order) so that a flush polls up to its get.
class Inserter {
public:
    Inserter(LitmusTest& test, int thread, const std::vector<Insertion>& insertions, std::set<std::string>& used)
        : test_(test), thread_(thread), insertions_(insertions), used_(used) {}

    Block rebuild(const Block& block) {
        Block out;
        for (const Stmt& s : block) {
            Stmt copy = s;
            count(s);
            copy.body = rebuild(s.body);
            copy.orelse = rebuild(s.orelse);
            for (Block& b : copy.branches) b = rebuild(b);
            out.push_back(std::move(copy));
            for (const Insertion& i : insertions_)
                if (i.thread == thread_ && i.after.line == s.where.line && i.after.column == s.where.column)
                    insert(i, out);
        }
        return out;
    }

private:
    void count(const Stmt& s) {
        if (isRemoteOperation(s)) ++outstanding_[towards(s)];
        if (s.kind == Stmt::Kind::Poll && outstanding_[s.node] > 0) --outstanding_[s.node];
    }

    void insert(const Insertion& i, Block& out) {
        const SourceLoc where{kInserted, i.after.line, i.after.column};
        switch (i.kind) {
            case Insertion::Kind::Poll:
                out.push_back(nodeStatement(Stmt::Kind::Poll, i.node, where));
                count(out.back());
                break;
            case Insertion::Kind::RFence: out.push_back(nodeStatement(Stmt::Kind::RFence, i.node, where)); break;
            case Insertion::Kind::MFence: out.push_back(nodeStatement(Stmt::Kind::MFence, 0, where)); break;
            case Insertion::Kind::Flush: flush(i.node, where, out); break;
        }
    }

    // `f := g^n` from a fresh location g on n into a fresh local f, then polls until it is polled.
    void flush(int node, const SourceLoc& where, Block& out) {
        const LocationDecl dummy{fresh("flushed", used_), node, 0, where, false, false};
        test_.locations.push_back(dummy);
        const LocationDecl local{fresh("flush", used_), test_.threads[thread_].node, 0, where, false, false};
        test_.locations.push_back(local);
        Stmt get;
        get.kind = Stmt::Kind::Get;
        get.where = where;
        get.target = LocRef{local.name, std::nullopt, where};
        get.source = LocRef{dummy.name, node, where};
        out.push_back(get);
        for (int k = outstanding_[node] + 1; k > 0; --k) out.push_back(nodeStatement(Stmt::Kind::Poll, node, where));
        outstanding_[node] = 0;
    }

    LitmusTest& test_;
    int thread_;
    const std::vector<Insertion>& insertions_;
    std::map<int, int> outstanding_;
    std::set<std::string>& used_;  // every name of the test and of the insertions so far
};

LitmusTest withInsertions(const LitmusTest& test, const std::vector<Insertion>& insertions) {
    LitmusTest out = test;
    std::set<std::string> used = namesOf(test);
    for (int t = 0; t < static_cast<int>(out.threads.size()); ++t)
        out.threads[t].body = Inserter(out, t, insertions, used).rebuild(test.threads[t].body);
    return out;
}

// A relaxed segment as statement positions of its thread; `anywhere` when the
// positions do not bound it (a loop's next iteration, an unknown statement).
struct Segment {
    int thread = 0;
    int entry = 0, exit = 0;
    bool anywhere = false;

    bool hitBy(const Insertion& i) const {
        return i.thread == thread && (anywhere || (entry <= i.position && i.position < exit));
    }
};
using WitnessSegments = std::vector<Segment>;

// Positions of the original test's statements by line and column.
using Positions = std::map<std::pair<int, int>, int>;

Positions statementPositions(const LitmusTest& test) {
    Positions out;
    for (const ThreadDecl& t : test.threads) {
        const std::vector<const Stmt*> order = statementsInOrder(t.body);
        for (int i = 0; i < static_cast<int>(order.size()); ++i)
            out[{order[i]->where.line, order[i]->where.column}] = i;
    }
    return out;
}

// An event of an inserted statement sits just after its anchor: as an entry
// at the anchor, as an exit before the next statement.
WitnessSegments segmentsOf(const RobustnessWitness& w, const Positions& positions) {
    WitnessSegments out;
    for (const RelaxedSegment& r : w.relaxed) {
        const Event& entry = w.execution.events[r.entry];
        const Event& exit = w.execution.events[r.exit];
        auto entryAt = positions.find({entry.where.line, entry.where.column});
        auto exitAt = positions.find({exit.where.line, exit.where.column});
        Segment s{entry.thread};
        s.anywhere = entryAt == positions.end() || exitAt == positions.end();
        if (!s.anywhere) {
            s.entry = entryAt->second;
            s.exit = exitAt->second + (exit.where.file == kInserted ? 1 : 0);
            s.anywhere = s.entry >= s.exit;
        }
        out.push_back(s);
    }
    return out;
}

// Every witness met has a relaxed segment the set puts an insertion in (a
// witness without relaxed segments constrains nothing).
bool hitsEveryWitness(const std::vector<Insertion>& set, const std::vector<WitnessSegments>& witnesses) {
    return std::all_of(witnesses.begin(), witnesses.end(), [&](const WitnessSegments& segments) {
        return segments.empty() || std::any_of(segments.begin(), segments.end(), [&](const Segment& s) {
                   return std::any_of(set.begin(), set.end(), [&](const Insertion& i) { return s.hitBy(i); });
               });
    });
}

// visit(chosen) for each k-subset of [0, n), in lexicographic order.
void forEachSubset(size_t n, size_t k, const std::function<void(const std::vector<size_t>&)>& visit) {
    std::vector<size_t> chosen;
    std::function<void(size_t)> extend = [&](size_t from) {
        if (chosen.size() == k) return visit(chosen);
        for (size_t i = from; i + (k - chosen.size()) <= n; ++i) {
            chosen.push_back(i);
            extend(i + 1);
            chosen.pop_back();
        }
    };
    extend(0);
}

// The repaired program as the user reads it, checked again once printed and
// parsed back: a repair that only holds of the unprinted tree would be a bug.
void recheckPrinted(const LitmusTest& program, const Model& model, const CheckOptions& options) {
    const LitmusTest printed = parseLitmus(printLitmus(program), program.file);
    if (!checkRobustness(printed, model, options).robust())
        throw std::logic_error("repair of " + program.name + " is robust only before printing");
}

}  // namespace

std::string Insertion::text() const {
    const std::string n = std::to_string(node);
    const std::string what = kind == Kind::Poll     ? "poll(" + n + ")"
                             : kind == Kind::RFence ? "rfence(" + n + ")"
                             : kind == Kind::MFence ? std::string("mfence")
                                                    : "flush(" + n + ")";
    return what + " after line " + std::to_string(after.line) + " (P" + std::to_string(thread) + ")";
}

RepairResult repairRobustness(const LitmusTest& test, const Model& model, const CheckOptions& options,
                              const RobustnessWitness& witness, int maxInsertions) {
    if (test.arch != Arch::Rdma)
        throw InputError(SourceLoc{test.file, 0, 0}, "--repair inserts RDMA statements: RDMA tests only");
    const auto start = std::chrono::steady_clock::now();  // one --timeout for the whole search
    RepairResult result;
    result.maxInsertions = maxInsertions;
    const std::vector<Insertion> candidates = candidateInsertions(test);
    const Positions positions = statementPositions(test);
    std::vector<WitnessSegments> witnesses{segmentsOf(witness, positions)};
    for (int k = 1; k <= maxInsertions && result.repairs.empty() && result.stopped.empty(); ++k) {
        forEachSubset(candidates.size(), static_cast<size_t>(k), [&](const std::vector<size_t>& chosen) {
            if (!result.stopped.empty()) return;
            std::vector<Insertion> set;
            for (size_t i : chosen) set.push_back(candidates[i]);
            if (!hitsEveryWitness(set, witnesses)) return;
            ++result.candidates;
            LitmusTest program = withInsertions(test, set);
            program.name = test.name + "-repaired";
            RobustnessResult r;
            try {
                r = checkRobustness(program, model, withTimeLeft(options, start));
            } catch (const NothingToPoll&) {
                return;  // the insertions leave a poll of the program nothing to poll
            } catch (const TimeoutError& e) {
                result.stopped = e.detail();
                return;
            }
            if (!r.robust()) return witnesses.push_back(segmentsOf(*r.witness, positions));
            recheckPrinted(program, model, options);
            result.repairs.push_back({std::move(set), std::move(program)});
        });
    }
    for (size_t i = 0; result.repairs.size() > 1 && i < result.repairs.size(); ++i)
        result.repairs[i].program.name = test.name + "-repaired" + std::to_string(i + 1);
    return result;
}

}  // namespace rdmacheck
