#include "language.hpp"

#include <cctype>
#include <optional>

#include "rdmacheck/limits.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

namespace {

struct ModelToken {
    enum class Kind { Name, String, Punct, End };
    Kind kind = Kind::End;
    std::string text;
    SourceLoc where;

    bool is(const char* p) const { return kind == Kind::Punct && text == p; }
    bool isWord(const char* w) const { return kind == Kind::Name && text == w; }
};

bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }

// herd7's keywords and rdmacheck's declarations: never a name in an expression.
bool isKeyword(const std::string& word) {
    static const char* const kKeywords[] = {
        "let", "rec", "and", "when", "acyclic", "irreflexive", "show", "unshow", "empty", "subset", "as", "fun", "in",
        "undefined_unless", "flag", "assert", "include", "variant", "begin", "end", "procedure", "call", "enum",
        "debug", "match", "with", "forall", "from", "do", "try", "if", "then", "else", "catdep", "instructions",
        "default", "not", "table", "stamps", "events", "libraries"};
    for (const char* k : kKeywords)
        if (word == k) return true;
    return false;
}

// The whole file as tokens: the parser looks two ahead to tell `r*` from `S * S`.
class Tokens {
public:
    Tokens(const std::string& text, const std::string& file) : text_(text), file_(file) {
        checkUtf8Text(text, file, "model");
        for (;;) {
            skipBlanks();
            tokens_.push_back(read());
            if (tokens_.back().kind == ModelToken::Kind::End) break;
        }
    }

    const ModelToken& peek(size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
    ModelToken next() { return tokens_[at_ < tokens_.size() - 1 ? at_++ : at_]; }

    ModelToken expect(const char* punct, const std::string& context) {
        if (!peek().is(punct)) fail(peek(), std::string("expected '") + punct + "' " + context);
        return next();
    }
    ModelToken expectName(const std::string& context) {
        if (peek().kind != ModelToken::Kind::Name) fail(peek(), "expected a name " + context);
        return next();
    }
    [[noreturn]] void fail(const ModelToken& at, const std::string& message) const {
        const std::string found = at.kind == ModelToken::Kind::End ? "the end of the file" : "'" + at.text + "'";
        throw InputError(at.where, message + ", found " + found);
    }

private:
    SourceLoc here() const { return SourceLoc{file_, line_, static_cast<int>(pos_ - lineStart_) + 1}; }

    void advance() {
        if (text_[pos_] == '\n') {
            ++line_;
            lineStart_ = pos_ + 1;
        }
        ++pos_;
    }

    void skipBlanks() {
        while (pos_ < text_.size()) {
            if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
                advance();
            } else if (text_[pos_] == '#' || text_.compare(pos_, 2, "//") == 0) {  // herd7's line comments
                while (pos_ < text_.size() && text_[pos_] != '\n') advance();
            } else if (text_.compare(pos_, 2, "(*") == 0) {
                const SourceLoc start = here();
                const size_t end = commentEnd(text_, pos_);
                if (end == std::string::npos) throw InputError(start, "comment not closed: expected '*)'");
                while (pos_ < end) advance();
            } else {
                return;
            }
        }
    }

