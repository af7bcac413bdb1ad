#include "rdmacheck/repair.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "rdmacheck/parse.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/progress.hpp"

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

// Operations outstanding towards each node on one path (nodes with none left
// out), in the original program and in the one being rebuilt.
using Counts = std::map<int, int>;
using PathCounts = std::pair<Counts, Counts>;  // original, rebuilt
using Reaching = std::set<PathCounts>;         // over the paths reaching a point

int outstanding(const Counts& c, int node) {
    const auto it = c.find(node);
    return it == c.end() ? 0 : it->second;
}

void add(Counts& c, int node, int delta) {
    if ((c[node] += delta) == 0) c.erase(node);
}

// Rebuilds a thread's blocks with the insertions, following the operations
// each path has outstanding (as the unfolder does: a poll completes the oldest
// one towards its node, a path with none blocks there). A poll waits for an
// operation: where the insertions completed it on every path, an original poll
// would wait for nothing, and it goes (the insertion takes it over). A flush
// polls every operation outstanding where it stands, the same number on every
// path. An insertion set that would leave an original poll polling on some
// paths only, or a flush an unknown number, is not well formed: nothing else is.
class Inserter {
public:
    Inserter(LitmusTest& test, int thread, const std::vector<Insertion>& insertions, std::set<std::string>& used,
             int unroll)
        : test_(test), thread_(thread), insertions_(insertions), used_(used), unroll_(unroll) {}

    // The body with the insertions; nullopt when the set is not well formed.
    std::optional<Block> run(const Block& body) {
        Reaching at{PathCounts{}};
        Block out = rebuild(body, at);
        if (!wellFormed_) return std::nullopt;
        return out;
    }

    const std::vector<std::string>& replaced() const { return replaced_; }

private:
    Block rebuild(const Block& block, Reaching& at) {
        Block out;
        for (const Stmt& s : block) {
            statement(s, at, out);
            for (const Insertion& i : insertions_)
                if (i.thread == thread_ && i.after.line == s.where.line && i.after.column == s.where.column)
                    insert(i, at, out);
        }
        return out;
    }

    void statement(const Stmt& s, Reaching& at, Block& out) {
        Stmt copy = s;
        switch (s.kind) {
            case Stmt::Kind::If: {
                Reaching orelse = at;
                copy.body = rebuild(s.body, at);
                copy.orelse = rebuild(s.orelse, orelse);
                at.insert(orelse.begin(), orelse.end());
                break;
            }
            case Stmt::Kind::Choice: {
                Reaching exits;
                for (size_t b = 0; b < s.branches.size(); ++b) {
                    Reaching branch = at;
                    copy.branches[b] = rebuild(s.branches[b], branch);
                    exits.insert(branch.begin(), branch.end());
                }
                at = std::move(exits);
                break;
            }
            case Stmt::Kind::Loop:
            case Stmt::Kind::While: copy.body = loop(s.body, at); break;
            case Stmt::Kind::Poll:
                if (!keepPoll(s, at)) return;
                break;
            default:
                if (isRemoteOperation(s))
                    at = each(at, [&](PathCounts& p) {
                        add(p.first, towards(s), 1);
                        add(p.second, towards(s), 1);
                    });
        }
        out.push_back(std::move(copy));
    }

    // The body runs 0 to unroll times (a path that would stay longer is cut):
    // it is rebuilt once, for every state an iteration may start in.
    Block loop(const Block& body, Reaching& at) {
        Reaching starts, exits = at, current = at;
        {
            const bool dry = dryRun_;
            dryRun_ = true;  // the iterations only count: no statement or location is kept
            for (int k = 0; k < unroll_; ++k) {
                starts.insert(current.begin(), current.end());
                rebuild(body, current);
                exits.insert(current.begin(), current.end());
            }
            dryRun_ = dry;
        }
        at = std::move(exits);
        return rebuild(body, starts);
    }

    template <class Change>
    static Reaching each(const Reaching& at, const Change& change) {
        Reaching out;
        for (PathCounts p : at) {
            change(p);
            out.insert(std::move(p));
        }
        return out;
    }

    // An original poll: kept where it polls on the same paths as before,
    // dropped where the insertions left it nothing to poll on any path.
    bool keepPoll(const Stmt& s, Reaching& at) {
        const int n = s.node;
        const bool same = std::all_of(at.begin(), at.end(), [&](const PathCounts& p) {
            return (outstanding(p.first, n) > 0) == (outstanding(p.second, n) > 0);
        });
        const bool takenOver = !at.empty() && std::all_of(at.begin(), at.end(), [&](const PathCounts& p) {
            return outstanding(p.first, n) > 0 && outstanding(p.second, n) == 0;
        });
        if (!same && !takenOver) wellFormed_ = false;
        Reaching next;
        for (PathCounts p : at) {
            if (outstanding(p.first, n) == 0) continue;  // blocks here, as before
            add(p.first, n, -1);
            if (!takenOver) add(p.second, n, -1);
            next.insert(std::move(p));
        }
        at = std::move(next);
        if (takenOver && !dryRun_)
            replaced_.push_back("poll(" + std::to_string(n) + ") at line " + std::to_string(s.where.line) + " (P" +
                                std::to_string(thread_) + ")");
        return !takenOver;
    }

