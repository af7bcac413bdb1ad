#include "catalogue.hpp"

#include <map>
#include <memory>
#include <stdexcept>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

// Straight-line kinds first, then those with weight 0 in the default mix: remote RMWs (only
// rdma-tso-rmw has them), CPU writes of expressions over several locations, assume, and
// control flow (one level deep, bodies of simple statements only), then the RDMA^WAIT wait.
// Paths at unroll 2: expr reads two locations in either order (three make 6), a CAS
// succeeds or fails, a loop makes zero, one or two iterations and the path the bound cuts.
std::vector<StatementKind> coreKinds() {
    return {{"write"},
            {"read"},
            {"put"},
            {"get"},
            {"poll", 1, 1, false, -1, false, "poll needs an earlier remote op"},
            {"rfence"},
            {"mfence"},
            {"cas", 2, 1},
            {"rcas", 2, 1},
            {"rfaa"},
            {"expr", 2, 2},
            {"assume"},
            {"if", 2, 2},
            {"choice", 2, 2},
            {"loop", 4, 4},
            {"while", 4, 4},
            {"wait", 1, 1, true, -1, false, "wait an earlier one with a work identifier"}};
}

std::string knownKinds() {
    std::string list;
    for (const StatementKind& k : statementKinds()) list += (list.empty() ? "" : ", ") + k.name;
    return list;
}

}  // namespace

std::vector<GeneratedKind> LibraryDescriptor::generatedKinds() const { return {}; }
std::unique_ptr<StatementGenerator> LibraryDescriptor::generator() const { return nullptr; }

std::vector<StatementKind> statementKinds() {
    std::vector<StatementKind> kinds = coreKinds();
    for (int l = 0; l < registeredLibraries(); ++l)
        for (const GeneratedKind& k : libraryDescriptor(Library{l}).generatedKinds())
            kinds.push_back({k.name, k.paths, k.paths, true, l, k.opensSection, k.needs});
    return kinds;
}

const StatementKind* findStatementKind(const std::vector<StatementKind>& kinds, const std::string& name) {
    for (const StatementKind& k : kinds)
        if (k.name == name) return &k;
    return nullptr;
}

bool draws(const GeneratorOptions& options, const std::string& kind) {
    const auto it = options.mix.find(kind);
    return it != options.mix.end() && it->second > 0;
}

void validate(const GeneratorOptions& o) {
    if (o.nodes < 1) throw std::invalid_argument("the generator needs at least one node");
    if (o.threads < 1) throw std::invalid_argument("the generator needs at least one thread");
    if (o.minLength < 0 || o.minLength > o.maxLength)
        throw std::invalid_argument("thread lengths need 0 <= minLength <= maxLength");
    if (o.sharedPerNode < 0) throw std::invalid_argument("sharedPerNode cannot be negative");
    if (o.values < 1) throw std::invalid_argument("values must be at least 1");
    if (!(o.loopback >= 0 && o.loopback <= 1)) throw std::invalid_argument("loopback is a probability in [0, 1]");
    const std::vector<StatementKind> kinds = statementKinds();
    for (const auto& [kind, weight] : o.mix) {
        if (!findStatementKind(kinds, kind))
            throw std::invalid_argument("unknown statement kind '" + kind + "' in the mix");
        if (weight < 0) throw std::invalid_argument("negative weight for '" + kind + "' in the mix");
    }
}

void parseMix(const std::string& spec, GeneratorOptions& options) {
    const std::vector<StatementKind> kinds = statementKinds();
    std::map<std::string, int> mix = options.mix;
    size_t start = 0;
    for (;;) {
        const size_t comma = spec.find(',', start);
        const std::string item = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const size_t equals = item.find('=');
        if (equals == std::string::npos)
            throw std::invalid_argument("statement mix: expected KIND=WEIGHT, found '" + item + "'");
        const std::string kind = item.substr(0, equals);
        const std::string weight = item.substr(equals + 1);
        if (!findStatementKind(kinds, kind))
            throw std::invalid_argument("statement mix: unknown kind '" + kind + "' (known: " + knownKinds() + ")");
        if (weight.empty() || weight.size() > 6 || weight.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument("statement mix: the weight of '" + kind +
                                        "' must be a non-negative integer below 10^6, found '" + weight + "'");
        mix[kind] = std::stoi(weight);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    options.mix = std::move(mix);
}

Stmt libraryCall(const std::string& library, const std::string& method, std::vector<CallArg> args) {
    Stmt s;
    s.kind = Stmt::Kind::Call;
    s.library = library;
    s.method = method;
    s.args = std::move(args);
    return s;
}

CallArg exprArg(Expr e) {
    CallArg a;
    a.expr = std::move(e);
    return a;
}

CallArg nodeSetArg(std::vector<int> nodes) {
    CallArg a;
    a.isNodeSet = true;
    a.nodes = std::move(nodes);
    return a;
}

}  // namespace rdmacheck
