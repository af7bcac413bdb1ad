// The values of herd7's X86 init block and condition: 32-bit numbers as
// herd7 reads them, and a location's name, its address (`0:EAX=x`, `y=x`,
// `exists (0:EBX=x)`; ast.hpp's kAddressBase). rdmacheck moves addresses
// through registers and memory and compares them in conditions; it computes
// nothing with them (herd7 prints `x+1`).
#pragma once

#include <string>
#include <vector>

#include "lexer.hpp"
#include "rdmacheck/ast.hpp"

namespace rdmacheck {

// A value of the init block or of a condition, as herd7 reads them
// (Int32.of_string): a decimal 32-bit integer, or hexadecimal `0x...` up
// to 0xffffffff, two's complement above 0x7fffffff; it stops on any other
// (where an immediate of the code wraps, and has no hexadecimal).
// `written`: the value as written, which herd7's Hash reads (0x10 is not 16 there).
long long readX86Value(Lexer& lex, const char* context, std::string* written = nullptr);

// The names met as values while reading a test, each with a value of its own
// in the order met; finish() sorts them, as the values are to be.
class AddressNames {
public:
    long long valueOf(const std::string& name);
    // test.addresses, and every value of the init block and of the
    // conditions renumbered into it.
    void finish(LitmusTest& test) const;

private:
    std::vector<std::string> names_;
};

// A register read through (`[EAX]`), as the location the init block points it at.
struct ReadThrough {
    int thread;
    std::string reg;
    SourceLoc where;
};
// InputError at the first read through a register that its thread also
// writes: the location read would follow the value written (herd7 reads
// through the value the register holds then, and stops on a number).
void refuseReadsThroughWritten(const LitmusTest& test, const std::vector<ReadThrough>& reads);

// InputError at the first instruction that computes with a value that may be
// an address (an arithmetic one, or CMP's comparisons): what may hold one
// follows the moves between registers and memory, wherever they stand.
void refuseArithmeticOnAddresses(const LitmusTest& test);

// `s` in capitals: herd7's X86 reads MOV and mov alike.
std::string upper(std::string s);

// The code's names and immediates, as herd7's X86 lexer reads them:
// InputError for a location named as an instruction (`mov`, `MOV`) or from
// something but a letter (`_x`).
void refuseX86Keyword(const Token& name);
// An immediate, `$1`, `$-1`, `1` or `-1`, its parts written together.
long long readX86Immediate(Lexer& lex);
// The type of an init entry (`int x=0`, `char x=1`), which herd7's hash
// reads; "" when the entry has none. InputError for a type rdmacheck does not read.
std::string readX86InitType(Lexer& lex);
// 8 or 16 for herd7's narrow types (char, short, int8_t ... uint16_t), else 0.
int narrowBits(const std::string& type);
// herd7 cuts each value written to a location of a narrow type to that
// type: InputError, where a test has such a type, for an initial value (in
// `init`, with its place), a constant or a condition's value for a narrow name
// outside 0 to the narrowest type's largest value, and for an instruction that computes.
void refuseNarrowValuesUnlikeHerd(const LitmusTest& test, const std::vector<std::pair<long long, SourceLoc>>& init);

}  // namespace rdmacheck
