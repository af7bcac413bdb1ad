#include "rdmacheck/model.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <sstream>

#include "interpret.hpp"
#include "rdmacheck/result.hpp"
#include "search_path.hpp"
#include "language.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/relations.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

// A model file, an included one or an order table: the shared reader, bounded
// lower than other files (a model's size bounds its loading).
std::string readModelFile(const std::string& path, const SourceLoc& from, const std::string& what) {
    return readTextFile(path, what, from, kMaxModelBytes);
}

std::string Model::shownName() const { return skipped.empty() ? name : name + " without " + joined(skipped); }

const Definition* Model::definition(const std::string& n) const {
    auto at = definitionAt.find(n);
    return at == definitionAt.end() ? nullptr : &definitions[at->second];
}

namespace {

// The `call`s a declaration runs in: the name its checks take (the innermost
// call's `as` name, when it has one), and the names herd7's -skipchecks drops
// everything in them by (each call's `as` name and its procedure's).
struct CallContext {
    std::string name;
    std::vector<std::string> skipNames;
};

// What loading one model's files (the model, its includes, the preludes) shares.
struct Loading {
    Loading(const std::string& file, const ModelOptions& options)
        : guard(options.test.empty() ? ResourceGuard(file, options.limits, "the model did not load")
                                     : ResourceGuard(options.test, options.limits)),
          forTest(!options.test.empty()), skipped(options.skip) {}

    // Stops past a limit: at `at` (the model's start while the preludes load),
    // or at the test the model is loaded for.
    void check(const SourceLoc& at) const { forTest ? guard.check() : guard.check(prelude ? *prelude : at); }

    const ResourceGuard guard;  // --timeout and --max-memory
    const bool forTest;
    const std::vector<std::string> skipped;  // --skip's names
    std::optional<SourceLoc> prelude;  // the model's start, while _herd7.cat and stdlib.cat load
    size_t declarations = 0;     // of every file read so far (kMaxModelItems)
    size_t built = 0;            // operators built, operands counted, and functions applied (kMaxModelOperators)
    std::deque<ParsedModel> files;  // every file read: functions and procedures point into them
    std::map<std::string, SourceLoc> declared;  // tables and stamps
    // A relation definition -> the definition at the end of its chain of
    // renamings (`let a = b`, `let b = c | d`: c | d), found once as it is defined.
    std::map<std::string, size_t> chainEnd;
    std::map<std::string, size_t> depth;  // a definition -> its depth (kMaxModelDepth)
    std::vector<std::pair<ModelItem, std::string>> tableFiles;
};

// Runs a parsed model's declarations (the cat language's evaluation is the
// interpreter's): includes, names and types, tables, declarations. Each step is
// linear in the model's text and in what its functions expand to: a definition
// is resolved, typed and walked once however often it is used, and the limits
// are checked between declarations and axioms.
class ModelBuilder : public CatGlobals {
public:
    ModelBuilder(Model& model, const ModelSearchPath& path, Loading& loading)
        : m_(model), path_(path), s_(loading), interpreter_(*this), global_(interpreter_.child(nullptr)) {}

    // Reads `file` (which `from` names) and runs it in the global scope.
    void read(const std::string& file, const SourceLoc& from, const std::string& what, int includeDepth) {
        add(parseModelText(readModelFile(file, from, what), file, s_.declarations), includeDepth);
    }

    void add(ParsedModel parsed, int includeDepth) {
        s_.declarations += parsed.items.size();
        s_.files.push_back(std::move(parsed));
        for (const ModelItem& it : s_.files.back().items)
            for (const auto& [name, value] : it.bindings) laterLets_.emplace(name, it.where);
        run(s_.files.back().items, global_, includeDepth, CallContext{});
    }

