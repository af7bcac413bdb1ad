#include "language.hpp"

#include <cctype>

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
            } else if (text_.compare(pos_, 2, "(*") == 0) {
                const SourceLoc start = here();
                while (pos_ < text_.size() && text_.compare(pos_, 2, "*)") != 0) advance();
                if (pos_ >= text_.size()) throw InputError(start, "comment not closed: expected '*)'");
                advance();
                advance();
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
        } else if (c == '"') {
            t.kind = ModelToken::Kind::String;
            advance();
            while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') t.text += text_[pos_], advance();
            if (pos_ >= text_.size() || text_[pos_] != '"') throw InputError(t.where, "string not closed: expected '\"'");
            advance();
        } else if (text_.compare(pos_, 3, "^-1") == 0) {
            t.kind = ModelToken::Kind::Punct;
            t.text = "^-1";
            for (int i = 0; i < 3; ++i) advance();
        } else if (std::string("|&\\;*+?()[]{}:,=0").find(c) != std::string::npos) {
            t.kind = ModelToken::Kind::Punct;
            t.text = std::string(1, c);
            advance();
        } else {
            throw InputError(t.where, std::string("unexpected character '") + c + "'");
        }
        return t;
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
constexpr Level kLevels[] = {{"|", ModelExpr::Op::Union},
                             {";", ModelExpr::Op::Seq},
                             {"\\", ModelExpr::Op::Diff},
                             {"&", ModelExpr::Op::Inter},
                             {"*", ModelExpr::Op::Product}};
constexpr size_t kLevelCount = sizeof(kLevels) / sizeof(kLevels[0]);

const char* const kDeclarations = "let, include, table, stamps, events, libraries, acyclic, irreflexive, empty";

class ModelParser {
public:
    ModelParser(const std::string& text, const std::string& file, size_t earlierItems)
        : tokens_(text, file), earlierItems_(earlierItems) {}

    ParsedModel run() {
        ParsedModel model;
        if (tokens_.peek().kind == ModelToken::Kind::String) model.description = tokens_.next().text;
        while (tokens_.peek().kind != ModelToken::Kind::End) {
            if (earlierItems_ + model.items.size() == kMaxModelItems)
                throw InputError(tokens_.peek().where, "the model has more than " + std::to_string(kMaxModelItems) +
                                                           " declarations (with its includes)");
            model.items.push_back(item());
        }
        return model;
    }

private:
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
            do {
                const ModelToken n = tokens_.expectName("in the list");
                it.names.emplace_back(n.text, n.where);
            } while (accept(","));
            return it;
        }
        if (t.isWord("acyclic") || t.isWord("irreflexive") || t.isWord("empty")) return axiom(it);
        tokens_.fail(t, std::string("expected a declaration (") + kDeclarations + ")");
    }

    ModelItem let(ModelItem it) {
        tokens_.next();
        if (tokens_.peek().isWord("rec"))
            throw InputError(tokens_.peek().where, "'let rec' is not supported: a definition may use only "
                                                   "earlier ones (write the fixed point out, as models/README.md shows)");
        it.kind = ModelItem::Kind::Let;
        it.name = tokens_.expectName("after let").text;
        tokens_.expect("=", "after the defined name");
        it.expr = expression();
        return it;
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

    ModelItem axiom(ModelItem it) {
        const std::string word = tokens_.next().text;
        it.kind = ModelItem::Kind::Axiom;
        it.axiom = word == "acyclic" ? Axiom::Kind::Acyclic
                   : word == "irreflexive" ? Axiom::Kind::Irreflexive : Axiom::Kind::Empty;
        it.expr = expression();
        if (accept("as")) it.name = tokens_.expectName("after as").text;
        return it;
    }

    bool accept(const char* what) {
        const ModelToken& t = tokens_.peek();
        if (!(t.is(what) || t.isWord(what))) return false;
        tokens_.next();
        return true;
    }

    ModelExpr expression(size_t level = 0) {
        if (level == kLevelCount) return postfix();
        ModelExpr left = expression(level + 1);
        while (tokens_.peek().is(kLevels[level].punct) && (kLevels[level].op != ModelExpr::Op::Product || productAhead())) {
            const ModelToken op = tokens_.next();
            countOperator(op);
            ModelExpr e;
            e.op = kLevels[level].op;
            e.where = op.where;
            e.args.push_back(std::move(left));
            e.args.push_back(expression(level + 1));
            left = std::move(e);
        }
        return left;
    }

    // `*` followed by an operand is a product; otherwise it is the postfix closure.
    bool productAhead() const {
        const ModelToken& after = tokens_.peek(1);
        if (after.kind == ModelToken::Kind::Name) return !isKeyword(after.text);
        return after.is("(") || after.is("[") || after.is("0");
    }

    static bool isKeyword(const std::string& word) {
        for (const char* k : {"as", "let", "include", "table", "stamps", "events", "libraries", "acyclic",
                              "irreflexive", "empty"})
            if (word == k) return true;
        return false;
    }

    ModelExpr postfix() {
        ModelExpr e = primary();
        for (;;) {
            const ModelToken& t = tokens_.peek();
            ModelExpr::Op op;
            if (t.is("^-1")) op = ModelExpr::Op::Inverse;
            else if (t.is("+")) op = ModelExpr::Op::Plus;
            else if (t.is("?")) op = ModelExpr::Op::Opt;
            else if (t.is("*") && !productAhead()) op = ModelExpr::Op::Star;
            else return e;
            const ModelToken opToken = tokens_.next();
            countOperator(opToken);
            ModelExpr wrapped;
            wrapped.op = op;
            wrapped.where = opToken.where;
            wrapped.args.push_back(std::move(e));
            e = std::move(wrapped);
        }
    }

    ModelExpr primary() {
        const ModelToken t = tokens_.next();
        ModelExpr e;
        e.where = t.where;
        if (t.is("0")) {
            e.op = ModelExpr::Op::Empty;
        } else if (t.is("(") || t.is("[")) {
            nest(t);
            ModelExpr inner = expression();
            --depth_;
            tokens_.expect(t.is("(") ? ")" : "]", t.is("(") ? "to close '('" : "to close '['");
            if (t.is("(")) return inner;
            e.op = ModelExpr::Op::Filter;
            e.args.push_back(std::move(inner));
        } else if (t.kind == ModelToken::Kind::Name) {
            e.name = t.text;
            if (tokens_.peek().is(":")) {  // lib:relation
                tokens_.next();
                e.op = ModelExpr::Op::Scope;
                nest(t);
                e.args.push_back(primary());
                --depth_;
            }
        } else {
            tokens_.fail(t, "expected a set or relation (a name, '(', '[' or 0)");
        }
        return e;
    }

    void nest(const ModelToken& at) {
        if (++depth_ > kMaxNesting)
            throw InputError(at.where, "nested more than " + std::to_string(kMaxNesting) + " deep");
    }
    void countOperator(const ModelToken& at) {
        if (++operators_ > kMaxExpressionOperators * 10)
            throw InputError(at.where, "the model has more than " + std::to_string(kMaxExpressionOperators * 10) +
                                           " operators");
    }

    Tokens tokens_;
    size_t earlierItems_;  // declarations of the files read before this one
    int depth_ = 0;
    size_t operators_ = 0;
};

}  // namespace

ParsedModel parseModelText(const std::string& text, const std::string& file, size_t earlierItems) {
    return ModelParser(text, file, earlierItems).run();
}

}  // namespace rdmacheck
