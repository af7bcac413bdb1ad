#include "x86_control.hpp"

#include <map>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

Expr registerOf(const std::string& name, const SourceLoc& where) {
    Expr e;
    e.kind = Expr::Kind::Register;
    e.name = name;
    e.where = where;
    return e;
}

Stmt jumpTo(const std::string& label, std::optional<Comparison> when, const SourceLoc& where) {
    Stmt s;
    s.kind = Stmt::Kind::Jump;
    s.where = where;
    s.label = label;
    if (when) {  // JE on ZF = 1, JNE on ZF = 0
        s.expr = registerOf(kZeroFlag, where);
        s.expr2 = Expr::constant(*when == Comparison::Eq ? 1 : 0, where);
    } else {  // JMP: 0 = 0
        s.expr = Expr::constant(0, where);
        s.expr2 = Expr::constant(0, where);
    }
    s.compare = Comparison::Eq;
    return s;
}

Stmt labelAt(const std::string& label, const SourceLoc& where) {
    Stmt s;
    s.kind = Stmt::Kind::Label;
    s.where = where;
    s.label = label;
    return s;
}

void checkLabels(const Block& thread) {
    std::map<std::string, const Stmt*> labels;
    for (const Stmt& s : thread)
        if (s.kind == Stmt::Kind::Label && !labels.emplace(s.label, &s).second)
            throw InputError(s.where, "label " + s.label + " defined twice in the thread");
    for (const Stmt& s : thread)
        if (s.kind == Stmt::Kind::Jump && !labels.count(s.label))
            throw InputError(s.where, "no label " + s.label + " in this thread");
}

}  // namespace rdmacheck
