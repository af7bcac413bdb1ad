// Front end for herd7's X86 litmus syntax: the x86-TSO conformance suite's
// MOV, MFENCE, XCHG, and the instructions litmus/x86/README.md lists (LOCK
// ADD/INC/DEC/XOR, register arithmetic and bitwise XOR/OR, MOV widths, SFENCE,
// LFENCE, CMP and forward jumps). Registers are thread-local values.
#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <optional>
#include <set>

#include "condition.hpp"
#include "front_ends.hpp"
#include "x86_values.hpp"
#include "x86_control.hpp"
#include "rdmacheck/arith.hpp"
#include "rdmacheck/limits.hpp"

namespace rdmacheck {

namespace {

const char* const kLockTakes = "LOCK takes ADD, XOR, INC, DEC or XCHG";

struct Operand {
    enum class Kind { Memory, Register, Immediate } kind = Kind::Immediate;
    std::string name;
    long long value = 0;
    SourceLoc where;
    std::string through;  // Memory written [REG]: the register that points at `name`

    // As herd7's X86 dump_instruction prints it.
    std::string herdText() const {
        switch (kind) {
            case Kind::Memory: return "[" + (through.empty() ? name : through) + "]";
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
        refuseReadsThroughWritten(t, readsThrough_);
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
            t.filter = parseCondition(lex_, atomParser());
        }
        // herd7 takes a test without a condition as `forall (true)`, observing what `locations` lists.
        t.quantifier = Quantifier::Forall;
        if (lex_.peek().kind != Token::Kind::End) parseFinalCondition(t);
        addresses_.finish(t);
        refuseArithmeticOnAddresses(t);
        refuseNarrowValuesUnlikeHerd(t, initValues_);
        // herd7 ignores `;` and a `with ...` or `<< ... >>` block after the condition, and stops on anything else
        while (lex_.peek().is(";")) lex_.next();
        const Token& after = lex_.peek();
        if (after.kind != Token::Kind::End && !after.isWord("with") && !after.is("<<"))
            lex_.failHere("nothing but a 'with ...' or '<< ... >>' block follows the condition");
        return t;
    }

private:
    void parseFinalCondition(LitmusTest& t) {
        if (lex_.peek().isWord("final")) {
            // herd7 reads `final C; with ...` as `exists C` and ignores the `with` part.
            lex_.next();
            t.quantifier = Quantifier::Exists;
        } else if (lex_.peek().isWord("observed") || lex_.peek().isWord("Observed")) {
            lex_.next();
            t.quantifier = Quantifier::Exists;
            t.condition = parseObserved(lex_, atomParser());
            return;
        } else if (!parseQuantifier(lex_, t.quantifier)) {
            lex_.failHere("expected the final condition ('exists', '~exists', 'forall', 'final' or 'observed')");
        }
        t.condition = parseCondition(lex_, atomParser());
    }

    // A condition's value: a 32-bit number or a location's name, its address.
    AtomNameParser atomParser() {
        return {parseName, startsName, [this](Lexer& lex) {
                    if (lex.peek().kind == Token::Kind::Ident) return addresses_.valueOf(lex.next().text);
                    return readX86Value(lex, "(a number or a location) as the value in a condition atom");
                }};
    }

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
        std::set<std::string> initialised;
        while (!lex_.peek().is("}")) {
            const std::string type = readX86InitType(lex_);
            Cond c;  // reuse the condition name grammar: x, [x], 0:EAX, P0:EAX
            parseName(lex_, c);
            const std::string name = c.thread >= 0 ? registerKey(c.thread, c.loc) : c.loc;
            if (!type.empty()) t.initType[name] = type;
            if (!initialised.insert(name).second)  // herd7: "Location ... is initialized more than once"
                throw InputError(c.where, name + " is given an initial value twice in the init block");
            long long value = 0;
            if (lex_.peek().is("=")) {
                lex_.next();
                if (lex_.peek().is("&") && !LitmusTest::isPointerType(type)) {
                    const Token amp = lex_.next();
                    const bool named = lex_.peek().kind == Token::Kind::Ident;
                    const std::string& target = lex_.peek().text;
                    throw InputError(amp.where(), "herd7 reads '&' before an address only for a pointer (int *p=&x "
                                                  "or *p=&x)" + (named ? "; " + name + "=" + target + " holds " +
                                                                             target + "'s address" : ""));
                }
                if (lex_.peek().is("$") || lex_.peek().is("&")) lex_.next();
                if (lex_.peek().kind == Token::Kind::Ident) {
                    initValues_.emplace_back(kAddressBase, c.where);
                    pointAt(t, c, lex_.next());
                    continue;
                }
                value = readX86Value(lex_, "as the initial value", &t.initText[name]);
            }
            initValues_.emplace_back(value, c.where);
            if (c.thread >= 0) {
                // herd7 takes neither branch of a jump on a flag that is neither (it finds no execution).
                if (isFlag(c.loc) && value != 0 && value != 1)
                    throw InputError(c.where, c.loc + " is a flag, 0 or 1 (herd7 finds no execution that jumps on "
                                                      "another value)");
                t.registerInit[registerKey(c.thread, c.loc)] = value;
                registerInitAt_.emplace_back(c.thread, c.where);
            } else {
                t.locations.push_back(LocationDecl{c.loc, 1, value, c.where});
            }
            endInitEntry();
        }
        lex_.next();
        if (lex_.peek().is(";")) lex_.next();
    }

