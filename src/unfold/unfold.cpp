// Unfolding (stage 2): each thread's straight-line paths, with a library
// call lowered through its registry entry; validation is scan.cpp's and
// location resolution locations.cpp's.
#include "rdmacheck/unfold.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <set>

#include "dependencies.hpp"
#include "flags.hpp"
#include "locations.hpp"
#include "rdmacheck/library.hpp"
#include "scan.hpp"
#include "wrap32.hpp"

namespace rdmacheck {

namespace {

// Where a thread is in its program: a stack of blocks being run.
struct Frame {
    const Block* block;
    size_t next = 0;
    const Stmt* loop = nullptr;  // set when this frame is one iteration of a loop body
    int iteration = 0;           // iterations started so far, this one included
};

struct PathState {
    ThreadPath path;
    int openCall = -1;  // while a call lowers into several subevents: the index of its first
    std::vector<Frame> frames;
    std::map<int, std::deque<int>> unpolled;  // remote node -> NIC writes not yet polled
    std::map<size_t, int> jumpsBack;           // X86: jumps back taken so far, per instruction jumped back to
    RegisterFlow flow;                         // X86: herd7's dependencies so far
};

class ThreadUnfolder {
public:
    ThreadUnfolder(const ThreadDecl& thread, int threadIndex, const LitmusTest& test, LocationTable& locations,
                   const UnfoldOptions& options)
        : thread_(thread),
          index_(threadIndex),
          locations_(locations),
          options_(options) {
        for (const auto& [key, value] : test.registerInit) {
            size_t colon = key.find(':');
            if (std::stoi(key.substr(0, colon)) == threadIndex) initialRegisters_[key.substr(colon + 1)] = value;
        }
        for (size_t i = 0; i < thread.body.size(); ++i)
            if (thread.body[i].kind == Stmt::Kind::Label) labels_.emplace(thread.body[i].label, i);
    }

    std::vector<ThreadPath> run() {
        PathState start;
        for (const auto& [reg, value] : initialRegisters_) start.path.registers[reg] = Value::of(value);
        start.frames.push_back(Frame{&thread_.body});
        // Depth-first in program order, with an explicit stack: thousands of statements must not recurse.
        std::vector<PathState> pending;
        pending.push_back(std::move(start));
        while (!pending.empty()) {
            PathState s = std::move(pending.back());
            pending.pop_back();
            step(std::move(s));
            std::move(forks_.rbegin(), forks_.rend(), std::back_inserter(pending));
            forks_.clear();
        }
        for (const auto& [stmt, polled] : pollReached_)
            if (!polled)
                throw NothingToPoll(stmt->where, "poll(" + std::to_string(stmt->node) +
                                                  ") has no earlier put, get or RMW towards node " +
                                                  std::to_string(stmt->node) + " left to poll: it would block forever");
        return std::move(done_);
    }

private:
    void finish(PathState&& s) {
        if (done_.size() >= options_.maxPaths)
            throw InputError(thread_.where, "thread " + thread_.name + " has more than " +
                                                std::to_string(options_.maxPaths) +
                                                " paths; lower --unroll or simplify the test");
        done_.push_back(std::move(s.path));
    }

    // Every event made, on a path or a copy of one, counts against maxEvents, so
    // unfolding takes time and memory linear in that bound whatever the program.
    void spend(size_t events) {
        spent_ += events;
        if (spent_ > options_.maxEvents)
            throw InputError(thread_.where, "unfolding thread " + thread_.name + " makes more than " +
                                                std::to_string(options_.maxEvents) +
                                                " events; lower --unroll or simplify the test");
    }

    // A copy of s for another branch of the program.
    PathState fork(const PathState& s) {
        spend(s.path.events.size());
        return s;
    }

    // s runs on after the statement being stepped (in the order given).
    void continueWith(PathState&& s) { forks_.push_back(std::move(s)); }

    int emit(PathState& s, EventKind kind, int location, int remote, const SourceLoc& where, Value written = Value()) {
        spend(1);
        Event e;
        e.kind = kind;
        e.thread = index_;
        e.location = location;
        e.remote = remote;
        e.written = std::move(written);
        e.where = where;
        const int index = static_cast<int>(s.path.events.size());
        e.call = s.openCall >= 0 ? s.openCall : index;
        s.path.events.push_back(std::move(e));
        return index;
    }

