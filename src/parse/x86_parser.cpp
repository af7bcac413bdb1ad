// Front end for herd7's X86 litmus syntax, for the instructions of the x86-TSO
// conformance suite: MOV, MFENCE, XCHG. Registers are thread-local values.
#include <algorithm>
#include <cctype>

#include "condition.hpp"
#include "front_ends.hpp"
#include "rdmacheck/limits.hpp"

namespace rdmacheck {

namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
    return s;
}

struct Operand {
    enum class Kind { Memory, Register, Immediate } kind = Kind::Immediate;
    std::string name;
    long long value = 0;
    SourceLoc where;

    // As herd7's X86 dump_instruction prints it.
    std::string herdText() const {
        switch (kind) {
            case Kind::Memory: return "[" + name + "]";
            case Kind::Register: return name;
            case Kind::Immediate: return "$" + std::to_string(value);
        }
        return "";
    }
};

class X86Parser {
public:
    explicit X86Parser(Lexer& lex) : lex_(lex) {}

    LitmusTest parse() {
        LitmusTest t;
        t.arch = Arch::X86;
        t.file = lex_.file();
        std::string line = readHeader(lex_, t.name);
        size_t q1 = line.find('"');
        size_t q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
        if (q2 != std::string::npos) t.description = line.substr(q1 + 1, q2 - q1 - 1);
        skipToInitBlock();
        parseInit(t);
        parseProgram(t);
        for (const auto& [thread, where] : registerInitAt_)
            if (thread >= static_cast<int>(t.threads.size()))
                throw InputError(where, "no thread " + std::to_string(thread) + " in this test (it has " +
                                            std::to_string(t.threads.size()) + ")");
        if (lex_.peek().isWord("locations")) {
            lex_.next();
            lex_.expect("[", "after 'locations'");
            while (!lex_.peek().is("]")) {
                Cond c;
                parseName(lex_, c);
                t.shown.push_back(ObservedName{c.loc, c.thread, c.where});
                if (lex_.peek().is(";")) lex_.next();
            }
            lex_.next();
        }
        if (lex_.peek().isWord("filter")) {
            lex_.next();
            t.filter = parseCondition(lex_, parseName);
        }
        if (lex_.peek().isWord("final")) {
            // herd7 reads `final C; with ...` as `exists C` and ignores the `with` part.
            lex_.next();
            t.quantifier = Quantifier::Exists;
        } else if (!parseQuantifier(lex_, t.quantifier)) {
            lex_.failHere("expected the final condition ('exists', '~exists', 'forall' or 'final')");
        }
        t.condition = parseCondition(lex_, parseName);
        return t;  // herd7 ignores what follows (`with ...`, `<< ... >>` blocks)
    }

private:
    void skipToInitBlock() {
        const std::string& text = lex_.text();
        size_t pos = lex_.offset();
        while (pos < text.size()) {
            size_t first = text.find_first_not_of(" \t\r", pos);
            if (first != std::string::npos && text[first] == '{') {
                lex_.seek(first);
                return;
            }
            size_t nl = text.find('\n', pos);
            if (nl == std::string::npos) break;
            pos = nl + 1;
        }
        throw InputError(lex_.locAt(text.size()), "expected the init block '{ ... }'");
    }

    void parseInit(LitmusTest& t) {
        lex_.expect("{", "to open the init block");
        while (!lex_.peek().is("}")) {
            Cond c;  // reuse the condition name grammar: x, [x], 0:EAX, P0:EAX
            parseName(lex_, c);
            long long value = 0;
            if (lex_.peek().is("=")) {
                lex_.next();
                if (lex_.peek().is("$")) lex_.next();
                value = lex_.expectInt("as the initial value");
            }
            if (c.thread >= 0) {
                t.registerInit[std::to_string(c.thread) + ":" + c.loc] = value;
                registerInitAt_.emplace_back(c.thread, c.where);
            } else {
                t.locations.push_back(LocationDecl{c.loc, 1, value, c.where});
            }
            if (lex_.peek().is(";")) {
                lex_.next();
            } else if (!lex_.peek().is("}")) {
                lex_.failHere("expected ';' or '}' in the init block");
            }
        }
        lex_.next();
        if (lex_.peek().is(";")) lex_.next();
    }

    static void parseName(Lexer& lex, Cond& c) {
        c.where = lex.peek().where;
        if (lex.peek().is("[")) {
            lex.next();
            c.loc = lex.expectIdent("(a location) inside '[ ]'").text;
            lex.expect("]", "after the location");
            return;
        }
        if (lex.peek().kind == Token::Kind::Int) {
            const Token number = lex.next();
            c.thread = threadNumber(number.value, number.where);
            lex.expect(":", "between thread number and register");
            c.loc = lex.expectIdent("(a register)").text;
            return;
        }
        Token name = lex.expectIdent("(a location or register)");
        if (lex.peek().is(":")) {
            lex.next();
            if (name.text.size() < 2 || name.text[0] != 'P' ||
                name.text.find_first_not_of("0123456789", 1) != std::string::npos)
                throw InputError(name.where, "expected a thread name 'P<n>' before ':'");
            if (name.text.size() > 6) throw InputError(name.where, "thread numbers are 0 to " + std::to_string(kMaxThread));
            c.thread = threadNumber(std::stoll(name.text.substr(1)), name.where);
            c.loc = lex.expectIdent("(a register)").text;
            return;
        }
        c.loc = name.text;
    }

