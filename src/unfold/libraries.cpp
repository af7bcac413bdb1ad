// The registry of libraries and of the event kinds they declare. The built-in
// libraries are listed in src/libraries/registry.cpp, one line each; a library
// outside the core (a test's example) registers itself with registerLibrary.
#include <algorithm>
#include <cstring>
#include <deque>
#include <set>
#include <stdexcept>

#include "rdmacheck/library.hpp"

#include "rdmacheck/choices.hpp"

namespace rdmacheck {

// The built-in libraries, the core RDMA library first (src/libraries/registry.cpp).
std::vector<std::unique_ptr<const LibraryDescriptor>> builtInLibraries();

namespace {

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

// The libraries, and the kinds they declare in registration order: the event
// kinds after the core's.
struct Registry {
    std::deque<Entry> libraries;
    std::vector<const LibraryKind*> kinds;
    // Every declaration a library registered (`&bal::BX`) and the kind it
    // stands for, resolved once here: conversions in per-event loops then
    // compare addresses, not names.
    std::vector<std::pair<const LibraryKind*, EventKind>> declarations;
};

bool sameKind(const LibraryKind& a, const LibraryKind& b) {
    return std::strcmp(a.name, b.name) == 0 && a.read == b.read && a.write == b.write &&
           a.instantaneous == b.instantaneous;
}

// The registered kind of that name, if any.
const LibraryKind* registeredKind(const std::vector<const LibraryKind*>& kinds, const char* name) {
    for (const LibraryKind* kind : kinds)
        if (std::strcmp(kind->name, name) == 0) return kind;
    return nullptr;
}

// The kind a declaration with those name and flags stands for, if registered.
std::optional<EventKind> findKind(const std::vector<const LibraryKind*>& kinds, const LibraryKind& declared) {
    for (size_t k = 0; k < kinds.size(); ++k)
        if (sameKind(*kinds[k], declared)) return static_cast<EventKind>(kCoreEventKinds + static_cast<int>(k));
    return std::nullopt;
}

bool isCoreKind(const std::string& name) {
    for (int k = 0; k < kCoreEventKinds; ++k)
        if (name == kindName(static_cast<EventKind>(k))) return true;
    return false;
}

// Registers the kinds a library declares. A kind is its name and flags: one
// another library registered the same (the three locks share theirs) is the
// same kind; another with its name, or a core kind's, is refused, and then
// none of the library's kinds is registered.
void addKinds(Registry& registry, const LibraryDescriptor& library) {
    std::vector<const LibraryKind*> added;
    for (const LibraryKind* kind : library.kinds()) {
        const LibraryKind* same = registeredKind(registry.kinds, kind->name);
        if (!same) same = registeredKind(added, kind->name);
        if (same && sameKind(*same, *kind)) continue;
        if (same || isCoreKind(kind->name))
            throw std::invalid_argument("library '" + library.name() + "': event kind '" + kind->name + "' is taken");
        added.push_back(kind);
    }
    if (kCoreEventKinds + registry.kinds.size() + added.size() > static_cast<size_t>(kMaxEventKinds))
        throw std::invalid_argument("library '" + library.name() + "': more than " + std::to_string(kMaxEventKinds) +
                                    " event kinds in all");
    registry.kinds.insert(registry.kinds.end(), added.begin(), added.end());
    for (const LibraryKind* kind : library.kinds())
        registry.declarations.emplace_back(kind, *findKind(registry.kinds, *kind));
}

Library add(Registry& registry, std::unique_ptr<const LibraryDescriptor> library) {
    Entry entry{std::move(library), {}};
    entry.relations = entry.descriptor->relations();
    const std::set<std::string> mine = claims(entry);
    for (const Entry& other : registry.libraries)
        for (const std::string& name : claims(other))
            if (mine.count(name))
                throw std::invalid_argument("library '" + entry.descriptor->name() + "': " + name +
                                            " is taken by library '" + other.descriptor->name() + "'");
    addKinds(registry, *entry.descriptor);
    registry.libraries.push_back(std::move(entry));
    return Library{static_cast<int>(registry.libraries.size()) - 1};
}

Registry builtIn() {
    Registry registry;
    for (auto& library : builtInLibraries()) add(registry, std::move(library));
    return registry;
}

// A deque: registering a library moves no entry, so what lookups pointed to stays put.
Registry& state() {
    static Registry registry = builtIn();
    return registry;
}

std::deque<Entry>& registry() { return state().libraries; }

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

int registeredLibraries() { return static_cast<int>(registry().size()); }

const LibraryKind& registeredLibraryKind(EventKind k) {
    return *state().kinds.at(static_cast<size_t>(static_cast<int>(k) - kCoreEventKinds));
}

int registeredLibraryKinds() { return static_cast<int>(state().kinds.size()); }

// A registered declaration by its address; a copy of one (a braced list of
// kinds) by name and flags, which are unique in the registry.
LibraryKind::operator EventKind() const {
    for (const auto& [declaration, kind] : state().declarations)
        if (declaration == this) return kind;
    if (const std::optional<EventKind> kind = findKind(state().kinds, *this)) return *kind;
    throw std::logic_error(std::string("event kind '") + name + "' of no registered library");
}

const MethodSignature* LibraryDescriptor::method(const std::string& name) const {
    auto m = std::find_if(methods_.begin(), methods_.end(), [&](const MethodSignature& s) { return s.name == name; });
    return m == methods_.end() ? nullptr : &*m;
}

void LibraryDescriptor::checkArgument(const Stmt&, size_t, CallScan&) const {}

bool isPlainName(const CallArg& a) {
    return !a.isNodeSet && a.expr.kind == Expr::Kind::Location && !a.expr.remoteNode && a.expr.name != "_";
}

std::optional<std::string> LibraryDescriptor::illFormed(const UnfoldedProgram&, const ExecutionGraph&) const {
    return std::nullopt;
}

std::vector<BaseRelation> LibraryDescriptor::relations() const { return {}; }

std::vector<const LibraryKind*> LibraryDescriptor::kinds() const { return {}; }

std::vector<ChosenRelation> LibraryDescriptor::choices() const { return {}; }

void LibraryDescriptor::bindValues(ExecutionGraph&) const {}

int LibraryDescriptor::outcomes(const std::string&) const { return 1; }

Library registerLibrary(std::unique_ptr<const LibraryDescriptor> library) {
    return add(state(), std::move(library));
}

std::optional<Library> findLibrary(const std::string& name) {
    const std::deque<Entry>& libraries = registry();
    for (size_t l = 0; l < libraries.size(); ++l)
        if (libraries[l].descriptor->name() == name) return Library{static_cast<int>(l)};
    return std::nullopt;
}

const LibraryDescriptor& libraryDescriptor(Library library) { return *registry().at(library.index).descriptor; }

const char* libraryName(Library l) { return libraryDescriptor(l).name().c_str(); }

bool bothInLibrary(const std::string& library, const Event& a, const Event& b) {
    return libraryName(a.library) == library && libraryName(b.library) == library;
}

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