    ModelToken read() {
        ModelToken t;
        t.where = here();
        if (pos_ >= text_.size()) return t;
        const char c = text_[pos_];
        if (nameStart(c)) {
            t.kind = ModelToken::Kind::Name;
            while (pos_ < text_.size() && nameChar(text_[pos_])) t.text += text_[pos_], advance();
            if (pos_ < text_.size() && text_[pos_] == '\'') t.text += text_[pos_], advance();
        } else if (c == '\'' && pos_ + 1 < text_.size() && nameStart(text_[pos_ + 1])) {  // a tag, 'name
            t.kind = ModelToken::Kind::Punct;
            t.text = "'";
            advance();
            while (pos_ < text_.size() && nameChar(text_[pos_])) t.text += text_[pos_], advance();
        } else if (c == '"') {
            t.kind = ModelToken::Kind::String;
            advance();
            while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') t.text += text_[pos_], advance();
            if (pos_ >= text_.size() || text_[pos_] != '"') throw InputError(t.where, "string not closed: expected '\"'");
            advance();
        } else if (c == '^') {  // herd7 reads '^' and '-1' as two tokens: `r ^ -1` too
            advance();
            skipBlanks();
            if (text_.compare(pos_, 2, "-1") != 0) throw InputError(t.where, "expected '^-1' (the inverse)");
            t.kind = ModelToken::Kind::Punct;
            t.text = "^-1";
            advance();
            advance();
        } else if (const char* pair = twoCharacterToken()) {
            t.kind = ModelToken::Kind::Punct;
            t.text = pair;
            advance();
            advance();
        } else if (std::string("|&\\;*+?()[]{}:,=0~").find(c) != std::string::npos) {
            t.kind = ModelToken::Kind::Punct;
            t.text = std::string(1, c);
            advance();
        } else {
            throw InputError(t.where, std::string("unexpected character '") + c + "'");
        }
        return t;
    }

    const char* twoCharacterToken() const {
        for (const char* pair : {"||", "&&", "++", "->"})
            if (text_.compare(pos_, 2, pair) == 0) return pair;
        return nullptr;
    }

    const std::string& text_;
    std::string file_;
    size_t pos_ = 0, lineStart_ = 0;
    int line_ = 1;
    std::vector<ModelToken> tokens_;
    size_t at_ = 0;
};

// Binary operators from the loosest: as herd7's cat.
struct Level {
    const char* punct;
    ModelExpr::Op op;
};
constexpr Level kLevels[] = {{"|", ModelExpr::Op::Union},   {"++", ModelExpr::Op::SetAdd},
                             {";", ModelExpr::Op::Seq},     {"\\", ModelExpr::Op::Diff},
                             {"&", ModelExpr::Op::Inter},   {"*", ModelExpr::Op::Product}};

const char* const kDeclarations =
    "let, include, acyclic, irreflexive, empty, flag, show, procedure, call, with, if, table, stamps, events, "
    "libraries";

class ModelParser {
public:
    ModelParser(const std::string& text, const std::string& file, size_t earlierItems)
        : tokens_(text, file), earlierItems_(earlierItems) {}

    ParsedModel run() {
        ParsedModel model;
        model.description = header();
        model.items = items(false);
        if (tokens_.peek().kind != ModelToken::Kind::End)
            tokens_.fail(tokens_.peek(), std::string("expected a declaration (") + kDeclarations + ")");
        return model;
    }

private:
    // herd7's first line names the model: a string, or an architecture and a
    // name (X86 TSO); rdmacheck's models begin with a string.
    std::string header() {
        if (tokens_.peek().kind == ModelToken::Kind::String) return tokens_.next().text;
        std::string out;
        for (int words = 0; words < 2 && isName(tokens_.peek()); ++words)
            out += (out.empty() ? "" : " ") + tokens_.next().text;
        if (!out.empty() && tokens_.peek().kind == ModelToken::Kind::String) out += " " + tokens_.next().text;
        if (tokens_.peek().isWord("catdep")) refuse(tokens_.peek(), "catdep (dependencies computed by the model)");
        return out;
    }

    // Declarations up to the end of the file, or to `end`/`else` inside a block.
    std::vector<ModelItem> items(bool inBlock) {
        std::vector<ModelItem> out;
        for (;;) {
            const ModelToken& t = tokens_.peek();
            if (t.kind == ModelToken::Kind::End || (inBlock && (t.isWord("end") || t.isWord("else")))) return out;
            if (earlierItems_ + count_ == kMaxModelItems)
                throw InputError(t.where, "the model has more than " + std::to_string(kMaxModelItems) +
                                              " declarations (with its includes)");
            ++count_;
            out.push_back(item());
        }
    }

