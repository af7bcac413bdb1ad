// The model language's syntax (doc/model-language.md): a model file as a list of
// items, each with its position. It is herd7's cat language with rdmacheck's
// declarations (table, stamps, events, libraries) added; names are resolved,
// functions applied and types checked by the interpreter (interpret.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/model.hpp"

namespace rdmacheck {

struct ModelItem {
    enum class Kind {
        Let, Include, Table, Stamps, Events, Libraries, Axiom,
        Show,       // show, unshow: pictures only, read and not used
        Procedure,  // procedure NAME(params) = body end
        Call,       // call NAME argument [as text]
        IfVariant,  // if condition body [else otherwise] end
        WithFrom,   // with NAME from expr
    };
    // A test's kind, as herd7 reads it: a check, or one that only raises a flag.
    enum class Test { Check, Flag, UndefinedUnless, Assert };
    Kind kind = Kind::Let;
    SourceLoc where;
    std::string name;  // Table, Axiom (empty: no `as`), Procedure, Call (the procedure), WithFrom
    std::string text;  // Include, Table: the quoted path; Call: its `as` name
    ModelExpr expr;    // Axiom, Call's argument, WithFrom, IfVariant's condition
    Axiom::Kind axiom = Axiom::Kind::Acyclic;
    Test test = Test::Check;
    bool negated = false;  // ~acyclic ...
    // Let: each `and`-joined binding; a function's is a Fun expression.
    std::vector<std::pair<std::string, ModelExpr>> bindings;
    bool recursive = false;                  // let rec, procedure rec
    std::vector<std::string> params;         // Procedure
    std::vector<ModelItem> body, otherwise;  // Procedure, IfVariant; Let: a let rec's `when` check
    std::vector<std::pair<std::string, SourceLoc>> names;  // Events, Libraries; Stamps: kind, then stamp
};

struct ParsedModel {
    std::string description;  // the leading string or herd7's name line (X86 TSO), if any
    std::vector<ModelItem> items;
};

// InputError at file:line:column on a syntax error, on a NUL byte or invalid
// UTF-8, and at the declaration past kMaxModelItems, counting `earlierItems`
// declarations of the model's files read before this one.
ParsedModel parseModelText(const std::string& text, const std::string& file, size_t earlierItems = 0);

// A model or order table file's text, at most kMaxModelBytes; InputError at
// `from` (the item or option that names it) when it cannot be read or is larger.
std::string readModelFile(const std::string& path, const SourceLoc& from, const std::string& what);

// loadOrderTable and loadStampTable (model.hpp) on a table's text, read from `path`.
OrderTable parseOrderTable(const std::string& text, const std::string& path, const std::string& name);
OrderTable parseStampTable(const std::string& text, const std::string& path, const std::string& name,
                           const std::map<std::string, std::string>& stampOf);

}  // namespace rdmacheck