    void endInitEntry() {
        if (lex_.peek().is(";")) {
            lex_.next();
        } else if (!lex_.peek().is("}")) {
            lex_.failHere("expected ';' or '}' in the init block");
        }
    }

    // `1:ESI=x` or `y=x`: x's address, a value (kAddressBase); `[ESI]` reads x.
    void pointAt(LitmusTest& t, const Cond& c, const Token& location) {
        const long long address = addresses_.valueOf(location.text);
        if (c.thread < 0) {
            t.locations.push_back(LocationDecl{c.loc, 1, address, c.where});
        } else {
            if (isFlag(c.loc)) throw InputError(location.where(), c.loc + " is a flag, 0 or 1, not an address");
            t.registerInit[registerKey(c.thread, c.loc)] = address;
            pointsAt_[registerKey(c.thread, c.loc)] = location.text;
            registerInitAt_.emplace_back(c.thread, c.where);
        }
        endInitEntry();
    }

    // The location register `name` of the thread being read points at, if any.
    const std::string* addressIn(const std::string& name) const {
        auto it = pointsAt_.find(registerKey(thread_, name));
        return it == pointsAt_.end() ? nullptr : &it->second;
    }

    static void parseName(Lexer& lex, Cond& c) {
        c.where = lex.peek().where();
        if (lex.peek().is("[")) {
            lex.next();
            c.loc = lex.expectIdent("(a location) inside '[ ]'").text;
            lex.expect("]", "after the location");
            return;
        }
        if (lex.peek().kind == Token::Kind::Int) {
            const Token number = lex.next();
            c.thread = threadNumber(number.value, number.where());
            lex.expect(":", "between thread number and register");
            c.loc = registerName(lex);
            return;
        }
        Token name = lex.expectIdent("(a location or register)");
        if (lex.peek().is(":")) {
            lex.next();
            if (name.text.size() < 2 || name.text[0] != 'P' ||
                name.text.find_first_not_of("0123456789", 1) != std::string::npos)
                throw InputError(name.where(), "expected a thread name 'P<n>' before ':'");
            if (name.text.size() > 6)
                throw InputError(name.where(), "thread numbers are 0 to " + std::to_string(kMaxThread));
            c.thread = threadNumber(std::stoll(name.text.substr(1)), name.where());
            c.loc = registerName(lex);
            return;
        }
        c.loc = name.text;
    }

    // The register of `N:REG`: herd7 stops on a name it does not list ("is not a register").
    static std::string registerName(Lexer& lex) {
        const Token name = lex.expectIdent("(a register)");
        if (!isRegister(name.text))
            throw InputError(name.where(), "'" + name.text + "' is not a register of herd7's X86: EAX, EBX, ECX, EDX, "
                                         "ESI, EDI, EBP, ESP, EIP and the flags ZF, SF, CF, in capitals");
        return name.text;
    }

