#include "lexer.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <vector>

#include "rdmacheck/limits.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

std::string SourceLoc::str() const {
    if (line == 0) return printable(file);  // the file as a whole (cannot open, unknown model)
    return printable(file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

InputError::InputError(SourceLoc where, const std::string& what)
    : std::runtime_error(where.str() + ": error: " + printable(what)), where_(std::move(where)), detail_(printable(what)) {}

namespace {

std::string hexByte(char c) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%02X", static_cast<unsigned char>(c));
    return hex;
}

}  // namespace

std::string printable(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8Length(text, i);
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (n == 0 || c < 0x20 || c == 0x7F) {
            out += "\\x" + hexByte(text[i]);
            ++i;
        } else {
            out.append(text, i, n);
            i += n;
        }
    }
    return out;
}

void refuse(const std::string& message) { throw std::invalid_argument(printable(message)); }


namespace {

// Edits (insert, delete, replace, swap two neighbours) from a to b.
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
    return out;
}

std::string counted(uint64_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& choices) {
    const std::string* best = nullptr;
    size_t bestDistance = word.size() / 3 + 1;
    for (const std::string& c : choices) {
        const size_t d = editDistance(word, c);
        if (d < bestDistance && d > 0) best = &c, bestDistance = d;
    }
    return best ? " (did you mean '" + *best + "'?)" : "";
}

Lexer::Lexer(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') lineStarts_.push_back(i + 1);
    checkText();
}

std::pair<int, int> Lexer::lineAndColumn(size_t offset) const {
    const size_t line = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset) - lineStarts_.begin();
    return {static_cast<int>(line), static_cast<int>(offset - lineStarts_[line - 1] + 1)};
}

SourceLoc Lexer::locAt(size_t offset) const {
    const auto [line, column] = lineAndColumn(offset);
    return SourceLoc{file_, line, column};
}

void Lexer::checkText() const { checkUtf8Text(text_, file_, "litmus test"); }

Lexer::Nesting::Nesting(Lexer& lex, const Token& at) : lex_(lex) {
    if (++lex_.depth_ > kMaxNesting) {
        --lex_.depth_;
        throw InputError(at.where(), "nested more than " + std::to_string(kMaxNesting) +
                                       " deep (blocks, parentheses and '~' count)");
    }
}

void Lexer::countOperator(const Token& at) {
    if (++operators_ > kMaxExpressionOperators)
        throw InputError(at.where(), "expression with more than " + std::to_string(kMaxExpressionOperators) +
                                       " operators; split it with intermediate locations");
}

void Lexer::skipBlanks() {
    for (;;) {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        const auto startsWith = [&](char a, char b) {
            return pos_ + 1 < text_.size() && text_[pos_] == a && text_[pos_ + 1] == b;
        };
        if (startsWith('(', '*')) {
            size_t start = pos_;
            const size_t end = commentEnd(text_, start);
            if (end == std::string::npos) throw InputError(locAt(start), "unterminated comment '(*'");
            pos_ = end;
        } else if (startsWith('/', '/')) {
            while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        } else {
            return;
        }
    }
}

Token Lexer::scan() {
    skipBlanks();
    Token t;
    t.offset = pos_;
    std::tie(t.line, t.column) = lineAndColumn(pos_);
    t.file = &file_;
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
        for (char d : t.text) {
            const long long digit = d - '0';
            if (t.value > (LLONG_MAX - digit) / 10)
                throw InputError(t.where(), "integer '" + (t.text.size() > 40 ? t.text.substr(0, 40) + "..." : t.text) +
                                              "' does not fit in 64 bits (at most " + std::to_string(LLONG_MAX) + ")");
            t.value = t.value * 10 + digit;
        }
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
    static constexpr std::string_view multi[] = {":=", "==", "!=", "<>", "<=", ">=",
                                                 "=>", "/\\", "\\/", "<<", ">>", "~exists"};
    const std::string_view rest = std::string_view(text_).substr(pos_);
    for (const std::string_view m : multi) {
        if (m[0] == c && rest.substr(0, m.size()) == m) {
            pos_ += m.size();
            t.kind = m == "~exists" ? Token::Kind::Ident : Token::Kind::Punct;
            t.text = m;
            return t;
        }
    }
    static constexpr std::string_view single = "{}()[];,=<>^@~+-*%|:$.&";
    if (single.find(c) != std::string_view::npos) {
        ++pos_;
        t.kind = Token::Kind::Punct;
        t.text = std::string(1, c);
        return t;
    }
    throw InputError(t.where(), std::string("unexpected character '") + c + "'");
}

const Token& Lexer::peek() {
    if (!hasPeek_) {
        peek_ = scan();
        hasPeek_ = true;
    }
    return peek_;
}

Token Lexer::next() {
    peek();
    hasPeek_ = false;
    return std::move(peek_);
}

static std::string describe(const Token& t) {
    switch (t.kind) {
        case Token::Kind::End: return "end of file";
        case Token::Kind::String: return "string \"" + t.text + "\"";
        default: return "'" + t.text + "'";
    }
}

void Lexer::fail(const Token& at, const std::string& message) const {
    throw InputError(at.where(), message + ", found " + describe(at));
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

int Lexer::expectNode(const char* context) {
    const Token tok = peek();
    if (tok.kind != Token::Kind::Int) failHere(std::string("expected a node number") + (*context ? " " : "") + context);
    next();
    if (tok.value < 1 || tok.value > kMaxNode)
        throw InputError(tok.where(), "node numbers are 1 to " + std::to_string(kMaxNode) + ", not " + tok.text);
    return static_cast<int>(tok.value);
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
