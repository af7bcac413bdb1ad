// A model's fingerprint (Model::fingerprint): what a machine implements.
#include <sstream>

#include "interpret.hpp"
#include "rdmacheck/library.hpp"

namespace rdmacheck {

// FNV-1a over a canonical text of everything the model means: the
// definitions its axioms reach (`walked`), not those of the preludes it does not use.
std::string fingerprintOf(const Model& m, const std::set<std::string>& walked) {
    std::ostringstream canon;
    for (const Definition& d : m.definitions)
        if (walked.count(d.name)) canon << (d.group >= 0 ? "let rec " : "let ") << d.name << " = " << d.expr.text() << "\n";
    for (const Axiom& a : m.axioms) canon << static_cast<int>(a.kind) << " " << a.expr.text() << " as " << a.name << "\n";
    for (const Axiom& f : m.flags)
        canon << "flag " << (f.negated ? "~" : "") << static_cast<int>(f.kind) << " " << f.expr.text() << " as "
              << f.name << "\n";
    for (const Axiom& a : m.assertions)
        canon << "assert after " << a.axiomsBefore << " " << (a.negated ? "~" : "") << static_cast<int>(a.kind)
              << " " << a.expr.text() << "\n";
    // Kinds by name, and only those a table covers or the model takes: a new
    // event kind leaves the models that do not take it as they were.
    for (const auto& [name, t] : m.tables) {
        canon << "table " << name << " " << t.betweenCallsOnly;
        for (int a = 0; a < eventKindCount(); ++a)
            for (int b = 0; b < eventKindCount(); ++b)
                if (t.covers[a] && t.covers[b])
                    canon << " " << kindName(static_cast<EventKind>(a)) << ">" << kindName(static_cast<EventKind>(b))
                          << "=" << static_cast<int>(t.cells[a][b]);
        canon << "\n";
    }
    for (const auto& [kind, stamp] : m.stampOf) canon << kind << ":" << stamp << "\n";
    for (int k = 0; k < eventKindCount(); ++k)
        if (m.supports[k]) canon << kindName(static_cast<EventKind>(k)) << ",";
    for (Library l : m.libraries) canon << libraryName(l) << ",";
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : canon.str()) h = (h ^ c) * 1099511628211ull;
    std::ostringstream hex;
    hex << std::hex << h;
    return hex.str();
}

}  // namespace rdmacheck
