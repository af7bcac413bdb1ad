// The shared-variable library SV (LOCO §3.4, Def. 3.8): one copy of each variable
// per node; stmp_SV gives the subevents below. Its so edges are the model
// files' "sv:" ones.
#include "libraries/sv/sv.hpp"
#include "rdmacheck/generate.hpp"

namespace rdmacheck::sv {

namespace {

class SharedVariables : public LibraryDescriptor {
public:
    // gf is also the RDMA^WAIT statement `gfence(1, 2)` (doc/LITMUS.md).
    SharedVariables()
        : LibraryDescriptor("sv", {
                                      {"write", {ArgKind::Variable, ArgKind::Value}},
                                      {"read", {ArgKind::Variable}, true},
                                      {"bcast", {ArgKind::Variable, ArgKind::Work, ArgKind::Nodes}},
                                      {"wait", {ArgKind::Work}},
                                      {"gf", {ArgKind::Nodes}, false, false, "gfence"},
                                  }) {}

    Value lower(const std::string& method, const std::vector<CallArgument>& args, CallEmitter& out, int) const override {
        if (method == "write") {  // Write_sv: aCW on the local copy
            out.emit(EventKind::LW, out.copyOf(args[0].variable, out.node()), 0, -1, args[1].value);
        } else if (method == "read") {  // Read_sv: aCR on the local copy
            return Value::readBy(out.emit(EventKind::LR, out.copyOf(args[0].variable, out.node()), 0, -1));
        } else if (method == "bcast") {  // Bcast_sv: aNLR_n reads the local copy, aNRW_n writes n's copy
            const int local = out.copyOf(args[0].variable, out.node());
            for (int n : args[2].nodes) {
                const int read = out.emit(EventKind::NLR, local, n, args[1].work);
                out.emit(EventKind::NRW, out.copyOf(args[0].variable, n), n, args[1].work, Value::readBy(read));
            }
        } else if (method == "wait") {  // Wait_sv: aWT
            out.emit(EventKind::WT, -1, 0, args[0].work);
        } else if (method == "gf") {  // GF_sv: one aGF_n per node
            for (int n : args[0].nodes) out.emit(EventKind::GF, -1, n, -1);
        }
        return Value();
    }

    std::vector<GeneratedKind> generatedKinds() const override { return sv::generatedKinds(); }
    std::unique_ptr<StatementGenerator> generator() const override { return sv::generator(); }

    // Only a global fence (aGF_n) and a broadcast (aNLR_n, aNRW_n) make several subevents.
    std::string callLabel(const std::set<EventKind>& kinds) const override {
        return kinds.count(EventKind::GF) ? "sv.global fence" : "sv.bcast";
    }
};

}  // namespace

std::unique_ptr<const LibraryDescriptor> library() { return std::make_unique<SharedVariables>(); }

}  // namespace rdmacheck::sv