    void finish(const ModelOptions& options) {
        loadTables();
        supports();
        m_.herdEvents = !declaredEvents_ && m_.tables.empty() && !m_.stamped;
        skip(options.skip, options.skipOnlyPresent);
        std::set<std::string> walked;
        for (const auto* tests : {&m_.axioms, &m_.flags, &m_.assertions})
            for (const Axiom& a : *tests) {
                s_.check(a.where);
                collectBases(a.expr, walked, a.where);
            }
        rename(walked);
        std::set<std::pair<std::string, bool>> uses;
        for (const Axiom& a : m_.axioms) refuseExactFixedPoint(m_, a.expr, a.negated, a.where, uses);
        for (const Axiom& a : m_.assertions) refuseExactFixedPoint(m_, a.expr, !a.negated, a.where, uses);
        m_.plan = plan(m_.axioms);
        planAssertions();
        m_.countsCoherence = !m_.herdEvents || generatesCo_ || m_.uses("mo") || m_.uses("rb");
        m_.generatesCo = generatesCo_;
        m_.fingerprint = fingerprintOf(m_, walked);
    }

private:
    void run(const std::vector<ModelItem>& items, CatScope* scope, int includeDepth, const CallContext& calls) {
        for (const ModelItem& it : items) {
            s_.check(it.where);
            item(it, scope, includeDepth, calls);
        }
    }