    // A name on the right of '=' in a condition (herd7's `loc = loc2`): a
    // register `N:REG` or `PN:REG`, or a location in brackets; a number alone is a value.
    static bool startsName(Lexer& lex) {
        const Token& t = lex.peek();
        if (t.is("[")) return true;
        if (t.kind == Token::Kind::Ident)
            return t.text.size() > 1 && t.text[0] == 'P' &&
                   t.text.find_first_not_of("0123456789", 1) == std::string::npos;
        if (t.kind != Token::Kind::Int) return false;
        const size_t number = lex.offset();
        lex.next();
        const bool named = lex.peek().is(":");
        lex.seek(number);
        return named;
    }

    static int threadNumber(long long n, const SourceLoc& where) {
        if (n < 0 || n > kMaxThread)
            throw InputError(where, "thread numbers are 0 to " + std::to_string(kMaxThread) + ", not " +
                                        std::to_string(n));
        return static_cast<int>(n);
    }

    static bool endsProgram(const Token& t) {
        return t.kind == Token::Kind::End || t.is("~") || t.is("<<") || t.isWord("exists") ||
               t.isWord("~exists") || t.isWord("forall") || t.isWord("final") || t.isWord("observed") ||
               t.isWord("Observed") ||
               t.isWord("locations") || t.isWord("filter");
    }

    void parseProgram(LitmusTest& t) {
        // Header: P0 | P1 | ... ;
        for (;;) {
            Token name = lex_.expectIdent("(a thread name such as P0)");
            ThreadDecl th;
            th.name = name.text;
            th.where = name.where();
            th.node = 1;
            if (name.text != "P" + std::to_string(t.threads.size()))
                throw InputError(name.where(), "expected thread name P" + std::to_string(t.threads.size()));
            t.threads.push_back(std::move(th));
            if (lex_.peek().is("|")) {
                lex_.next();
                continue;
            }
            lex_.expect(";", "to end the thread header");
            break;
        }
        t.x86Code.resize(t.threads.size());
        if (endsProgram(lex_.peek())) lex_.failHere("expected the program's rows after the thread header");
        while (!endsProgram(lex_.peek())) {
            for (size_t i = 0; i < t.threads.size(); ++i) {
                thread_ = static_cast<int>(i);
                parseCell(t.threads[i].body, t.x86Code[i]);
                if (i + 1 < t.threads.size()) {
                    if (lex_.peek().is(";"))  // herd7: "mismatch in instruction lines"
                        lex_.failHere("this row has " + std::to_string(i + 1) + " of the " +
                                      std::to_string(t.threads.size()) + " columns of the thread header (each row "
                                      "has one cell per thread, empty ones too)");
                    lex_.expect("|", "between thread columns");
                }
            }
            lex_.expect(";", "to end the program row");
        }
        for (const ThreadDecl& th : t.threads) checkLabels(th.body);
        refuseSharedLabels(t.threads);
        hashLabels(t.threads, t.x86Code);
    }

    // One cell: its labels (`L0:`), then its instruction, if any.
    void parseCell(Block& body, std::vector<std::string>& code) {
        while (!lex_.peek().is("|") && !lex_.peek().is(";")) {
            const Token word = lex_.expectIdent("(an instruction or a label)");
            if (!lex_.peek().is(":")) {
                for (Stmt& s : parseInstruction(word, code)) body.push_back(std::move(s));
                return;
            }
            lex_.next();
            code.push_back(word.text + ":");
            body.push_back(labelAt(word.text, word.where()));
        }
    }