    ModelItem item() {
        const ModelToken t = tokens_.peek();
        ModelItem it;
        it.where = t.where;
        if (t.isWord("let")) return let(it);
        if (t.isWord("include")) return quoted(it, ModelItem::Kind::Include, "after include");
        if (t.isWord("table")) {
            tokens_.next();
            it.name = tokens_.expectName("after table").text;
            tokens_.expect("=", "after the table's name");
            return quoted(it, ModelItem::Kind::Table, "(the table's file)", false);
        }
        if (t.isWord("stamps")) return stamps(it);
        if (t.isWord("events") || t.isWord("libraries")) {
            tokens_.next();
            it.kind = t.text == "events" ? ModelItem::Kind::Events : ModelItem::Kind::Libraries;
            it.names = nameList("in the list");
            return it;
        }
        if (t.isWord("show") || t.isWord("unshow")) return show(it);
        if (t.isWord("procedure")) return procedure(it);
        if (t.isWord("call")) return call(it);
        if (t.isWord("with")) {
            tokens_.next();
            it.kind = ModelItem::Kind::WithFrom;
            it.name = tokens_.expectName("after with").text;
            expectWord("from", "after with NAME");
            it.expr = expression();
            return it;
        }
        if (t.isWord("if")) return ifVariant(it);
        for (const char* unread : {"enum", "forall", "debug", "match", "instructions", "default"})
            if (t.isWord(unread)) refuse(t, std::string("'") + unread + "'");
        return axiom(it);
    }

    [[noreturn]] void refuse(const ModelToken& at, const std::string& what) const {
        throw InputError(at.where, what + " is herd7's, and rdmacheck does not evaluate it");
    }

    ModelItem let(ModelItem it) {
        tokens_.next();
        it.kind = ModelItem::Kind::Let;
        it.recursive = acceptWord("rec");
        it.bindings = bindings();
        if (it.recursive && tokens_.peek().isWord("when")) it.body.push_back(whenTest(it.bindings));
        acceptWord("in");  // herd7 allows `in` after a declaration
        return it;
    }

    // let rec ... when T: herd7 tests T at each step of the fixed point and
    // drops the candidate where it fails. Where T's relation grows with the
    // definitions, an acyclic, irreflexive or empty check that fails at a step
    // fails at the fixed point, which contains each step, and holds at each
    // step where it holds there: the check after the definition. Otherwise
    // (a negated check, a definition under '\', '~' or a function) it is not.
    ModelItem whenTest(const std::vector<std::pair<std::string, ModelExpr>>& defined) {
        const ModelToken when = tokens_.next();
        const ModelToken t = tokens_.peek();
        if (t.is("~")) refuse(t, "'let rec ... when ~' (a test of the first step)");
        if (!(t.isWord("acyclic") || t.isWord("irreflexive") || t.isWord("empty")))
            tokens_.fail(t, "expected acyclic, irreflexive or empty after 'when'");
        ModelItem test;
        test.where = when.where;
        test = axiom(test);
        std::vector<std::string> names;
        for (const auto& [name, e] : defined) names.push_back(name);
        if (!test.expr.growsWith(names))
            refuse(t, "'let rec ... when' with a test whose relation does not grow with the definition (under '\\', "
                      "'~' or a function: herd7 reads it at each step of the fixed point)");
        return test;
    }

    // NAME = e, NAME x = e, NAME(x, y) = e; joined by `and`.
    std::vector<std::pair<std::string, ModelExpr>> bindings() {
        std::vector<std::pair<std::string, ModelExpr>> out;
        do {
            if (tokens_.peek().is("(")) refuse(tokens_.peek(), "a tuple pattern in a definition");
            const ModelToken name = tokens_.expectName("after let");
            if (tokens_.peek().is("=")) {
                tokens_.next();
                out.emplace_back(name.text, expression());
                continue;
            }
            ModelExpr fun = ModelExpr::of(ModelExpr::Op::Fun, name.where);
            fun.name = name.text;
            fun.names = parameters("after the function's name");
            tokens_.expect("=", "after the function's parameters");
            fun.args.push_back(expression());
            out.emplace_back(name.text, std::move(fun));
        } while (acceptWord("and"));
        return out;
    }

