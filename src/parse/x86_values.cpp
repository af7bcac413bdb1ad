#include "x86_values.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <functional>
#include <set>

namespace rdmacheck {

namespace {

bool adjacent(const Token& a, const Token& b) {
    return a.line == b.line && b.column == a.column + static_cast<int>(a.text.size());
}

// `xFF` of `0xFF`, the lexer's name after the 0.
long long hexValue(const Token& x, const SourceLoc& where) {
    const std::string digits = x.text.substr(1);
    if (digits.empty() || digits.size() > 8 || !std::all_of(digits.begin(), digits.end(), ::isxdigit))
        throw InputError(where, "0" + x.text + " is not a 32-bit value: herd7 reads hexadecimal values of at "
                                "most eight digits (0x0 to 0xffffffff)");
    const long long value = std::stoll(digits, nullptr, 16);
    return value > INT32_MAX ? value - (1LL << 32) : value;
}

}  // namespace

long long readX86Value(Lexer& lex, const char* context, std::string* written) {
    const bool negative = lex.peek().is("-");
    const Token sign = negative ? lex.next() : Token{};
    if (lex.peek().kind != Token::Kind::Int) lex.failHere(std::string("expected an integer ") + context);
    const Token number = lex.next();
    if (negative && !adjacent(sign, number))
        throw InputError(number.where(), "herd7 reads a negative value with its '-' next to the number");
    const long long value = negative ? -number.value : number.value;
    const Token& x = lex.peek();
    const bool hex = number.text == "0" && x.kind == Token::Kind::Ident && (x.text[0] == 'x' || x.text[0] == 'X') &&
                     adjacent(number, x);
    if (written) *written = (negative ? "-" : "") + number.text + (hex ? x.text : "");
    if (hex && negative) throw InputError(sign.where(), "herd7 reads hexadecimal values without a sign");
    if (hex) return hexValue(lex.next(), number.where());
    if (value < INT32_MIN || value > INT32_MAX)
        throw InputError(negative ? sign.where() : number.where(),
                         std::to_string(value) + " is not a 32-bit value: herd7 reads the init block's and the "
                                                 "condition's values as 32-bit integers (-2147483648 to 2147483647, or "
                                                 "0x0 to 0xffffffff) and stops on others");
    return value;
}

long long AddressNames::valueOf(const std::string& name) {
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) it = names_.insert(names_.end(), name);
    return kAddressBase + (it - names_.begin());
}

void AddressNames::finish(LitmusTest& test) const {
    test.addresses = names_;
    std::sort(test.addresses.begin(), test.addresses.end());
    auto renumber = [&](long long& value) {
        if (const std::string* name = addressName(value, names_))
            value = kAddressBase + (std::lower_bound(test.addresses.begin(), test.addresses.end(), *name) -
                                    test.addresses.begin());
    };
    for (LocationDecl& l : test.locations) renumber(l.init);
    for (auto& [key, value] : test.registerInit) renumber(value);
    std::function<void(Cond&)> renumberAtoms = [&](Cond& c) {
        if (c.kind == Cond::Kind::Atom && !c.sameAs) renumber(c.value);
        for (Cond& a : c.args) renumberAtoms(a);
    };
    renumberAtoms(test.condition);
    if (test.filter) renumberAtoms(*test.filter);
}

namespace {

// What may hold an address: locations by name, registers by registerKey.
class AddressFlow {
public:
    explicit AddressFlow(const LitmusTest& test) : test_(test) {
        for (const LocationDecl& l : test.locations)
            if (l.init >= kAddressBase) holders_.insert(l.name);
        for (const auto& [key, value] : test.registerInit)
            if (value >= kAddressBase) holders_.insert(key);
    }

    // Follows the moves until nothing more may hold an address, refusing on the way.
    void run() {
        size_t before = 0;
        do {
            before = holders_.size();
            for (size_t t = 0; t < test_.threads.size(); ++t) {
                thread_ = static_cast<int>(t);
                visit(test_.threads[t].body);
            }
        } while (holders_.size() != before);
    }

private:
    void visit(const Block& block) {
        anyStatement(block, [&](const Stmt& s) {
            visit(s);
            return false;
        });
    }

