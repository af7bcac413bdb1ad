// The exs family: the indirect-only EXS stream (MacArthur & Russell), N
// one-word messages through a ring of S slots on the receiver's node 2. The
// sender S@1 writes each message with immediate, a put of the data into its
// slot then a put of the immediate (same queue pair), after waiting for the
// credit (Fig. 2 l.17: the ring is not full). The receiver R@2 waits for the
// immediate, copies the slot out and acknowledges (Fig. 5 l.1 and l.2). The
// verdicts and state counts are doc/case-studies/exs.md §4's.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "family_writers.hpp"

namespace rdmacheck {

namespace {

std::string slotOf(int j, int s) { return "s" + std::to_string((j - 1) % s); }

Lines sender(int n, int s, const std::string& variant) {
    Lines lines;
    for (int j = 1; j <= n; ++j) {
        const std::string value = std::to_string(j);
        if (j > s && variant != "no-credit") lines.push_back("assume(ack >= " + std::to_string(j - s) + ");");
        Lines wwi = {slotOf(j, s) + "^2 := " + value + ";", "imm^2 := " + value + ";"};
        if (variant == "flag-first") std::swap(wwi[0], wwi[1]);
        lines.insert(lines.end(), wwi.begin(), wwi.end());
    }
    return lines;
}

Lines receiver(int n, int s, const std::string& variant) {
    Lines lines;
    for (int j = 1; j <= n; ++j) {
        const std::string value = std::to_string(j);
        const std::string copy = "o" + value + " := " + slotOf(j, s) + ";", ack = "ack^1 := " + value + ";";
        lines.push_back("assume(imm >= " + value + ");");
        lines.push_back(variant == "early-ack" ? ack : copy);
        lines.push_back(variant == "early-ack" ? copy : ack);
    }
    return lines;
}

std::string declarations(int n, int s) {
    Lines decls;
    for (int i = 0; i < std::min(n, s); ++i) decls.push_back("s" + std::to_string(i) + "@2 = 0;");
    decls.push_back("imm@2 = 0;");
    for (int j = 1; j <= n; ++j) decls.push_back("o" + std::to_string(j) + "@2;");
    decls.push_back("ack@1 = 0;");
    return joined(decls, " ");
}

std::string program(int n, int s, const std::string& variant) {
    const std::string size = std::to_string(n), slots = std::to_string(s);
    Lines delivered;
    for (int j = 1; j <= n; ++j) delivered.push_back("o" + std::to_string(j) + " = " + std::to_string(j));
    return "RDMA EXS-ring-n" + size + "-s" + slots + "-" + variant + "\n\"EXS stream (MacArthur & Russell, Fig. 2 " +
           "l.17 and Fig. 5; doc/case-studies/exs.md §4), generated: indirect-only stream, " + size +
           " messages, ring of " + slots + " slot(s), variant " + variant + ".\"\n{ " + declarations(n, s) +
           " }\n\nS@1 {\n" + joined(sender(n, s, variant), "\n", "  ") + "\n}\n\nR@2 {\n" +
           joined(receiver(n, s, variant), "\n", "  ") + "\n}\n\nforall (" + joined(delivered, " /\\ ") + ")\n";
}

uint64_t power2(int e) { return uint64_t{1} << e; }

// The verdict of `forall` (every run delivers 1..N in order), the number of
// final states, and why.
FamilyExpectation expectation(int n, int s, const std::string& variant) {
    const std::string section = "doc/case-studies/exs.md §4: ";
    if (variant == "ok")
        return {"", "", "Ok", section + "credit check and copy before ack deliver 1..N in order; 1 state", 1};
    if (variant == "early-ack")
        return {"", "", n > s ? "No" : "Ok",
                section + "ack before copy frees a slot the sender may refill before its copy; No iff N > S; "
                          "2^max(0,N-S) states",
                power2(std::max(0, n - s))};
    if (variant == "no-credit")
        return {"", "", n > s ? "No" : "Ok",
                section + "no credit check, the sender overwrites slots not yet copied; No iff N > S; states: "
                          "distinct copies (Catalan(N) for S=1, Motzkin(N-1) for S=2)",
                exsNoCreditStates(n, s)};
    return {"", "", "No", section + "immediate before data, the copy may read the slot before the data lands; "
                                    "No for every N; 2^N states",
            power2(n)};
}

}  // namespace

const std::vector<std::string>& exsVariants() {
    static const std::vector<std::string> variants = {"ok", "early-ack", "no-credit", "flag-first"};
    return variants;
}

void writeExsRing(int n, int s, const std::string& variant, FamilyOutput& out) {
    const std::string file =
        "exs-ring-n" + std::to_string(n) + "-s" + std::to_string(s) + "-" + variant + ".litmus";
    out.tests.push_back({file, program(n, s, variant)});
    FamilyExpectation row = expectation(n, s, variant);
    row.test = file;
    for (const char* model : {"rdma-tso", "rdma-tso-nopcie"}) {
        row.model = model;
        out.expectations.push_back(row);
    }
}

// Each distinct tuple is counted once, by the smallest non-decreasing T that
// gives it: t_j = max(t_{j-1}, o_j), which must stay below o_j + S (else o_j
// is not the largest m <= T_j with m = j mod S). ways[j][t]: the tuples
// (o_j..o_N) that follow t_{j-1} = t.
uint64_t exsNoCreditStates(int n, int s) {
    std::vector<std::vector<uint64_t>> ways(n + 2, std::vector<uint64_t>(n + 1, 0));
    for (int t = 0; t <= n; ++t) ways[n + 1][t] = 1;
    for (int j = n; j >= 1; --j)
        for (int t = 0; t <= n; ++t)
            for (int o = j; o <= n; o += s) {
                const int next = std::max(t, o);
                if (next < o + s && __builtin_add_overflow(ways[j][t], ways[j + 1][next], &ways[j][t]))
                    throw std::overflow_error("exs no-credit state count past 2^64");
            }
    return ways[1][0];
}

}  // namespace rdmacheck
