// The model language's syntax (doc/model-language.md): a model file as a list of
// items, each with its position. Names are resolved and typed by model.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/model.hpp"

namespace rdmacheck {

struct ModelItem {
    enum class Kind { Let, Include, Table, Stamps, Events, Libraries, Axiom };
    Kind kind = Kind::Let;
    SourceLoc where;
    std::string name;                         // Let, Table, Axiom (empty: no `as`)
    std::string text;                         // Include, Table: the quoted path
    ModelExpr expr;                           // Let, Axiom
    Axiom::Kind axiom = Axiom::Kind::Acyclic;
    std::vector<std::pair<std::string, SourceLoc>> names;  // Events, Libraries; Stamps: kind, then stamp
};

struct ParsedModel {
    std::string description;  // the leading string, if any
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