    void visit(const Stmt& s) {
        const std::string reg = registerKey(thread_, s.result);
        const std::string& target = s.target.name;
        switch (s.kind) {
            case Stmt::Kind::RegAssign: flow(mayHold(s.expr), reg); break;
            case Stmt::Kind::RegLoad: flow(holds(target), reg); break;
            case Stmt::Kind::Assign: flow(mayHold(s.expr), target); break;
            case Stmt::Kind::MemoryMove: flow(holds(s.source.name), target); break;
            case Stmt::Kind::Xchg: swap(reg, target); break;
            case Stmt::Kind::MemoryExchange: swap(target, s.source.name); break;
            case Stmt::Kind::LockedUpdate:
            case Stmt::Kind::UnlockedUpdate:
                if (holds(target) || mayHold(s.expr)) refuse(s.where, target);
                if (!s.source.name.empty() && holds(s.source.name)) refuse(s.where, s.source.name);
                break;
            default: break;
        }
    }

    bool mayHold(const Expr& e) const {
        switch (e.kind) {
            case Expr::Kind::Const: return false;
            case Expr::Kind::Location: return holds(e.name);
            case Expr::Kind::Register: return holds(registerKey(thread_, e.name));
            case Expr::Kind::Operation:
                for (const Expr& a : e.args)
                    if (mayHold(a)) refuse(e.where, a.name.find('@') == std::string::npos ? a.name : "");
                return false;
        }
        return false;
    }

    bool holds(const std::string& holder) const { return holders_.count(holder) > 0; }
    void flow(bool address, const std::string& to) {
        if (address) holders_.insert(to);
    }
    void swap(const std::string& a, const std::string& b) {
        const bool either = holds(a) || holds(b);
        flow(either, a);
        flow(either, b);
    }

    [[noreturn]] static void refuse(const SourceLoc& where, const std::string& holder) {
        throw InputError(where, "this instruction computes with " +
                                    (holder.empty() ? "a value that" : holder + ", which") +
                                    " may hold an address (a location's name as a value): rdmacheck moves addresses "
                                    "and compares them in the condition, and computes nothing with them (herd7 "
                                    "computes x+1 symbolically)");
    }

    const LitmusTest& test_;
    std::set<std::string> holders_;
    int thread_ = 0;
};

}  // namespace

namespace {

bool writes(const Block& block, const std::string& reg) {
    return anyStatement(block, [&](const Stmt& s) {
        const bool intoRegister =
            s.kind == Stmt::Kind::RegAssign || s.kind == Stmt::Kind::RegLoad || s.kind == Stmt::Kind::Xchg;
        return intoRegister && s.result == reg;
    });
}

}  // namespace

void refuseReadsThroughWritten(const LitmusTest& test, const std::vector<ReadThrough>& reads) {
    for (const ReadThrough& r : reads)
        if (writes(test.threads[r.thread].body, r.reg))
            throw InputError(r.where, "[" + r.reg + "] reads where " + r.reg + " points: supported when the init "
                                      "block points it at a location and no instruction writes it, and P" +
                                      std::to_string(r.thread) + " writes " + r.reg);
}

void refuseArithmeticOnAddresses(const LitmusTest& test) {
    if (!test.addresses.empty()) AddressFlow(test).run();
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
    return s;
}

// herd7's X86 lexer reads an instruction's name (in capitals or not) as the
// instruction, and a name only from a letter on.
void refuseX86Keyword(const Token& name) {
    static const std::set<std::string> kKeywords = {
        "ADD", "XOR", "OR", "MOV", "MOVB", "MOVW", "MOVL", "MOVQ", "MOVT", "MOVSD", "DEC", "CMP", "CMOVC", "INC",
        "JMP", "JE", "JNE", "LOCK", "XCHG", "CMPXCHG", "LFENCE", "SFENCE", "MFENCE", "SETNB"};
    if (!std::isalpha(static_cast<unsigned char>(name.text[0])))
        throw InputError(name.where(), "'" + name.text + "': herd7's X86 names a location from a letter on");
    const std::string up = upper(name.text);
    const bool oneCase = name.text == up || std::none_of(name.text.begin(), name.text.end(), [](unsigned char c) {
                             return std::isupper(c);
                         });
    if (oneCase && kKeywords.count(up))
        throw InputError(name.where(), "'" + name.text + "' is an instruction to herd7's X86 lexer, not a location: "
                                     "choose another name");
}

// `$1`, `$-1`, `1` or `-1`, its parts together as herd7's lexer reads them.
long long readX86Immediate(Lexer& lex) {
    bool negative = false;
    for (const char* part : {"$", "-"}) {
        if (!lex.peek().is(part)) continue;
        negative = *part == '-';
        const size_t after = lex.next().offset + 1;
        if (lex.peek().offset != after)
            throw InputError(lex.peek().where(), std::string("'") + part + "' and the digits after it are "
                                                    "written together, as herd7 reads them: '$1', '$-1', '-1'");
    }
    if (lex.peek().kind != Token::Kind::Int) lex.failHere("expected an integer as an immediate value");
    const long long v = lex.next().value;
    return negative ? -v : v;
}

