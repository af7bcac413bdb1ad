#include "rdmacheck/model.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "language.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/text_file.hpp"

#ifndef RDMACHECK_MODELS_DIR
#define RDMACHECK_MODELS_DIR "models"
#endif

namespace rdmacheck {

namespace {

const char* opText(ModelExpr::Op op) {
    switch (op) {
        case ModelExpr::Op::Union: return " | ";
        case ModelExpr::Op::Inter: return " & ";
        case ModelExpr::Op::Diff: return " \\ ";
        case ModelExpr::Op::Seq: return ";";
        case ModelExpr::Op::Product: return " * ";
        case ModelExpr::Op::Inverse: return "^-1";
        case ModelExpr::Op::Plus: return "+";
        case ModelExpr::Op::Star: return "*";
        case ModelExpr::Op::Opt: return "?";
        default: return "";
    }
}

bool isAtom(const ModelExpr& e) {
    return e.op == ModelExpr::Op::Name || e.op == ModelExpr::Op::Filter || e.op == ModelExpr::Op::Empty ||
           e.op == ModelExpr::Op::Scope;
}

// Appends e's text to `out`: one string grows, so a long chain `a | a | ...`
// costs its length, not its length times its depth.
void appendText(const ModelExpr& e, std::string& out) {
    using Op = ModelExpr::Op;
    auto wrapped = [&](const ModelExpr& a, bool plain) {
        if (!plain) out += "(";
        appendText(a, out);
        if (!plain) out += ")";
    };
    switch (e.op) {
        case Op::Name: out += e.name; return;
        case Op::Empty: out += "0"; return;
        case Op::Filter: out += "["; appendText(e.args[0], out); out += "]"; return;
        case Op::Scope: out += e.name + ":"; wrapped(e.args[0], isAtom(e.args[0])); return;
        case Op::Inverse:
        case Op::Plus:
        case Op::Star:
        case Op::Opt: wrapped(e.args[0], isAtom(e.args[0])); out += opText(e.op); return;
        default: break;
    }
    // Sequences read as the papers write them ([nlW];pf); other operands keep their parentheses.
    auto operand = [&](const ModelExpr& a) {
        wrapped(a, isAtom(a) || a.op == Op::Inverse || a.op == Op::Plus || a.op == Op::Star || a.op == Op::Opt ||
                       (a.op == e.op && (e.op == Op::Seq || e.op == Op::Union || e.op == Op::Inter)));
    };
    operand(e.args[0]);
    out += opText(e.op);
    operand(e.args[1]);
}

}  // namespace

// A model file, an included one or an order table: the shared reader, bounded
// lower than other files (a model's size bounds its loading).
std::string readModelFile(const std::string& path, const SourceLoc& from, const std::string& what) {
    return readTextFile(path, what, from, kMaxModelBytes);
}

namespace {

// herd7's "implicit" file name: not from the root, ./ or ../, so searched for.
bool isImplicit(const std::string& name) {
    return !name.empty() && name[0] != '/' && name.rfind("./", 0) != 0 && name.rfind("../", 0) != 0;
}

// A model's name (rdma-tso): no folder, no extension.
bool isModelName(const std::string& name) {
    return name.find('/') == std::string::npos && std::filesystem::path(name).extension().empty();
}

// The files looked at for `name` (implicit), in order: beside the file that
// names it, the current folder (not for a model's name), the path's folders.
std::vector<std::string> lookedIn(const ModelSearchPath& path, const std::string& name,
                                  const std::string& besideFolder) {
    const std::string file = isModelName(name) ? name + ".cat" : name;
    std::vector<std::string> out;
    if (!besideFolder.empty()) out.push_back(besideFolder + "/" + file);
    if (!isModelName(name)) out.push_back(file);
    for (const std::string& folder : path.folders) out.push_back(folder + "/" + file);
    return out;
}

}  // namespace

std::string ModelExpr::text() const {
    std::string out;
    appendText(*this, out);
    return out;
}

std::string Model::shownName() const { return skipped.empty() ? name : name + " without " + joined(skipped); }

const Definition* Model::definition(const std::string& n) const {
    auto at = definitionAt.find(n);
    return at == definitionAt.end() ? nullptr : &definitions[at->second];
}

namespace {

// What the builders of one model's files (the model and its includes) share.
struct Loading {
    Loading(const std::string& file, const ModelOptions& options)
        : guard(options.test.empty() ? ResourceGuard(file, options.limits, "the model did not load")
                                     : ResourceGuard(options.test, options.limits)),
          forTest(!options.test.empty()) {}

