#include <filesystem>

#include "front_ends.hpp"
#include "rdmacheck/parse.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

std::string readHeader(Lexer& lex, std::string& name) {
    const Token arch = lex.next();
    std::string line = lex.restOfLine();
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) throw InputError(arch.where(), "expected the test name after '" + arch.text + "'");
    size_t e = line.find_first_of(" \t\r", b);
    name = line.substr(b, e == std::string::npos ? std::string::npos : e - b);
    return line;
}

LitmusTest parseLitmus(const std::string& text, const std::string& fileName) {
    Lexer lex(text, fileName);
    const Token& first = lex.peek();
    if (first.isWord("RDMA")) return parseRdma(lex);
    if (first.isWord("X86")) return parseX86(lex);
    lex.failHere("expected 'RDMA' or 'X86' as the first word of a litmus test");
}

LitmusTest parseLitmusFile(const std::string& path) {
    std::string text;
    try {
        text = readTextFile(path, "litmus test");
    } catch (const InputError&) {
        std::error_code ignored;
        if (std::filesystem::is_directory(path, ignored))  // a herd7 user may pass a suite's folder
            throw InputError(SourceLoc{path, 0, 0}, "is a directory, not a litmus test; 'rdmacheck run " + path +
                                                        "' checks every test under it");
        throw;
    }
    return parseLitmus(text, path);
}

}  // namespace rdmacheck
