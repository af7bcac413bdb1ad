// RBL's generator hook: `rbl` in a mix draws a call on the buffer `buf`:
// thread P0, its one writer, submits a value, the others receive one.
#include "libraries/rbl/rbl.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::rbl {

namespace {

class Draws : public StatementGenerator {
public:
    Stmt draw(const std::string&, StatementDraw& d) override {
        const bool writer = d.threadIndex() == 0;
        Random& random = d.random();
        Expr v = writer ? (random.chance(0.25) ? Expr::location(d.localLocation(), {}) : Expr::constant(d.value(), {}))
                        : Expr::location(d.freshPrivate(), {});
        Stmt s = libraryCall("rbl", writer ? "submit" : "receive",
                             {exprArg(Expr::location("buf", {})), exprArg(std::move(v))});
        s.hasResult = true;
        s.target = LocRef{d.freshPrivate(), std::nullopt, {}};
        return s;
    }
};

}  // namespace

std::vector<GeneratedKind> generatedKinds() { return {{"rbl", 2}}; }  // success and failure

std::unique_ptr<StatementGenerator> generator() { return std::make_unique<Draws>(); }

}  // namespace rdmacheck::rbl
