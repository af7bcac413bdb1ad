// The registry of libraries: the built-in ones are listed here, one line each;
// a library outside the core (a test's example) registers itself with
// registerLibrary.
#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

// Defined in library_sv.cpp, library_bal.cpp, library_locks.cpp, library_sc.cpp and library_rbl.cpp.
std::unique_ptr<const LibraryDescriptor> sharedVariableLibrary();
std::unique_ptr<const LibraryDescriptor> barrierLibrary();
std::vector<std::unique_ptr<const LibraryDescriptor>> lockLibraries();
std::unique_ptr<const LibraryDescriptor> sequentialConsistencyLibrary();
std::unique_ptr<const LibraryDescriptor> ringBufferLibrary();

namespace {

// The core RDMA library (RDMA^TSO, RDMA^WAIT_RMW). The unfolder lowers its
// statements itself, so it has no methods; it names the models' "rdma:" scope
// and labels its calls of several subevents.
class CoreRdma : public LibraryDescriptor {
public:
    CoreRdma() : LibraryDescriptor("rdma", {}) {}

    Value lower(const std::string& method, const std::vector<CallArgument>&, CallEmitter&, int) const override {
        throw std::logic_error("the core RDMA library has no method '" + method + "' to lower");
    }

    std::string callLabel(const std::set<EventKind>& kinds) const override {
        if (kinds.count(EventKind::NAR)) return "remote RMW";
        if (kinds.count(EventKind::NRR)) return "get";
        if (kinds.count(EventKind::F)) return "failed CAS";
        return "put";
    }
};

struct Entry {
    std::unique_ptr<const LibraryDescriptor> descriptor;
    std::vector<BaseRelation> relations;  // asked once, so lookups can point into them
};

// The names a library takes in the syntax and in models; no two libraries may share one.
std::set<std::string> claims(const Entry& e) {
    std::set<std::string> names{"library '" + e.descriptor->name() + "'"};
    for (const BaseRelation& r : e.relations) names.insert("relation '" + r.name + "'");
    for (const MethodSignature& m : e.descriptor->methods()) {
        if (m.bare) names.insert("bare method '" + m.name + "'");
        if (!m.statement.empty()) names.insert("statement '" + m.statement + "'");
    }
    return names;
}

Library add(std::deque<Entry>& libraries, std::unique_ptr<const LibraryDescriptor> library) {
    Entry entry{std::move(library), {}};
    entry.relations = entry.descriptor->relations();
    const std::set<std::string> mine = claims(entry);
    for (const Entry& other : libraries)
        for (const std::string& name : claims(other))
            if (mine.count(name))
                throw std::invalid_argument("library '" + entry.descriptor->name() + "': " + name +
                                            " is taken by library '" + other.descriptor->name() + "'");
    libraries.push_back(std::move(entry));
    return Library{static_cast<int>(libraries.size()) - 1};
}

// One line per built-in library. The core library stays first: it is Library::Core.
std::deque<Entry> builtInLibraries() {
    std::deque<Entry> libraries;
    add(libraries, std::make_unique<CoreRdma>());
    add(libraries, sharedVariableLibrary());
    add(libraries, barrierLibrary());
    for (auto& lock : lockLibraries()) add(libraries, std::move(lock));
    add(libraries, sequentialConsistencyLibrary());
    add(libraries, ringBufferLibrary());
    return libraries;
}

// A deque: registering a library moves no entry, so what lookups pointed to stays put.
std::deque<Entry>& registry() {
    static std::deque<Entry> libraries = builtInLibraries();
    return libraries;
}

// The first method of a registered library that `matches`.
template <class Matches>
std::optional<LibraryMethod> findMethod(const Matches& matches) {
    const std::deque<Entry>& libraries = registry();
    for (size_t l = 0; l < libraries.size(); ++l)
        for (const MethodSignature& m : libraries[l].descriptor->methods())
            if (matches(m)) return LibraryMethod{Library{static_cast<int>(l)}, &m};
    return std::nullopt;
}

}  // namespace

const MethodSignature* LibraryDescriptor::method(const std::string& name) const {
    auto m = std::find_if(methods_.begin(), methods_.end(), [&](const MethodSignature& s) { return s.name == name; });
    return m == methods_.end() ? nullptr : &*m;
}

std::optional<std::string> LibraryDescriptor::illFormed(const UnfoldedProgram&, const ExecutionGraph&) const {
    return std::nullopt;
}

std::vector<BaseRelation> LibraryDescriptor::relations() const { return {}; }

void LibraryDescriptor::bindValues(ExecutionGraph&) const {}

int LibraryDescriptor::outcomes(const std::string&) const { return 1; }

Library registerLibrary(std::unique_ptr<const LibraryDescriptor> library) {
    return add(registry(), std::move(library));
}

std::optional<Library> findLibrary(const std::string& name) {
    const std::deque<Entry>& libraries = registry();
    for (size_t l = 0; l < libraries.size(); ++l)
        if (libraries[l].descriptor->name() == name) return Library{static_cast<int>(l)};
    return std::nullopt;
}

const LibraryDescriptor& libraryDescriptor(Library library) { return *registry().at(library.index).descriptor; }

const char* libraryName(Library l) { return libraryDescriptor(l).name().c_str(); }

std::string knownLibraries() {
    std::string names;
    for (const Entry& e : registry())
        if (!e.descriptor->methods().empty()) names += (names.empty() ? "" : ", ") + e.descriptor->name();
    return names;
}

std::optional<LibraryMethod> findBareMethod(const std::string& word) {
    return findMethod([&](const MethodSignature& m) { return m.bare && m.name == word; });
}

std::optional<LibraryMethod> findStatementMethod(const std::string& keyword) {
    return findMethod([&](const MethodSignature& m) { return !m.statement.empty() && m.statement == keyword; });
}

std::optional<std::string> illFormedByLibraries(const UnfoldedProgram& program, const ExecutionGraph& sk) {
    for (const Entry& e : registry())
        if (std::optional<std::string> reason = e.descriptor->illFormed(program, sk)) return reason;
    return std::nullopt;
}

void bindValuesByLibraries(ExecutionGraph& sk) {
    for (const Entry& e : registry()) e.descriptor->bindValues(sk);
}

const BaseRelation* findLibraryRelation(const std::string& name) {
    for (const Entry& e : registry())
        for (const BaseRelation& r : e.relations)
            if (r.name == name) return &r;
    return nullptr;
}

}  // namespace rdmacheck