// herd7's typed entry, `int x=0`: the type, which only its hash reads
// (values stay 32-bit, so only 32-bit types are read); "" when untyped. A
// pointer, `int *p=x` or `*p=x`, is "int *" or "*", as herd7 hashes it: any
// type, for its value is an address.
std::string readX86InitType(Lexer& lex) {
    const Token first = lex.peek();
    if (first.is("*")) {
        lex.next();
        return "*";
    }
    if (first.kind != Token::Kind::Ident) return "";
    const size_t start = lex.offset();
    lex.next();
    const Token& after = lex.peek();
    if (after.is("*")) {
        lex.next();
        return first.text + " *";
    }
    if (after.kind != Token::Kind::Ident && after.kind != Token::Kind::Int && !after.is("[")) {
        lex.seek(start);  // a name, `x=1`
        return "";
    }
    static const std::set<std::string> kTypes = {"int", "int32_t", "uint32_t"};
    if (kTypes.count(first.text) == 0 && narrowBits(first.text) == 0)
        throw InputError(first.where(), "type '" + first.text +
                                          "' in the init block: rdmacheck's X86 values are 32-bit, and it reads the "
                                          "types int, int32_t, uint32_t, char, short, int8_t, uint8_t, int16_t and "
                                          "uint16_t only, and pointers of any type (int *p=x)");
    return first.text;
}

int narrowBits(const std::string& type) {
    if (type == "char" || type == "int8_t" || type == "uint8_t") return 8;
    if (type == "short" || type == "int16_t" || type == "uint16_t") return 16;
    return 0;
}

void refuseNarrowValuesUnlikeHerd(const LitmusTest& test, const std::vector<std::pair<long long, SourceLoc>>& init) {
    int bits = 0;  // the narrowest type's
    for (const auto& [name, type] : test.initType)
        if (const int b = narrowBits(type); b > 0 && (bits == 0 || b < bits)) bits = b;
    if (bits == 0) return;
    const long long most = (1LL << (bits - 1)) - 1;
    const auto refuse = [&](const SourceLoc& where, const std::string& what) {
        throw InputError(where, what + ": herd7 cuts each value written to a location of a type narrower than 32 "
                                       "bits to that type (-1 written to a uint8_t is 255), which rdmacheck does "
                                       "not imitate; in a test with such a type it reads values that are copies of "
                                       "constants 0 to " + std::to_string(most));
    };
    for (const auto& [value, where] : init)
        if (value < 0 || value > most)
            refuse(where, value >= kAddressBase ? "an address as an initial value"
                                                : "initial value " + std::to_string(value));
    std::function<void(const Expr&)> constants = [&](const Expr& e) {
        if (e.kind == Expr::Kind::Const && (e.value < 0 || e.value > most))
            refuse(e.where, "the value " + std::to_string(e.value));
        for (const Expr& a : e.args) constants(a);
    };
    for (const ThreadDecl& thread : test.threads)
        anyStatement(thread.body, [&](const Stmt& s) {
            // ADD, XOR, OR, INC, DEC, on a register or in memory; a flag (Eq, Gt) is 0 or 1
            const bool update = s.kind == Stmt::Kind::LockedUpdate || s.kind == Stmt::Kind::UnlockedUpdate;
            const bool onRegister = s.kind == Stmt::Kind::RegAssign && s.expr.kind == Expr::Kind::Operation &&
                                    s.expr.op != Operator::Eq && s.expr.op != Operator::Gt;
            if (update || onRegister) refuse(s.where, "this instruction computes");
            constants(s.expr);
            constants(s.expr2);
            return false;
        });
    // herd7 cuts a condition's value to its name's type too.
    const auto atoms = [&](const Cond& c) {
        const std::string name = c.thread >= 0 ? registerKey(c.thread, c.loc) : c.loc;
        if (!c.sameAs && test.initType.count(name) && narrowBits(test.initType.at(name)) > 0 &&
            (c.value < 0 || c.value > most))
            refuse(c.where, "the value " + std::to_string(c.value) + " in the condition");
    };
    forEachAtom(test.condition, atoms);
    if (test.filter) forEachAtom(*test.filter, atoms);
}

}  // namespace rdmacheck
