// The ring buffer RBL (LOCO §5.1): one writer submits
// messages to a buffer q, its readers receive them. `ok := rbl.submit(q, v1,
// .., vk)` succeeds (ok := 1) or fails spuriously (ok := 0); a success is an
// aCW for the writer node's copy and an aNRW_n for each other node with a
// reader, a failure an aWT. `ok := rbl.receive(q, c1, .., ck)` succeeds (aCR;
// ok := 1, c_i := v_i) or finds nothing (aWT; ok := 0). By Def. 5.1 (4) and
// (5) a reader's j-th success reads the j-th successful submit (§9.2), so rf
// and fb follow from the paths: they are the static relations "rf-msg" and
// "fb", and so = rf ∪ fb is model text (models/_wait.cat: rbl-so).
#include <map>

#include "libraries/rbl/rbl.hpp"
#include "rdmacheck/generate.hpp"
#include "rdmacheck/unfold.hpp"

namespace rdmacheck::rbl {

namespace {

// One buffer's calls on a path combination.
struct BufferCalls {
    // Per successful submit, in po order: its subevent for each node's copy.
    std::vector<std::map<int, int>> submits;
    std::vector<int> messages;  // per successful submit: its aCW, which carries its message
    // Per reader thread: its receives (successful or not), in po order.
    std::map<int, std::vector<int>> receives;
};

std::map<int, BufferCalls> buffersOf(const ExecutionGraph& sk) {
    const Library self = *findLibrary("rbl");
    std::map<int, BufferCalls> buffers;
    for (size_t t = 0; t < sk.threadEvents.size(); ++t)
        for (int e : sk.threadEvents[t]) {
            const Event& ev = sk.events[e];
            if (ev.library != self) continue;
            BufferCalls& q = buffers[ev.location];
            if (ev.kind == SUBCW) {  // a submit's first subevent
                q.submits.emplace_back();
                q.messages.push_back(e);
            }
            if (ev.kind == SUBCW || ev.kind == SUBNRW) q.submits.back()[ev.remote] = e;
            if (ev.kind == RECV || ev.kind == RECVF) q.receives[static_cast<int>(t)].push_back(e);
        }
    return buffers;
}

// Calls `matched(receive, submit)` for every successful receive and the
// submit it reads (the reader's j-th success reads the j-th submit), and
// `failed(receive, first)` for every failed receive and the first submit its
// thread has not received before it. Returns false if a reader succeeds more
// often than the writer.
template <class Matched, class Failed>
bool match(const ExecutionGraph& sk, const BufferCalls& q, const Matched& matched, const Failed& failed) {
    for (const auto& [thread, receives] : q.receives) {
        size_t received = 0;
        for (int r : receives) {
            if (sk.events[r].kind == RECVF) {
                failed(r, received);
                continue;
            }
            if (received == q.submits.size()) return false;
            matched(r, received++);
        }
    }
    return true;
}

// The copy of submit j that a receive on node n reads.
int copyFor(const ExecutionGraph& sk, const BufferCalls& q, size_t j, int receive) {
    return q.submits[j].at(sk.events[receive].remote);
}

std::vector<std::pair<int, int>> readsFrom(const ExecutionGraph& sk) {
    std::vector<std::pair<int, int>> pairs;
    for (const auto& located : buffersOf(sk)) {
        const BufferCalls& q = located.second;  // not a structured binding: lambdas capture it (C++17)
        match(sk, q, [&](int r, size_t j) { pairs.emplace_back(copyFor(sk, q, j, r), r); }, [](int, size_t) {});
    }
    return pairs;
}

// fb: a failed receive before the copy, on its node, of every submit its
// thread has not received before it ((F × W) \ (po^-1 ; rf^-1)).
std::vector<std::pair<int, int>> failedBefore(const ExecutionGraph& sk) {
    std::vector<std::pair<int, int>> pairs;
    for (const auto& located : buffersOf(sk)) {
        const BufferCalls& q = located.second;
        match(sk, q, [](int, size_t) {},
              [&](int f, size_t first) {
                  for (size_t j = first; j < q.submits.size(); ++j) pairs.emplace_back(f, copyFor(sk, q, j, f));
              });
    }
    return pairs;
}

// v with each value received by `receive` replaced by the message's.
void bind(Value& v, int receive, const std::vector<Value>& message) {
    if (v.isReceived() && v.event == receive) {
        v = message.at(static_cast<size_t>(v.constant - 1));
        return;
    }
    for (Value& a : v.args) bind(a, receive, message);
}

class RingBuffers : public LibraryDescriptor {
public:
    RingBuffers()
        : LibraryDescriptor("rbl", {
                                       {"submit", {ArgKind::Name, ArgKind::Value}, true, false, "", true, true},
                                       {"receive", {ArgKind::Name, ArgKind::Out}, true, false, "", true, true},
                                   }) {}

