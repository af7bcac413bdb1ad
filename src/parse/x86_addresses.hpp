// herd7's X86 takes a location's name as a value, its address (`0:EAX=x`,
// `y=x`, `exists (0:EBX=x)`; ast.hpp's kAddressBase). rdmacheck moves such
// values through registers and memory and compares them in conditions; it
// computes nothing with them (herd7 prints `x+1`).
#pragma once

#include <string>
#include <vector>

#include "rdmacheck/ast.hpp"

namespace rdmacheck {

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

// InputError at the first instruction that computes with a value that may be
// an address (an arithmetic one, or CMP's comparisons): what may hold one
// follows the moves between registers and memory, wherever they stand.
void refuseArithmeticOnAddresses(const LitmusTest& test);

}  // namespace rdmacheck