    Operand parseOperand() {
        Operand o;
        o.where = lex_.peek().where();
        if (lex_.peek().is("[") || lex_.peek().is("(")) {
            // herd7 reads (REG) as [REG], and no location inside ( ).
            const bool parenthesised = lex_.next().is("(");
            o.kind = Operand::Kind::Memory;
            const Token inside = lex_.expectIdent(parenthesised ? "(a register) inside '( )'" : "(a location) inside '[ ]'");
            o.name = inside.text;
            if (parenthesised && !isRegister(o.name))
                throw InputError(inside.where(), "'(" + o.name + ")' reads where a register points: write [" + o.name +
                                                   "] for the location");
            if (!isRegister(o.name)) {
                refuseX86Keyword(inside);
            } else {
                const std::string* address = addressIn(o.name);
                const std::string written = parenthesised ? "(" + o.name + ")" : "[" + o.name + "]";
                if (!address)
                    throw InputError(o.where, written + " reads where " + o.name + " points: supported when the "
                                              "init block points it at a location (" + registerKey(thread_, o.name) +
                                              "=x) and no instruction writes it");
                o.through = o.name;
                o.name = *address;
                readsThrough_.push_back({thread_, o.through, o.where});
            }
            lex_.expect(parenthesised ? ")" : "]", parenthesised ? "after the register" : "after the location");
        } else if (lex_.peek().is("$") || lex_.peek().kind == Token::Kind::Int || lex_.peek().is("-")) {
            o.kind = Operand::Kind::Immediate;
            o.value = readX86Immediate(lex_);
        } else {
            o.kind = Operand::Kind::Register;
            o.name = lex_.expectIdent("(a register, '[location]' or '$value')").text;
            if (!isRegister(o.name))
                throw InputError(o.where, "'" + o.name + "' is not a register of herd7's X86: EAX, EBX, ECX, EDX, "
                                          "ESI, EDI, EBP, ESP, EIP and the flags ZF, SF, CF, in capitals "
                                          "(a location is written [" + o.name + "])");
        }
        return o;
    }

    static bool isRegister(const std::string& name) {
        return std::find(std::begin(kX86Registers), std::end(kX86Registers), name) != std::end(kX86Registers);
    }

    // The operand an instruction writes: not a flag, which rdmacheck keeps at 0 or 1 (see parseInit).
    Operand parseDestination() {
        Operand o = parseOperand();
        if (o.kind == Operand::Kind::Register && isFlag(o.name))
            throw InputError(o.where, o.name + " is a flag: CMP and arithmetic set it, no instruction writes it");
        return o;
    }

    // herd7 reads `LOCK; INC [x]` as `LOCK INC [x]` (lib/X86Parser.mly: LOCK semi_opt instr).
    void skipSemicolonAfterLock() {
        if (!lex_.peek().is(";")) return;
        const size_t semicolon = lex_.offset();
        lex_.next();
        if (lex_.peek().kind != Token::Kind::Ident) lex_.seek(semicolon);
    }

    // One instruction: a jump, or the statements it is; its herd7 text goes
    // to `code`.
    std::vector<Stmt> parseInstruction(Token op, std::vector<std::string>& code) {
        const std::string name = upper(op.text);
        if (name == "JMP" || jumpCondition(name)) {
            const Token label = lex_.expectIdent("(the label to jump to)");
            code.push_back(name + " " + label.text);
            return {jumpTo(label.text, jumpCondition(name), op.where())};
        }
        return parseStatements(op, code);
    }

    // The conditional jumps herd7 7.58's X86 lexer reads (lib/X86Lexer.mll:
    // JE and JNE), as the comparison of CMP's operands that takes the jump
    // (JE on ZF = 1, JNE on ZF = 0).
    static std::optional<Comparison> jumpCondition(const std::string& mnemonic) {
        if (mnemonic == "JE") return Comparison::Eq;
        if (mnemonic == "JNE") return Comparison::Ne;
        return std::nullopt;
    }

