#include "lexer.hpp"

#include <cctype>
#include <climits>

namespace rdmacheck {

std::string SourceLoc::str() const {
    if (line == 0) return file;  // the file as a whole (cannot open, unknown model)
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

InputError::InputError(SourceLoc where, const std::string& what)
    : std::runtime_error(where.str() + ": error: " + what), where_(std::move(where)), detail_(what) {}

Lexer::Lexer(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {}

SourceLoc Lexer::locAt(size_t offset) const {
    // Tokens are mostly asked for in order: continue from the last answer.
    if (offset < cacheOffset_) {
        cacheOffset_ = 0;
        cacheLine_ = cacheColumn_ = 1;
    }
    for (; cacheOffset_ < offset && cacheOffset_ < text_.size(); ++cacheOffset_) {
        if (text_[cacheOffset_] == '\n') {
            ++cacheLine_;
            cacheColumn_ = 1;
        } else {
            ++cacheColumn_;
        }
    }
    return SourceLoc{file_, cacheLine_, cacheColumn_};
}

void Lexer::skipBlanks() {
    for (;;) {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        if (text_.compare(pos_, 2, "(*") == 0) {
            size_t start = pos_;
            size_t end = text_.find("*)", pos_ + 2);
            if (end == std::string::npos) throw InputError(locAt(start), "unterminated comment '(*'");
            pos_ = end + 2;
        } else if (text_.compare(pos_, 2, "//") == 0) {
            while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        } else {
            return;
        }
    }
}

Token Lexer::scan() {
    skipBlanks();
    Token t;
    t.where = locAt(pos_);
    t.offset = pos_;
    if (pos_ >= text_.size()) return t;
    char c = text_[pos_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t start = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        t.kind = Token::Kind::Ident;
        t.text = text_.substr(start, pos_ - start);
        return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t start = pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        t.kind = Token::Kind::Int;
        t.text = text_.substr(start, pos_ - start);
        if (t.text.size() > 18) throw InputError(t.where, "integer '" + t.text + "' is too large");
        t.value = std::stoll(t.text);
        return t;
    }
    if (c == '"') {
        size_t start = pos_++;
        while (pos_ < text_.size() && text_[pos_] != '"') ++pos_;
        if (pos_ >= text_.size()) throw InputError(locAt(start), "unterminated string");
        t.kind = Token::Kind::String;
        t.text = text_.substr(start + 1, pos_ - start - 1);
        ++pos_;
        return t;
    }
    static const char* const multi[] = {":=", "!=", "/\\", "\\/", "<<", ">>", "~exists"};
    for (const char* m : multi) {
        std::string s(m);
        if (text_.compare(pos_, s.size(), s) == 0) {
            pos_ += s.size();
            t.kind = s == "~exists" ? Token::Kind::Ident : Token::Kind::Punct;
            t.text = s;
            return t;
        }
    }
    static const std::string single = "{}()[];,=^@~+-*|:$.";
    if (single.find(c) != std::string::npos) {
        ++pos_;
        t.kind = Token::Kind::Punct;
        t.text = std::string(1, c);
        return t;
    }
    throw InputError(t.where, std::string("unexpected character '") + c + "'");
}

const Token& Lexer::peek() {
    if (!hasPeek_) {
        peek_ = scan();
        hasPeek_ = true;
    }
    return peek_;
}

Token Lexer::next() {
    Token t = peek();
    hasPeek_ = false;
    return t;
}

static std::string describe(const Token& t) {
    switch (t.kind) {
        case Token::Kind::End: return "end of file";
        case Token::Kind::String: return "string \"" + t.text + "\"";
        default: return "'" + t.text + "'";
    }
}

void Lexer::fail(const Token& at, const std::string& message) const {
    throw InputError(at.where, message + ", found " + describe(at));
}

void Lexer::failHere(const std::string& message) { fail(peek(), message); }

Token Lexer::expect(const char* punct, const char* context) {
    if (!peek().is(punct)) failHere(std::string("expected '") + punct + "' " + context);
    return next();
}

Token Lexer::expectIdent(const char* context) {
    if (peek().kind != Token::Kind::Ident) failHere(std::string("expected a name ") + context);
    return next();
}

long long Lexer::expectInt(const char* context) {
    bool negative = false;
    if (peek().is("-")) {
        next();
        negative = true;
    }
    if (peek().kind != Token::Kind::Int) failHere(std::string("expected an integer ") + context);
    long long v = next().value;
    return negative ? -v : v;
}

size_t Lexer::offset() {
    if (hasPeek_) return peek_.offset;
    skipBlanks();
    return pos_;
}

void Lexer::seek(size_t offset) {
    hasPeek_ = false;
    pos_ = offset;
}

std::string Lexer::restOfLine() {
    size_t start = offset();
    hasPeek_ = false;
    size_t end = text_.find('\n', start);
    if (end == std::string::npos) end = text_.size();
    pos_ = end;
    return text_.substr(start, end - start);
}

}  // namespace rdmacheck
