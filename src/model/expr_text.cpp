// ModelExpr::text: an expression as a model file writes it, for messages,
// explanations and the model's fingerprint; and ModelExpr::mentions.
#include <algorithm>

#include "interpret.hpp"

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
           e.op == ModelExpr::Op::Scope || e.op == ModelExpr::Op::Domain || e.op == ModelExpr::Op::Range;
}

// Appends e's text to `out`: one string grows, so a long chain `a | a | ...`
// costs its length, not its length times its depth. A definition's name is
// shown without the key the loader gives it while names may be shadowed.
void appendText(const ModelExpr& e, std::string& out) {
    using Op = ModelExpr::Op;
    auto wrapped = [&](const ModelExpr& a, bool plain) {
        if (!plain) out += "(";
        appendText(a, out);
        if (!plain) out += ")";
    };
    auto list = [&](const char* open, const char* close) {
        out += open;
        for (size_t i = 0; i < e.args.size(); ++i) {
            if (i > 0) out += ", ";
            appendText(e.args[i], out);
        }
        out += close;
    };
    switch (e.op) {
        case Op::Name: out += e.name.substr(0, e.name.find(kDefinitionKey)); return;
        case Op::Empty: out += e.name.empty() ? "0" : e.name; return;
        case Op::Filter: out += "["; appendText(e.args[0], out); out += "]"; return;
        case Op::Domain: case Op::Range:
            out += e.op == Op::Domain ? "domain(" : "range(";
            appendText(e.args[0], out);
            out += ")";
            return;
        case Op::Scope: out += e.name + ":"; wrapped(e.args[0], isAtom(e.args[0])); return;
        case Op::Inverse:
        case Op::Plus:
        case Op::Star:
        case Op::Opt: wrapped(e.args[0], isAtom(e.args[0])); out += opText(e.op); return;
        case Op::Apply: appendText(e.args[0], out); wrapped(e.args[1], e.args[1].op == Op::Tuple); return;
        case Op::Tuple: list("(", ")"); return;
        case Op::ExplicitSet: list("{", "}"); return;
        case Op::Complement: out += "~"; wrapped(e.args[0], isAtom(e.args[0])); return;
        case Op::Union:
        case Op::Inter:
        case Op::Diff:
        case Op::Seq:
        case Op::Product: break;
        default: out += "..."; return;  // let, fun, try, if, match: not shown in messages
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

std::string ModelExpr::text() const {
    std::string out;
    appendText(*this, out);
    return out;
}

bool ModelExpr::mentions(const std::vector<std::string>& names) const {
    if (op == Op::Name && std::find(names.begin(), names.end(), name) != names.end()) return true;
    return std::any_of(args.begin(), args.end(), [&](const ModelExpr& a) { return a.mentions(names); });
}

bool ModelExpr::growsWith(const std::vector<std::string>& names) const {
    switch (op) {
        case Op::Name: case Op::Scope: case Op::Union: case Op::Inter: case Op::Seq: case Op::Product:
        case Op::Inverse: case Op::Plus: case Op::Star: case Op::Opt: case Op::Filter: case Op::Empty:
            return std::all_of(args.begin(), args.end(), [&](const ModelExpr& a) { return a.growsWith(names); });
        case Op::Diff: return args[0].growsWith(names) && !args[1].mentions(names);
        default: return !mentions(names);
    }
}

}  // namespace rdmacheck
