// herd7's `with co from generate_cos(E)` and `generate_orders(S, E)` (its
// cross.cat): the coherence orders of S's writes that extend E. rdmacheck
// chooses co itself (mo), so co is mo, and mo must extend E: herd7's co0
// always, any other member of E's union by an axiom.
#include "interpret.hpp"

namespace rdmacheck {

namespace {

// herd7's co0 (stdlib.cat): initial writes first, final ones last; every mo rdmacheck chooses obeys it.
const char* const kCo0 = "loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW))";

// A name followed through the definitions it names to an expression that is not a name.
const ModelExpr& definitionOf(const Model& m, const ModelExpr& e) {
    const ModelExpr* r = &e;
    for (const Definition* d; r->op == ModelExpr::Op::Name && (d = m.definition(r->name));) r = &d->expr;
    return *r;
}

void unionMembers(const Model& m, const ModelExpr& e, std::vector<ModelExpr>& out) {
    const ModelExpr& r = definitionOf(m, e);
    if (r.op != ModelExpr::Op::Union) return out.push_back(r);
    unionMembers(m, r.args[0], out);
    unionMembers(m, r.args[1], out);
}

}  // namespace

bool denotesAllWrites(const Model& m, const ModelExpr& s) {
    const ModelExpr& r = definitionOf(m, s);
    if (r.op == ModelExpr::Op::Name) return r.name == "W";
    return r.op == ModelExpr::Op::Diff && denotesAllWrites(m, r.args[0]) &&
           definitionOf(m, r.args[1]).op == ModelExpr::Op::Empty;
}

std::optional<Axiom> coherenceBaseAxiom(const Model& m, const ModelExpr& base, const std::string& written,
                                        const SourceLoc& where, const SourceLoc& at) {
    using Op = ModelExpr::Op;
    std::vector<ModelExpr> members, others;
    unionMembers(m, base, members);
    for (const ModelExpr& member : members)
        if (member.text() != kCo0) others.push_back(member);
    if (others.size() == members.size())
        throw InputError(where, written + ": herd7 chooses each observed location's final write "
                                        "apart from co unless co0 (its final writes last) is in the union, and "
                                        "rdmacheck's co always ends at the final write: write co0 | ...");
    if (others.empty()) return std::nullopt;
    // empty ((E & loc) & (W * W)) \ mo, E the union's members but co0
    ModelExpr extra = others[0];
    for (size_t i = 1; i < others.size(); ++i) extra = ModelExpr::of(Op::Union, at, {std::move(extra), others[i]});
    ModelExpr sameLocation =
        ModelExpr::of(Op::Inter, at, {ModelExpr::of(Op::Inter, at, {std::move(extra), ModelExpr::named("loc", at)}),
                                      ModelExpr::of(Op::Product, at, {ModelExpr::named("W", at), ModelExpr::named("W", at)})});
    return Axiom{Axiom::Kind::Empty, ModelExpr::of(Op::Diff, at, {std::move(sameLocation), ModelExpr::named("mo", at)}),
                 "generate_cos", at, false, {}};
}

}  // namespace rdmacheck