    void item(const ModelItem& it, CatScope* scope, int includeDepth, const CallContext& calls) {
        using Kind = ModelItem::Kind;
        switch (it.kind) {
            case Kind::Let:
                let(it, scope);
                run(it.body, scope, includeDepth, calls);  // let rec ... when: a check after it
                break;
            case Kind::Include: include(it, includeDepth); break;
            case Kind::Table:
                declare(it.name, it.where);
                s_.tableFiles.emplace_back(it, located(it));
                m_.tables[it.name].name = it.name;
                break;
            case Kind::Stamps: stamps(it); break;
            case Kind::Events: events(it); break;
            case Kind::Libraries: libraries(it); break;
            case Kind::Axiom: axiom(it, scope, calls); break;
            case Kind::Show: break;  // herd7's pictures: rdmacheck draws --edges
            case Kind::Procedure: {
                CatValue p;
                p.kind = CatValue::Kind::Procedure;
                p.procedure = &it;
                p.scope = scope;
                p.time = interpreter_.now() + (it.recursive ? 1 : 0);  // procedure rec sees itself
                interpreter_.bindName(*scope, it.name, p);
                break;
            }
            case Kind::Call: call(it, scope, includeDepth, calls); break;
            case Kind::IfVariant:
                run(CatInterpreter::variantHolds(it.expr) ? it.body : it.otherwise, scope, includeDepth, calls);
                break;
            case Kind::WithFrom: withFrom(it, scope); break;
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
        // herd7's include searches as a model's name does: say each place looked at.
        const std::string found = path_.findInclude(it.text, dirOf(it.where.file));
        if (found.empty() && isImplicit(it.text))
            throw InputError(it.where, "cannot find included model file " + it.text + " (looked at " +
                                           joined(lookedIn(path_, it.text, dirOf(it.where.file), false)) + ")");
        read(found.empty() ? it.text : found, it.where, "included model file", depth + 1);
    }

    // Tables and stamps are named once, and not as a base name.
    void declare(const std::string& name, const SourceLoc& where) {
        if (findBaseRelation(name)) throw InputError(where, "'" + name + "' is a base relation; choose another name");
        if (findBaseSet(name)) throw InputError(where, "'" + name + "' is a base event set; choose another name");
        auto [it, fresh] = s_.declared.emplace(name, where);
        if (!fresh) throw InputError(where, "'" + name + "' is already defined at " + it->second.str());
    }

    // let a = e and b = f: each sees the scope before the let; let rec binds
    // functions that see themselves. A set or relation becomes a definition.
    void let(const ModelItem& it, CatScope* scope) {
        if (isRecursiveGroup(it)) return recursiveGroup(it, scope);
        std::vector<LetBinding> bindings;
        for (const auto& [name, expr] : it.bindings) bindings.push_back({name, expr});
        interpreter_.bindLet(
            bindings, it.recursive, scope, *scope,
            [&](const std::string& name, CatValue v) {
                laterLets_.erase(name);
                return v.kind == CatValue::Kind::Expr ? define(name, std::move(v), it.where) : v;
            },
            [&](const std::string& name) { defining_ = name; });
        defining_.clear();
    }

    // Definitions that name each other, bound before their bodies are
    // evaluated; the walker computes their least fixed point
    // (RelationWalker::fixedPoint), which exists where each body grows with them.
    void recursiveGroup(const ModelItem& it, CatScope* scope) {
        const int first = static_cast<int>(m_.definitions.size());
        std::vector<std::string> keys;
        for (const auto& [name, expr] : it.bindings) {
            if (expr.op == ModelExpr::Op::Fun)
                throw InputError(expr.where, "a 'let rec' of functions and relations together is herd7's, and "
                                             "rdmacheck does not evaluate it");
            laterLets_.erase(name);
            keys.push_back(name + kDefinitionKey + std::to_string(m_.definitions.size()));
            m_.definitionAt.emplace(keys.back(), m_.definitions.size());
            m_.definitions.push_back(Definition{keys.back(), ModelExpr::of(ModelExpr::Op::Empty, expr.where),
                                                ExprType::Relation, it.where, first});
            // A relation: a group of sets is refused (typed otherwise, a set evaluator would follow the cycle).
            interpreter_.bindName(*scope, name, CatValue::of(ModelExpr::named(keys.back(), expr.where), ExprType::Relation));
        }
        for (size_t i = 0; i < keys.size(); ++i) {
            const auto& [name, expr] = it.bindings[i];
            defining_ = name;
            CatValue v = interpreter_.relational(expr, scope);
            if (v.type != ExprType::Relation)
                throw InputError(expr.where, "a 'let rec' of event sets is herd7's, and rdmacheck does not evaluate it");
            if (!v.expr.growsWith(keys))
                throw InputError(expr.where, "'let rec': rdmacheck computes a least fixed point where each definition "
                                             "grows with the relations defined (none under '\\' on the right, '~', domain or range), "
                                             "not '" + v.expr.text() + "'");
            s_.depth[keys[i]] = depthOf(v.expr, it.where);
            m_.definitions[static_cast<size_t>(first) + i].expr = std::move(v.expr);
        }
        defining_.clear();
    }

    // A set or relation bound at `where`: a definition under a key of its own
    // while names may be shadowed (rename() gives it its name at the end).
    CatValue define(const std::string& name, CatValue v, const SourceLoc& where) {
        const size_t at = m_.definitions.size();
        const std::string key = name + kDefinitionKey + std::to_string(at);
        s_.depth[key] = depthOf(v.expr, where);
        if (v.type == ExprType::Relation) {
            auto named = v.expr.op == ModelExpr::Op::Name ? s_.chainEnd.find(v.expr.name) : s_.chainEnd.end();
            s_.chainEnd[key] = named == s_.chainEnd.end() ? at : named->second;
        }
        m_.definitionAt.emplace(key, at);
        m_.definitions.push_back(Definition{key, std::move(v.expr), v.type, where});
        CatValue named = CatValue::of(ModelExpr::named(key, where), v.type);
        named.anyType = v.anyType;  // `let s = {}` is empty as a set and as a relation, as {} is
        return named;
    }

    void axiom(const ModelItem& it, CatScope* scope, const CallContext& calls) {
        // Flags and assertions keep their own names (herd7 prints them). -skipchecks drops a test by
        // its own `as` name or a call it is in, never an unnamed one by another name.
        std::vector<std::string> skipNames = calls.skipNames;
        if (!it.name.empty()) skipNames.push_back(it.name);
        CatValue v;
        try {
            v = interpreter_.relational(it.expr, scope);
        } catch (const InputError& e) {
            // herd7 evaluates no test that -skipchecks drops, nor the definitions only it uses
            const bool skipped = std::any_of(skipNames.begin(), skipNames.end(), [&](const std::string& n) {
                return std::count(s_.skipped.begin(), s_.skipped.end(), n) > 0;
            });
            if (!skipped || dynamic_cast<const LimitError*>(&e)) throw;
            droppedSkipNames_.insert(droppedSkipNames_.end(), skipNames.begin(), skipNames.end());
            return;
        }
        if (v.type == ExprType::Set && it.axiom == Axiom::Kind::Empty)  // a set is empty when [S] is
            v = CatValue::of(ModelExpr::of(ModelExpr::Op::Filter, v.expr.where, {std::move(v.expr)}), ExprType::Relation);
        if (v.type != ExprType::Relation && !v.anyType)
            throw InputError(it.expr.where, "an axiom constrains a relation; this is an event set (use [S] for "
                                            "its identity relation)");
        depthOf(v.expr, it.where);
        if (it.test == ModelItem::Test::Flag) {  // herd7 ignores a flag without a name
            if (!it.name.empty())
                m_.flags.push_back(Axiom{it.axiom, std::move(v.expr), it.name, it.where, it.negated, skipNames});
            return;
        }
        if (it.test == ModelItem::Test::UndefinedUnless) {  // a flag raised where the test fails, whatever its name
            m_.flags.push_back(Axiom{it.axiom, std::move(v.expr), kUndefinedFlag, it.where, !it.negated, skipNames});
            return;
        }
        if (it.test == ModelItem::Test::Assert) {  // herd7 names an unnamed one so in its message
            m_.assertions.push_back(Axiom{it.axiom, std::move(v.expr), it.name.empty() ? "(unknown)" : it.name,
                                          it.where, it.negated, skipNames, m_.axioms.size()});
            return;
        }
        std::string name = !calls.name.empty() ? calls.name : it.name;
        if (name.empty()) name = it.expr.op == ModelExpr::Op::Name ? it.expr.name : it.expr.text();
        if (m_.axioms.size() == kMaxModelAxioms)
            throw InputError(it.where, "the model has more than " + std::to_string(kMaxModelAxioms) + " axioms");
        m_.axioms.push_back(Axiom{it.axiom, std::move(v.expr), name, it.where, it.negated, std::move(skipNames)});
    }

    // call P(arg) [as name]: P's declarations in a scope of their own, its checks named `name`.
    void call(const ModelItem& it, CatScope* scope, int includeDepth, const CallContext& outer) {
        const CatValue* p = scope->find(it.name);
        if (p && p->kind == CatValue::Kind::Failed) p->raiseAt(it.name, it.where);  // a definition that failed, now used
        if (auto again = std::find(running_.begin(), running_.end(), it.name); !p && again != running_.end()) {
            std::string chain;
            for (; again != running_.end(); ++again) chain += *again + " → ";
            throw InputError(it.where, "procedure '" + it.name + "' is called while it runs (" + chain + it.name +
                                           "), which herd7 does not allow (a procedure's name is bound after its body)");
        }
        if (!p || p->kind != CatValue::Kind::Procedure)
            throw InputError(it.where, "'" + it.name + "' is not a procedure");
        running_.push_back(it.name);
        if (running_.size() > kMaxProcedureCalls)
            throw InputError(it.where, "procedure calls nested more than " + std::to_string(kMaxProcedureCalls) +
                                           " deep (a recursion that does not end?)");
        CatScope* body = interpreter_.child(p->scope, p->time);
        interpreter_.bind(*body, p->procedure->params, interpreter_.value(it.expr, scope), it.where);
        CallContext inner{it.text, outer.skipNames};
        if (!it.text.empty()) inner.skipNames.push_back(it.text);
        inner.skipNames.push_back(it.name);
        run(p->procedure->body, body, includeDepth, inner);
        running_.pop_back();
    }

    // with co from generate_cos(E) or generate_orders(S, E), S herd7's writes
    // (W, or W \ SPEC: no write is speculated here): co is mo (generated_co.cpp).
    void withFrom(const ModelItem& it, CatScope* scope) {
        const ModelExpr& e = it.expr;
        const ModelExpr* base = nullptr;
        std::string written = e.text();  // as the axiom's message names it
        const CatValue* generator = e.op == ModelExpr::Op::Apply && e.args[0].op == ModelExpr::Op::Name
                                        ? scope->find(e.args[0].name) : nullptr;
        if (generator && generator->kind == CatValue::Kind::Failed) generator->raiseAt(e.args[0].name, e.args[0].where);
        if (generator) {
            const ModelExpr& a = e.args[1];
            if (e.args[0].name == "generate_cos") {
                base = &a;
                written = "generate_cos(" + a.text() + ")";
            }
            if (e.args[0].name == "generate_orders" && a.op == ModelExpr::Op::Tuple && a.args.size() == 2 &&
                denotesAllWrites(m_, interpreter_.relational(a.args[0], scope).expr))
                base = &a.args[1];
        }
        if (!base || it.name != "co")
            throw InputError(it.where, "'with " + it.name + " from " + e.text() +
                                           "' is herd7's, and rdmacheck evaluates only 'with co from generate_cos(E)' "
                                           "or generate_orders(W, E) (its choice of the coherence order)");
        if (auto axiom = coherenceBaseAxiom(m_, interpreter_.relational(*base, scope).expr, written, base->where, it.where))
            m_.axioms.push_back(std::move(*axiom));
        interpreter_.bindName(*scope, it.name, CatValue::of(ModelExpr::named("mo", it.where), ExprType::Relation));
        generatesCo_ = true;
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

    // A name no scope binds: a table, a base relation or set, a stamp, or one
    // of herd7's that rdmacheck does not evaluate (refused if an axiom reaches it).
    CatValue global(const ModelExpr& e) const override {
        ModelExpr name = e;
        if (m_.tables.count(e.name) || findBaseRelation(e.name)) return CatValue::of(name, ExprType::Relation);
        if (findBaseSet(e.name) || stampNames_.count(e.name)) return CatValue::of(name, ExprType::Set);
        if (const UnevaluatedName* herd = findUnevaluatedName(e.name)) return CatValue::of(name, herd->type);
        if (e.name == defining_)
            throw InputError(e.where, "'" + e.name + "' refers to itself: definitions are not recursive");
        auto later = laterLets_.find(e.name);
        if (later != laterLets_.end())
            throw InputError(e.where, "'" + e.name + "' is defined later, at " + later->second.str() +
                                          "; a definition may use only earlier ones, so definitions form no cycle");
        const auto [relations, sets] = knownNames();
        std::vector<std::string> all = relations;
        all.insert(all.end(), sets.begin(), sets.end());
        throw InputError(e.where, "unknown name '" + e.name + "'" + didYouMean(e.name, all) + " (relations: " +
                                      joined(relations) + "; event sets: " + joined(sets) + ")");
    }

    // A function application counts with the argument it copies into its
    // body, so that functions doubling their argument (f(x | x)) stop at the
    // bound, not at the memory's end.
    void built(const ModelExpr& op) override {
        if (op.op == ModelExpr::Op::Scope) library(op.name, op.where);
        work(op.where, 1);
    }
    void applied(const ModelExpr& call, size_t copied) override { work(call.where, 1 + copied); }

    void work(const SourceLoc& at, size_t amount) {
        s_.built += amount;
        if (s_.built > kMaxModelOperators)
            throw InputError(at, "the model's definitions expand to more than " + std::to_string(kMaxModelOperators) +
                                     " operators and function applications");
        s_.check(at);
    }

    // The relations and the event sets a model may name here.
    std::pair<std::vector<std::string>, std::vector<std::string>> knownNames() const {
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
        std::set<std::string> defined;
        for (const Definition& d : m_.definitions)
            if (defined.insert(userName(d.name)).second)
                (d.type == ExprType::Set ? sets : relations).push_back(userName(d.name));
        return {relations, sets};
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

    // herd7's -skipchecks drops every test of the name: checks, flags,
    // undefined_unless tests, assertions, and all those of a call of it. Each
    // name is looked up before any is dropped (a call's names overlap its tests').
    void skip(const std::vector<std::string>& names, bool skipOnlyPresent) {
        std::vector<std::string> known = droppedSkipNames_;
        for (const auto* tests : {&m_.axioms, &m_.flags, &m_.assertions})
            for (const Axiom& a : *tests)
                for (const std::string& n : a.skipNames)
                    if (std::find(known.begin(), known.end(), n) == known.end()) known.push_back(n);
        for (const std::string& name : names)
            if (!skipOnlyPresent && std::find(known.begin(), known.end(), name) == known.end())
                throw InputError(SourceLoc{"--skip", 0, 0}, "model " + m_.name + " has no check, flag or assertion named '" +
                                                                name + "' (names: " + joined(known) + ")");
        for (const std::string& name : names) {
            auto named = [&](const Axiom& a) { return std::count(a.skipNames.begin(), a.skipNames.end(), name) > 0; };
            for (Axiom& a : m_.assertions)  // a skipped axiom keeps no candidate from an assertion
                a.axiomsBefore -= std::count_if(m_.axioms.begin(),
                                                m_.axioms.begin() + static_cast<std::ptrdiff_t>(a.axiomsBefore), named);
            for (auto* tests : {&m_.axioms, &m_.flags, &m_.assertions})
                tests->erase(std::remove_if(tests->begin(), tests->end(), named), tests->end());
            if (std::find(known.begin(), known.end(), name) != known.end() &&
                std::find(m_.skipped.begin(), m_.skipped.end(), name) == m_.skipped.end())
                m_.skipped.push_back(name);
        }
    }

    // The base relations the axioms use, and the definitions they reach (each
    // walked once); a name of herd7's that rdmacheck does not evaluate is
    // refused at the axiom that reaches it.
    void collectBases(const ModelExpr& e, std::set<std::string>& walked, const SourceLoc& axiom) {
        if (e.op == ModelExpr::Op::Name) {
            if (const Definition* d = m_.definition(e.name)) {
                if (walked.insert(e.name).second) collectBases(d->expr, walked, axiom);
            } else if (findBaseRelation(e.name)) {
                m_.usedBaseNames.insert(e.name);
            } else if (const UnevaluatedName* herd = findUnevaluatedName(e.name)) {
                if (!m_.tables.count(e.name) && !stampNames_.count(e.name))
                    throw InputError(axiom, "this axiom uses '" + e.name + "' (at " + e.where.str() +
                                                "), which is herd7's, and rdmacheck does not evaluate it: " + herd->why);
            }
        }
        for (const ModelExpr& a : e.args) collectBases(a, walked, axiom);
    }

    // Names the definitions: the last binding of a name keeps it, unless it
    // hides a base name, a table or a stamp; the others are NAME#k, the k-th
    // binding of NAME. `walked` (keys) is renamed too.
    void rename(std::set<std::string>& walked) {
        std::map<std::string, std::vector<size_t>> bindings;
        for (size_t i = 0; i < m_.definitions.size(); ++i)
            bindings[userName(m_.definitions[i].name)].push_back(i);
        std::map<std::string, std::string> renamed;
        for (const auto& [name, at] : bindings) {
            const bool hides = findBaseRelation(name) || findBaseSet(name) || m_.tables.count(name) ||
                               stampNames_.count(name) || findUnevaluatedName(name);
            for (size_t k = 0; k < at.size(); ++k)
                renamed[m_.definitions[at[k]].name] =
                    k + 1 == at.size() && !hides ? name : name + "#" + std::to_string(k + 1);
        }
        m_.definitionAt.clear();
        for (size_t i = 0; i < m_.definitions.size(); ++i) {
            Definition& d = m_.definitions[i];
            d.name = renamed[d.name];
            m_.definitionAt.emplace(d.name, i);
            renameIn(d.expr, renamed);
        }
        for (auto* tests : {&m_.axioms, &m_.flags, &m_.assertions})
            for (Axiom& a : *tests) renameIn(a.expr, renamed);
        std::set<std::string> keys;
        keys.swap(walked);
        for (const std::string& k : keys) walked.insert(renamed[k]);
        for (auto* keyed : {&s_.chainEnd, &s_.depth}) {
            std::map<std::string, size_t> byName;
            for (const auto& [key, value] : *keyed) byName[renamed.count(key) ? renamed[key] : key] = value;
            keyed->swap(byName);
        }
    }

    static std::string userName(const std::string& key) { return key.substr(0, key.find(kDefinitionKey)); }

    static void renameIn(ModelExpr& e, const std::map<std::string, std::string>& renamed) {
        if (e.op == ModelExpr::Op::Name && e.name.find(kDefinitionKey) != std::string::npos) e.name = renamed.at(e.name);
        for (ModelExpr& a : e.args) renameIn(a, renamed);
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
    CheckPlan plan(const std::vector<Axiom>& axioms) {
        CheckPlan out;
        std::vector<const ModelExpr*> closureOf;
        for (const Axiom& a : axioms) {
            s_.check(a.where);
            const ModelExpr& r = resolve(a.expr);
            const bool closure = r.op == ModelExpr::Op::Plus;
            if (a.negated) {
                out.negated.push_back(a);
            } else if (a.kind == Axiom::Kind::Empty || (a.kind == Axiom::Kind::Irreflexive && !closure)) {
                out.general.push_back(a);
            } else if (a.kind == Axiom::Kind::Acyclic || !tie(a, r, closureOf, out)) {
                Clock c{a.name, {}};
                unionMembers(closure ? resolve(r.args[0]) : r, c.members);
                closureOf.push_back(closure ? &r : nullptr);
                out.clocks.push_back(std::move(c));
            }
        }
        return out;
    }

    // Each assertion's failing model (Model::failingAssertion): the axioms
    // before it and it negated, planned as the model is; no flags or assertions.
    void planAssertions() {
        for (const Axiom& assertion : m_.assertions) {
            Model failing = m_;
            failing.axioms.resize(assertion.axiomsBefore);
            failing.axioms.push_back(assertion);
            failing.axioms.back().negated = !assertion.negated;
            failing.flags.clear();
            failing.assertions.clear();
            failing.failingAssertion.clear();
            failing.plan = plan(failing.axioms);
            m_.failingAssertion.push_back(std::make_shared<const Model>(std::move(failing)));
        }
    }

    // irreflexive ([S];X;Y)+ where X and Y are the closures of two earlier
    // clocks: the clocks are tied, I(e) <= O(e) and equal on S (doc/model-notes.md §N1).
    // Returns whether the axiom was taken so.
    bool tie(const Axiom& a, const ModelExpr& closure, const std::vector<const ModelExpr*>& closureOf, CheckPlan& out) {
        const ModelExpr& body = resolve(closure.args[0]);
        if (out.issueClock >= 0 || body.op != ModelExpr::Op::Seq || body.args[0].op != ModelExpr::Op::Seq) return false;
        const ModelExpr& filter = body.args[0].args[0];
        if (filter.op != ModelExpr::Op::Filter || isExecutionSet(m_, filter.args[0])) return false;  // fixed S only
        auto clockOf = [&](const ModelExpr& e) {
            const ModelExpr& r = resolve(e);
            for (size_t c = 0; c < closureOf.size(); ++c)
                if (closureOf[c] == &r) return static_cast<int>(c);
            return -1;
        };
        const int issue = clockOf(body.args[0].args[1]), observe = clockOf(body.args[1]);
        if (issue < 0 || observe < 0 || issue == observe) return false;
        out.issueClock = issue;
        out.observeClock = observe;
        out.tieSet = filter.args[0];
        out.mixedAxiom = a.name;
        return true;
    }

    Model& m_;
    const ModelSearchPath& path_;
    Loading& s_;
    CatInterpreter interpreter_;
    CatScope* global_;
    std::map<std::string, SourceLoc> laterLets_;
    std::set<std::string> stampNames_;
    std::string defining_;
    bool declaredEvents_ = false;
    bool generatesCo_ = false;  // a `with co from` was read
    std::vector<std::string> droppedSkipNames_;  // of the tests --skip dropped unevaluated (axiom)
    static constexpr size_t kMaxProcedureCalls = 100;  // each nests the loader's recursion
    std::vector<std::string> running_;                 // the procedures being run, nested, outermost first
};

}  // namespace
Model parseModel(const std::string& text, const std::string& file, const ModelSearchPath& path,
                 const ModelOptions& options) {
    Model m;
    m.file = file;
    m.name = std::filesystem::path(file).stem().string();
    Loading loading(file, options);
    ModelBuilder builder(m, path, loading);
    // herd7's predefined names, then its standard library, which herd7 reads
    // before every model: the first stdlib.cat on the path, else rdmacheck's.
    const SourceLoc from{file, 1, 1};
    loading.prelude = from;
    builder.read(shippedModelsDir() + "/_herd7.cat", from, "model prelude", 0);
    const std::string stdlib = path.find("stdlib.cat");
    builder.read(stdlib.empty() ? shippedModelsDir() + "/stdlib.cat" : stdlib, from, "standard library", 0);
    loading.prelude.reset();
    loading.declarations = 0;  // the bound is on the model's own files
    ParsedModel parsed = parseModelText(text, file, loading.declarations);
    m.description = parsed.description;
    builder.add(std::move(parsed), 0);
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

}  // namespace rdmacheck