    // Stops past a limit: at `at`, or at the test the model is loaded for.
    void check(const SourceLoc& at) const { forTest ? guard.check() : guard.check(at); }

    const ResourceGuard guard;  // --timeout and --max-memory
    const bool forTest;
    size_t declarations = 0;     // of every file read so far (kMaxModelItems)
    std::map<std::string, SourceLoc> declared;
    // A relation definition -> the definition at the end of its chain of
    // renamings (`let a = b`, `let b = c | d`: c | d), found once as it is defined.
    std::map<std::string, size_t> chainEnd;
    std::map<std::string, size_t> depth;  // a definition -> its depth (kMaxModelDepth)
    std::vector<std::pair<ModelItem, std::string>> tableFiles;
};

// Resolves a parsed model: includes, names and types, tables, declarations.
// Each step is linear in the model's text: a definition is resolved, typed and
// walked once however often it is used, and the limits are checked between
// declarations and axioms.
class ModelBuilder {
public:
    ModelBuilder(Model& model, const ModelSearchPath& path, Loading& loading) : m_(model), path_(path), s_(loading) {}

    void add(const ParsedModel& parsed, int includeDepth) {
        s_.declarations += parsed.items.size();
        for (const ModelItem& it : parsed.items) {
            if (it.kind == ModelItem::Kind::Let) laterLets_.emplace(it.name, it.where);
        }
        for (const ModelItem& it : parsed.items) {
            s_.check(it.where);
            item(it, includeDepth);
        }
    }

    void finish(const ModelOptions& options) {
        loadTables();
        supports();
        skip(options.skip);
        std::set<std::string> walked;
        for (const Axiom& a : m_.axioms) {
            s_.check(a.where);
            collectBases(a.expr, walked);
        }
        plan();
        fingerprint();
    }

private:
    void item(const ModelItem& it, int includeDepth) {
        switch (it.kind) {
            case ModelItem::Kind::Let: define(it); break;
            case ModelItem::Kind::Include: include(it, includeDepth); break;
            case ModelItem::Kind::Table:
                declare(it.name, it.where);
                s_.tableFiles.emplace_back(it, located(it));
                m_.tables[it.name].name = it.name;
                break;
            case ModelItem::Kind::Stamps: stamps(it); break;
            case ModelItem::Kind::Events: events(it); break;
            case ModelItem::Kind::Libraries: libraries(it); break;
            case ModelItem::Kind::Axiom: axiom(it); break;
        }
    }

    static std::string dirOf(const std::string& file) {
        const std::string parent = std::filesystem::path(file).parent_path().string();
        return parent.empty() ? "." : parent;
    }

    // The file an include or a table names: beside the file naming it, then
    // on the search path; if none, where the reader will say it is missing.
    std::string located(const ModelItem& it) const {
        const std::string found = path_.find(it.text, dirOf(it.where.file));
        return !found.empty() ? found : isImplicit(it.text) ? dirOf(it.where.file) + "/" + it.text : it.text;
    }

    void include(const ModelItem& it, int depth) {
        if (depth >= 8) throw InputError(it.where, "includes nested more than 8 deep (an include cycle?)");
        const std::string path = located(it);
        const std::string text = readModelFile(path, it.where, "included model file");
        ModelBuilder(m_, path_, s_).add(parseModelText(text, path, s_.declarations), depth + 1);
    }

    // A name is given a meaning once: definitions, tables and stamps share one space with the base names.
    void declare(const std::string& name, const SourceLoc& where) {
        if (findBaseRelation(name)) throw InputError(where, "'" + name + "' is a base relation; choose another name");
        if (findBaseSet(name)) throw InputError(where, "'" + name + "' is a base event set; choose another name");
        auto [it, fresh] = s_.declared.emplace(name, where);
        if (!fresh) throw InputError(where, "'" + name + "' is already defined at " + it->second.str());
    }