    // Events emitted until endCall are the subevents of one call.
    static void beginCall(PathState& s) { s.openCall = static_cast<int>(s.path.events.size()); }
    static void endCall(PathState& s) { s.openCall = -1; }

    // Work identifiers are per thread; none (`_` or not written) is -1.
    int workIdOf(const std::string& name) {
        if (name.empty() || name == "_") return -1;
        return workIds_.emplace(name, static_cast<int>(workIds_.size())).first->second;
    }

    // Lowers a library call into its subevents (one call), with the CPU read of
    // a local-location argument before it and the write of its result after it.
    void libraryCall(PathState& s, const Stmt& st) {
        const Library library = *findLibrary(st.library);
        const MethodSignature& m = *libraryDescriptor(library).method(st.method);
        std::vector<CallArgument> args(st.args.size());
        for (size_t i = 0; i < st.args.size(); ++i) {
            const CallArg& a = st.args[i];
            switch (m.arg(i)) {
                case ArgKind::Variable:
                case ArgKind::Name: args[i].variable = a.expr.name; break;
                case ArgKind::Out: break;  // written after the call (CallEmitter::output)
                case ArgKind::HomedName:
                    args[i].variable = a.expr.name;
                    args[i].nodes = {a.expr.remoteNode};
                    break;
                case ArgKind::Work: args[i].work = workIdOf(a.expr.name); break;
                case ArgKind::Nodes: args[i].nodes = a.nodes; break;
                case ArgKind::Value:
                    if (a.expr.kind == Expr::Kind::Const) {
                        args[i].value = Value::of(a.expr.value);
                    } else {
                        const int l = locations_.local(LocRef{a.expr.name, std::nullopt, a.expr.where}, thread_.node);
                        args[i].value = Value::readBy(emit(s, EventKind::LR, l, 0, a.where));
                    }
                    break;
            }
        }
        auto call = [&](PathState& path, int outcome) {
            Value result = lower(path, st, library, st.method, args, outcome);
            if (st.hasResult) emit(path, EventKind::LW, locations_.local(st.target, thread_.node), 0, st.where, result);
        };
        // Each further outcome (a failed CAS) is a path of its own.
        for (int outcome = 1; outcome < libraryDescriptor(library).outcomes(st.method); ++outcome) {
            PathState other = fork(s);
            call(other, outcome);
            continueWith(std::move(other));
        }
        call(s, 0);
    }

    // `gfence(1, 2)`: the method of a library, with the nodes as its one argument.
    void gfence(PathState& s, const Stmt& st) {
        const LibraryMethod gf = findStatementMethod("gfence").value();
        CallArgument nodes;
        nodes.nodes = st.nodes;
        lower(s, st, gf.library, gf.signature->name, {nodes}, 0);
    }

    // The subevents of one call of a library method; returns its result.
    Value lower(PathState& s, const Stmt& st, Library library, const std::string& method,
                const std::vector<CallArgument>& args, int outcome) {
        struct Emitter : CallEmitter {
            ThreadUnfolder& u;
            PathState& s;
            const Stmt& st;
            Library library;
            Emitter(ThreadUnfolder& u, PathState& s, const Stmt& st, Library l) : u(u), s(s), st(st), library(l) {}
            int node() const override { return u.thread_.node; }
            int copyOf(const std::string& variable, int n) override { return u.locations_.copyOf(variable, n); }
            int namedObject(const std::string& name) override { return u.locations_.namedObject(name); }
            int declared(const std::string& name) const override { return u.locations_.find(name); }
            void constrain(Value lhs, Comparison op, Value rhs) override {
                s.path.constraints.push_back(ValueConstraint{std::move(lhs), op, std::move(rhs), st.where});
            }
            void setWritten(int event, Value written) override { s.path.events[event].written = std::move(written); }
            void output(size_t argument, Value value) override { outputs.emplace_back(argument, std::move(value)); }
            void send(int event, std::vector<Value> message) override { s.path.events[event].message = std::move(message); }
            std::vector<std::pair<size_t, Value>> outputs;
            std::vector<int> participantNodes(const std::string& name) const override {
                return u.locations_.participantNodes(name);
            }
            std::vector<int> allNodes() const override { return u.locations_.allNodes(); }
            int emit(EventKind kind, int location, int remote, int work, Value written) override {
                const int e = u.emit(s, kind, location, remote, st.where, std::move(written));
                s.path.events[e].workId = work;
                s.path.events[e].library = library;
                return e;
            }
        } out(*this, s, st, library);
        beginCall(s);
        Value result = libraryDescriptor(library).lower(method, args, out, outcome);
        endCall(s);
        for (auto& [argument, value] : out.outputs) {
            const CallArg& a = st.args.at(argument);
            const int target = locations_.local(LocRef{a.expr.name, std::nullopt, a.where}, thread_.node);
            emit(s, EventKind::LW, target, 0, a.where, std::move(value));
        }
        return result;
    }