    static int threadNumber(long long n, const SourceLoc& where) {
        if (n < 0 || n > kMaxThread)
            throw InputError(where, "thread numbers are 0 to " + std::to_string(kMaxThread) + ", not " +
                                        std::to_string(n));
        return static_cast<int>(n);
    }

    static bool endsProgram(const Token& t) {
        return t.kind == Token::Kind::End || t.is("~") || t.is("<<") || t.isWord("exists") ||
               t.isWord("~exists") || t.isWord("forall") || t.isWord("final") ||
               t.isWord("locations") || t.isWord("filter");
    }

    void parseProgram(LitmusTest& t) {
        // Header: P0 | P1 | ... ;
        for (;;) {
            Token name = lex_.expectIdent("(a thread name such as P0)");
            ThreadDecl th;
            th.name = name.text;
            th.where = name.where;
            th.node = 1;
            if (name.text != "P" + std::to_string(t.threads.size()))
                throw InputError(name.where, "expected thread name P" + std::to_string(t.threads.size()));
            t.threads.push_back(std::move(th));
            if (lex_.peek().is("|")) {
                lex_.next();
                continue;
            }
            lex_.expect(";", "to end the thread header");
            break;
        }
        t.x86Code.resize(t.threads.size());
        while (!endsProgram(lex_.peek())) {
            for (size_t i = 0; i < t.threads.size(); ++i) {
                if (!lex_.peek().is("|") && !lex_.peek().is(";"))
                    t.threads[i].body.push_back(parseInstruction(t.x86Code[i]));
                if (i + 1 < t.threads.size()) {
                    if (lex_.peek().is(";")) break;  // short row: the remaining cells are empty
                    lex_.expect("|", "between thread columns");
                }
            }
            lex_.expect(";", "to end the program row");
        }
    }

    Operand parseOperand() {
        Operand o;
        o.where = lex_.peek().where;
        if (lex_.peek().is("[")) {
            lex_.next();
            o.kind = Operand::Kind::Memory;
            o.name = lex_.expectIdent("(a location) inside '[ ]'").text;
            lex_.expect("]", "after the location");
        } else if (lex_.peek().is("$") || lex_.peek().kind == Token::Kind::Int || lex_.peek().is("-")) {
            if (lex_.peek().is("$")) lex_.next();
            o.kind = Operand::Kind::Immediate;
            o.value = lex_.expectInt("as an immediate value");
        } else {
            o.kind = Operand::Kind::Register;
            o.name = upper(lex_.expectIdent("(a register, '[location]' or '$value')").text);
        }
        return o;
    }

    // One instruction; its herd7 text goes to `code`.
    Stmt parseInstruction(std::vector<std::string>& code) {
        Token op = lex_.expectIdent("(an instruction)");
        Stmt s;
        s.where = op.where;
        std::string mnemonic = upper(op.text);
        if (mnemonic == "MFENCE") {
            code.push_back(mnemonic);
            s.kind = Stmt::Kind::MFence;
            return s;
        }
        if (mnemonic != "MOV" && mnemonic != "XCHG")
            throw InputError(op.where, "unsupported X86 instruction '" + op.text +
                                           "' (supported: MOV, MFENCE, XCHG)" + quantifierHint(op.text));
        Operand dst = parseOperand();
        lex_.expect(",", "between operands");
        Operand src = parseOperand();
        code.push_back(mnemonic + " " + dst.herdText() + "," + src.herdText());
        auto valueOf = [](const Operand& o) {
            Expr e;
            e.where = o.where;
            if (o.kind == Operand::Kind::Immediate) return Expr::constant(o.value, o.where);
            e.kind = Expr::Kind::Register;
            e.name = o.name;
            return e;
        };
        if (mnemonic == "XCHG") {
            if (dst.kind == Operand::Kind::Register && src.kind == Operand::Kind::Memory) std::swap(dst, src);
            if (dst.kind != Operand::Kind::Memory || src.kind != Operand::Kind::Register)
                throw InputError(op.where, "XCHG exchanges a register with a memory location");
            s.kind = Stmt::Kind::Xchg;
            s.target = LocRef{dst.name, std::nullopt, dst.where};
            s.result = src.name;
            return s;
        }
        if (dst.kind == Operand::Kind::Memory) {
            if (src.kind == Operand::Kind::Memory)
                throw InputError(src.where, "MOV cannot move memory to memory");
            s.kind = Stmt::Kind::Assign;
            s.target = LocRef{dst.name, std::nullopt, dst.where};
            s.expr = valueOf(src);
            return s;
        }
        if (dst.kind != Operand::Kind::Register) throw InputError(dst.where, "MOV cannot write an immediate");
        s.result = dst.name;
        if (src.kind == Operand::Kind::Memory) {
            s.kind = Stmt::Kind::RegLoad;
            s.target = LocRef{src.name, std::nullopt, src.where};
        } else {
            s.kind = Stmt::Kind::RegAssign;
            s.expr = valueOf(src);
        }
        return s;
    }

    Lexer& lex_;
    std::vector<std::pair<int, SourceLoc>> registerInitAt_;  // registers given initial values
};

}  // namespace

LitmusTest parseX86(Lexer& lex) { return X86Parser(lex).parse(); }

}  // namespace rdmacheck