    // x, or (x, y, ...); `_` is a parameter that is not used.
    std::vector<std::string> parameters(const std::string& context) {
        std::vector<std::string> out;
        if (!accept("(")) {
            out.push_back(tokens_.expectName(context).text);
            return out;
        }
        if (!tokens_.peek().is(")")) {
            do out.push_back(tokens_.expectName("(a parameter)").text);
            while (accept(","));
        }
        tokens_.expect(")", "after the parameters");
        if (out.empty()) out.push_back("()");
        return out;
    }

    std::vector<std::pair<std::string, SourceLoc>> nameList(const std::string& context) {
        std::vector<std::pair<std::string, SourceLoc>> out;
        do {
            const ModelToken n = tokens_.expectName(context);
            out.emplace_back(n.text, n.where);
        } while (accept(","));
        return out;
    }

    ModelItem quoted(ModelItem it, ModelItem::Kind kind, const std::string& context, bool skipKeyword = true) {
        if (skipKeyword) tokens_.next();
        it.kind = kind;
        if (tokens_.peek().kind != ModelToken::Kind::String) tokens_.fail(tokens_.peek(), "expected a quoted file name " + context);
        it.text = tokens_.next().text;
        return it;
    }

    ModelItem stamps(ModelItem it) {
        tokens_.next();
        it.kind = ModelItem::Kind::Stamps;
        tokens_.expect("{", "after stamps");
        do {
            const ModelToken kind = tokens_.expectName("(an event kind)");
            tokens_.expect(":", "between an event kind and its stamp");
            const ModelToken stamp = tokens_.expectName("(a stamp)");
            it.names.emplace_back(kind.text, kind.where);
            it.names.emplace_back(stamp.text, stamp.where);
        } while (accept(","));
        tokens_.expect("}", "after the stamps");
        return it;
    }

    // show e as NAME, show a, b, unshow a, b: what herd7 draws; read only.
    ModelItem show(ModelItem it) {
        const bool unshow = tokens_.next().text == "unshow";
        it.kind = ModelItem::Kind::Show;
        if (unshow) {
            it.names = nameList("after unshow");
            return it;
        }
        it.expr = binary();
        if (acceptWord("as")) {
            it.name = tokens_.expectName("after as").text;
        } else {
            while (accept(",")) binary();
        }
        return it;
    }

    ModelItem procedure(ModelItem it) {
        tokens_.next();
        it.kind = ModelItem::Kind::Procedure;
        it.recursive = acceptWord("rec");
        it.name = tokens_.expectName("after procedure").text;
        it.params = parameters("after the procedure's name");
        tokens_.expect("=", "after the procedure's parameters");
        it.body = items(true);
        expectWord("end", "to close the procedure");
        return it;
    }

    ModelItem call(ModelItem it) {
        tokens_.next();
        it.kind = ModelItem::Kind::Call;
        it.name = tokens_.expectName("after call").text;
        it.expr = simple(tokens_.next());
        if (acceptWord("as")) it.text = tokens_.expectName("after as").text;
        return it;
    }

    ModelItem ifVariant(ModelItem it) {
        tokens_.next();
        it.kind = ModelItem::Kind::IfVariant;
        it.expr = variant();
        it.body = items(true);
        if (acceptWord("else")) it.otherwise = items(true);
        expectWord("end", "to close the if");
        return it;
    }

    // "name", variant "name", not c, c && c, c || c, (c).
    ModelExpr variant() {
        ModelExpr left = variantAtom();
        while (tokens_.peek().is("&&") || tokens_.peek().is("||")) {
            const ModelToken op = tokens_.next();
            left = ModelExpr::of(op.is("&&") ? ModelExpr::Op::And : ModelExpr::Op::Or, op.where, {std::move(left), variantAtom()});
        }
        return left;
    }

    ModelExpr variantAtom() {
        const ModelToken t = tokens_.next();
        if (t.isWord("not")) return ModelExpr::of(ModelExpr::Op::Not, t.where, {variantAtom()});
        if (t.is("(")) {
            ModelExpr inner = variant();
            tokens_.expect(")", "to close '('");
            return inner;
        }
        if (t.isWord("variant") && tokens_.peek().kind == ModelToken::Kind::String) return variantAtom();
        if (t.kind != ModelToken::Kind::String) {
            if (t.kind == ModelToken::Kind::Name || t.is("(")) refuse(t, "an 'if' that compares values");
            tokens_.fail(t, "expected a variant's quoted name");
        }
        ModelExpr v = ModelExpr::of(ModelExpr::Op::Variant, t.where);
        v.name = t.text;
        return v;
    }