    // Value of an expression whose locations have already been read (readOf).
    Value valueOf(const Expr& e, const PathState& s, const std::map<std::string, int>& readOf) {
        switch (e.kind) {
            case Expr::Kind::Const: return Value::of(e.value);
            case Expr::Kind::Location: return Value::readBy(readOf.at(e.name));
            case Expr::Kind::Register: {
                auto it = s.path.registers.find(e.name);
                return it == s.path.registers.end() ? Value::of(0) : it->second;
            }
            case Expr::Kind::Operation: break;
        }
        std::vector<Value> args;
        for (const Expr& a : e.args) args.push_back(operandValue(a, valueOf(a, s, readOf)));
        return foldedFlag(Value::operation(e.op, std::move(args)));
    }

    // Emits one lR per location of `reads` (expression number, location occurrence), then continues; every
    // permutation is an unfolding (only the text's order without everyOrder).
    template <class Continue>
    void forEachReadOrder(PathState&& s, std::vector<std::pair<int, const Expr*>> reads, const Continue& k,
                          bool everyOrder = true) {
        std::vector<size_t> perm(reads.size());
        for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
        for (bool more = true; more;) {
            const std::vector<size_t> order = perm;
            more = everyOrder && std::next_permutation(perm.begin(), perm.end());
            PathState branch = more ? fork(s) : std::move(s);
            std::vector<std::map<std::string, int>> readOf(4);
            for (size_t i : order) {
                const Expr* loc = reads[i].second;
                int l = locations_.local(LocRef{loc->name, std::nullopt, loc->where}, thread_.node);
                readOf[reads[i].first][loc->name] = emit(branch, EventKind::LR, l, 0, loc->where);
            }
            k(std::move(branch), readOf);
        }
    }

    static void locationOccurrences(const Expr& e, int exprNumber, std::vector<std::pair<int, const Expr*>>& out) {
        e.forEach([&](const Expr& x) {
            auto seen = [&](const auto& o) { return o.first == exprNumber && o.second->name == x.name; };
            if (x.kind == Expr::Kind::Location && std::none_of(out.begin(), out.end(), seen)) out.emplace_back(exprNumber, &x);
        });
    }

    // A test `E1 CMP E2` (CMP replaced by `op`): the CPU reads each location of the two sides once, in every
    // order (as an assignment does; in the text's order only for Stmt::readsInTextOrder), then the path keeps
    // its executions where the comparison holds; k continues each.
    template <class Continue>
    void test(PathState&& s, const Stmt& st, Comparison op, const Continue& k) {
        std::vector<std::pair<int, const Expr*>> reads;
        locationOccurrences(st.expr, 0, reads);
        locationOccurrences(st.expr2, 0, reads);
        forEachReadOrder(
            std::move(s), reads,
            [&](PathState&& b, const auto& readOf) {
                Value lhs = valueOf(st.expr, b, readOf[0]), rhs = valueOf(st.expr2, b, readOf[0]);
                testFlagDirectly(lhs, op, rhs);
                // Two constants that fail the test (a register a jump out of a loop set): no path, not an empty one.
                if (lhs.kind == Value::Kind::Const && rhs.kind == Value::Kind::Const &&
                    !holds(op, lhs.constant, rhs.constant))
                    return;
                b.path.constraints.push_back(ValueConstraint{std::move(lhs), op, std::move(rhs), st.where});
                k(std::move(b));
            },
            !st.readsInTextOrder);
    }