    // `rbl.submit(q, ...)`, `rbl.receive(q, ...)` (doc/LITMUS.md): one thread
    // submits to q, its readers are the threads that receive from it, and
    // every call on q carries as many values.
    void checkArgument(const Stmt& call, size_t i, CallScan& scan) const override {
        const CallArg& buffer = call.args[i];
        if (!isPlainName(buffer)) scan.expected("a ring buffer (a name)");
        const std::string& q = buffer.expr.name;
        scan.claimName(q, "buffer", buffer.where);
        const int values = static_cast<int>(call.args.size()) - 1;
        const int arity = scan.firstSaid("values", q, values);
        if (arity != values)
            throw InputError(call.where, "every call on buffer " + q + " carries " + std::to_string(arity) + " value" +
                                             (arity == 1 ? "" : "s") + " (as its first call), not " +
                                             std::to_string(values));
        if (call.method == "receive") return scan.takePart(q);
        const int writer = scan.firstSaid("writer", q, scan.thread());
        if (writer != scan.thread())
            throw InputError(call.where, "buffer " + q + " has one writer, thread " + scan.test().threads[writer].name +
                                             ", which submits to it first (LOCO §5.1)");
    }

    int outcomes(const std::string&) const override { return 2; }  // success, failure

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out,
                int outcome) const override {
        const int buffer = out.namedObject(args[0].variable);
        const bool submit = method == "submit";
        if (outcome == 1) {
            out.emit(submit ? SUBF : RECVF, buffer, submit ? 0 : out.node(), -1);
            return Value::of(0);
        }
        if (submit) {
            const int local = out.emit(SUBCW, buffer, out.node(), -1);
            for (int n : out.participantNodes(args[0].variable))
                if (n != out.node()) out.emit(SUBNRW, buffer, n, -1);
            std::vector<Value> message;
            for (size_t i = 1; i < args.size(); ++i) message.push_back(args[i].value);
            out.send(local, std::move(message));
            return Value::of(1);
        }
        const int receive = out.emit(RECV, buffer, out.node(), -1);
        for (size_t i = 1; i < args.size(); ++i) out.output(i, Value::received(receive, static_cast<int>(i) - 1));
        return Value::of(1);
    }

    // A receive's values are those its submit sent with its aCW.
    void bindValues(ExecutionGraph& sk) const override {
        for (const auto& located : buffersOf(sk)) {
            const BufferCalls& q = located.second;
            match(sk, q,
                  [&](int r, size_t j) {
                      const std::vector<Value> message = sk.events[q.messages[j]].message;
                      for (Event& e : sk.events) bind(e.written, r, message);
                      for (ValueConstraint& c : sk.constraints) {
                          bind(c.lhs, r, message);
                          bind(c.rhs, r, message);
                      }
                  },
                  [](int, size_t) {});
        }
    }

    // Not ill formed but impossible: a reader cannot receive a message never submitted.
    std::optional<std::string> illFormed(const UnfoldedProgram& program, const ExecutionGraph& sk) const override {
        for (const auto& [location, q] : buffersOf(sk))
            if (!match(sk, q, [](int, size_t) {}, [](int, size_t) {}))
                return "a reader of buffer " + program.locations[location].name +
                       " receives more messages than its writer submits (doc/model-notes.md §N11)";
        return std::nullopt;
    }

    std::vector<BaseRelation> relations() const override {
        return {{"rf-msg",
                 "RBL's rf: the j-th successful submit's subevent for a reader's node (subCW on the writer's node, "
                 "else subNRW) to that reader's j-th successful receive (recv); static, as a reader cannot skip or "
                 "reread a message",
                 "doc/model-notes.md §N11, LOCO Def. 5.1", readsFrom},
                {"fb",
                 "RBL's fb: a failed receive (recvF) to the subevent for its node of every successful submit its "
                 "thread has not received before it",
                 "LOCO §5.1, l.661", failedBefore}};
    }

    std::vector<const LibraryKind*> kinds() const override { return {&SUBCW, &SUBNRW, &SUBF, &RECV, &RECVF}; }

    std::vector<GeneratedKind> generatedKinds() const override { return rbl::generatedKinds(); }
    std::unique_ptr<StatementGenerator> generator() const override { return rbl::generator(); }

    std::string callLabel(const std::set<EventKind>& kinds) const override {
        return kinds.count(RECV) || kinds.count(RECVF) ? "rbl.receive" : "rbl.submit";
    }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> library() { return std::make_unique<RingBuffers>(); }

}  // namespace rdmacheck::rbl
