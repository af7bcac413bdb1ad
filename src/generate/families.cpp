// The registry of test families: each family's name, the sizes it takes,
// what it writes without --n (the range the benchmarks' former generator
// wrote, so that one command remakes that suite),
// its slots and variants, and its writer (family_exs.cpp, family_scaling.cpp).
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <stdexcept>

#include "family_writers.hpp"

namespace rdmacheck {

namespace {

struct Range {
    int from, to;
};

struct FamilyDefinition {
    std::string name;
    Range sizes;                     // what --n may be: N, or K readers for the IRIW families
    std::optional<Range> defaults;   // the sizes written without --n; none: --n is required
    std::optional<Range> slots;      // what --s may be, if the family takes it (then it is required)
    bool variants = false;           // takes --variant (exs's)
    std::function<void(int n, int s, const std::string& variant, FamilyOutput&)> write;
};

// A writer of one size only.
auto sized(void (*write)(int, FamilyOutput&)) {
    return [write](int n, int, const std::string&, FamilyOutput& out) { write(n, out); };
}

const std::vector<FamilyDefinition>& families() {
    static const std::vector<FamilyDefinition> all = {
        {"exs", {1, 32}, std::nullopt, Range{1, 32}, true, writeExsRing},
        {"SB-ring", {2, 256}, Range{2, 20}, std::nullopt, false, sized(writeSbRing)},
        {"SB+mfences-ring", {2, 256}, Range{2, 30}, std::nullopt, false, sized(writeSbMfencesRing)},
        {"2+2W-ring", {2, 256}, Range{2, 30}, std::nullopt, false, sized(write22WRing)},
        {"IRIW-ring", {2, 64}, Range{2, 10}, std::nullopt, false, sized(writeIriwRing)},
        {"IRIW-K", {2, 64}, Range{2, 10}, std::nullopt, false, sized(writeIriwK)},
        {"MP-chain", {2, 256}, Range{2, 40}, std::nullopt, false, sized(writeMpChain)},
        {"SBpp-ring", {2, 256}, Range{2, 20}, std::nullopt, false, sized(writeSbppRing)},
        {"SBp-ring", {2, 256}, Range{2, 20}, std::nullopt, false, sized(writeSbpRing)},
        {"SBg-ring", {2, 256}, Range{2, 20}, std::nullopt, false, sized(writeSbgRing)},
    };
    return all;
}

std::string rangeText(Range r) { return std::to_string(r.from) + ".." + std::to_string(r.to); }

const FamilyDefinition& findFamily(const std::string& name) {
    std::string known;
    for (const FamilyDefinition& f : families()) {
        if (f.name == name) return f;
        known += (known.empty() ? "" : ", ") + f.name;
    }
    throw std::invalid_argument("unknown family '" + name + "' (families: " + known + ")");
}

void checkRange(const std::string& option, int value, Range range, const FamilyDefinition& f) {
    if (value < range.from || value > range.to)
        throw std::invalid_argument(option + " " + std::to_string(value) + " is out of range for family " + f.name +
                                    ": " + rangeText(range));
}

std::vector<int> sizesOf(const FamilyDefinition& f, const FamilyParameters& p) {
    if (p.n) {
        checkRange("--n", *p.n, f.sizes, f);
        return {*p.n};
    }
    if (!f.defaults) throw std::invalid_argument("family " + f.name + " needs --n (" + rangeText(f.sizes) + ")");
    std::vector<int> sizes;
    for (int n = f.defaults->from; n <= f.defaults->to; ++n) sizes.push_back(n);
    return sizes;
}

int slotsOf(const FamilyDefinition& f, const FamilyParameters& p) {
    if (!f.slots) {
        if (p.s) throw std::invalid_argument("family " + f.name + " takes no --s");
        return 0;
    }
    if (!p.s) throw std::invalid_argument("family " + f.name + " needs --s (" + rangeText(*f.slots) + ")");
    checkRange("--s", *p.s, *f.slots, f);
    return *p.s;
}

// exs's variants as given (`all`: every one), ok by default; {""} for a family without.
std::vector<std::string> variantsOf(const FamilyDefinition& f, const FamilyParameters& p) {
    if (!f.variants) {
        if (!p.variants.empty()) throw std::invalid_argument("family " + f.name + " has no variants");
        return {""};
    }
    if (p.variants.empty()) return {"ok"};
    std::vector<std::string> chosen;
    for (const std::string& v : p.variants) {
        const std::vector<std::string>& known = exsVariants();
        if (v != "all" && std::find(known.begin(), known.end(), v) == known.end())
            throw std::invalid_argument("unknown variant '" + v + "' of family " + f.name +
                                        " (variants: ok, early-ack, no-credit, flag-first, all)");
        for (const std::string& k : known)  // all: in exsVariants' order; each variant once
            if ((v == "all" || v == k) && std::find(chosen.begin(), chosen.end(), k) == chosen.end())
                chosen.push_back(k);
    }
    return chosen;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace

std::vector<std::string> familyNames() {
    std::vector<std::string> names;
    for (const FamilyDefinition& f : families()) names.push_back(f.name);
    return names;
}

std::string familyHelp() {
    std::string help;
    for (const FamilyDefinition& f : families()) {
        help += (help.empty() ? "" : "; ") + f.name + " (--n " + rangeText(f.sizes);
        if (f.defaults) help += ", " + rangeText(*f.defaults) + " without it";
        if (f.slots) help += ", --s " + rangeText(*f.slots);
        help += ")";
    }
    return help;
}

// Everything is checked before anything is written.
void generateFamily(const std::string& name, const FamilyParameters& parameters, FamilyOutput& out) {
    const FamilyDefinition& f = findFamily(name);
    const std::vector<int> sizes = sizesOf(f, parameters);
    const int s = slotsOf(f, parameters);
    const std::vector<std::string> variants = variantsOf(f, parameters);
    for (int n : sizes)
        for (const std::string& v : variants) f.write(n, s, v, out);
}

std::string expectationsCsv(const std::vector<FamilyExpectation>& expectations) {
    std::string text = "test,model,expect,source,states\n";
    for (const FamilyExpectation& e : expectations)
        text += csvField(e.test) + "," + e.model + "," + e.expect + "," + csvField(e.source) + "," +
                (e.states ? std::to_string(*e.states) : "") + "\n";
    return text;
}

}  // namespace rdmacheck