    // With UnfoldOptions::prefixes, a path that stops here, before a test reads.
    void prefixBefore(const PathState& s) {
        if (!options_.prefixes) return;
        PathState prefix = fork(s);
        prefix.frames.clear();
        continueWith(std::move(prefix));
    }

    // Runs the next statement of s; what runs on goes to continueWith, one state
    // per branch of the program.
    void step(PathState&& s) {
        const Stmt* next = nextStatement(s);
        if (!next) return;
        const Stmt& st = *next;
        const size_t first = s.path.events.size();
        switch (st.kind) {
            case Stmt::Kind::Assign: assign(std::move(s), st); return;
            case Stmt::Kind::Get: get(s, st); break;
            case Stmt::Kind::Put: put(s, st); break;
            case Stmt::Kind::Wait: setWorkId(s, emit(s, EventKind::WT, -1, 0, st.where), st.workId); break;
            case Stmt::Kind::GFence: gfence(s, st); break;
            case Stmt::Kind::Call: libraryCall(s, st); break;
            case Stmt::Kind::Poll:
                if (!poll(s, st)) return;  // blocks forever: no execution along this path
                break;
            case Stmt::Kind::RFence: emit(s, EventKind::NF, -1, st.node, st.where); break;
            case Stmt::Kind::MFence: emit(s, EventKind::F, -1, 0, st.where); break;
            case Stmt::Kind::SFence:
            case Stmt::Kind::LFence:
                if (options_.herdEvents)
                    s.path.events[emit(s, EventKind::F, -1, 0, st.where)].weakFence =
                        st.kind == Stmt::Kind::SFence ? WeakFence::Store : WeakFence::Load;
                break;
            case Stmt::Kind::Cas: cas(std::move(s), st); return;
            case Stmt::Kind::RCas:
            case Stmt::Kind::RFaa: remoteRmw(s, st); break;
            case Stmt::Kind::Assume:
                prefixBefore(s);
                test(std::move(s), st, st.compare, [&](PathState&& b) { continueWith(std::move(b)); });
                return;
            case Stmt::Kind::If: ifThenElse(std::move(s), st); return;
            case Stmt::Kind::Choice:
                for (const Block& b : st.branches) {
                    PathState branch = fork(s);
                    branch.frames.push_back(Frame{&b});
                    continueWith(std::move(branch));
                }
                return;
            case Stmt::Kind::Loop:
            case Stmt::Kind::While: loopHead(std::move(s), st, 0); return;
            case Stmt::Kind::RegAssign: s.path.setRegister(st.result, valueOf(st.expr, s, {})); break;
            case Stmt::Kind::RegLoad:
                s.path.registers[st.result] =
                    Value::readBy(emit(s, EventKind::LR, locations_.local(st.target, thread_.node), 0, st.where));
                break;
            case Stmt::Kind::Xchg: xchg(s, st); break;
            case Stmt::Kind::LockedUpdate:
            case Stmt::Kind::UnlockedUpdate: update(s, st); break;
            case Stmt::Kind::MemoryMove: memoryMove(s, st); break;
            case Stmt::Kind::MemoryExchange: memoryExchange(s, st); break;
            case Stmt::Kind::Label: break;
            case Stmt::Kind::Jump: jump(std::move(s), st); return;
        }
        if (options_.dependencies) s.flow.after(st, s.path, first);
        continueWith(std::move(s));
    }

    // The statement s runs next, or null when s ended (finished, or handed to
    // the head of the loop whose body it completed).
    const Stmt* nextStatement(PathState& s) {
        for (;;) {
            if (s.frames.empty()) {
                finish(std::move(s));
                return nullptr;
            }
            Frame& top = s.frames.back();
            if (top.next < top.block->size()) return &(*top.block)[top.next++];
            if (top.loop) {
                const Stmt* loop = top.loop;
                const int iteration = top.iteration;
                s.frames.pop_back();
                loopHead(std::move(s), *loop, iteration);
                return nullptr;
            }
            s.frames.pop_back();
        }
    }

