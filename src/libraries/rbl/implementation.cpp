// I_RBL, ring buffers as SV slots and heads (LOCO §5.2, Fig. 14).
#include <set>
#include <utility>

#include "libraries/rbl/rbl.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rewrite {

namespace {

// I_RBL over SV (LOCO §5.2, Fig. 14): a buffer q of S slots (the
// placement: S is V+1 or 2(V+1) per buffer, V its messages' length) is SV
// variables q_0..q_{S-1}, a writer head q_h and a head q_h_t per reader t. A
// submit reads the heads; if the slowest reader leaves no room for the length
// and the V values it fails, else it writes and broadcasts them from slot
// H % S on, waits for its earlier head broadcasts, and publishes H + V + 1. A
// receive fails when its head has caught up with the writer's, else reads the
// length and the values, and publishes its own head to the writer's node.
//
// A thread's own head has one writer, the thread, and its copy on the
// thread's node gets no broadcast, so Read_sv returns the thread's last write:
// H is fixed by the path, V+1 per successful call of the thread before. The
// rewrite follows the thread's paths (what follows a call is inlined into
// each of its outcomes), so slot indices are constants and each test reads
// one location: no read orders, no branch per slot. The head is still read,
// and its difference from the path's value goes to an alarm location, as does
// the length's from V (an assignment, not a branch: the paths stay few);
// refinement reports an alarm other than 0. With `headFirst` the submit
// publishes its head before the slots: a mutant that refinement must reject.
class RingBuffersImpl : Rewriter {
public:
    RingBuffersImpl(const LitmusTest& test, size_t placement, bool headFirst)
        : Rewriter(test), test_(test), headFirst_(headFirst) {
        buffers_ = buffersOf(test);
        for (auto& [q, b] : buffers_) {
            b.size = (b.length + 1) * (1 + static_cast<int>(placement % 2));
            placement /= 2;
        }
    }

    static size_t placements(const LitmusTest& test) { return size_t(1) << buffersOf(test).size(); }

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (const auto& [q, b] : buffers_) {
            out.placement += (out.placement.empty() ? "" : ", ") + q + ": S=" + std::to_string(b.size);
            std::vector<std::string> variables{head(q)};
            for (int s = 0; s < b.size; ++s) variables.push_back(slot(q, s));
            for (size_t t : b.readers) variables.push_back(head(q, t));
            for (const std::string& v : variables) {
                LocationDecl d{v, 1, 0, {}};
                d.shared = true;
                out.test.locations.push_back(d);
            }
        }
        for (size_t t = 0; t < out.test.threads.size(); ++t) {
            thread_ = t;
            ThreadDecl& th = out.test.threads[t];
            th.body = path(test_.threads[t].body, 0, {});
        }
        declareAlarms(out);
        return out;
    }

private:
    struct Buffer {
        size_t writer = 0;
        std::set<size_t> readers;
        int length = 0;  // V: the values of each message
        int size = 1;    // S
    };

    // The thread's own heads on the path so far: per buffer and method (a
    // writer that reads its own buffer has both heads).
    using Heads = std::map<std::pair<std::string, std::string>, long long>;

    static bool isCall(const Stmt& st) { return st.kind == Stmt::Kind::Call && st.library == "rbl"; }

    static std::map<std::string, Buffer> buffersOf(const LitmusTest& test) {
        std::map<std::string, Buffer> buffers;
        for (size_t t = 0; t < test.threads.size(); ++t)
            anyStatement(test.threads[t].body, [&](const Stmt& st) {
                if (isCall(st)) {
                    Buffer& b = buffers[st.args[0].expr.name];
                    b.length = static_cast<int>(st.args.size()) - 1;
                    if (st.method == "submit") b.writer = t;
                    if (st.method == "receive") b.readers.insert(t);
                }
                return false;  // every statement
            });
        return buffers;
    }

