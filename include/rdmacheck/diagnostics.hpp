// Source positions and the one error type every bad input turns into.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdmacheck {

struct SourceLoc {
    std::string file;
    int line = 0;
    int column = 0;

    std::string str() const;
};

// A problem with the user's input (test file, options, model file). The message
// is printed as "file:line:column: error: what" and the tool exits with code 2;
// the file and the message are kept printable (below).
class InputError : public std::runtime_error {
public:
    InputError(SourceLoc where, const std::string& what);
    const SourceLoc& where() const { return where_; }
    const std::string& detail() const { return detail_; }

private:
    SourceLoc where_;
    std::string detail_;
};

// `text` as a message may quote it: control characters (NUL and newline
// included), DEL and bytes that are not UTF-8 become \xNN, so that a message
// shows every byte of the input it quotes, is never cut at a NUL and writes no
// raw bytes to the terminal. Every message that quotes input goes through it.
std::string printable(const std::string& text);
// Refuses a file that is not the input it should be (a herd7 log, a suite's
// index) with std::invalid_argument: `message` quotes its path and lines,
// printable, so never cut at a NUL.
[[noreturn]] void refuse(const std::string& message);

// The parts with `separator` between them, for lists in messages and reports.
std::string joined(const std::vector<std::string>& parts, const std::string& separator = ", ");
// "1 candidate", "3 candidates": n and the noun, plural unless n is 1.
std::string counted(uint64_t n, const std::string& noun);

// " (did you mean 'x'?)" for the choice closest to a misspelt `word` (at most
// a third of its letters differ), or "" when none is close.
std::string didYouMean(const std::string& word, const std::vector<std::string>& choices);

}  // namespace rdmacheck