    // x := E, once per order of the locations E reads.
    void assign(PathState&& s, const Stmt& st) {
        const int target = locations_.local(st.target, thread_.node);
        std::vector<std::pair<int, const Expr*>> reads;
        locationOccurrences(st.expr, 0, reads);
        forEachReadOrder(std::move(s), reads, [&](PathState&& b, const auto& readOf) {
            emit(b, EventKind::LW, target, 0, st.where, valueOf(st.expr, b, readOf[0]));
            if (options_.dependencies) b.flow.after(st, b.path, b.path.events.size() - 1);
            continueWith(std::move(b));
        });
    }

    // x := y^n: nrR then nlW, one call, polled from n.
    void get(PathState& s, const Stmt& st) {
        const int target = locations_.local(st.target, thread_.node);  // first: locations are numbered by use
        nicCopy(s, st, EventKind::NRR, locations_.remote(st.source), EventKind::NLW, target, *st.source.node);
    }

    // x^n := y (or a constant): nlR then nrW, one call, polled from n.
    void put(PathState& s, const Stmt& st) {
        const int target = locations_.remote(st.target);
        const int source = st.sourceIsConst ? locations_.hiddenConstant(st, thread_.node)
                                            : locations_.local(st.source, thread_.node);
        nicCopy(s, st, EventKind::NLR, source, EventKind::NRW, target, *st.target.node);
    }

    // A get or a put: the NIC reads `from` and writes its value to `to`, one call
    // towards `remote`, with the statement's work identifier, polled from there.
    void nicCopy(PathState& s, const Stmt& st, EventKind readKind, int from, EventKind writeKind, int to, int remote) {
        beginCall(s);
        const int read = emit(s, readKind, from, remote, st.where);
        const int write = emit(s, writeKind, to, remote, st.where, Value::readBy(read));
        endCall(s);
        setWorkId(s, read, st.workId);
        s.unpolled[remote].push_back(write);
    }

    // poll(n) completes the oldest unpolled operation towards n; false when
    // there is none (the poll blocks forever).
    bool poll(PathState& s, const Stmt& st) {
        auto& queue = s.unpolled[st.node];
        const bool hasWork = !queue.empty();
        pollReached_[&st] = pollReached_[&st] || hasWork;
        if (!hasWork) return false;
        const int poll = emit(s, EventKind::P, -1, st.node, st.where);
        s.path.pollsFrom.emplace_back(queue.front(), poll);
        queue.pop_front();
        return true;
    }

    // CAS(x, E1, E2, z): success and failure, once per order of the locations read.
    void cas(PathState&& s, const Stmt& st) {
        const int target = locations_.local(st.target, thread_.node);
        const int result = locations_.local(st.source, thread_.node);
        std::vector<std::pair<int, const Expr*>> reads;
        locationOccurrences(st.expr, 0, reads);
        locationOccurrences(st.expr2, 1, reads);
        std::sort(reads.begin(), reads.end());
        forEachReadOrder(std::move(s), reads, [&](PathState&& b, const auto& readOf) {
            Value expected = valueOf(st.expr, b, readOf[0]);
            Value desired = valueOf(st.expr2, b, readOf[1]);
            PathState failure = fork(b);
            // Success: CAS(x, expected, desired) then z := expected.
            const int cas = emit(b, EventKind::CAS, target, 0, st.where, desired);
            b.path.constraints.push_back(ValueConstraint{Value::readBy(cas), Comparison::Eq, expected, st.where});
            emit(b, EventKind::LW, result, 0, st.where, expected);
            continueWith(std::move(b));
            // Failure: a fence, a read of v != expected, then z := v (RMW App. D.3);
            // the fence and the read are one call, stamped {aMF, aCR} (LOCO §3.3, RMW §3.2).
            beginCall(failure);
            emit(failure, EventKind::F, -1, 0, st.where);
            const int read = emit(failure, EventKind::LR, target, 0, st.where);
            endCall(failure);
            failure.path.constraints.push_back(ValueConstraint{Value::readBy(read), Comparison::Ne, expected, st.where});
            emit(failure, EventKind::LW, result, 0, st.where, Value::readBy(read));
            continueWith(std::move(failure));
        });
    }