    std::vector<Stmt> parseStatements(Token op, std::vector<std::string>& code) {
        const bool locked = upper(op.text) == "LOCK";
        if (locked) {
            skipSemicolonAfterLock();
            op = lex_.expectIdent("(an instruction after LOCK)");
        }
        const std::string mnemonic = upper(op.text);
        const std::string prefix = locked ? "LOCK; " : "";
        // herd7 7.58 takes LOCK on ADD, XOR, INC, DEC and XCHG (herd/X86Sem.ml; XCHG is locked anyway), and says
        // "Illegal lock prefix" on any other
        if (locked && mnemonic != "ADD" && mnemonic != "XOR" && mnemonic != "INC" && mnemonic != "DEC" &&
            mnemonic != "XCHG")
            throw InputError(op.where(), kLockTakes);
        if (mnemonic == "MFENCE" || mnemonic == "SFENCE" || mnemonic == "LFENCE") {
            code.push_back(prefix + mnemonic);
            Stmt s;
            s.where = op.where();
            s.kind = mnemonic == "MFENCE" ? Stmt::Kind::MFence
                     : mnemonic == "SFENCE" ? Stmt::Kind::SFence : Stmt::Kind::LFence;
            return {s};
        }
        if (mnemonic == "CMP") {  // its operands into the registers a jump compares
            const Operand left = parseOperand();
            if (left.kind == Operand::Kind::Immediate)
                throw InputError(left.where, "CMP compares a register or a location with an operand, as herd7 "
                                             "reads it: write the value second (CMP EAX,$1)");
            lex_.expect(",", "between operands");
            const Operand right = parseOperand();
            code.push_back("CMP  " + left.herdText() + "," + right.herdText());  // herd7 prints two spaces
            std::vector<Stmt> out{load(op, kCmpLeft, left), load(op, kCmpRight, right)};
            for (Stmt& flag : flags(op, registerOf(kCmpLeft, op.where()), registerOf(kCmpRight, op.where()), true))
                out.push_back(std::move(flag));
            return out;
        }
        // CF is 0 unless the test sets it and no CMP or arithmetic came before ("Carry was always
        // zero!", herd/X86Sem.ml): SETNB writes CF xor 1, CMOVC moves (and reads) only when CF is 1.
        if (mnemonic == "SETNB") {
            const Operand dst = parseDestination();
            code.push_back("SETNB " + dst.herdText());
            const Expr carry = registerOf(kCarryFlag, op.where());
            return {ifCarry(op, {reading(move(op, dst, immediate(0, dst.where)), {carry})},
                            {reading(move(op, dst, immediate(1, dst.where)), {carry})})};
        }
        if (mnemonic == "CMOVC") {
            const Operand dst = parseDestination();
            lex_.expect(",", "between operands");
            const Operand src = parseOperand();
            code.push_back("CMOVC " + dst.herdText() + "," + src.herdText());
            if (dst.kind != Operand::Kind::Register) throw InputError(dst.where, "CMOVC moves into a register");
            if (src.kind == Operand::Kind::Immediate) throw InputError(src.where, "CMOVC moves a register or memory");
            return {ifCarry(op, {move(op, dst, src)}, {})};
        }
        if (mnemonic == "INC" || mnemonic == "DEC") {
            const Operand dst = parseDestination();
            code.push_back(prefix + mnemonic + "  " + dst.herdText());  // herd7 prints two spaces
            return update(op, locked, dst, immediate(mnemonic == "INC" ? 1 : -1, dst.where), Operator::Add, false);
        }
        const bool isMove = mnemonic == "MOV" || mnemonic == "MOVB" || mnemonic == "MOVW" || mnemonic == "MOVL" ||
                            mnemonic == "MOVQ";
        if (!isMove && mnemonic != "XCHG" && mnemonic != "ADD" && mnemonic != "XOR" && mnemonic != "OR")
            throw InputError(op.where(), "unsupported X86 instruction '" + op.text +
                                           "' (supported: MOV, MOVB, MOVW, MOVL, MOVQ, XCHG, ADD, INC, DEC, XOR, OR, "
                                           "LOCK ADD/INC/DEC/XOR/XCHG, MFENCE, SFENCE, LFENCE, CMP, JE, JNE, JMP, SETNB, "
                                           "CMOVC)" +
                                           quantifierHint(op.text));
        Operand dst = parseDestination();
        lex_.expect(",", "between operands");
        Operand src = mnemonic == "XCHG" ? parseDestination() : parseOperand();
        if (mnemonic == "XCHG" && (dst.kind == Operand::Kind::Immediate || src.kind == Operand::Kind::Immediate))
            throw InputError(dst.kind == Operand::Kind::Immediate ? dst.where : src.where,
                             "XCHG exchanges registers and memory, not a value (herd7 stops on it)");
        // herd7 hashes MOVB, MOVW, MOVL and MOVQ as MOV (checked against herd7 7.58).
        code.push_back(prefix + (isMove ? "MOV" : mnemonic) + " " + dst.herdText() + "," + src.herdText());
        if (mnemonic == "ADD") return update(op, locked, dst, src, Operator::Add, true);
        if (isIdiom(dst, src)) return zeroOrSame(op, mnemonic, dst);
        if (mnemonic == "XOR" || mnemonic == "OR")
            return update(op, locked, dst, src, mnemonic == "XOR" ? Operator::Xor : Operator::Or, true);
        Stmt s;
        s.where = op.where();
        if (mnemonic == "XCHG") {
            if (dst.kind == Operand::Kind::Register && src.kind == Operand::Kind::Register) return swap(op, dst, src);
            if (dst.kind == Operand::Kind::Memory && src.kind == Operand::Kind::Memory) {
                s.kind = Stmt::Kind::MemoryExchange;
                s.target = LocRef{dst.name, std::nullopt, dst.where};
                s.source = LocRef{src.name, std::nullopt, src.where};
                return {s};
            }
            if (dst.kind == Operand::Kind::Register && src.kind == Operand::Kind::Memory) std::swap(dst, src);
            s.kind = Stmt::Kind::Xchg;
            s.target = LocRef{dst.name, std::nullopt, dst.where};
            s.result = src.name;
            return {s};
        }
        return {move(op, dst, src)};
    }