    void insert(const Insertion& i, Reaching& at, Block& out) {
        const SourceLoc where{kInserted, i.after.line, i.after.column};
        switch (i.kind) {
            case Insertion::Kind::Poll: poll(i.node, where, at, out); break;
            case Insertion::Kind::RFence: out.push_back(nodeStatement(Stmt::Kind::RFence, i.node, where)); break;
            case Insertion::Kind::MFence: out.push_back(nodeStatement(Stmt::Kind::MFence, 0, where)); break;
            case Insertion::Kind::Flush: flush(i.node, where, at, out); break;
        }
    }

    // An inserted poll follows an operation towards its node: it always polls.
    void poll(int node, const SourceLoc& where, Reaching& at, Block& out) {
        if (std::any_of(at.begin(), at.end(), [&](const PathCounts& p) { return outstanding(p.second, node) == 0; }))
            wellFormed_ = false;
        at = each(at, [&](PathCounts& p) {
            if (outstanding(p.second, node) > 0) add(p.second, node, -1);
        });
        out.push_back(nodeStatement(Stmt::Kind::Poll, node, where));
    }

    // `f := g^n` from a fresh location g on n into a fresh local f, then a poll
    // for each operation outstanding towards n and one for the get.
    void flush(int node, const SourceLoc& where, Reaching& at, Block& out) {
        std::set<int> counts;
        for (const PathCounts& p : at) counts.insert(outstanding(p.second, node));
        if (counts.size() > 1) wellFormed_ = false;
        at = each(at, [&](PathCounts& p) { p.second.erase(node); });
        if (dryRun_) return;
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
        for (int k = (counts.empty() ? 0 : *counts.begin()) + 1; k > 0; --k)
            out.push_back(nodeStatement(Stmt::Kind::Poll, node, where));
    }

    LitmusTest& test_;
    int thread_;
    const std::vector<Insertion>& insertions_;
    std::set<std::string>& used_;  // every name of the test and of the insertions so far
    int unroll_;
    bool dryRun_ = false;  // counting a loop's iterations
    bool wellFormed_ = true;
    std::vector<std::string> replaced_;  // the original polls the insertions took over
};

// The test with the insertions, and the polls they took over; nullopt when
// the set is not well formed (Inserter).
std::optional<Repair> withInsertions(const LitmusTest& test, const std::vector<Insertion>& insertions, int unroll) {
    Repair out{insertions, test, {}};
    std::set<std::string> used = namesOf(test);
    for (int t = 0; t < static_cast<int>(out.program.threads.size()); ++t) {
        Inserter inserter(out.program, t, insertions, used, unroll);
        std::optional<Block> body = inserter.run(test.threads[t].body);
        if (!body) return std::nullopt;
        out.program.threads[t].body = std::move(*body);
        out.replaced.insert(out.replaced.end(), inserter.replaced().begin(), inserter.replaced().end());
    }
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
    const ResourceGuard guard(test.file, options.limits);
    ProgressLine progress(test.name + ": repair", options.progress);
    RepairResult result;
    result.maxInsertions = maxInsertions;
    const std::vector<Insertion> candidates = candidateInsertions(test);
    const Positions positions = statementPositions(test);
    std::vector<WitnessSegments> witnesses{segmentsOf(witness, positions)};
    std::set<std::string> checked{printLitmus(test)};  // programs re-checked: sets that make the same one are skipped
    for (int k = 1; k <= maxInsertions && result.repairs.empty() && result.stopped.empty(); ++k) {
        result.size = k;
        forEachSubset(candidates.size(), static_cast<size_t>(k), [&](const std::vector<size_t>& chosen) {
            if (!result.stopped.empty()) return;
            std::vector<Insertion> set;
            for (size_t i : chosen) set.push_back(candidates[i]);
            if (!hitsEveryWitness(set, witnesses)) return;
            std::optional<Repair> repair = withInsertions(test, set, options.unroll);
            if (!repair || !checked.insert(printLitmus(repair->program)).second) return;
            repair->program.name = test.name + "-repaired";
            RobustnessResult r;
            progress.tick([&](double) {
                return counted(result.candidates, "candidate") + " checked, now sets of " + counted(k, "insertion") +
                       " (at most " + std::to_string(maxInsertions) + ")";
            });
            try {
                guard.check();
                r = checkRobustness(repair->program, model, withTimeLeft(options, start));
            } catch (const TimeoutError&) {  // e.detail() names the last candidate's share only
                result.stopped = "timeout: the " + guard.seconds() + " s of --timeout left for the search ran out";
                return;
            } catch (const LimitError& e) {
                result.stopped = e.detail();
                return;
            }
            ++result.candidates;
            if (!r.robust()) return witnesses.push_back(segmentsOf(*r.witness, positions));
            recheckPrinted(repair->program, model, options);
            result.repairs.push_back(std::move(*repair));
        });
    }
    for (size_t i = 0; result.repairs.size() > 1 && i < result.repairs.size(); ++i)
        result.repairs[i].program.name = test.name + "-repaired" + std::to_string(i + 1);
    return result;
}

}  // namespace rdmacheck