    // RCAS and RFAA: narR, narW (not for a failed RCAS, which continues on its
    // own path), then nlW of the old value (RMW App. D.2).
    void remoteRmw(PathState& s, const Stmt& st) {
        const int target = locations_.remote(st.target);
        const int remote = *st.target.node;
        const int result = locations_.rmwResult(st, thread_.node);
        beginCall(s);
        PathState failure = fork(s);
        const int read = emit(s, EventKind::NAR, target, remote, st.where);
        if (st.kind == Stmt::Kind::RCas) {
            s.path.constraints.push_back(
                ValueConstraint{Value::readBy(read), Comparison::Eq, Value::of(st.expr.value), st.where});
            emit(s, EventKind::NAW, target, remote, st.where, Value::of(st.expr2.value));
        } else {
            emit(s, EventKind::NAW, target, remote, st.where,
                 Value::operation(Operator::Add, {Value::readBy(read), Value::of(st.expr.value)}));
        }
        s.unpolled[remote].push_back(emit(s, EventKind::NLW, result, remote, st.where, Value::readBy(read)));
        endCall(s);
        setWorkId(s, read, st.workId);
        if (st.kind != Stmt::Kind::RCas) return;
        const int failed = emit(failure, EventKind::NAR, target, remote, st.where);
        failure.path.constraints.push_back(
            ValueConstraint{Value::readBy(failed), Comparison::Ne, Value::of(st.expr.value), st.where});
        failure.unpolled[remote].push_back(emit(failure, EventKind::NLW, result, remote, st.where, Value::readBy(failed)));
        endCall(failure);
        setWorkId(failure, failed, st.workId);
        continueWith(std::move(failure));
    }

    // if (T) {S1} else {S2}: the test, or its negation, then the branch.
    void ifThenElse(PathState&& s, const Stmt& st) {
        prefixBefore(s);
        PathState otherwise = fork(s);
        test(std::move(s), st, st.compare, [&](PathState&& b) {
            b.frames.push_back(Frame{&st.body});
            continueWith(std::move(b));
        });
        test(std::move(otherwise), st, negated(st.compare), [&](PathState&& b) {
            b.frames.push_back(Frame{&st.orelse});
            continueWith(std::move(b));
        });
    }

    // x86 XCHG: one locked update of the location with the register's value.
    void xchg(PathState& s, const Stmt& st) {
        const Value old = s.path.registers.count(st.result) ? s.path.registers[st.result] : Value::of(0);
        const int read = lockedAccess(s, st);
        s.path.registers[st.result] = Value::readBy(read);
        s.path.events.back().written = old;
    }

    // x86 ADD/INC/DEC/XOR/OR of memory: the value read plus (xor, or) the operand, into the result register too
    // (the flags'). Locked, one update; unlocked, herd7's read and write in no po: under herd7's models only.
    void update(PathState& s, const Stmt& st) {
        const bool locked = st.kind == Stmt::Kind::LockedUpdate;
        if (!st.source.name.empty()) return memoryUpdate(s, st, locked);
        if (!locked)
            requireHerdEvents(st, "an unlocked read-modify-write of memory",
                              "lock it, or MOV to a register, update it and MOV back");
        const int read = locked ? lockedAccess(s, st) : unlockedAccess(s, st.target, st.target, st.where);
        Value operand = operandValue(st.expr, valueOf(st.expr, s, {}));
        Value updated = Value::operation(st.update, {Value::readBy(read), std::move(operand)});
        if (!st.result.empty()) s.path.setRegister(st.result, updated);
        s.path.events.back().written = std::move(updated);
    }

