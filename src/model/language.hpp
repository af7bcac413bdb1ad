// The model language's syntax (models/README.md): a model file as a list of
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

// InputError at file:line:column on a syntax error.
ParsedModel parseModelText(const std::string& text, const std::string& file);

}  // namespace rdmacheck
