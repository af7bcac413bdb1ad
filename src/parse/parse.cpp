#include <filesystem>
#include <fstream>
#include <sstream>

#include "front_ends.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck {

std::string readHeader(Lexer& lex, std::string& name) {
    const Token arch = lex.next();
    std::string line = lex.restOfLine();
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) throw InputError(arch.where, "expected the test name after '" + arch.text + "'");
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
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(SourceLoc{path, 0, 0}, "is a directory, not a litmus file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot open file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parseLitmus(buf.str(), path);
}

}  // namespace rdmacheck