    // ADD/XOR/OR [x],[y] as herd7 7.58 builds it (X86Sem's do_op): reads of y and x and the write of x, in no
    // po with each other; under LOCK x's read and write are locked, y's read is not (do_op passes its lock
    // flag to the read of the operand as the data port).
    void memoryUpdate(PathState& s, const Stmt& st, bool locked) {
        requireHerdEvents(st, "an update of memory with memory", "read one of them into a register first");
        beginCall(s);
        const int operand = emit(s, EventKind::LR, locations_.local(st.source, thread_.node), 0, st.where);
        const auto [read, write] = readThenWrite(s, st.target, st.target, st.where);
        endCall(s);
        for (int e : {operand, read, write}) s.path.events[e].outOfPo = true;
        if (locked) lock(s, read, write);
        Value updated = Value::operation(st.update, {Value::readBy(read), Value::readBy(operand)});
        if (!st.result.empty()) s.path.setRegister(st.result, updated);
        s.path.events[write].written = std::move(updated);
    }

    // MOV [target],[source]: the write takes the value read.
    void memoryMove(PathState& s, const Stmt& st) {
        requireHerdEvents(st, "a MOV from memory to memory", "MOV to a register and from it");
        s.path.events.back().written = Value::readBy(unlockedAccess(s, st.source, st.target, st.where));
    }

    // XCHG [x],[y] as herd7 builds it (herd/event.ml's exch_comp): locked reads of x and y and writes of the
    // values to y and x, in no po with each other; rmw joins each location's read and write (atomic pairs).
    void memoryExchange(PathState& s, const Stmt& st) {
        requireHerdEvents(st, "XCHG of two memory locations", "exchange through a register");
        beginCall(s);
        const int x = locations_.local(st.target, thread_.node), y = locations_.local(st.source, thread_.node);
        const int readX = emit(s, EventKind::LR, x, 0, st.where);
        const int readY = emit(s, EventKind::LR, y, 0, st.where);
        const int writeX = emit(s, EventKind::LW, x, 0, st.where, Value::readBy(readY));
        const int writeY = emit(s, EventKind::LW, y, 0, st.where, Value::readBy(readX));
        endCall(s);
        for (int e : {readX, readY, writeX, writeY}) s.path.events[e].outOfPo = true;
        lock(s, readX, writeX);
        lock(s, readY, writeY);
    }

    // herd7's locked read and write of one location, joined by rmw.
    static void lock(PathState& s, int read, int write) {
        s.path.events[read].locked = s.path.events[write].locked = true;
        s.path.lockedPairs.emplace_back(read, write);
    }

    void requireHerdEvents(const Stmt& st, const std::string& what, const std::string& instead) const {
        if (!options_.herdEvents)
            throw InputError(st.where, what + " is supported only under a model in herd7's terms (herd7's x86tso.cat, "
                                       "say): herd7 leaves its reads and writes unordered within the instruction, "
                                       "which rdmacheck's own models and the machines do not; " + instead);
    }

    // The read and write of one unlocked instruction (the write last), one call, out of po; returns the read.
    int unlockedAccess(PathState& s, const LocRef& from, const LocRef& to, const SourceLoc& where) {
        beginCall(s);
        const auto [read, write] = readThenWrite(s, from, to, where);
        endCall(s);
        s.path.events[read].outOfPo = s.path.events[write].outOfPo = true;
        return read;
    }

    // herd7's two events of an X86 instruction that reads `from` and writes `to`.
    std::pair<int, int> readThenWrite(PathState& s, const LocRef& from, const LocRef& to, const SourceLoc& where) {
        const int read = emit(s, EventKind::LR, locations_.local(from, thread_.node), 0, where);
        return {read, emit(s, EventKind::LW, locations_.local(to, thread_.node), 0, where)};
    }

    // A locked instruction's events, its write last (the caller gives its value); returns the read. One CAS
    // event, or for a model in herd7's terms herd7's read and write joined by rmw.
    int lockedAccess(PathState& s, const Stmt& st) {
        if (!options_.herdEvents)
            return emit(s, EventKind::CAS, locations_.local(st.target, thread_.node), 0, st.where);
        const auto [read, write] = readThenWrite(s, st.target, st.target, st.where);
        lock(s, read, write);
        return read;
    }

    // Gives the work identifier to the call that starts at `first`.
    void setWorkId(PathState& s, int first, const std::string& name) {
        const int id = workIdOf(name);
        for (size_t e = first; e < s.path.events.size(); ++e) s.path.events[e].workId = id;
    }

