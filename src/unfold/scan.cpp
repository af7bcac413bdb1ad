#include "scan.hpp"

#include <algorithm>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

TestScan::TestScan(const LitmusTest& test) : test_(test) {
    for (const LocationDecl& d : test.locations) {
        if (d.shared) {
            addShared(d.name);
        } else if (!d.sc) {  // an SC location has no node its users name
            nodes.insert(d.node);
        }
    }
    for (thread_ = 0; thread_ < static_cast<int>(test.threads.size()); ++thread_) {
        nodes.insert(test.threads[thread_].node);
        scan(test.threads[thread_].body);
    }
}

bool TestScan::isShared(const std::string& name) const {
    return std::find(shared.begin(), shared.end(), name) != shared.end();
}

std::vector<int> TestScan::participantNodes(const std::string& name) const {
    std::set<int> out;
    const auto threads = participants.find(name);
    if (threads != participants.end())
        for (int t : threads->second) out.insert(test_.threads[t].node);
    return {out.begin(), out.end()};
}

void TestScan::addShared(const std::string& name) {
    if (!isShared(name)) shared.push_back(name);
}

void TestScan::usesPoll(const Stmt& st) {
    if (workIdAt_) throwMixed(st.where, *workIdAt_);
    if (!pollAt_) pollAt_ = st.where;
}

void TestScan::usesWorkId(const Stmt& st) {
    if (pollAt_) throwMixed(st.where, *pollAt_);
    if (!workIdAt_) workIdAt_ = st.where;
}

void TestScan::throwMixed(const SourceLoc& at, const SourceLoc& other) {
    throw InputError(at, "a test uses either poll or work identifiers, never both (the other kind is at line " +
                             std::to_string(other.line) + ", column " + std::to_string(other.column) + ")");
}

void TestScan::scan(const Block& block) {
    for (const Stmt& st : block) {
        if (st.target.node) nodes.insert(*st.target.node);
        if (st.source.node) nodes.insert(*st.source.node);
        switch (st.kind) {
            case Stmt::Kind::Poll: usesPoll(st); break;
            case Stmt::Kind::Wait: usesWorkId(st); break;
            case Stmt::Kind::GFence: nodes.insert(st.nodes.begin(), st.nodes.end()); break;
            case Stmt::Kind::Call: scanCall(st); break;
            default:
                if (!st.workId.empty()) usesWorkId(st);
                break;
        }
        scan(st.body);
        scan(st.orelse);
        for (const Block& b : st.branches) scan(b);
    }
}

void TestScan::scanCall(const Stmt& st) {
    const std::optional<Library> library = findLibrary(st.library);
    // The core library is "rdma" in models only: its statements are no calls.
    if (!library || libraryDescriptor(*library).methods().empty())
        throw InputError(st.where, "unknown library '" + st.library + "' (known: " + knownLibraries() + ")");
    const LibraryDescriptor& lib = libraryDescriptor(*library);
    const MethodSignature* m = lib.method(st.method);
    if (!m) {
        std::string known;
        for (const MethodSignature& s : lib.methods()) known += (known.empty() ? "" : ", ") + st.library + "." + s.name;
        throw InputError(st.where, "library '" + st.library + "' has no method '" + st.method + "' (known: " + known + ")");
    }
    const std::string name = st.library + "." + st.method;
    if (m->returnsValue != st.hasResult && !(m->resultOptional && !st.hasResult))
        throw InputError(st.where, m->returnsValue ? name + " returns a value: write 'a := " + name + "(...)'"
                                                   : name + " returns nothing: drop the 'a :='");
    const size_t least = m->args.size() - (m->variadic ? 1 : 0);
    if (st.args.size() < least || (!m->variadic && st.args.size() != least))
        throw InputError(st.where, name + " takes " + (m->variadic ? "at least " : "") + std::to_string(least) +
                                       " argument" + (least == 1 ? "" : "s") + ", not " +
                                       std::to_string(st.args.size()));
    call_ = &st;
    for (size_t i = 0; i < st.args.size(); ++i) scanArgument(st, *m, i);
}

void TestScan::scanArgument(const Stmt& st, const MethodSignature& m, size_t i) {
    argument_ = i;
    const CallArg& a = st.args[i];
    const bool isName = !a.isNodeSet && a.expr.kind == Expr::Kind::Location && !a.expr.remoteNode;  // or `_`
    switch (m.arg(i)) {
        case ArgKind::Variable:
            if (!isPlainName(a)) expected("a shared variable (a name)");
            for (const LocationDecl& d : test_.locations)
                if (d.name == a.expr.name && !d.shared)
                    throw InputError(a.where, "'" + d.name + "' is a location of node " + std::to_string(d.node) +
                                                  "; a shared variable is declared '" + d.name + "@sv'");
            addShared(a.expr.name);
            break;
        case ArgKind::Name:
        case ArgKind::HomedName: libraryDescriptor(*findLibrary(st.library)).checkArgument(st, i, *this); break;
        case ArgKind::Work:
            if (!isName) expected("a work identifier (a name, or '_')");
            if (a.expr.name != "_") usesWorkId(st);
            break;
        case ArgKind::Nodes:
            if (!a.isNodeSet) expected("a node set, e.g. {2, 3}");
            nodes.insert(a.nodes.begin(), a.nodes.end());
            break;
        case ArgKind::Value:
            if (a.isNodeSet || !(a.expr.kind == Expr::Kind::Const || isName))
                expected("an integer or one local location");
            break;
        case ArgKind::Out:
            if (!isPlainName(a)) expected("a local location (a name) the call writes");
            break;
    }
}

void TestScan::expected(const std::string& what) const {
    throw InputError(call_->args[argument_].where, "argument " + std::to_string(argument_ + 1) + " of " +
                                                       call_->library + "." + call_->method + " is " + what);
}

// A name is one thing: a location, a shared variable, a barrier, or a lock
// of one library (doc/LITMUS.md).
void TestScan::claimName(const std::string& name, const std::string& what, const SourceLoc& where) {
    for (const LocationDecl& d : test_.locations)
        if (d.name == name)
            throw InputError(where, "'" + name + "' is declared as a " + (d.shared ? "shared variable" : "location") +
                                        "; it cannot also be a " + what);
    auto [it, first] = claimed_.emplace(name, what);
    if (!first && it->second != what)
        throw InputError(where, "'" + name + "' is a " + it->second + " already; it cannot also be a " + what);
}

}  // namespace rdmacheck