    void define(const ModelItem& it) {
        defining_ = it.name;
        Definition d{it.name, it.expr, typeOf(it.expr), it.where};
        defining_.clear();
        s_.depth[it.name] = depthOf(it.expr, it.where);
        declare(it.name, it.where);
        laterLets_.erase(it.name);
        const size_t at = m_.definitions.size();
        if (d.type == ExprType::Relation) {
            auto named = d.expr.op == ModelExpr::Op::Name ? s_.chainEnd.find(d.expr.name) : s_.chainEnd.end();
            s_.chainEnd[d.name] = named == s_.chainEnd.end() ? at : named->second;
        }
        m_.definitionAt.emplace(d.name, at);
        m_.definitions.push_back(std::move(d));
    }

    void axiom(const ModelItem& it) {
        if (typeOf(it.expr) != ExprType::Relation)
            throw InputError(it.expr.where, "an axiom constrains a relation; this is an event set (use [S] for "
                                            "its identity relation)");
        depthOf(it.expr, it.where);
        std::string name = it.name;
        if (name.empty() && it.expr.op == ModelExpr::Op::Name) name = it.expr.name;
        if (name.empty()) throw InputError(it.where, "name this axiom: add 'as NAME' after its relation");
        if (m_.axioms.size() == kMaxModelAxioms)
            throw InputError(it.where, "the model has more than " + std::to_string(kMaxModelAxioms) + " axioms");
        m_.axioms.push_back(Axiom{it.axiom, it.expr, name, it.where});
    }

    void stamps(const ModelItem& it) {
        m_.stamped = true;
        for (size_t i = 0; i + 1 < it.names.size(); i += 2) {
            const auto& [kind, at] = it.names[i];
            EventKind k;
            if (!kindFromName(kind, k)) throw InputError(at, "unknown event kind '" + kind + "' (known: " + kindList() + ")");
            if (!m_.stampOf.emplace(kind, it.names[i + 1].first).second)
                throw InputError(at, "event kind '" + kind + "' is stamped twice");
            if (!stampNames_.count(it.names[i + 1].first)) {
                declare(it.names[i + 1].first, it.names[i + 1].second);
                stampNames_.insert(it.names[i + 1].first);
            }
        }
    }

    void events(const ModelItem& it) {
        declaredEvents_ = true;
        m_.supports.fill(false);
        for (const auto& [kind, at] : it.names) {
            EventKind k;
            if (!kindFromName(kind, k)) throw InputError(at, "unknown event kind '" + kind + "' (known: " + kindList() + ")");
            m_.supports[static_cast<int>(k)] = true;
        }
    }

    void libraries(const ModelItem& it) {
        for (const auto& [name, at] : it.names) m_.libraries.insert(library(name, at));
    }

    static Library library(const std::string& name, const SourceLoc& at) {
        if (const std::optional<Library> l = findLibrary(name)) return *l;
        throw InputError(at, "unknown library '" + name + "' (known: " + libraryName(Library::Core) + ", " +
                                 knownLibraries() + ")");
    }

    static std::string kindList() {
        std::vector<std::string> kinds;
        for (int k = 0; k < eventKindCount(); ++k) kinds.push_back(kindName(static_cast<EventKind>(k)));
        return joined(kinds);
    }

    ExprType nameType(const ModelExpr& e) const {
        if (e.name == defining_)
            throw InputError(e.where, "'" + e.name + "' refers to itself: definitions are not recursive");
        if (const Definition* d = m_.definition(e.name)) return d->type;
        if (m_.tables.count(e.name) || findBaseRelation(e.name)) return ExprType::Relation;
        if (findBaseSet(e.name) || stampNames_.count(e.name)) return ExprType::Set;
        auto later = laterLets_.find(e.name);
        if (later != laterLets_.end())
            throw InputError(e.where, "'" + e.name + "' is defined later, at " + later->second.str() +
                                          "; a definition may use only earlier ones, so definitions form no cycle");
        throw InputError(e.where, "unknown name '" + e.name + "' (" + knownNames() + ")");
    }