    // At the head of a loop after `iterations` iterations: leave, or run once more,
    // or (at the bound) stop the path and record that the bound cut it.
    void loopHead(PathState&& s, const Stmt& loop, int iterations) {
        const bool isWhile = loop.kind == Stmt::Kind::While;
        PathState again = fork(s);
        auto leave = [&](PathState&& b) { continueWith(std::move(b)); };
        auto stay = [&](PathState&& b) {
            if (iterations >= options_.unroll) {
                cut(b, loop);
            } else {
                b.frames.push_back(Frame{&loop.body, 0, &loop, iterations + 1});
            }
            continueWith(std::move(b));
        };
        // `while (T) {S}` is `loop { assume(T); S }; assume(!T)`.
        if (isWhile) {
            prefixBefore(s);
            test(std::move(s), loop, negated(loop.compare), leave);
            test(std::move(again), loop, loop.compare, stay);
        } else {
            leave(std::move(s));
            stay(std::move(again));
        }
    }

    // The bound stops the path at `loop` (a loop, or an X86 jump back).
    static void cut(PathState& s, const Stmt& loop) {
        s.path.cut = true;
        s.path.cutAt = loop.where;
        s.frames.clear();  // ends where the path order puts it, after the other branch's paths
    }

    // An X86 jump: on where its test fails, or at its label where it holds,
    // the branch that goes forward in the code first (as `if` and `while` order
    // theirs). Jumps back count per instruction jumped back to, along the path,
    // and --unroll bounds each count as herd7's -unroll does (herd/mem.ml).
    void jump(PathState&& s, const Stmt& st) {
        const size_t label = labels_.at(st.label);
        const bool back = label < s.frames.back().next;  // X86 code is one flat block
        auto go = [&](PathState&& b, bool jumps) {
            if (jumps && back && b.jumpsBack[instructionAt(label)]++ >= options_.unroll) {
                cut(b, st);
            } else if (jumps) {
                b.frames.back().next = label;
            }
            continueWith(std::move(b));
        };
        const bool firstJumps = !back;
        PathState second = fork(s);
        if (st.expr.kind != Expr::Kind::Const) prefixBefore(s);  // JMP tests nothing
        test(std::move(s), st, firstJumps ? st.compare : negated(st.compare),
             [&](PathState&& b) { go(std::move(b), firstJumps); });
        test(std::move(second), st, firstJumps ? negated(st.compare) : st.compare,
             [&](PathState&& b) { go(std::move(b), !firstJumps); });
    }

    // The instruction a label names: labels side by side name one.
    size_t instructionAt(size_t label) const {
        while (label < thread_.body.size() && thread_.body[label].kind == Stmt::Kind::Label) ++label;
        return label;
    }

    const ThreadDecl& thread_;
    int index_;
    LocationTable& locations_;
    const UnfoldOptions& options_;
    std::map<std::string, long long> initialRegisters_;
    std::map<const Stmt*, bool> pollReached_;
    std::map<std::string, int> workIds_;
    std::map<std::string, size_t> labels_;  // X86: each label's place in the thread's code
    std::vector<ThreadPath> done_;
    std::vector<PathState> forks_;  // what the statement being stepped continues with
    size_t spent_ = 0;              // events made so far
};

}  // namespace

UnfoldedProgram unfold(const LitmusTest& test, const UnfoldOptions& options) {
    if (options.unroll < 0) throw InputError(SourceLoc{test.file, 1, 1}, "--unroll must be >= 0");
    const TestScan scan(test);
    LocationTable locations(test, scan);
    UnfoldedProgram program;
    for (size_t t = 0; t < test.threads.size(); ++t) {
        ThreadUnfolder unfolder(test.threads[t], static_cast<int>(t), test, locations, options);
        program.paths.push_back(unfolder.run());
    }
    program.observed = resolveObservedNames(test, locations);
    program.participants = locations.participants();
    program.hiddenLocations = locations.hiddenByStatement();
    program.locations = locations.take();
    if (test.arch == Arch::X86 && mayLeave32Bits(program)) wrapTo32Bits(program);
    return program;
}

}  // namespace rdmacheck