    // [flag | undefined_unless | assert] [~] (acyclic | irreflexive | empty) e [as NAME]
    ModelItem axiom(ModelItem it) {
        if (acceptWord("flag")) it.test = ModelItem::Test::Flag;
        else if (acceptWord("undefined_unless")) it.test = ModelItem::Test::UndefinedUnless;
        else if (acceptWord("assert")) it.test = ModelItem::Test::Assert;
        it.negated = accept("~");
        const ModelToken t = tokens_.peek();
        if (!(t.isWord("acyclic") || t.isWord("irreflexive") || t.isWord("empty")))
            tokens_.fail(t, it.test == ModelItem::Test::Check && !it.negated
                                ? std::string("expected a declaration (") + kDeclarations + ")"
                                : std::string("expected acyclic, irreflexive or empty"));
        const std::string word = tokens_.next().text;
        it.kind = ModelItem::Kind::Axiom;
        it.axiom = word == "acyclic" ? Axiom::Kind::Acyclic
                   : word == "irreflexive" ? Axiom::Kind::Irreflexive : Axiom::Kind::Empty;
        it.expr = expression();
        if (acceptWord("as")) it.name = tokens_.expectName("after as").text;
        return it;
    }

    bool accept(const char* punct) {
        if (!tokens_.peek().is(punct)) return false;
        tokens_.next();
        return true;
    }
    bool acceptWord(const char* word) {
        if (!tokens_.peek().isWord(word)) return false;
        tokens_.next();
        return true;
    }
    void expectWord(const char* word, const std::string& context) {
        if (!acceptWord(word)) tokens_.fail(tokens_.peek(), std::string("expected '") + word + "' " + context);
    }
    static bool isName(const ModelToken& t) { return t.kind == ModelToken::Kind::Name && !isKeyword(t.text); }

    // let ... in e, fun x -> e, try e with e, if c then e else e, match ... end, or a tuple of binaries.
    ModelExpr expression() {
        const ModelToken t = tokens_.peek();
        std::optional<Nesting> nesting;  // let, fun, try and if nest without brackets
        if (t.isWord("let") || t.isWord("fun") || t.isWord("try") || t.isWord("if")) nesting.emplace(*this, t);
        if (t.isWord("let")) {
            tokens_.next();
            ModelExpr e = ModelExpr::of(ModelExpr::Op::Let, t.where);
            if (acceptWord("rec")) e.name = "rec";
            for (auto& [name, value] : bindings()) {
                e.names.push_back(name);
                e.args.push_back(std::move(value));
            }
            expectWord("in", "after the definitions of a 'let ... in'");
            e.args.push_back(expression());
            return e;
        }
        if (t.isWord("fun")) {
            tokens_.next();
            ModelExpr e = ModelExpr::of(ModelExpr::Op::Fun, t.where);
            e.names = parameters("after fun");
            tokens_.expect("->", "after the function's parameters");
            e.args.push_back(expression());
            return e;
        }
        if (t.isWord("try")) {
            tokens_.next();
            ModelExpr body = expression();
            expectWord("with", "after try's expression");
            return ModelExpr::of(ModelExpr::Op::Try, t.where, {std::move(body), expression()});
        }
        if (t.isWord("if")) {
            tokens_.next();
            ModelExpr condition = variant();
            expectWord("then", "after the if's condition");
            ModelExpr yes = expression();
            expectWord("else", "after the if's then branch");
            return ModelExpr::of(ModelExpr::Op::If, t.where, {std::move(condition), std::move(yes), expression()});
        }
        if (t.isWord("match")) return match();
        ModelExpr first = binary();
        if (!tokens_.peek().is(",")) return first;
        ModelExpr tuple = ModelExpr::of(ModelExpr::Op::Tuple, first.where, {std::move(first)});
        while (accept(",")) tuple.args.push_back(binary());
        return tuple;
    }

