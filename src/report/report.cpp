#include "rdmacheck/report.hpp"

#include <cstdio>

namespace rdmacheck {

namespace {

std::string condBody(const Cond& c, Cond::Kind parent) {
    switch (c.kind) {
        case Cond::Kind::True: return "true";
        case Cond::Kind::False: return "false";
        case Cond::Kind::Atom:
            return shownName(ObservedName{c.loc, c.thread, c.where}) + (c.equal ? "=" : "!=") + std::to_string(c.value);
        case Cond::Kind::Not: {
            const Cond& a = c.args[0];
            bool simple = a.kind == Cond::Kind::Atom || a.kind == Cond::Kind::True || a.kind == Cond::Kind::False;
            return simple ? "~" + condBody(a, c.kind) : "~(" + condBody(a, Cond::Kind::True) + ")";
        }
        case Cond::Kind::And:
        case Cond::Kind::Or: {
            std::string sep = c.kind == Cond::Kind::And ? " /\\ " : " \\/ ";
            std::string s;
            for (size_t i = 0; i < c.args.size(); ++i) s += (i ? sep : "") + condBody(c.args[i], c.kind);
            // `\/` inside `/\`, and explicitly grouped same-operator chains, keep their parentheses.
            bool paren = parent == Cond::Kind::And || (parent == Cond::Kind::Or && c.kind == Cond::Kind::Or);
            return paren ? "(" + s + ")" : s;
        }
    }
    return "";
}

const char* quantifierWord(Quantifier q) {
    switch (q) {
        case Quantifier::Exists: return "exists";
        case Quantifier::NotExists: return "~exists";
        case Quantifier::Forall: return "forall";
    }
    return "";
}

// herd7's test kind line follows the quantifier.
const char* kindWord(Quantifier q) {
    switch (q) {
        case Quantifier::Exists: return "Allowed";
        case Quantifier::NotExists: return "Forbidden";
        case Quantifier::Forall: return "Required";
    }
    return "";
}

}  // namespace

std::string shownName(const ObservedName& n) {
    if (n.thread >= 0) return std::to_string(n.thread) + ":" + n.name;
    return "[" + n.name + "]";
}

std::string conditionText(Quantifier q, const Cond& c) {
    return std::string(quantifierWord(q)) + " (" + condBody(c, Cond::Kind::True) + ")";
}

std::string stateLine(const std::vector<ObservedName>& shown, const FinalState& s) {
    std::string line;
    for (size_t i = 0; i < shown.size(); ++i)
        line += (i ? " " : "") + shownName(shown[i]) + "=" + std::to_string(s[i]) + ";";
    return line;
}

std::string stateLine(const CheckResult& r, const FinalState& s) { return stateLine(r.shown, s); }

void printHerd(std::ostream& out, const LitmusTest& test, const CheckResult& r, const ReportOptions& options) {
    out << "Test " << r.test << " " << kindWord(r.quantifier) << "\n";
    out << "States " << r.states.size() << "\n";
    for (const auto& [state, satisfies] : r.states) out << stateLine(r, state) << "\n";
    out << (r.ok ? "Ok" : "No") << "\n";
    // The answer-only modes count no executions: they print no counts.
    const bool counted = r.mode == CheckMode::Executions;
    // herd7 counts the witnesses of ~exists C against ~C, its Observation against C.
    const bool negated = r.quantifier == Quantifier::NotExists;
    if (counted)
        out << "Witnesses\nPositive: " << (negated ? r.negative : r.positive)
            << " Negative: " << (negated ? r.positive : r.negative) << "\n";
    out << "Condition " << conditionText(r.quantifier, test.condition) << "\n";
    if (counted) {
        out << "Observation " << r.test << " " << r.observation() << " " << r.positive << " " << r.negative << "\n";
    } else {
        out << "Mode " << modeName(r.mode) << "\n";
    }
    if (options.showTime) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", r.seconds);
        out << "Time " << r.test << " " << buf << "\n";
    }
    for (const SourceLoc& loop : r.cutLoops)
        out << "Warning: " << loop.str() << ": loop unrolled to the bound; executions needing more "
            << "iterations are missing (raise --unroll)\n";
    out << "\n";
}

nlohmann::json toJson(const LitmusTest& test, const CheckResult& r, const ReportOptions& options) {
    nlohmann::json j;
    j["test"] = r.test;
    j["file"] = test.file;
    j["model"] = r.model;
    j["engine"] = r.engine;
    j["kind"] = kindWord(r.quantifier);
    j["condition"] = conditionText(r.quantifier, test.condition);
    j["ok"] = r.ok;
    j["mode"] = modeName(r.mode);
    if (r.mode == CheckMode::Executions) {
        j["observation"] = r.observation();
        j["positive"] = r.positive;
        j["negative"] = r.negative;
    }
    nlohmann::json names = nlohmann::json::array();
    for (const ObservedName& n : r.shown) names.push_back(shownName(n));
    j["shown"] = names;
    nlohmann::json states = nlohmann::json::array();
    for (const auto& [state, satisfies] : r.states) {
        nlohmann::json s;
        s["values"] = state;
        s["line"] = stateLine(r, state);
        s["satisfies"] = satisfies;
        states.push_back(s);
    }
    j["states"] = states;
    nlohmann::json cut = nlohmann::json::array();
    for (const SourceLoc& loop : r.cutLoops) cut.push_back(loop.str());
    j["unroll_cut"] = cut;
    if (r.engine != "declarative") j["machine_states"] = r.machineStates;
    if (options.showTime) j["time"] = r.seconds;
    return j;
}

}  // namespace rdmacheck
