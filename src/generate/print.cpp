#include "rdmacheck/print.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

// Names are printed bare, so anything the lexer would not read back as one identifier is refused.
const std::string& identifier(const std::string& name) {
    const auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
        !std::all_of(name.begin(), name.end(), isWordChar))
        throw std::invalid_argument("'" + name + "' is not an identifier of the RDMA litmus format");
    return name;
}

// A location in a condition or `locations [...]`: a name, or `x@2`, the copy of a shared variable.
std::string locationName(const std::string& name) {
    const size_t at = name.find('@');
    if (at == std::string::npos) return identifier(name);
    const std::string node = name.substr(at + 1);
    if (node.empty() || !std::all_of(node.begin(), node.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        throw std::invalid_argument("'" + name + "' is not a location of the RDMA litmus format");
    return identifier(name.substr(0, at)) + "@" + node;
}

std::string locRef(const LocRef& ref) {
    std::string s = identifier(ref.name);
    if (ref.node) s += "^" + std::to_string(*ref.node);
    return s;
}

std::string expr(const Expr& e, int context);

// Binding strength as the expression grammar sees it (front_ends.hpp): E ::= T (+|- T)*, T ::= F (*|% F)*.
int precedence(const Expr& e) {
    if (e.is(Operator::Add) || e.is(Operator::Sub)) return 1;
    return e.is(Operator::Mul) || e.is(Operator::Mod) ? 2 : 3;
}

std::string operation(const Expr& e) {
    switch (e.op) {
        case Operator::Add: return expr(e.args.at(0), 1) + " + " + expr(e.args.at(1), 2);
        case Operator::Sub: return expr(e.args.at(0), 1) + " - " + expr(e.args.at(1), 2);
        case Operator::Mul: return expr(e.args.at(0), 2) + " * " + expr(e.args.at(1), 3);
        case Operator::Mod: return expr(e.args.at(0), 2) + " % " + expr(e.args.at(1), 3);
        case Operator::Neg: return "-" + expr(e.args.at(0), 3);
        case Operator::Xor:
        case Operator::Or: throw std::invalid_argument("X86 bitwise operation in an RDMA test");
        case Operator::Eq:
        case Operator::Gt: break;
    }
    throw std::invalid_argument("X86 flag in an RDMA test");
}

// Operators are left-associative, so a right operand of the same strength needs parentheses.
std::string expr(const Expr& e, int context) {
    std::string s;
    switch (e.kind) {
        case Expr::Kind::Const: s = std::to_string(e.value); break;  // `-1` reads back as Neg(1)
        case Expr::Kind::Location:
            if (e.remoteNode)
                throw std::invalid_argument("remote location '" + e.name + "^" + std::to_string(e.remoteNode) +
                                            "' inside an expression");
            s = identifier(e.name);
            break;
        case Expr::Kind::Register: throw std::invalid_argument("register '" + e.name + "' in an RDMA test");
        case Expr::Kind::Operation: s = operation(e); break;
    }
    return precedence(e) < context ? "(" + s + ")" : s;
}

std::string expr(const Expr& e) { return expr(e, 1); }

// The parser reads RMW operands as integers, never as expressions.
std::string rmwOperand(const Expr& e) {
    if (e.kind != Expr::Kind::Const) throw std::invalid_argument("an RCAS or RFAA operand must be an integer");
    return std::to_string(e.value);
}

std::string comparison(const Stmt& s) {
    return "(" + expr(s.expr) + " " + comparisonText(s.compare) + " " + expr(s.expr2) + ")";
}

void block(const Block& b, int depth, std::string& out);

// `{`, the statements one per line, and `}` at the statement's own indentation.
std::string blockText(const Block& b, int depth) {
    std::string out = "{\n";
    block(b, depth + 1, out);
    return out + std::string(2 * depth, ' ') + "}";
}

// `:=` or `:=^d`.
std::string assignOp(const Stmt& s) { return s.workId.empty() ? " := " : " :=^" + identifier(s.workId) + " "; }

// `, d` after an RMW's operands, if it has a work identifier.
std::string workArgument(const Stmt& s) { return s.workId.empty() ? "" : ", " + identifier(s.workId); }

std::string nodeList(const std::vector<int>& nodes) {
    std::string out;
    for (int n : nodes) out += (out.empty() ? "" : ", ") + std::to_string(n);
    return out;
}

// A method its library writes bare (`bar(z)`) is printed so.
bool isBare(const Stmt& s) {
    const std::optional<Library> library = findLibrary(s.library);
    const MethodSignature* m = library ? libraryDescriptor(*library).method(s.method) : nullptr;
    return m && m->bare;
}

std::string call(const Stmt& s) {
    std::string out = s.hasResult ? locRef(s.target) + " := " : "";
    out += (isBare(s) ? "" : identifier(s.library) + ".") + identifier(s.method) + "(";
    for (size_t i = 0; i < s.args.size(); ++i) {
        const CallArg& a = s.args[i];
        // A node lock is the one argument written with its home, `l^2`.
        const bool homed = !a.isNodeSet && a.expr.kind == Expr::Kind::Location && a.expr.remoteNode;
        out += (i ? ", " : "") + (a.isNodeSet ? "{" + nodeList(a.nodes) + "}"
                                  : homed     ? identifier(a.expr.name) + "^" + std::to_string(a.expr.remoteNode)
                                              : expr(a.expr));
    }
    return out + ")";
}

std::string stmt(const Stmt& s, int depth) {
    switch (s.kind) {
        case Stmt::Kind::Assign: return locRef(s.target) + " := " + expr(s.expr);
        case Stmt::Kind::Get: return locRef(s.target) + assignOp(s) + locRef(s.source);
        case Stmt::Kind::Put:
            return locRef(s.target) + assignOp(s) + (s.sourceIsConst ? std::to_string(s.constant) : locRef(s.source));
        case Stmt::Kind::Wait: return "wait(" + identifier(s.workId) + ")";
        case Stmt::Kind::GFence: return "gfence(" + nodeList(s.nodes) + ")";
        case Stmt::Kind::Call: return call(s);
        case Stmt::Kind::Poll: return "poll(" + std::to_string(s.node) + ")";
        case Stmt::Kind::RFence: return "rfence(" + std::to_string(s.node) + ")";
        case Stmt::Kind::MFence: return "mfence";
        case Stmt::Kind::Cas:
            return identifier(s.result) + " := CAS(" + locRef(s.target) + ", " + expr(s.expr) + ", " + expr(s.expr2) +
                   ")";
        case Stmt::Kind::RCas:
            return "RCAS(" + locRef(s.source) + ", " + locRef(s.target) + ", " + rmwOperand(s.expr) + ", " +
                   rmwOperand(s.expr2) + workArgument(s) + ")";
        case Stmt::Kind::RFaa:
            return "RFAA(" + locRef(s.source) + ", " + locRef(s.target) + ", " + rmwOperand(s.expr) + workArgument(s) +
                   ")";
        case Stmt::Kind::Assume: return "assume" + comparison(s);
        case Stmt::Kind::If: {
            std::string out = "if " + comparison(s) + " " + blockText(s.body, depth);
            if (!s.orelse.empty()) out += " else " + blockText(s.orelse, depth);
            return out;
        }
        case Stmt::Kind::Choice: {
            std::string out = "choice";
            for (size_t i = 0; i < s.branches.size(); ++i) out += (i ? " or " : " ") + blockText(s.branches[i], depth);
            return out;
        }
        case Stmt::Kind::Loop: return "loop " + blockText(s.body, depth);
        case Stmt::Kind::While: return "while " + comparison(s) + " " + blockText(s.body, depth);
        case Stmt::Kind::RegAssign:
        case Stmt::Kind::RegLoad:
        case Stmt::Kind::Xchg:
        case Stmt::Kind::LockedUpdate:
        case Stmt::Kind::UnlockedUpdate:
        case Stmt::Kind::MemoryMove:
        case Stmt::Kind::MemoryExchange:
        case Stmt::Kind::SFence:
        case Stmt::Kind::LFence:
        case Stmt::Kind::Label:
        case Stmt::Kind::Jump: throw std::invalid_argument("X86 statement in an RDMA test");
    }
    throw std::invalid_argument("unknown statement kind");
}

// Every statement ends with `;`, compound ones too (the parser needs it before the next statement).
void block(const Block& b, int depth, std::string& out) {
    for (const Stmt& s : b) out += std::string(2 * depth, ' ') + stmt(s, depth) + ";\n";
}

std::string cond(const Cond& c);

// An operand of /\ or \/: parenthesised when it is itself a chain, so the tree keeps its shape.
std::string operand(const Cond& c, Cond::Kind chain) {
    const bool nested = c.kind == chain || c.kind == Cond::Kind::Or;
    return nested ? "(" + cond(c) + ")" : cond(c);
}

std::string cond(const Cond& c) {
    switch (c.kind) {
        case Cond::Kind::True: return "true";
        case Cond::Kind::False: return "false";
        case Cond::Kind::Atom:
            if (c.thread >= 0) throw std::invalid_argument("register '" + c.loc + "' in an RDMA condition");
            if (c.sameAs) throw std::invalid_argument("two locations compared in an RDMA condition");
            return locationName(c.loc) + (c.equal ? " = " : " != ") + std::to_string(c.value);
        case Cond::Kind::Not: {
            const Cond& arg = c.args.at(0);
            const bool bare = arg.kind == Cond::Kind::True || arg.kind == Cond::Kind::False;
            return "~" + (bare ? cond(arg) : "(" + cond(arg) + ")");
        }
        case Cond::Kind::And:
        case Cond::Kind::Or: {
            // The parser builds And/Or only for two or more operands.
            if (c.args.size() < 2) throw std::invalid_argument("a condition chain needs at least two operands");
            const char* op = c.kind == Cond::Kind::And ? " /\\ " : " \\/ ";
            std::string out = operand(c.args[0], c.kind);
            for (size_t i = 1; i < c.args.size(); ++i) out += op + operand(c.args[i], c.kind);
            return out;
        }
    }
    throw std::invalid_argument("unknown condition kind");
}

const char* quantifier(Quantifier q) {
    switch (q) {
        case Quantifier::Exists: return "exists";
        case Quantifier::NotExists: return "~exists";
        case Quantifier::Forall: return "forall";
    }
    throw std::invalid_argument("unknown quantifier");
}

}  // namespace

std::string printLitmus(const LitmusTest& t) {
    if (t.arch != Arch::Rdma) throw std::invalid_argument("only RDMA tests can be printed");
    if (t.name.empty() || std::any_of(t.name.begin(), t.name.end(), [](char c) {
            return std::isspace(static_cast<unsigned char>(c));
        }))
        throw std::invalid_argument("the test name '" + t.name + "' must be one run of non-blank characters");
    std::string out = "RDMA " + t.name + "\n";
    std::string description = t.description;
    description.erase(std::remove(description.begin(), description.end(), '"'), description.end());
    if (!description.empty()) out += "\"" + description + "\"\n";
    out += "{";
    for (const LocationDecl& d : t.locations)
        out += " " + identifier(d.name) + "@" + (d.shared ? std::string("sv") : d.sc ? std::string("sc") : std::to_string(d.node)) + " = " +
               std::to_string(d.init) + ";";
    out += " }\n";
    for (const ThreadDecl& th : t.threads) {
        out += "\n" + identifier(th.name) + "@" + std::to_string(th.node) + " {\n";
        block(th.body, 1, out);
        out += "}\n";
    }
    out += "\n";
    if (!t.shown.empty()) {
        out += "locations [";
        for (const ObservedName& n : t.shown) {
            if (n.thread >= 0) throw std::invalid_argument("register '" + n.name + "' in 'locations [...]'");
            out += locationName(n.name) + ";";
        }
        out += "]\n";
    }
    if (t.filter) out += "filter (" + cond(*t.filter) + ")\n";
    out += std::string(quantifier(t.quantifier)) + " (" + cond(t.condition) + ")\n";
    return out;
}

}  // namespace rdmacheck
