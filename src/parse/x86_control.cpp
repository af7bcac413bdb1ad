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

// herd7's labels are the test's, not a thread's: it refuses one that two
// threads define ("Label L0 occurs more than once").
void refuseSharedLabels(const std::vector<ThreadDecl>& threads) {
    std::map<std::string, size_t> threadOf;
    for (size_t i = 0; i < threads.size(); ++i)
        for (const Stmt& item : threads[i].body) {
            if (item.kind != Stmt::Kind::Label) continue;
            const auto [at, fresh] = threadOf.emplace(item.label, i);
            if (!fresh && at->second != i)
                throw InputError(item.where, "label " + item.label + " is defined in P" +
                                                 std::to_string(at->second) + " too: herd7's labels are the "
                                                 "test's, each defined once");
        }
}

// herd7 hashes labels renamed L00, L01, ... in the order of their names,
// over every thread (lib/testHash.ml's norm_labels).
void hashLabels(const std::vector<ThreadDecl>& threads, std::vector<std::vector<std::string>>& code) {
    std::map<std::string, std::string> renamed;
    for (const ThreadDecl& thread : threads)
        for (const Stmt& item : thread.body)
            if (item.kind == Stmt::Kind::Label || item.kind == Stmt::Kind::Jump) renamed.emplace(item.label, "");
    int next = 0;
    for (auto& [label, name] : renamed) {
        name = (next < 10 ? "L0" : "L") + std::to_string(next);
        ++next;
    }
    for (auto& column : code)
        for (std::string& line : column) {
            const size_t space = line.rfind(' ');
            if (line.back() == ':' && renamed.count(line.substr(0, line.size() - 1))) {
                line = renamed[line.substr(0, line.size() - 1)] + ":";
            } else if (line[0] == 'J' && space != std::string::npos && renamed.count(line.substr(space + 1))) {
                line = line.substr(0, space + 1) + renamed[line.substr(space + 1)];
            }
        }
}

}  // namespace rdmacheck