    std::string knownNames() const {
        std::vector<std::string> relations, sets;
        for (const BaseRelation& r : baseRelations()) relations.push_back(r.name);
        sets.push_back(libraryName(Library::Core));
        std::istringstream libraries(knownLibraries());  // "sv, bal"
        for (std::string name; std::getline(libraries >> std::ws, name, ',');) {
            sets.push_back(name);
            for (const BaseRelation& r : libraryDescriptor(*findLibrary(name)).relations()) relations.push_back(r.name);
        }
        for (const auto& [name, t] : m_.tables) relations.push_back(name);
        for (const BaseSet& s : baseSets()) sets.push_back(s.name);
        for (const std::string& s : stampNames_) sets.push_back(s);
        for (const Definition& d : m_.definitions) (d.type == ExprType::Set ? sets : relations).push_back(d.name);
        return "relations: " + joined(relations) + "; event sets: " + joined(sets);
    }

    void expect(const ModelExpr& e, ExprType want, const std::string& context) const {
        if (typeOf(e) == want) return;
        throw InputError(e.where, context + " takes " + (want == ExprType::Set ? "an event set" : "a relation") + ", '" +
                                      e.text() + "' is " + (want == ExprType::Set ? "a relation" : "an event set"));
    }

    ExprType typeOf(const ModelExpr& e) const {
        using Op = ModelExpr::Op;
        switch (e.op) {
            case Op::Name: return nameType(e);
            case Op::Empty: return ExprType::Relation;
            case Op::Scope:
                library(e.name, e.where);
                expect(e.args[0], ExprType::Relation, "a library scope");
                return ExprType::Relation;
            case Op::Union:
            case Op::Inter:
            case Op::Diff: {
                const ExprType t = typeOf(e.args[0]);
                expect(e.args[1], t, std::string("'") + opText(e.op)[1] + "' with " +
                                         (t == ExprType::Set ? "an event set" : "a relation") + " on its left");
                return t;
            }
            case Op::Product:
                expect(e.args[0], ExprType::Set, "a product S * S");
                expect(e.args[1], ExprType::Set, "a product S * S");
                return ExprType::Relation;
            case Op::Filter: expect(e.args[0], ExprType::Set, "[S]"); return ExprType::Relation;
            case Op::Seq:
                expect(e.args[1], ExprType::Relation, "';'");
                [[fallthrough]];
            default: expect(e.args[0], ExprType::Relation, std::string("'") + opText(e.op) + "'"); return ExprType::Relation;
        }
    }

    // How deep a walk of e recurses: a level per operator and per definition it
    // goes through. Every later stage walks so, so it is bounded (at `where`).
    size_t depthOf(const ModelExpr& e, const SourceLoc& where) const {
        size_t depth = 0;
        if (e.op == ModelExpr::Op::Name) {
            auto defined = s_.depth.find(e.name);
            depth = defined == s_.depth.end() ? 0 : defined->second + 1;
        }
        for (const ModelExpr& a : e.args) depth = std::max(depth, depthOf(a, where) + 1);
        if (depth > kMaxModelDepth)
            throw InputError(where, "nested more than " + std::to_string(kMaxModelDepth) +
                                        " deep (operators, and the definitions it uses and theirs)");
        return depth;
    }

    void loadTables() {
        for (const auto& [it, path] : s_.tableFiles) {
            const std::string text = readModelFile(path, it.where, "order table");
            m_.tables[it.name] = m_.stamped ? parseStampTable(text, path, it.name, m_.stampOf)
                                            : parseOrderTable(text, path, it.name);
        }
    }

    void supports() {
        if (declaredEvents_) return;
        m_.supports.fill(true);
        for (const auto& [name, t] : m_.tables)
            for (int k = 0; k < eventKindCount(); ++k) m_.supports[k] = m_.supports[k] && t.covers[k];
    }

    void skip(const std::vector<std::string>& names) {
        for (const std::string& name : names) {
            auto named = [&](const Axiom& a) { return a.name == name; };
            if (std::none_of(m_.axioms.begin(), m_.axioms.end(), named)) {
                std::vector<std::string> axioms;
                for (const Axiom& a : m_.axioms) axioms.push_back(a.name);
                throw InputError(SourceLoc{"--skip", 0, 0},
                                 "model " + m_.name + " has no axiom '" + name + "' (axioms: " + joined(axioms) + ")");
            }
            m_.axioms.erase(std::remove_if(m_.axioms.begin(), m_.axioms.end(), named), m_.axioms.end());
            m_.skipped.push_back(name);
        }
    }

