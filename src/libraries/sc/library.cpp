// RDMA^SC_RMW (RMW §5.1, Def. 8): sequentially consistent memory
// over RDMA. Its locations are declared `x@sc = v`; every call is one aMF
// event on one: sc.read a read, sc.write a write, sc.faa an update (reads the
// old value, writes old + v), sc.cas an update writing v2 when it reads v1 and
// a read of another value otherwise (two outcomes, as RCAS). Its so,
// po ∪ rf ∪ mo ∪ rb on its events, is model text (models/_wait.cat: sc-so).
#include <algorithm>

#include "libraries/sc/sc.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::sc {

namespace {

class SequentialConsistency : public LibraryDescriptor {
public:
    SequentialConsistency()
        : LibraryDescriptor("sc", {
                                      {"write", {ArgKind::Name, ArgKind::Value}},
                                      {"read", {ArgKind::Name}, true},
                                      {"cas", {ArgKind::Name, ArgKind::Value, ArgKind::Value}, true},
                                      {"faa", {ArgKind::Name, ArgKind::Value}, true},
                                  }) {}

    // Every call names a location the test declares `x@sc`.
    void checkArgument(const Stmt& call, size_t i, CallScan& scan) const override {
        const std::string& name = call.args[i].expr.name;
        if (!isPlainName(call.args[i])) scan.expected("an SC location (a name declared 'x@sc')");
        const std::vector<LocationDecl>& declared = scan.test().locations;
        if (std::none_of(declared.begin(), declared.end(), [&](const LocationDecl& d) { return d.sc && d.name == name; }))
            throw InputError(call.args[i].where,
                             "'" + name + "' is not an SC location: declare it '" + name + "@sc = 0' in the init block");
    }

    int outcomes(const std::string& method) const override { return method == "cas" ? 2 : 1; }

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out,
                int outcome) const override {
        const int x = out.declared(args[0].variable);
        if (method == "write") {
            out.emit(SCW, x, 0, -1, args[1].value);
            return Value();
        }
        if (method == "read") return Value::readBy(out.emit(SCR, x, 0, -1));
        if (method == "cas" && outcome == 1) {  // failed: reads a value other than v1, writes nothing
            const int read = out.emit(SCR, x, 0, -1);
            out.constrain(Value::readBy(read), Comparison::Ne, args[1].value);
            return Value::readBy(read);
        }
        // An update: its written value is computed from its own read.
        const int update = out.emit(SCU, x, 0, -1);
        if (method == "cas") {
            out.constrain(Value::readBy(update), Comparison::Eq, args[1].value);
            out.setWritten(update, args[2].value);
        } else {
            out.setWritten(update, Value::operation(Operator::Add, {Value::readBy(update), args[1].value}));
        }
        return Value::readBy(update);
    }

    std::vector<const LibraryKind*> kinds() const override { return {&SCR, &SCW, &SCU}; }

    std::vector<GeneratedKind> generatedKinds() const override { return sc::generatedKinds(); }
    std::unique_ptr<StatementGenerator> generator() const override { return sc::generator(); }

    std::string callLabel(const std::set<EventKind>&) const override { return "sc"; }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> library() {
    return std::make_unique<SequentialConsistency>();
}

}  // namespace rdmacheck::sc