    // match ... end, read to its `end` and kept unevaluated.
    ModelExpr match() {
        const ModelToken start = tokens_.next();
        for (int open = 1; open > 0;) {
            const ModelToken t = tokens_.next();
            if (t.kind == ModelToken::Kind::End) tokens_.fail(t, "expected 'end' to close the match at " + start.where.str());
            if (t.isWord("match") || t.isWord("begin")) ++open;
            if (t.isWord("end")) --open;
        }
        return ModelExpr::of(ModelExpr::Op::Match, start.where);
    }

    ModelExpr binary(size_t level = 0) {
        if (kLevels[level].op == ModelExpr::Op::Product) return product();
        ModelExpr left = binary(level + 1);
        while (tokens_.peek().is(kLevels[level].punct)) {
            const ModelToken op = tokens_.next();
            countOperator(op);
            left = ModelExpr::of(kLevels[level].op, op.where, {std::move(left), binary(level + 1)});
        }
        return left;
    }

    // herd7 gives the product `*`, the closures `*`, `+`, `?` and `~` one
    // precedence without associativity (lib/modelParser.mly): `W * R * S`,
    // `W * R+`, `W * ~R`, `~r+` and `~W * R` are its syntax errors, and so here.
    ModelExpr product() {
        ModelExpr left = prefix(true);
        if (!(tokens_.peek().is("*") && productAhead())) return left;
        const ModelToken op = tokens_.next();
        countOperator(op);
        if (tokens_.peek().is("~"))
            tokens_.fail(tokens_.peek(), "a complement right of '*': herd7 reads it as neither a product nor a "
                                         "closure; write W * (~R)");
        ModelExpr right = prefix(false);
        refuseClosureAfter("a product");
        return ModelExpr::of(ModelExpr::Op::Product, op.where, {std::move(left), std::move(right)});
    }

    // `closures`: whether the operand may end in a closure (`r+`).
    ModelExpr prefix(bool closures) {
        if (!tokens_.peek().is("~")) return postfix(closures);
        const ModelToken op = tokens_.next();
        countOperator(op);
        Nesting nesting(*this, op);
        ModelExpr complement = ModelExpr::of(ModelExpr::Op::Complement, op.where, {prefix(false)});
        refuseClosureAfter("a complement '~'");
        return complement;
    }

    void refuseClosureAfter(const std::string& what) const {
        const ModelToken& t = tokens_.peek();
        if (t.is("*") || t.is("+") || t.is("?"))
            tokens_.fail(t, "'" + t.text + "' after " + what + ": herd7 reads neither grouping (one precedence, no "
                                                            "associativity); add parentheses");
    }

    // `*` followed by an operand is a product; otherwise it is the postfix closure.
    bool productAhead() const { return startsOperand(tokens_.peek(1)); }

    static bool startsOperand(const ModelToken& t) {
        return isName(t) || t.is("(") || t.is("[") || t.is("{") || t.is("0") || t.is("~") ||
               (t.kind == ModelToken::Kind::Punct && t.text.size() > 1 && t.text[0] == '\'') || t.isWord("begin");
    }

    ModelExpr postfix(bool closures) {
        ModelExpr e = application();
        for (;;) {
            const ModelToken& t = tokens_.peek();
            ModelExpr::Op op;
            if (t.is("^-1")) op = ModelExpr::Op::Inverse;
            else if (!closures) return e;
            else if (t.is("+")) op = ModelExpr::Op::Plus;
            else if (t.is("?")) op = ModelExpr::Op::Opt;
            else if (t.is("*") && !productAhead()) op = ModelExpr::Op::Star;
            else return e;
            const ModelToken opToken = tokens_.next();
            countOperator(opToken);
            e = ModelExpr::of(op, opToken.where, {std::move(e)});
        }
    }

