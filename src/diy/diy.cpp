#include "rdmacheck/diy.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <sstream>
#include <unordered_set>

#include "cycle.hpp"
#include "rdma.hpp"

namespace rdmacheck {

namespace {

std::vector<DiyEdge> makeX86Edges() {
    std::vector<DiyEdge> out;
    const char dirs[] = {'W', 'R'};
    for (const char* po : {"Po", "MFence"})
        for (char loc : {'s', 'd'})
            for (char a : dirs)
                for (char b : dirs)
                    out.push_back({std::string(po) + loc + a + b, po[0] == 'P' ? DiyEdge::Kind::Po : DiyEdge::Kind::Fence,
                                   false, loc == 's', a, b, "", ""});
    for (const DiyEdge& e : diy::communicationEdges()) out.push_back(e);
    out.push_back({"Rmw", DiyEdge::Kind::Rmw, false, true, 'R', 'W', "", ""});
    return out;
}

const char* const kRegisters[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI"};

// herd7's layout: " P0 | P1 ;" with each column as wide as its longest line.
std::string columns(const std::vector<std::vector<std::string>>& code) {
    size_t rows = 0;
    std::vector<size_t> width(code.size());
    for (size_t t = 0; t < code.size(); ++t) {
        width[t] = ("P" + std::to_string(t)).size();
        for (const std::string& line : code[t]) width[t] = std::max(width[t], line.size());
        rows = std::max(rows, code[t].size());
    }
    std::string out;
    for (size_t row = 0; row <= rows; ++row) {
        for (size_t t = 0; t < code.size(); ++t) {
            std::string cell = row == 0 ? "P" + std::to_string(t) : row - 1 < code[t].size() ? code[t][row - 1] : "";
            out += " " + cell + std::string(width[t] - cell.size(), ' ') + " " + (t + 1 < code.size() ? "|" : ";");
        }
        out += "\n";
    }
    return out;
}

// The X86 test of a shape: each thread's instructions, and the condition's atoms.
std::string x86Text(const diy::CycleShape& shape, const std::string& name) {
    std::vector<std::vector<std::string>> code(shape.threads());
    std::vector<int> registers(shape.threads(), 0);
    std::vector<std::string> registerAtoms;
    for (size_t i = 0; i < shape.size(); ++i) {
        const diy::CycleEvent& e = shape.event(i);
        std::vector<std::string>& out = code[e.thread];
        const std::string loc = "[" + diy::locationName(e.location) + "]";
        if (shape.edge(i - 1).kind == DiyEdge::Kind::Fence) out.push_back("MFENCE");
        if (shape.edge(i - 1).kind == DiyEdge::Kind::Rmw) continue;  // the XCHG's write, made with its read
        if (e.dir == 'W') {
            out.push_back("MOV " + loc + ",$" + std::to_string(e.value));
            continue;
        }
        const std::string reg = kRegisters[registers[e.thread]++ % 6];
        if (shape.edge(i).kind == DiyEdge::Kind::Rmw) {
            out.push_back("MOV " + reg + ",$" + std::to_string(shape.event(i + 1).value));
            out.push_back("XCHG " + loc + "," + reg);
        } else {
            out.push_back("MOV " + reg + "," + loc);
        }
        if (e.value >= 0) registerAtoms.push_back(std::to_string(e.thread) + ":" + reg + "=" + std::to_string(e.value));
    }
    std::vector<std::string> atoms;
    for (const auto& [location, value] : shape.finals())
        atoms.push_back(diy::locationName(location) + "=" + std::to_string(value));
    std::sort(atoms.begin(), atoms.end());
    atoms.insert(atoms.end(), registerAtoms.begin(), registerAtoms.end());
    std::ostringstream s;
    s << "X86 " << name << "\n\"" << shape.edgeList() << "\"\nCycle=" << shape.edgeList() << "\n{\n}\n" << columns(code);
    s << "exists (";
    for (size_t a = 0; a < atoms.size(); ++a) s << (a ? " /\\ " : "") << atoms[a];
    s << ")\n";
    return s.str();
}

using Kind = DiyEdge::Kind;

// An instruction's two halves: an XCHG's or CAS's read and write, a put's, a get's.
bool isHalves(const DiyEdge& e) { return e.kind == Kind::Rmw || e.kind == Kind::Put || e.kind == Kind::Get; }
bool isProgramOrder(const DiyEdge& e, bool sameLocation) { return e.kind == Kind::Po && e.sameLocation == sameLocation; }
bool isCommunication(const DiyEdge& e) { return e.kind == Kind::Rf || e.kind == Kind::Fr || e.kind == Kind::Ws; }
// diy7's internal edges that keep the location: Wsi, Rfi, Fri, Pos but PosRR.
bool keepsLocation(const DiyEdge& e) {
    return isCommunication(e) || (isProgramOrder(e, true) && !(e.from == 'R' && e.to == 'R'));
}
// A write the next event reads: Rfi, PosWR.
bool feedsNext(const DiyEdge& e) { return e.kind == Kind::Rf || (isProgramOrder(e, true) && e.from == 'W' && e.to == 'R'); }

// Whether `next` may follow `e` in a cycle of `mode`: diy7's gen/alt.ml,
// choice_default and choice_critical, over these edges.
bool composes(DiyMode mode, const DiyEdge& e, const DiyEdge& next) {
    if (mode == DiyMode::Free || isHalves(e) || isHalves(next)) return true;
    if (mode == DiyMode::Critical)
        return e.external != next.external || ((e.kind == Kind::Ws || e.kind == Kind::Fr) && next.kind == Kind::Rf);
    if (e.external || next.external) return true;
    return (keepsLocation(e) && isProgramOrder(next, false)) || (isProgramOrder(e, false) && keepsLocation(next)) ||
           (feedsNext(e) && isProgramOrder(next, true)) || (isProgramOrder(e, true) && feedsNext(next));
}

}  // namespace

bool joins(const DiyEdge& e, const DiyEdge& next) {
    return e.to == next.from && (e.toEvent.empty() || next.fromEvent.empty() || e.toEvent == next.fromEvent);
}

const std::vector<DiyEdge>& diyEdges(DiyArch arch) {
    static const std::vector<DiyEdge> x86 = makeX86Edges(), rdma = diy::rdmaEdges();
    return arch == DiyArch::X86 ? x86 : rdma;
}

const std::vector<std::string>& rdmaMemoryKinds() {
    static const std::vector<std::string> kinds{"lR", "lW", "nlR", "nrW", "nrR", "nlW"};
    return kinds;
}

const std::vector<RdmaSeparator>& rdmaSeparators() {
    static const std::vector<RdmaSeparator> separators{{"F", "MFence"}, {"P", "Poll"}, {"nF", "Rfence"}};
    return separators;
}

const std::vector<std::string>& rdmaSeparatorKinds() {
    static const std::vector<std::string> kinds = [] {
        std::vector<std::string> out;
        for (const RdmaSeparator& s : rdmaSeparators()) out.push_back(s.kind);
        return out;
    }();
    return kinds;
}

std::optional<DiyEdge> findDiyEdge(DiyArch arch, const std::string& name) {
    // diy7 reads Coe and Coi for Wse and Wsi
    const std::string known = name == "Coe" ? "Wse" : name == "Coi" ? "Wsi" : name;
    for (const DiyEdge& e : diyEdges(arch))
        if (e.name == known) return e;
    return arch == DiyArch::RDMA ? diy::edgeBeyondPool(name) : std::nullopt;
}

std::optional<DiyTest> diyTest(DiyArch arch, const std::vector<DiyEdge>& cycle, std::string& why) {
    if (cycle.empty()) {
        why = "no edges";
        return std::nullopt;
    }
    if (arch == DiyArch::RDMA) return diy::rdmaTest(cycle, why);
    diy::CycleShape shape;
    if (!shape.build(cycle, why)) return std::nullopt;
    const std::string name = shape.name(diy::diy7Word);
    return DiyTest{name, shape.edgeList(), x86Text(shape, name), shape.size()};
}

std::vector<DiyTest> diyTests(DiyArch arch, const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax,
                              int size, DiyMode mode, DiyCount& count) {
    std::vector<DiyTest> out;
    forEachDiyTest(arch, edges, relax, size, mode, count, [&](DiyTest&& test) { out.push_back(std::move(test)); });
    return out;
}

namespace {

// Two 64-bit hashes of a text: a test's program and condition, kept for
// millions of tests (a set of the texts took 7.7 GB at RDMA's size 5).
std::pair<uint64_t, uint64_t> fingerprint(const std::string& text) {
    uint64_t fnv = 1469598103934665603ull;
    for (unsigned char c : text) fnv = (fnv ^ c) * 1099511628211ull;
    return {fnv, std::hash<std::string>{}(text)};
}

// A test's text after its name's and its cycle's lines.
std::string programAndCondition(const std::string& text) {
    return text.substr(text.find('\n', text.find('\n') + 1));
}

struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& p) const { return p.first ^ (p.second * 31); }
};

}  // namespace