    // The thread from statement i of its body on; a call ends the block with
    // its outcomes, each followed by the rest of the thread.
    Block path(const Block& body, size_t i, const Heads& heads) {
        Block out;
        for (; i < body.size(); ++i) {
            if (isCall(body[i])) {
                call(body[i], body, i + 1, heads, out);
                break;
            }
            for (Stmt& s : block({body[i]})) out.push_back(std::move(s));
        }
        return out;
    }

    // Reached by calls inside if, choice and loops only, whose H is not fixed.
    bool rewrite(const Stmt& st, Block&) override {
        if (!isCall(st)) return false;
        throw InputError(st.where, "I_RBL takes ring-buffer calls at a thread's top level only: it fixes each "
                                   "call's slots by the calls before it on the path");
    }

    // The call's reads, then `if (fails_1) failure else if ... else success`.
    void call(const Stmt& st, const Block& body, size_t next, const Heads& heads, Block& out) {
        call_ = next - 1;
        const std::string& q = st.args[0].expr.name;
        const std::pair<std::string, std::string> key{q, st.method};
        const long long H = heads.count(key) ? heads.at(key) : 0;
        Heads advanced = heads;
        advanced[key] = H + buffers_.at(q).length + 1;
        std::vector<Stmt> fails;
        Block success;
        if (st.method == "submit") {
            submit(st, H, out, fails, success);
        } else {
            receive(st, H, out, fails, success);
        }
        result(st, 1, success);
        for (Stmt& s : path(body, next, advanced)) success.push_back(std::move(s));
        Block failure;
        result(st, 0, failure);
        for (Stmt& s : path(body, next, heads)) failure.push_back(std::move(s));
        Block chain = std::move(success);
        for (auto it = fails.rbegin(); it != fails.rend(); ++it) {
            it->body = failure;
            it->orelse = std::move(chain);
            chain = {std::move(*it)};
        }
        out.insert(out.end(), chain.begin(), chain.end());
    }

    // Fails when some reader t has H_t < H + V + 1 - S, i.e. (H - min H_t) + (V + 1) > S.
    void submit(const Stmt& st, long long H, Block& out, std::vector<Stmt>& fails, Block& success) {
        const std::string& q = st.args[0].expr.name;
        const Buffer& b = buffers_.at(q);
        const SourceLoc& at = st.where;
        const std::string mine = own(q, "H");
        out.push_back(svRead(mine, head(q), at));
        for (size_t t : b.readers) {
            const std::string theirs = own(q, "H" + test_.threads[t].name);
            out.push_back(svRead(theirs, head(q, t), at));
            fails.push_back(testStmt(Stmt::Kind::If, Expr::location(theirs, at), Comparison::Lt,
                                     Expr::constant(H + b.length + 1 - b.size, at), at));
        }
        out.push_back(alarmUnless(mine, H, "head", at));
        const std::vector<int> others = readerNodesBut(b, test_.threads[b.writer].node);
        if (headFirst_) publishHead(q, H, others, at, success);
        for (int i = 0; i <= b.length; ++i) {
            const std::string& x = slot(q, (H + i) % b.size);
            success.push_back(i == 0 ? write(x, b.length, at)
                                     : callOf("sv", "write", {nameArg(x, at), st.args[i]}, at));
            if (!others.empty()) success.push_back(bcast(x, "_", others, at));
        }
        if (!headFirst_) publishHead(q, H, others, at, success);
    }

    // Wait_sv(d); Write_sv(h, H + V + 1); Bcast_sv(h, d, s_n)
    void publishHead(const std::string& q, long long H, const std::vector<int>& others, const SourceLoc& at,
                     Block& out) {
        const std::string& d = named(q + "/work", "d" + q);
        if (!others.empty()) out.push_back(callOf("sv", "wait", {nameArg(d, at)}, at));
        out.push_back(write(head(q), H + buffers_.at(q).length + 1, at));
        if (!others.empty()) out.push_back(bcast(head(q), d, others, at));
    }

