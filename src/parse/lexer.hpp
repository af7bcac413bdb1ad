// Tokens shared by both front ends.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

struct Token {
    enum class Kind { Ident, Int, String, Punct, End };
    Kind kind = Kind::End;
    std::string text;
    long long value = 0;
    size_t offset = 0;  // byte offset of the token's first character
    int line = 0, column = 0;
    const std::string* file = nullptr;  // its lexer's, which outlives the tokens it reads

    // Made when asked: a file name copied into every token cost a fifth of
    // the time to read the 487 x86 tests.
    SourceLoc where() const { return SourceLoc{file ? *file : std::string(), line, column}; }

    bool is(const char* punct) const { return kind == Kind::Punct && text == punct; }
    bool isWord(const char* word) const { return kind == Kind::Ident && text == word; }
};

// On-demand tokenizer with one token of lookahead. Skips blanks, `(* ... *)`
// and `// ...` comments. Positions are 1-based lines and columns.
class Lexer {
public:
    Lexer(const std::string& text, std::string file);
    Lexer(const Lexer&) = delete;  // its tokens point at its file name
    Lexer& operator=(const Lexer&) = delete;

    const Token& peek();
    Token next();
    Token expect(const char* punct, const char* context);
    Token expectIdent(const char* context);
    long long expectInt(const char* context);  // accepts a leading '-'
    int expectNode(const char* context);       // 1..kMaxNode
    [[noreturn]] void fail(const Token& at, const std::string& message) const;
    [[noreturn]] void failHere(const std::string& message);

    // Scopes that nest (blocks, parentheses, `~`): at most kMaxNesting deep.
    class Nesting {
    public:
        Nesting(Lexer& lex, const Token& at);
        ~Nesting() { --lex_.depth_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Lexer& lex_;
    };
    // Operators of the expression being read: at most kMaxExpressionOperators.
    void beginExpression() { operators_ = 0; }
    void countOperator(const Token& at);

    // Line-oriented access for the X86 program table.
    size_t offset();                 // offset of the next unread token
    void seek(size_t offset);
    std::string restOfLine();        // raw text up to end of line, consumed
    SourceLoc locAt(size_t offset) const;
    const std::string& text() const { return text_; }
    const std::string& file() const { return file_; }

private:
    Token scan();
    std::pair<int, int> lineAndColumn(size_t offset) const;  // 1-based
    void skipBlanks();
    void checkText() const;  // valid UTF-8, no NUL byte

    std::string text_;
    std::string file_;
    size_t pos_ = 0;
    bool hasPeek_ = false;
    std::vector<size_t> lineStarts_;  // offset of each line's first byte
    int depth_ = 0;
    int operators_ = 0;
    Token peek_;
};

}  // namespace rdmacheck