void forEachDiyTest(DiyArch arch, const std::vector<DiyEdge>& edges, const std::vector<DiyEdge>& relax, int size,
                    DiyMode mode, DiyCount& count, const std::function<void(DiyTest&&)>& visit) {
    std::vector<DiyEdge> pool = edges;
    for (const DiyEdge& r : relax)
        if (std::none_of(pool.begin(), pool.end(), [&](const DiyEdge& e) { return e.name == r.name; })) pool.push_back(r);
    std::unordered_set<std::pair<uint64_t, uint64_t>, PairHash> written;
    std::vector<size_t> chosen;
    // A sequence is kept in its least rotation only, so each cycle once.
    auto leastRotation = [&] {
        for (size_t r = 1; r < chosen.size(); ++r)
            if (std::lexicographical_compare(chosen.begin() + r, chosen.end(), chosen.begin(), chosen.end() - r) ||
                (std::equal(chosen.begin() + r, chosen.end(), chosen.begin()) &&
                 std::lexicographical_compare(chosen.begin(), chosen.begin() + r, chosen.end() - r, chosen.end())))
                return false;
        return true;
    };
    auto isRelaxed = [&](const DiyEdge& e) {
        return std::any_of(relax.begin(), relax.end(), [&](const DiyEdge& r) { return r.name == e.name; });
    };
    auto follows = [&](size_t e, size_t next) { return joins(pool[e], pool[next]) && composes(mode, pool[e], pool[next]); };
    std::function<void()> extend = [&] {
        if (!chosen.empty() && follows(chosen.back(), chosen.front()) && leastRotation()) {
            ++count.cycles;
            std::vector<DiyEdge> cycle;
            for (size_t i : chosen) cycle.push_back(pool[i]);
            std::string why;
            if (relax.empty() || std::any_of(cycle.begin(), cycle.end(), isRelaxed))
                if (std::optional<DiyTest> test = diyTest(arch, cycle, why)) {
                    if (arch == DiyArch::RDMA && !written.insert(fingerprint(programAndCondition(test->text))).second)
                        ++count.repeats;
                    else
                        visit(std::move(*test));
                }
        }
        if (static_cast<int>(chosen.size()) == size) return;
        for (size_t e = 0; e < pool.size(); ++e) {
            if (!chosen.empty() && !follows(chosen.back(), e)) continue;
            if (!chosen.empty() && e < chosen.front()) continue;  // the least edge first
            chosen.push_back(e);
            extend();
            chosen.pop_back();
        }
    };
    extend();
}

}  // namespace rdmacheck
