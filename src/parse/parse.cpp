#include <fstream>
#include <sstream>

#include "front_ends.hpp"
#include "rdmacheck/parse.hpp"

namespace rdmacheck {

LitmusTest parseLitmus(const std::string& text, const std::string& fileName) {
    Lexer lex(text, fileName);
    const Token& first = lex.peek();
    if (first.isWord("RDMA")) return parseRdma(lex);
    if (first.isWord("X86")) return parseX86(lex);
    lex.failHere("expected 'RDMA' or 'X86' as the first word of a litmus test");
}

LitmusTest parseLitmusFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot open file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parseLitmus(buf.str(), path);
}

}  // namespace rdmacheck