    // Fails when the writer's head H' has H' <= H.
    void receive(const Stmt& st, long long H, Block& out, std::vector<Stmt>& fails, Block& success) {
        const std::string& q = st.args[0].expr.name;
        const Buffer& b = buffers_.at(q);
        const SourceLoc& at = st.where;
        const std::string mine = own(q, "H"), theirs = own(q, "Hw"), length = own(q, "V");
        out.push_back(svRead(mine, head(q, thread_), at));
        out.push_back(svRead(theirs, head(q), at));
        out.push_back(alarmUnless(mine, H, "head", at));
        fails.push_back(
            testStmt(Stmt::Kind::If, Expr::location(theirs, at), Comparison::Le, Expr::constant(H, at), at));
        success.push_back(svRead(length, slot(q, H % b.size), at));
        for (int i = 1; i <= b.length; ++i)
            success.push_back(svRead(st.args[i].expr.name, slot(q, (H + i) % b.size), at));
        success.push_back(write(head(q, thread_), H + b.length + 1, at));
        const int writerNode = test_.threads[b.writer].node;
        if (test_.threads[thread_].node != writerNode)
            success.push_back(bcast(head(q, thread_), "_", {writerNode}, at));
        success.push_back(alarmUnless(length, b.length, "length", at));
    }

    // alarm := x - value, the alarm of what the current call checks.
    Stmt alarmUnless(const std::string& x, long long value, const std::string& what, const SourceLoc& at) {
        const std::string& thread = test_.threads[thread_].name;
        return Rewriter::alarmUnless(x, value, thread + "/" + std::to_string(call_) + "/" + what,
                                     what + "_alarm_" + thread + "_" + std::to_string(call_), test_.threads[thread_].node,
                                     at);
    }

    // ok := value, if the call has a result.
    static void result(const Stmt& st, long long value, Block& out) {
        if (st.hasResult) out.push_back(assignStmt(st.target.name, Expr::constant(value, st.where), st.where));
    }

    static Stmt write(const std::string& x, long long value, const SourceLoc& at) {
        return callOf("sv", "write", {nameArg(x, at), CallArg{false, Expr::constant(value, at), {}, at}}, at);
    }

    static Stmt bcast(const std::string& x, const std::string& work, const std::vector<int>& nodes,
                      const SourceLoc& at) {
        return callOf("sv", "bcast", {nameArg(x, at), nameArg(work, at), nodesArg(nodes, at)}, at);
    }

    // s_n: the readers' nodes but `node`.
    std::vector<int> readerNodesBut(const Buffer& b, int node) const {
        std::set<int> nodes;
        for (size_t t : b.readers) nodes.insert(test_.threads[t].node);
        nodes.erase(node);
        return {nodes.begin(), nodes.end()};
    }

    const std::string& slot(const std::string& q, long long s) {
        return named(q + "/slot/" + std::to_string(s), q + "_" + std::to_string(s));
    }
    const std::string& head(const std::string& q) { return named(q + "/head", q + "_h"); }
    const std::string& head(const std::string& q, size_t reader) {
        return named(q + "/head/" + std::to_string(reader), q + "_h_" + test_.threads[reader].name);
    }
    const std::string& own(const std::string& q, const std::string& role) {
        return owned(test_.threads[thread_].name, q, role);
    }

    const LitmusTest& test_;
    bool headFirst_;
    std::map<std::string, Buffer> buffers_;
    size_t thread_ = 0;
    size_t call_ = 0;  // the current call's statement number in its thread
};

}  // namespace

}  // namespace rdmacheck::rewrite

namespace rdmacheck::rbl {

std::vector<ImplementationDescriptor> implementations() {
    using namespace rewrite;
    return {
        {"rbl", "", RingBuffersImpl::placements,
         [](const LitmusTest& t, size_t p) { return RingBuffersImpl(t, p, false).run(); }},
        {"rbl-head-first", "", RingBuffersImpl::placements,
         [](const LitmusTest& t, size_t p) { return RingBuffersImpl(t, p, true).run(); }},
    };
}

}  // namespace rdmacheck::rbl
