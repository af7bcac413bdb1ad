// wait(d) compiled into polls over RDMA^TSO_RMW (doc/model-notes.md §N7): the
// implementation of the core library's own wait, so it lives with the core
// library "rdma" and not with SV, whose sv.wait it does not take (implement SV
// first: '--impl sv,wait-polls').
#include <map>

#include "libraries/rdma/rdma.hpp"
#include "rdmacheck/refine.hpp"
#include "refine/rewrite.hpp"

namespace rdmacheck::rdma {

namespace {

using rewrite::namedLocations;
using rewrite::statement;

// wait(d) as polls (doc/model-notes.md §N7): in a straight-line thread, wait(d) polls
// node n until the last operation with id d towards n has been polled; polls
// complete the oldest operation first, whatever its id. The faithful variant
// adds an mfence where I_W (RMW App. C.2) has a set operation.
class WaitByPollsImpl {
public:
    WaitByPollsImpl(const LitmusTest& test, bool faithful) : test_(test), faithful_(faithful) {}

    ImplementedTest run() {
        ImplementedTest out{test_, {}, "", ""};
        for (const Location& l : namedLocations(test_)) out.names[l.name] = l.name;
        for (ThreadDecl& th : out.test.threads) {
            issued_.clear();
            polled_.clear();
            Block body;
            for (const Stmt& st : th.body) lower(st, body);
            th.body = std::move(body);
        }
        return out;
    }

private:
    void lower(const Stmt& st, Block& out) {
        switch (st.kind) {
            case Stmt::Kind::If:
            case Stmt::Kind::Choice:
            case Stmt::Kind::Loop:
            case Stmt::Kind::While:
                throw InputError(st.where, "wait-polls compiles straight-line threads only: the polls a wait needs "
                                           "depend on the path");
            case Stmt::Kind::Call:
            case Stmt::Kind::GFence:
                throw InputError(st.where, "wait-polls takes RDMA^WAIT calls only; implement the library calls "
                                           "first (shared variables: '--impl sv,wait-polls')");
            case Stmt::Kind::Get:
            case Stmt::Kind::Put:
            case Stmt::Kind::RCas:
            case Stmt::Kind::RFaa: {
                Stmt s = st;
                const int node = st.kind == Stmt::Kind::Get ? *st.source.node : *st.target.node;
                issued_[node].push_back(st.workId);
                s.workId.clear();
                out.push_back(std::move(s));
                if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetAdd
                return;
            }
            case Stmt::Kind::Wait: {
                for (const auto& [node, ids] : issued_) {
                    if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetIsEmpty
                    int last = 0;
                    for (size_t i = 0; i < ids.size(); ++i)
                        if (ids[i] == st.workId) last = static_cast<int>(i) + 1;
                    for (int& done = polled_[node]; done < last; ++done) {
                        Stmt poll = statement(Stmt::Kind::Poll, st.where);
                        poll.node = node;
                        out.push_back(std::move(poll));
                        if (faithful_) out.push_back(statement(Stmt::Kind::MFence, st.where));  // SetRemove
                    }
                }
                return;
            }
            default: out.push_back(st); return;
        }
    }

    const LitmusTest& test_;
    bool faithful_;
    std::map<int, std::vector<std::string>> issued_;  // per node: work ids of the operations towards it, in po order
    std::map<int, int> polled_;                       // per node: operations already polled
};

}  // namespace

// Both run over RDMA^TSO_RMW: polls instead of work identifiers.
std::vector<ImplementationDescriptor> implementations() {
    return {
        {"wait-polls", "rdma-tso-rmw", nullptr, [](const LitmusTest& t, size_t) { return WaitByPollsImpl(t, false).run(); }},
        {"wait-polls-faithful", "rdma-tso-rmw", nullptr,
         [](const LitmusTest& t, size_t) { return WaitByPollsImpl(t, true).run(); }},
    };
}

}  // namespace rdmacheck::rdma