    // `walked`: the definitions already walked, each once.
    void collectBases(const ModelExpr& e, std::set<std::string>& walked) {
        if (e.op == ModelExpr::Op::Name) {
            if (const Definition* d = m_.definition(e.name)) {
                if (walked.insert(e.name).second) collectBases(d->expr, walked);
            } else if (findBaseRelation(e.name)) {
                m_.usedBaseNames.insert(e.name);
            }
        }
        for (const ModelExpr& a : e.args) collectBases(a, walked);
    }

    // What a name stands for, through definitions of relations (`let a = b`).
    const ModelExpr& resolve(const ModelExpr& e) const {
        auto end = e.op == ModelExpr::Op::Name ? s_.chainEnd.find(e.name) : s_.chainEnd.end();
        return end == s_.chainEnd.end() ? e : m_.definitions[end->second].expr;
    }

    static void unionMembers(const ModelExpr& e, std::vector<ModelExpr>& out) {
        if (e.op != ModelExpr::Op::Union) {
            out.push_back(e);
            return;
        }
        unionMembers(e.args[0], out);
        unionMembers(e.args[1], out);
    }

    // acyclic R, acyclic R+ and irreflexive R+ (one condition) become clocks;
    // a clock remembers the closure it came from, for the ([S];ib;ob)+ pattern.
    void plan() {
        std::vector<const ModelExpr*> closureOf;
        for (const Axiom& a : m_.axioms) {
            s_.check(a.where);
            const ModelExpr& r = resolve(a.expr);
            const bool closure = r.op == ModelExpr::Op::Plus;
            if (a.kind == Axiom::Kind::Empty || (a.kind == Axiom::Kind::Irreflexive && !closure)) {
                m_.plan.general.push_back(a);
            } else if (a.kind == Axiom::Kind::Acyclic || !tie(a, r, closureOf)) {
                Clock c{a.name, {}};
                unionMembers(closure ? resolve(r.args[0]) : r, c.members);
                closureOf.push_back(closure ? &r : nullptr);
                m_.plan.clocks.push_back(std::move(c));
            }
        }
    }

    // irreflexive ([S];X;Y)+ where X and Y are the closures of two earlier
    // clocks: the clocks are tied, I(e) <= O(e) and equal on S (doc/model-notes.md §N1).
    // Returns whether the axiom was taken so.
    bool tie(const Axiom& a, const ModelExpr& closure, const std::vector<const ModelExpr*>& closureOf) {
        const ModelExpr& body = resolve(closure.args[0]);
        if (m_.plan.issueClock >= 0 || body.op != ModelExpr::Op::Seq || body.args[0].op != ModelExpr::Op::Seq) return false;
        const ModelExpr& filter = body.args[0].args[0];
        if (filter.op != ModelExpr::Op::Filter) return false;
        auto clockOf = [&](const ModelExpr& e) {
            const ModelExpr& r = resolve(e);
            for (size_t c = 0; c < closureOf.size(); ++c)
                if (closureOf[c] == &r) return static_cast<int>(c);
            return -1;
        };
        const int issue = clockOf(body.args[0].args[1]), observe = clockOf(body.args[1]);
        if (issue < 0 || observe < 0 || issue == observe) return false;
        m_.plan.issueClock = issue;
        m_.plan.observeClock = observe;
        m_.plan.tieSet = filter.args[0];
        m_.plan.mixedAxiom = a.name;
        return true;
    }