    // f x, f(x, y), f x y: a name applied to its arguments.
    ModelExpr application() {
        const ModelToken t = tokens_.next();
        ModelExpr e = primary(t);
        if (e.op != ModelExpr::Op::Name) return e;
        // An argument on the function's line: a misspelt keyword that starts
        // the next line is not read as one (herd7's files write no other).
        while (startsArgument(tokens_.peek()) && tokens_.peek().where.line == t.where.line) {
            const ModelToken at = tokens_.next();
            countOperator(at);
            const SourceLoc where = e.where;
            ModelExpr argument = at.kind == ModelToken::Kind::Name ? primary(at) : simple(at);
            e = ModelExpr::of(ModelExpr::Op::Apply, where, {std::move(e), std::move(argument)});
        }
        return e;
    }

    static bool startsArgument(const ModelToken& t) { return startsOperand(t) && !t.is("~"); }

    ModelExpr primary(const ModelToken& t) {
        if (t.kind != ModelToken::Kind::Name || t.isWord("begin")) return simple(t);
        // A library may be named as a keyword is (flag:r): the ':' tells.
        if (isKeyword(t.text) && !tokens_.peek().is(":"))
            tokens_.fail(t, "expected a set or relation (a name, '(', '[' or 0)");
        ModelExpr e = ModelExpr::named(t.text, t.where);
        if (tokens_.peek().is(":")) {  // lib:relation
            tokens_.next();
            e.op = ModelExpr::Op::Scope;
            Nesting nesting(*this, t);
            e.args.push_back(application());
        }
        return e;
    }

    // 0, 'tag, {e, ...}, (), (e), begin e end, [e].
    ModelExpr simple(const ModelToken& t) {
        if (t.is("0")) return ModelExpr::of(ModelExpr::Op::Empty, t.where);
        if (t.kind == ModelToken::Kind::Punct && t.text.size() > 1 && t.text[0] == '\'') {
            ModelExpr tag = ModelExpr::of(ModelExpr::Op::Tag, t.where);
            tag.name = t.text;
            return tag;
        }
        Nesting nesting(*this, t);
        if (t.is("{")) {
            ModelExpr set = ModelExpr::of(ModelExpr::Op::ExplicitSet, t.where);
            if (!accept("}")) {
                do set.args.push_back(binary());
                while (accept(","));
                tokens_.expect("}", "to close '{'");
            }
            if (set.args.empty()) set.op = ModelExpr::Op::Empty, set.name = "{}";
            return set;
        }
        if (t.is("(") && accept(")")) return ModelExpr::of(ModelExpr::Op::Tuple, t.where);
        if (t.is("(") || t.is("[") || t.isWord("begin")) {
            ModelExpr inner = expression();
            if (t.isWord("begin")) expectWord("end", "to close 'begin'");
            else tokens_.expect(t.is("(") ? ")" : "]", t.is("(") ? "to close '('" : "to close '['");
            return t.is("[") ? ModelExpr::of(ModelExpr::Op::Filter, t.where, {std::move(inner)}) : inner;
        }
        tokens_.fail(t, "expected a set or relation (a name, '(', '[' or 0)");
    }

    // Bounds the parser's recursion: one level per bracket, prefix and nested expression.
    struct Nesting {
        Nesting(ModelParser& p, const ModelToken& at) : parser(p) {
            if (++parser.depth_ > kMaxNesting)
                throw InputError(at.where, "nested more than " + std::to_string(kMaxNesting) + " deep");
        }
        ~Nesting() { --parser.depth_; }
        ModelParser& parser;
    };

    void countOperator(const ModelToken& at) {
        if (++operators_ > kMaxExpressionOperators * 10)
            throw InputError(at.where, "the model has more than " + std::to_string(kMaxExpressionOperators * 10) +
                                           " operators");
    }

    Tokens tokens_;
    size_t earlierItems_;  // declarations of the files read before this one
    size_t count_ = 0;     // declarations of this file, blocks' included
    int depth_ = 0;
    size_t operators_ = 0;
};

}  // namespace

ParsedModel parseModelText(const std::string& text, const std::string& file, size_t earlierItems) {
    return ModelParser(text, file, earlierItems).run();
}

}  // namespace rdmacheck
