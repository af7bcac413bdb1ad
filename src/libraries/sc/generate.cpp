// RDMA^SC_RMW's generator hook: `sc` in a mix draws one of sc.write, sc.read,
// sc.cas and sc.faa on the test's SC location, declared `s@sc`.
#include "libraries/sc/sc.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::sc {

namespace {

class Draws : public StatementGenerator {
public:
    void declareFixed(StatementDraw& d) override {
        if (!draws(d.options(), "sc")) return;
        location_ = d.nextSharedName();
        LocationDecl decl{location_, 1, 0, {}};
        decl.sc = true;
        d.declare(decl);
    }

    Stmt draw(const std::string&, StatementDraw& d) override {
        Random& random = d.random();
        const std::string method = random.pick(std::vector<std::string>{"write", "read", "cas", "faa"});
        std::vector<CallArg> args{exprArg(Expr::location(location_, {}))};
        if (method != "read")
            args.push_back(exprArg(Expr::constant(method == "cas" ? random.between(0, 1) : d.value(), {})));
        if (method == "cas") args.push_back(exprArg(Expr::constant(d.value(), {})));
        Stmt s = libraryCall("sc", method, std::move(args));
        if (method != "write") {
            s.hasResult = true;
            s.target = LocRef{d.freshPrivate(), std::nullopt, {}};
        }
        return s;
    }

private:
    std::string location_;
};

}  // namespace

std::vector<GeneratedKind> generatedKinds() { return {{"sc", 2}}; }  // a CAS succeeds or fails

std::unique_ptr<StatementGenerator> generator() { return std::make_unique<Draws>(); }

}  // namespace rdmacheck::sc
