// The scaling families of doc/performance.md: x86 tests in herd7's syntax
// (threads in columns) and RDMA rings of nodes, each with its verdict and why.
#include <algorithm>
#include <string>
#include <vector>

#include "family_writers.hpp"

namespace rdmacheck {

namespace {

std::string x(int i) { return "x" + std::to_string(i); }

Lines ringLocations(int n) {
    Lines locations;
    for (int i = 0; i < n; ++i) locations.push_back(x(i));
    return locations;
}

// herd7's column layout: a row per instruction, each thread's column padded to
// its widest cell, `|` between columns, ` ;` at the end of each row.
std::string x86Text(const std::string& name, const Lines& locations, std::vector<Lines> threads,
                    const Lines& condition) {
    size_t rows = 0;
    for (const Lines& t : threads) rows = std::max(rows, t.size());
    std::vector<size_t> width;
    for (size_t i = 0; i < threads.size(); ++i) {
        threads[i].insert(threads[i].begin(), "P" + std::to_string(i));
        threads[i].resize(rows + 1);
        size_t w = 0;
        for (const std::string& cell : threads[i]) w = std::max(w, cell.size());
        width.push_back(w);
    }
    Lines declared;
    for (const std::string& l : locations) declared.push_back(l + "=0;");
    std::string text = "X86 " + name + "\n{ " + joined(declared, " ") + " }\n";
    for (size_t r = 0; r <= rows; ++r) {
        Lines cells;
        for (size_t i = 0; i < threads.size(); ++i)
            cells.push_back(threads[i][r] + std::string(width[i] - threads[i][r].size(), ' '));
        text += " " + joined(cells, " | ") + " ;\n";
    }
    return text + "exists (" + joined(condition, " /\\ ") + ")\n";
}

void addTest(const std::string& name, std::string text, const std::string& model, const std::string& expect,
             const std::string& source, FamilyOutput& out) {
    out.tests.push_back({name + ".litmus", std::move(text)});
    out.expectations.push_back({name + ".litmus", model, expect, source, std::nullopt});
}

// An x86 test (`exists` of all the condition's atoms), under tso.
void addX86Test(const std::string& name, const Lines& locations, const std::vector<Lines>& threads,
                const Lines& condition, const std::string& expect, const std::string& source, FamilyOutput& out) {
    addTest(name, x86Text(name, locations, threads, condition), "tso", expect, source, out);
}

void writeSb(int n, bool fenced, FamilyOutput& out) {
    std::vector<Lines> threads;
    Lines condition;
    for (int i = 0; i < n; ++i) {
        threads.push_back({"MOV [" + x(i) + "],$1"});
        if (fenced) threads.back().push_back("MFENCE");
        threads.back().push_back("MOV EAX,[" + x((i + 1) % n) + "]");
        condition.push_back(std::to_string(i) + ":EAX=0");
    }
    const std::string name = std::string(fenced ? "SB+mfences" : "SB") + "-ring" + std::to_string(n);
    addX86Test(name, ringLocations(n), threads, condition, fenced ? "No" : "Ok",
               fenced ? "RDMA^TSO paper Fig. 1b around a ring: each MFENCE orders its write before its read, so "
                        "reads of 0 everywhere close a cycle of po and fr through every thread"
                      : "RDMA^TSO paper Fig. 1a around a ring: x86-TSO lets every write wait in its store buffer "
                        "until every read is done",
               out);
}

// The IRIW condition of a reader: it saw the first write, not the second.
std::string readsOnce(int thread) {
    return std::to_string(thread) + ":EAX=1 /\\ " + std::to_string(thread) + ":EBX=0";
}

}  // namespace

void writeSbRing(int n, FamilyOutput& out) { writeSb(n, false, out); }
void writeSbMfencesRing(int n, FamilyOutput& out) { writeSb(n, true, out); }

void write22WRing(int n, FamilyOutput& out) {
    std::vector<Lines> threads;
    Lines condition;
    for (int i = 0; i < n; ++i) {
        threads.push_back({"MOV [" + x(i) + "],$2", "MOV [" + x((i + 1) % n) + "],$1"});
        condition.push_back("[" + x(i) + "]=2");
    }
    const std::string name = "2+2W-ring" + std::to_string(n);
    addX86Test(name, ringLocations(n), threads, condition, "No",
               "x86-TSO keeps the order of writes: x_i = 2 everywhere puts each thread's second write co-before "
               "the next thread's first, a cycle of po and co",
               out);
}

void writeIriwRing(int k, FamilyOutput& out) {
    std::vector<Lines> threads;
    Lines condition;
    for (int i = 0; i < k; ++i) threads.push_back({"MOV [" + x(i) + "],$1"});
    for (int i = 0; i < k; ++i) {
        threads.push_back({"MOV EAX,[" + x(i) + "]", "MOV EBX,[" + x((i + 1) % k) + "]"});
        condition.push_back(readsOnce(k + i));
    }
    const std::string name = "IRIW-ring" + std::to_string(k);
    addX86Test(name, ringLocations(k), threads, condition, "No",
               "x86-TSO is multi-copy atomic and keeps the order of reads: reader i seeing x_i's write but not "
               "x_i+1's closes a cycle of rfe, po and fr through every reader",
               out);
}

void writeIriwK(int k, FamilyOutput& out) {
    std::vector<Lines> threads = {{"MOV [x],$1"}, {"MOV [y],$1"}};
    Lines condition;
    for (int j = 0; j < k; ++j) {
        const std::string a = j % 2 == 0 ? "x" : "y", b = j % 2 == 0 ? "y" : "x";
        threads.push_back({"MOV EAX,[" + a + "]", "MOV EBX,[" + b + "]"});
        condition.push_back(readsOnce(2 + j));
    }
    const std::string name = "IRIW-K" + std::to_string(k);
    addX86Test(name, {"x", "y"}, threads, condition, "No",
               "IRIW: x86-TSO is multi-copy atomic, so readers 0 and 1 cannot see the two writes in opposite "
               "orders (a cycle of rfe, po and fr)",
               out);
}

void writeMpChain(int n, FamilyOutput& out) {
    std::vector<Lines> threads = {{"MOV [x0],$1", "MOV [x1],$1"}};
    Lines condition;
    for (int i = 1; i < n - 1; ++i) threads.push_back({"MOV EAX,[" + x(i) + "]", "MOV [" + x(i + 1) + "],$1"});
    threads.push_back({"MOV EAX,[" + x(n - 1) + "]", "MOV EBX,[x0]"});
    for (int i = 1; i < n; ++i) condition.push_back(std::to_string(i) + ":EAX=1");
    condition.push_back(std::to_string(n - 1) + ":EBX=0");
    const std::string name = "MP-chain" + std::to_string(n);
    addX86Test(name, ringLocations(n), threads, condition, "No",
               "x86-TSO keeps W->W, R->W and R->R order: the chain's po and rfe edges, then the last read's fr to "
               "the write of x0, close a cycle",
               out);
}

namespace {

// Node i (1..n) holds x_i and runs P{i-1}, which puts 1 into x_{i+1} on the
// next node, then (pp) polls it, or (g) gets w_{i+1} from that node and polls
// both, then reads its own x_i.
std::string rdmaRingText(int n, const std::string& kind, const std::string& name) {
    Lines decls, reads;
    for (int i = 1; i <= n; ++i) {
        const std::string at = "@" + std::to_string(i), index = std::to_string(i);
        decls.insert(decls.end(), {"x" + index + at + " = 0", "a" + index + at});
        if (kind == "g") decls.insert(decls.end(), {"w" + index + at + " = 0", "c" + index + at});
        reads.push_back("a" + index + " = 0");
    }
    std::string text = "RDMA " + name + "\n\"generated SB ring over " + std::to_string(n) + " nodes (" + kind +
                       ")\"\n{ " + joined(decls, "; ") + "; }\n\n";
    for (int i = 1; i <= n; ++i) {
        const std::string next = std::to_string(i % n + 1), index = std::to_string(i);
        Lines body = {"x" + next + "^" + next + " := 1;"};
        if (kind == "pp") body.push_back("poll(" + next + ");");
        if (kind == "g")
            body.insert(body.end(),
                        {"c" + index + " := w" + next + "^" + next + ";", "poll(" + next + ");", "poll(" + next + ");"});
        body.push_back("a" + index + " := x" + index + ";");
        text += "P" + std::to_string(i - 1) + "@" + index + " {\n";
        for (const std::string& line : body) text += "  " + line + "\n";
        text += "}\n\n";
    }
    return text + "exists (" + joined(reads, " /\\ ") + ")\n";
}

void writeRdmaRing(int n, const std::string& kind, const std::string& expect, const std::string& source,
                   FamilyOutput& out) {
    const std::string name = "SB" + kind + "-ring" + std::to_string(n);
    addTest(name, rdmaRingText(n, kind, name), "rdma-tso", expect, source, out);
}

}  // namespace

void writeSbppRing(int n, FamilyOutput& out) {
    writeRdmaRing(n, "pp", "Ok",
                  "RDMA^TSO paper Fig. 3d around a ring (a=b=0 ok*, allowed by the model): even after the poll "
                  "nothing orders a put's remote write before the next node's read; the ring's cycle has the "
                  "edges of Fig. 3d's",
                  out);
}

void writeSbpRing(int n, FamilyOutput& out) {
    writeRdmaRing(n, "p", "Ok",
                  "RDMA^TSO paper Fig. 3a around a ring (a=b=0 ok): nothing orders a put's remote write before "
                  "the next node's read",
                  out);
}

void writeSbgRing(int n, FamilyOutput& out) {
    writeRdmaRing(n, "g", "No",
                  "RDMA^TSO paper Fig. 3e around a ring (a=b=0 not allowed): the polled get on the put's queue "
                  "pair flushes its remote write (PCIe) before the thread's read, and each read of 0 precedes "
                  "the previous node's put: a cycle through every node",
                  out);
}

}  // namespace rdmacheck
