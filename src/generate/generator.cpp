#include "generator.hpp"

#include <algorithm>
#include <stdexcept>

#include "rdmacheck/library.hpp"
#include "rdmacheck/print.hpp"

namespace rdmacheck {

namespace {

// x, y, z, w, v, u, ... then x1, y1, ...; 'r' is left out for the threads' private locations.
std::string sharedName(int index) {
    static const std::string letters = "xyzwvutsqponmlkjihgfedcba";
    const int n = static_cast<int>(letters.size());
    std::string name(1, letters[index % n]);
    return index < n ? name : name + std::to_string(index / n);
}

bool drawsMowgliKinds(const GeneratorOptions& options, const std::vector<StatementKind>& kinds) {
    return std::any_of(kinds.begin(), kinds.end(),
                       [&](const StatementKind& k) { return k.workIds && draws(options, k.name); });
}

// Why nothing can be drawn: what each kind that can be impossible needs.
std::string nothingToGenerate(const std::vector<StatementKind>& kinds) {
    std::string needs;
    for (const StatementKind& k : kinds)
        if (!k.needs.empty()) needs += (needs.empty() ? "" : ", ") + k.needs;
    return "the statement mix leaves nothing to generate (" + needs +
           ", and poll is never drawn with the RDMA^WAIT kinds; remote ops need shared locations)";
}

}  // namespace

Generator::Generator(uint64_t seed, const GeneratorOptions& options)
    : seed_(seed),
      random_(seed),
      options_(options),
      kinds_(statementKinds()),
      workIds_(drawsMowgliKinds(options, kinds_)) {
    for (int l = 0; l < registeredLibraries(); ++l) libraries_.push_back(libraryDescriptor(Library{l}).generator());
    sharedOn_.resize(options.nodes + 1);
    int index = 0;
    for (int node = 1; node <= options.nodes; ++node)
        for (int k = 0; k < options.sharedPerNode; ++k) sharedOn_[node].push_back(sharedName(index++));
    nextSharedIndex_ = index;
}

std::string Generator::nextSharedName() { return sharedName(nextSharedIndex_++); }

LitmusTest Generator::run() {
    test_.name = "random-" + std::to_string(seed_);
    declareLocations();
    for (int i = 0; i < options_.threads; ++i) {
        ThreadDecl decl = thread(i);
        test_.threads.push_back(std::move(decl));
    }
    test_.condition = condition(test_.locations);
    return std::move(test_);
}

// The shared locations of each node, then the libraries' locations (which take the next
// names of the sequence: `z@sv` after x@1, y@2).
void Generator::declareLocations() {
    for (int node = 1; node <= options_.nodes; ++node) {
        for (const std::string& name : sharedOn_[node]) declare(LocationDecl{name, node, 0, {}});
        if (!sharedOn_[node].empty()) testNodes_.insert(node);
    }
    for (const auto& library : libraries_)
        if (library) library->declareFixed(*this);
    for (const auto& library : libraries_)
        if (library) library->declareDrawn(*this);
}

ThreadDecl Generator::thread(int index) {
    ThreadState state{index, index % options_.nodes + 1, {}, {}, 1, {}, {}, std::nullopt};
    th_ = &state;
    testNodes_.insert(state.node);
    ThreadDecl decl;
    decl.name = "P" + std::to_string(index);
    decl.node = state.node;
    const long long length = random_.between(options_.minLength, options_.maxLength);
    for (long long k = 0; k < length; ++k) {
        const bool opens = !state.release;
        decl.body.push_back(statement(state));
        // A critical section holds one statement or more, and closes by the thread's end.
        if (state.release && !(opens && decl.body.back().kind == Stmt::Kind::Call) &&
            (k + 1 == length || random_.chance(0.5))) {
            decl.body.push_back(*state.release);
            state.release.reset();
        }
    }
    if (state.release) decl.body.push_back(*state.release);
    for (const std::string& name : state.privates) declare(LocationDecl{name, state.node, 0, {}});
    th_ = nullptr;
    return decl;
}

bool Generator::possible(const StatementKind& kind, ThreadState& th, const std::vector<int>& pollable) {
    if (kind.library >= 0) {
        if (kind.opensSection && th.release) return false;  // one critical section at a time
        return libraries_[kind.library]->possible(kind.name, *this);
    }
    if (kind.name == "poll") return !workIds_ && !pollable.empty();
    if (kind.name == "put" || kind.name == "get" || kind.name == "rcas" || kind.name == "rfaa")
        return options_.sharedPerNode != 0;
    if (kind.name == "wait") return !th.rdmaIds.empty();
    return true;
}

bool Generator::overBudget(const StatementKind& kind) const {
    return kind.library >= 0 && libraries_[kind.library]->overBudget(kind.name);
}

// One of the candidates, with probability proportional to its weight (total = their sum > 0).
const std::string& Generator::pickWeighted(const std::vector<std::pair<std::string, int>>& candidates,
                                           long long total) {
    long long ticket = random_.between(0, total - 1);
    size_t chosen = 0;
    for (; ticket >= candidates[chosen].second; ++chosen) ticket -= candidates[chosen].second;
    return candidates[chosen].first;
}

// A top-level statement. Kinds that would take the thread over the path budget are drawn
// only when nothing else in the mix is possible, and then only the cheapest of them; kinds
// past their library's budget are held back while anything else is possible.
Stmt Generator::statement(ThreadState& th) {
    std::vector<int> pollable;
    for (const auto& [node, count] : th.unpolled)
        if (count > 0) pollable.push_back(node);
    std::vector<std::pair<const StatementKind*, int>> possibleKinds;
    long long cheapest = 0;
    bool anyInBudget = false;
    for (const auto& [name, weight] : options_.mix) {
        const StatementKind* kind = findStatementKind(kinds_, name);
        if (weight <= 0 || !possible(*kind, th, pollable)) continue;
        possibleKinds.emplace_back(kind, weight);
        cheapest = cheapest == 0 ? kind->cost : std::min(cheapest, kind->cost);
        anyInBudget = anyInBudget || !overBudget(*kind);
    }
    std::vector<std::pair<std::string, int>> candidates;
    long long total = 0;
    for (const auto& [kind, weight] : possibleKinds) {
        if (kind->cost > cheapest && th.paths * kind->cost > kPathBudget) continue;
        if (anyInBudget && overBudget(*kind)) continue;
        candidates.emplace_back(kind->name, weight);
        total += weight;
    }
    if (total == 0) throw std::invalid_argument(nothingToGenerate(kinds_));
    const StatementKind& kind = *findStatementKind(kinds_, pickWeighted(candidates, total));
    if (kind.name == "expr") return expressionWrite(th);
    th.paths = std::min(th.paths * kind.paths, kPathBudget * kPathBudget);
    if (kind.library >= 0) return libraries_[kind.library]->draw(kind.name, *this);
    return coreStatement(kind.name, th, pollable);
}

// exists (one or two distinct locations = values); `true` when the test has no locations.
// A shared variable of SV counts by its copies, `x@2`, on the nodes the test names.
Cond Generator::condition(const std::vector<LocationDecl>& locations) {
    Cond c;
    c.kind = Cond::Kind::True;
    std::vector<std::string> names;
    for (const LocationDecl& d : locations) {
        if (!d.shared) {
            names.push_back(d.name);
            continue;
        }
        for (int node : testNodes_) names.push_back(d.name + "@" + std::to_string(node));
    }
    const long long atoms = std::min<long long>(random_.between(1, 2), static_cast<long long>(names.size()));
    for (long long k = 0; k < atoms; ++k) {
        Cond atom;
        atom.kind = Cond::Kind::Atom;
        const size_t chosen = random_.below(names.size());
        atom.loc = names[chosen];
        names.erase(names.begin() + static_cast<std::ptrdiff_t>(chosen));
        atom.value = random_.between(0, options_.values);
        c.args.push_back(std::move(atom));
    }
    if (c.args.size() == 1) return c.args[0];
    if (c.args.size() == 2) c.kind = Cond::Kind::And;
    return c;
}

// A location the thread reaches by CPU accesses: shared ones of its node first.
std::string Generator::localLocation() {
    const std::vector<std::string>& shared = sharedOn_[th_->node];
    if (!shared.empty() && (th_->privates.empty() || random_.chance(0.75))) return random_.pick(shared);
    if (!th_->privates.empty()) return random_.pick(th_->privates);
    return freshPrivate();
}

std::string Generator::freshPrivate() {
    std::vector<std::string>& privates = th_->privates;
    privates.push_back("r" + std::to_string(th_->index) + "_" + std::to_string(privates.size()));
    return privates.back();
}

std::vector<int> Generator::nodeSet(bool mostlyOthers) {
    std::vector<int> nodes;
    if (mostlyOthers && options_.nodes > 1) {
        const uint64_t mask = static_cast<uint64_t>(random_.between(1, (1LL << (options_.nodes - 1)) - 1));
        const bool loop = random_.chance(0.25);
        for (int n = 1, bit = 0; n <= options_.nodes; ++n) {
            if (n == th_->node) {
                if (loop) nodes.push_back(n);
            } else if ((mask >> bit++) & 1) {
                nodes.push_back(n);
            }
        }
    } else {
        const uint64_t mask = static_cast<uint64_t>(random_.between(1, (1LL << options_.nodes) - 1));
        for (int n = 1; n <= options_.nodes; ++n)
            if ((mask >> (n - 1)) & 1) nodes.push_back(n);
    }
    return nodes;
}

void Generator::usesWork(std::vector<std::string>& used, const std::string& id) {
    if (id.empty() || id == "_") return;
    if (std::find(used.begin(), used.end(), id) == used.end()) used.push_back(id);
    th_->unwaited.insert(id);
}

std::string Generator::waitedWork(const std::vector<std::string>& used) {
    std::vector<std::string> fresh;
    for (const std::string& id : used)
        if (th_->unwaited.count(id)) fresh.push_back(id);
    const std::string id = random_.pick(fresh.empty() ? used : fresh);
    th_->unwaited.erase(id);
    return id;
}

std::string generateLitmus(uint64_t seed, const GeneratorOptions& options) {
    validate(options);
    return printLitmus(Generator(seed, options).run());
}

}  // namespace rdmacheck