    static bool isFlag(const std::string& reg) { return reg == kZeroFlag || reg == kSignFlag || reg == kCarryFlag; }

    // dst := src, to memory or to a register.
    static Stmt move(const Token& op, const Operand& dst, const Operand& src) {
        const std::string mnemonic = upper(op.text);
        if (dst.kind == Operand::Kind::Register) return load(op, dst.name, src);
        if (dst.kind != Operand::Kind::Memory) throw InputError(dst.where, mnemonic + " cannot write an immediate");
        Stmt s;
        s.where = op.where();
        s.target = LocRef{dst.name, std::nullopt, dst.where};
        if (src.kind == Operand::Kind::Memory) {  // herd7 reads it, though x86 has no such MOV
            s.kind = Stmt::Kind::MemoryMove;
            s.source = LocRef{src.name, std::nullopt, src.where};
            return s;
        }
        s.kind = Stmt::Kind::Assign;
        s.expr = valueOf(src);
        return s;
    }

    // ZF := left = right, SF := left > right, and CF := 0 with `carry` (herd7's
    // write_all_flags; INC and DEC leave CF).
    static std::vector<Stmt> flags(const Token& op, const Expr& left, const Expr& right, bool carry) {
        std::vector<Stmt> out;
        for (const auto& [flag, comparison] : {std::pair{kZeroFlag, Operator::Eq}, std::pair{kSignFlag, Operator::Gt}})
            out.push_back(assign(op, flag, Expr::operation(comparison, {left, right}, op.where())));
        if (carry) out.push_back(reading(assign(op, kCarryFlag, Expr::constant(0, op.where())), {left, right}));
        return out;
    }

    // The flags after an arithmetic instruction: its result compared with 0.
    static std::vector<Stmt> flagsOf(const Token& op, const std::string& result, bool carry) {
        return flags(op, registerOf(result, op.where()), Expr::constant(0, op.where()), carry);
    }

    // `if (CF = 1) {set} else {clear}`.
    static Stmt ifCarry(const Token& op, Block set, Block clear) {
        Stmt s;
        s.kind = Stmt::Kind::If;
        s.where = op.where();
        s.expr = registerOf(kCarryFlag, op.where());
        s.expr2 = Expr::constant(1, op.where());
        s.compare = Comparison::Eq;
        s.body = std::move(set);
        s.orelse = std::move(clear);
        return s;
    }

    // The operand `$value` an instruction implies (INC's 1, SETNB's 1, the flags' 0).
    static Operand immediate(long long value, const SourceLoc& where) {
        Operand o;
        o.kind = Operand::Kind::Immediate;
        o.value = value;
        o.where = where;
        return o;
    }

    static Expr valueOf(const Operand& o) {
        if (o.kind == Operand::Kind::Immediate) return Expr::constant(arith::wrap32(o.value), o.where);  // herd7 reads immediates into 32 bits
        return registerOf(o.name, o.where);
    }

    // `reg := src`: a read of memory, or a register's value.
    static Stmt load(const Token& op, const std::string& reg, const Operand& src) {
        if (src.kind != Operand::Kind::Memory) return assign(op, reg, valueOf(src));
        Stmt s;
        s.where = op.where();
        s.result = reg;
        s.kind = Stmt::Kind::RegLoad;
        s.target = LocRef{src.name, std::nullopt, src.where};
        return s;
    }

