// The locks' generator hook: `wl`, `sl` and `nl` in a mix draw a critical
// section on the lock `l` (a node lock lives on node 1, `l^1`): the acquire,
// then one statement or more, then the release the generator held back.
#include "libraries/locks/locks.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::locks {

namespace {

class Draws : public StatementGenerator {
public:
    Draws(std::string library, bool homed) : library_(std::move(library)), homed_(homed) {}

    Stmt draw(const std::string&, StatementDraw& d) override {
        CallArg lock = exprArg(Expr::location("l", {}));
        if (homed_) lock.expr.remoteNode = 1;
        d.holdRelease(libraryCall(library_, "rel", {lock}));
        return libraryCall(library_, "acq", {lock});
    }

private:
    std::string library_;
    bool homed_;
};

}  // namespace

GeneratedKind generatedKind(const std::string& library) { return {library, 1, true}; }

std::unique_ptr<StatementGenerator> generator(const std::string& library, bool homed) {
    return std::make_unique<Draws>(library, homed);
}

}  // namespace rdmacheck::locks