    // FNV-1a over a canonical text of everything the model means.
    void fingerprint() {
        std::ostringstream canon;
        for (const Definition& d : m_.definitions) canon << "let " << d.name << " = " << d.expr.text() << "\n";
        for (const Axiom& a : m_.axioms) canon << static_cast<int>(a.kind) << " " << a.expr.text() << " as " << a.name << "\n";
        // Kinds by name, and only those a table covers or the model takes: a new
        // event kind leaves the models that do not take it as they were.
        for (const auto& [name, t] : m_.tables) {
            canon << "table " << name << " " << t.betweenCallsOnly;
            for (int a = 0; a < eventKindCount(); ++a)
                for (int b = 0; b < eventKindCount(); ++b)
                    if (t.covers[a] && t.covers[b])
                        canon << " " << kindName(static_cast<EventKind>(a)) << ">" << kindName(static_cast<EventKind>(b))
                              << "=" << static_cast<int>(t.cells[a][b]);
            canon << "\n";
        }
        for (const auto& [kind, stamp] : m_.stampOf) canon << kind << ":" << stamp << "\n";
        for (int k = 0; k < eventKindCount(); ++k)
            if (m_.supports[k]) canon << kindName(static_cast<EventKind>(k)) << ",";
        for (Library l : m_.libraries) canon << libraryName(l) << ",";
        uint64_t h = 1469598103934665603ull;
        for (unsigned char c : canon.str()) h = (h ^ c) * 1099511628211ull;
        std::ostringstream hex;
        hex << std::hex << h;
        m_.fingerprint = hex.str();
    }

    Model& m_;
    const ModelSearchPath& path_;
    Loading& s_;
    std::map<std::string, SourceLoc> laterLets_;
    std::set<std::string> stampNames_;
    std::string defining_;
    bool declaredEvents_ = false;
};

}  // namespace

Model parseModel(const std::string& text, const std::string& file, const ModelSearchPath& path,
                 const ModelOptions& options) {
    Model m;
    m.file = file;
    m.name = std::filesystem::path(file).stem().string();
    Loading loading(file, options);
    const ParsedModel parsed = parseModelText(text, file);
    m.description = parsed.description;
    ModelBuilder builder(m, path, loading);
    builder.add(parsed, 0);
    builder.finish(options);
    return m;
}

Model loadModel(const ModelSearchPath& path, const std::string& nameOrPath, const ModelOptions& options) {
    const std::string file = path.find(nameOrPath);
    if (file.empty()) {
        if (!isModelName(nameOrPath))
            throw InputError(SourceLoc{nameOrPath, 0, 0},
                             "cannot open model file " + nameOrPath + ": not found" +
                                 (isImplicit(nameOrPath) ? " (looked at " + joined(lookedIn(path, nameOrPath, "")) + ")"
                                                         : std::string()));
        const std::vector<std::string> known = path.modelNames();
        throw InputError(SourceLoc{"rdmacheck", 0, 0}, "unknown model '" + nameOrPath + "'" +
                                                           didYouMean(nameOrPath, known) + " (known: " + joined(known) +
                                                           "; or give the path of a .cat file)");
    }
    return parseModel(readModelFile(file, SourceLoc{"--model", 0, 0}, "model file"), file, path, options);
}

std::string shippedModelsDir() {
    // An installed rdmacheck (cmake --install, the .deb) has its models beside
    // it, in PREFIX/share/rdmacheck/models; a build uses the source tree's.
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "rdmacheck" / "models";
        if (std::filesystem::is_directory(installed, ec)) return installed.string();
    }
    return RDMACHECK_MODELS_DIR;
}

ModelSearchPath ModelSearchPath::withDefaults(const std::vector<std::string>& added) {
    std::vector<std::string> folders = added;
    if (const char* env = std::getenv("RDMACHECK_MODELS")) {
        std::istringstream list(env);
        for (std::string folder; std::getline(list, folder, ':');)
            if (!folder.empty()) folders.push_back(folder);
    }
    folders.push_back(shippedModelsDir());
    return ModelSearchPath(std::move(folders));
}

std::string ModelSearchPath::find(const std::string& name, const std::string& besideFolder) const {
    // What exists is taken, a folder or a FIFO too: the reader says what is wrong with it.
    std::error_code ec;
    if (!isImplicit(name)) return name;
    for (const std::string& file : lookedIn(*this, name, besideFolder))
        if (std::filesystem::exists(file, ec)) return file;
    return "";
}

std::vector<std::string> ModelSearchPath::modelNames() const {
    std::set<std::string> names;
    std::error_code ec;
    for (const std::string& folder : folders)
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
            if (entry.path().extension() == ".cat" && entry.path().stem().string().rfind("_", 0) != 0)
                names.insert(entry.path().stem().string());
    return {names.begin(), names.end()};
}

}  // namespace rdmacheck