    // `s`, reading the registers among `reads` too, as herd7's instruction does (its dependencies: RegisterFlow).
    static Stmt reading(Stmt s, const std::vector<Expr>& reads) {
        for (const Expr& r : reads)
            if (r.kind == Expr::Kind::Register) s.alsoReads.push_back(r.name);
        return s;
    }
    static Stmt assign(const Token& op, const std::string& reg, Expr value) {
        Stmt s;
        s.where = op.where();
        s.result = reg;
        s.kind = Stmt::Kind::RegAssign;
        s.expr = std::move(value);
        return s;
    }

    // dst := dst `operation` src (ADD, XOR, OR): a register's new value (LOCK
    // changes nothing there, as in herd7), or a read-modify-write of memory,
    // locked (one atomic update) or not (herd7 leaves its read and write out of
    // po: unfold reads it only for a model in herd7's terms).
    std::vector<Stmt> update(const Token& op, bool locked, const Operand& dst, const Operand& src,
                             Operator operation, bool carry) {
        const std::string mnemonic = upper(op.text);
        if (dst.kind == Operand::Kind::Immediate) throw InputError(dst.where, mnemonic + " cannot write an immediate");
        Stmt s;
        s.where = op.where();
        if (dst.kind == Operand::Kind::Register) {
            std::vector<Stmt> out;
            Expr addend = valueOf(src);
            if (src.kind == Operand::Kind::Memory) {  // ADD EAX,[x]: the read into a hidden register first
                out.push_back(load(op, hiddenRegister(op), src));
                addend = registerOf(out.back().result, src.where);
            }
            s.kind = Stmt::Kind::RegAssign;
            s.result = dst.name;
            s.expr = Expr::operation(operation, {valueOf(dst), addend}, op.where());
            out.push_back(s);
            for (Stmt& flag : flagsOf(op, dst.name, carry)) out.push_back(std::move(flag));
            return out;
        }
        s.target = LocRef{dst.name, std::nullopt, dst.where};
        s.kind = locked ? Stmt::Kind::LockedUpdate : Stmt::Kind::UnlockedUpdate;
        s.update = operation;
        if (src.kind == Operand::Kind::Memory)  // herd7 reads ADD [x],[y], though x86 has no such ADD
            s.source = LocRef{src.name, std::nullopt, src.where};
        else
            s.expr = valueOf(src);
        s.result = kCmpLeft;  // the sum, for the flags
        std::vector<Stmt> out{s};
        for (Stmt& flag : flagsOf(op, kCmpLeft, carry)) out.push_back(std::move(flag));
        return out;
    }

    // XOR R,R and OR R,R of one register: the idioms, zero the register and
    // leave it as it is (no bitwise term for the solver), flags as herd7 sets them.
    static bool isIdiom(const Operand& dst, const Operand& src) {
        return dst.kind == Operand::Kind::Register && src.kind == Operand::Kind::Register && dst.name == src.name;
    }
    static std::vector<Stmt> zeroOrSame(const Token& op, const std::string& mnemonic, const Operand& dst) {
        std::vector<Stmt> out;
        if (mnemonic == "XOR") {
            out.push_back(reading(load(op, dst.name, immediate(0, dst.where)), {valueOf(dst)}));
        }
        for (Stmt& flag : flagsOf(op, dst.name, true)) out.push_back(std::move(flag));
        return out;
    }

    // XCHG of two registers: through a hidden one (no memory event).
    static std::vector<Stmt> swap(const Token& op, const Operand& a, const Operand& b) {
        return {load(op, hiddenRegister(op), a), load(op, a.name, b),
                assign(op, b.name, registerOf(hiddenRegister(op), op.where()))};
    }

    // Where ADD R,[x] keeps the value it reads, and XCHG a register's: a register no test can name.
    static std::string hiddenRegister(const Token& op) {
        return upper(op.text) + "@" + std::to_string(op.where().line) + ":" + std::to_string(op.where().column);
    }

    Lexer& lex_;
    int thread_ = 0;                    // the thread whose cell is being read
    std::vector<std::pair<int, SourceLoc>> registerInitAt_;  // registers given initial values
    std::vector<std::pair<long long, SourceLoc>> initValues_;  // the init block's, addresses as kAddressBase
    std::map<std::string, std::string> pointsAt_;            // "thread:REG" -> the location the init block points it at
    AddressNames addresses_;
    std::vector<ReadThrough> readsThrough_;
};

}  // namespace

LitmusTest parseX86(Lexer& lex) { return X86Parser(lex).parse(); }

}  // namespace rdmacheck
