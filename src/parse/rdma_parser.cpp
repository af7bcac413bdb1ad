// Front end for the RDMA litmus format (doc/LITMUS.md, version 1).
#include "condition.hpp"
#include "front_ends.hpp"

#include <map>
#include <set>

#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

class RdmaParser {
public:
    explicit RdmaParser(Lexer& lex) : lex_(lex) {}

    LitmusTest parse() {
        LitmusTest t;
        t.arch = Arch::Rdma;
        t.file = lex_.file();
        std::string line = readHeader(lex_, t.name);
        if (lex_.peek().kind == Token::Kind::String) t.description = lex_.next().text;
        parseInit(t);
        while (lex_.peek().kind == Token::Kind::Ident && !isTrailerKeyword(lex_.peek())) parseThread(t);
        if (t.threads.empty()) lex_.failHere("expected a thread block 'NAME@node { ... }'");
        if (lex_.peek().isWord("locations")) parseShown(t);
        if (lex_.peek().isWord("filter")) {
            lex_.next();
            t.filter = parseCondition(lex_, {parseLocationName, nullptr, nullptr});
        }
        if (!parseQuantifier(lex_, t.quantifier))
            lex_.failHere("expected the final condition ('exists', '~exists' or 'forall')");
        t.condition = parseCondition(lex_, {parseLocationName, nullptr, nullptr});
        if (lex_.peek().kind != Token::Kind::End)
            lex_.failHere("expected end of file after the final condition");
        return t;
    }

private:
    static bool isTrailerKeyword(const Token& t) {
        return t.isWord("locations") || t.isWord("filter") || t.isWord("exists") ||
               t.isWord("forall") || t.isWord("~exists");
    }

    static void parseLocationName(Lexer& lex, Cond& c) {
        Token name = lex.expectIdent("(a location) in condition");
        c.loc = name.text + copySuffix(lex);
        c.where = name.where();
        if (lex.peek().is("^")) lex.failHere("conditions name final memory values: drop the '^n'");
    }

    // `x@2`: the copy of shared variable x on node 2.
    static std::string copySuffix(Lexer& lex) {
        if (!lex.peek().is("@")) return "";
        lex.next();
        return "@" + std::to_string(lex.expectNode("after '@' (the copy of a shared variable on that node)"));
    }

    void parseShown(LitmusTest& t) {
        lex_.next();
        lex_.expect("[", "after 'locations'");
        while (!lex_.peek().is("]")) {
            Token name = lex_.expectIdent("(a location) in 'locations [...]'");
            t.shown.push_back(ObservedName{name.text + copySuffix(lex_), -1, name.where()});
            if (lex_.peek().is(";")) {
                lex_.next();
            } else if (!lex_.peek().is("]")) {
                lex_.failHere("expected ';' or ']' in 'locations [...]'");
            }
        }
        lex_.next();
    }

    void parseInit(LitmusTest& t) {
        lex_.expect("{", "to open the init block");
        std::map<std::string, SourceLoc> declared;
        while (!lex_.peek().is("}")) {
            LocationDecl d;
            Token name = lex_.expectIdent("(a location) in the init block");
            d.name = name.text;
            d.where = name.where();
            lex_.expect("@", "after the location name: every location has a home node, 'x@1', or is shared, 'x@sv', "
                             "or sequentially consistent, 'x@sc'");
            if (lex_.peek().isWord("sv")) {
                lex_.next();
                d.shared = true;
            } else if (lex_.peek().isWord("sc")) {
                lex_.next();
                d.sc = true;
            } else {
                d.node = parseNode();
            }
            if (lex_.peek().is("=")) {
                lex_.next();
                d.init = lex_.expectInt("as the initial value");
            }
            const auto [first, isNew] = declared.emplace(d.name, d.where);
            if (!isNew)
                throw InputError(d.where, "location '" + d.name + "' declared twice (first at line " +
                                              std::to_string(first->second.line) + ", column " +
                                              std::to_string(first->second.column) + ")");
            t.locations.push_back(d);
            if (lex_.peek().is(";")) {
                lex_.next();
            } else if (!lex_.peek().is("}")) {
                lex_.failHere("expected ';' or '}' in the init block");
            }
        }
        lex_.next();
    }

    int parseNode() { return lex_.expectNode(""); }

    void parseThread(LitmusTest& t) {
        ThreadDecl th;
        Token name = lex_.expectIdent("(a thread name)");
        th.name = name.text;
        th.where = name.where();
        if (!threadNames_.insert(th.name).second) throw InputError(th.where, "thread '" + th.name + "' declared twice");
        if (!lex_.peek().is("@") && !quantifierHint(th.name).empty())
            throw InputError(th.where, "expected a thread 'NAME@node { ... }' or the final condition" +
                                           quantifierHint(th.name));
        lex_.expect("@", "after the thread name: 'P0@1 { ... }'");
        th.node = parseNode();
        th.body = parseBlock();
        t.threads.push_back(std::move(th));
    }

    Block parseBlock() {
        const Lexer::Nesting nested(lex_, lex_.peek());
        lex_.expect("{", "to open a block");
        Block b;
        while (!lex_.peek().is("}")) {
            if (lex_.peek().kind == Token::Kind::End) lex_.failHere("expected '}' to close the block");
            if (lex_.peek().is(";")) {  // empty statement
                lex_.next();
                continue;
            }
            b.push_back(parseStmt());
            if (lex_.peek().is(";")) {
                lex_.next();
            } else if (!lex_.peek().is("}")) {
                lex_.failHere("expected ';' between statements");
            }
        }
        lex_.next();
        return b;
    }

    // `(E CMP E)`, CMP one of = != < <= > >= (doc/LITMUS.md).
    void parseTest(Stmt& s) {
        lex_.expect("(", "to open the test");
        s.expr = parseExpr(lex_);
        static const std::pair<const char*, Comparison> comparisons[] = {
            {"=", Comparison::Eq}, {"!=", Comparison::Ne}, {"<", Comparison::Lt},
            {"<=", Comparison::Le}, {">", Comparison::Gt}, {">=", Comparison::Ge}};
        const auto op = std::find_if(std::begin(comparisons), std::end(comparisons),
                                     [&](const auto& c) { return lex_.peek().is(c.first); });
        if (op == std::end(comparisons)) lex_.failHere("expected a comparison: =, !=, <, <=, > or >=");
        s.compare = op->second;
        lex_.next();
        s.expr2 = parseExpr(lex_);
        lex_.expect(")", "to close the test");
    }

    int parseNodeArgument() {
        lex_.expect("(", "before the node");
        int n = parseNode();
        lex_.expect(")", "after the node");
        return n;
    }

    LocRef parseLocRef() {
        LocRef r;
        Token name = lex_.expectIdent("(a location)");
        r.name = name.text;
        r.where = name.where();
        if (lex_.peek().is("^")) {
            lex_.next();
            r.node = parseNode();
        }
        return r;
    }

    Stmt parseStmt() {
        Stmt s;
        const Token first = lex_.peek();
        s.where = first.where();
        if (first.kind != Token::Kind::Ident) lex_.failHere("expected a statement");
        const std::string& w = first.text;
        if (w == "mfence") {
            lex_.next();
            s.kind = Stmt::Kind::MFence;
            return s;
        }
        if (w == "poll" || w == "rfence") {
            lex_.next();
            s.kind = w == "poll" ? Stmt::Kind::Poll : Stmt::Kind::RFence;
            s.node = parseNodeArgument();
            return s;
        }
        if (w == "assume" || w == "if" || w == "while" || w == "loop" || w == "choice") return parseControl(s, w);
        if (w == "RCAS" || w == "RFAA") {
            lex_.next();
            lex_.expect("(", ("after " + w).c_str());
            s.source = parseRmwResult(w);
            lex_.expect(",", ("between " + w + " arguments").c_str());
            return parseRemoteRmw(s, w);
        }
        if (w == "wait") {
            lex_.next();
            s.kind = Stmt::Kind::Wait;
            lex_.expect("(", "after wait");
            s.workId = lex_.expectIdent("(a work identifier)").text;
            lex_.expect(")", "after the work identifier");
            return s;
        }
        if (const std::optional<LibraryMethod> m = bareCallAhead()) return parseBareCall(s, *m);
        if (w == "gfence") {
            lex_.next();
            s.kind = Stmt::Kind::GFence;
            lex_.expect("(", "after gfence");
            s.nodes = parseNodeList(")");
            return s;
        }
        return parseAssignment(s, first);
    }

    // assume (T), if (T) {..} else {..}, while (T) {..}, loop {..}, choice {..} or {..}
    Stmt parseControl(Stmt& s, const std::string& w) {
        if (w == "assume") {
            lex_.next();
            s.kind = Stmt::Kind::Assume;
            parseTest(s);
            return s;
        }
        if (w == "if") {
            lex_.next();
            s.kind = Stmt::Kind::If;
            parseTest(s);
            s.body = parseBlock();
            if (lex_.peek().isWord("else")) {
                lex_.next();
                s.orelse = parseBlock();
            }
            return s;
        }
        if (w == "while") {
            lex_.next();
            s.kind = Stmt::Kind::While;
            parseTest(s);
            s.body = parseBlock();
            return s;
        }
        if (w == "loop") {
            lex_.next();
            s.kind = Stmt::Kind::Loop;
            s.body = parseBlock();
            return s;
        }
        lex_.next();  // choice
        s.kind = Stmt::Kind::Choice;
        s.branches.push_back(parseBlock());
        while (lex_.peek().isWord("or")) {
            lex_.next();
            s.branches.push_back(parseBlock());
        }
        return s;
    }

    // What starts with a location: an assignment, a get, a put, a CAS or an RMW
    // with its result, or a library call with its result.
    Stmt parseAssignment(Stmt& s, const Token& first) {
        const std::string& w = first.text;
        lex_.next();
        if (lex_.peek().is(".")) return parseCall(s, first);
        s.target = LocRef{w, std::nullopt, first.where()};
        if (lex_.peek().is("^")) {
            lex_.next();
            s.target.node = parseNode();
        }
        if (!lex_.peek().is(":=")) lex_.failHere("expected ':=' in assignment");
        lex_.next();
        if (lex_.peek().is("^")) {
            lex_.next();
            s.workId = lex_.expectIdent("(a work identifier) after ':=^'").text;
            if (!s.target.node) {
                Expr e = parseExpr(lex_);
                if (e.kind != Expr::Kind::Location || !e.remoteNode)
                    throw InputError(e.where, "':=^" + s.workId +
                                                  "' is a get or a put: 'a :=^d y^n' or 'y^n :=^d a'");
                s.kind = Stmt::Kind::Get;
                s.source = LocRef{e.name, e.remoteNode, e.where};
                return s;
            }
        }
        if (s.target.node) return parsePutSource(s);
        if (lex_.peek().isWord("CAS")) return parseCas(s);
        if (lex_.peek().isWord("RCAS") || lex_.peek().isWord("RFAA")) {
            // `z := RCAS(y^n, v1, v2)`: the papers' other spelling of RCAS(z, y^n, v1, v2).
            const std::string op = lex_.next().text;
            lex_.expect("(", ("after " + op).c_str());
            s.source = s.target;
            return parseRemoteRmw(s, op);
        }
        if (const std::optional<LibraryMethod> m = bareCallAhead()) {
            s.hasResult = true;
            return parseBareCall(s, *m);
        }
        Token rhs = lex_.peek();
        if (rhs.kind == Token::Kind::Ident) {
            // Look one token further for a library call such as `a := sv.read(x)`.
            size_t save = lex_.offset();
            lex_.next();
            bool library = lex_.peek().is(".");
            lex_.seek(save);
            if (library) {
                const Token lib = lex_.next();
                s.hasResult = true;
                return parseCall(s, lib);
            }
        }
        Expr e = parseExpr(lex_);
        if (e.kind == Expr::Kind::Location && e.remoteNode) {
            s.kind = Stmt::Kind::Get;
            s.source = LocRef{e.name, e.remoteNode, e.where};
            return s;
        }
        rejectRemote(e);
        s.kind = Stmt::Kind::Assign;
        s.expr = std::move(e);
        return s;
    }

    static void rejectRemote(const Expr& e) {
        if (e.kind == Expr::Kind::Location && e.remoteNode)
            throw InputError(e.where, "remote location '" + e.name + "^" + std::to_string(e.remoteNode) +
                                          "' inside an expression: a get reads one remote location, "
                                          "'x := " + e.name + "^" + std::to_string(e.remoteNode) + "'");
        for (const Expr& a : e.args) rejectRemote(a);
    }

    // `n1, n2, ...` up to `close`; at least one node.
    std::vector<int> parseNodeList(const char* close) {
        std::vector<int> nodes{parseNode()};
        while (lex_.peek().is(",")) {
            lex_.next();
            nodes.push_back(parseNode());
        }
        lex_.expect(close, "to close the node list");
        return nodes;
    }

    // `word(` next, where a library writes its method `word` bare.
    std::optional<LibraryMethod> bareCallAhead() {
        const Token word = lex_.peek();
        if (word.kind != Token::Kind::Ident) return std::nullopt;
        const std::optional<LibraryMethod> m = findBareMethod(word.text);
        if (!m) return std::nullopt;
        const size_t save = lex_.offset();
        lex_.next();
        const bool call = lex_.peek().is("(");
        lex_.seek(save);
        return call ? m : std::nullopt;
    }

    // `method(args)`, a bare method: `bar(z)` is bal.bar(z).
    Stmt parseBareCall(Stmt& s, const LibraryMethod& m) {
        s.kind = Stmt::Kind::Call;
        s.library = libraryName(m.library);
        s.method = lex_.next().text;
        return parseArguments(s);
    }

    // `lib.method(args)`, the library name already read as `lib`.
    Stmt parseCall(Stmt& s, const Token& lib) {
        s.kind = Stmt::Kind::Call;
        s.library = lib.text;
        lex_.expect(".", "after the library name");
        s.method = lex_.expectIdent("(a method name) after '.'").text;
        return parseArguments(s);
    }

    // `(arg, ...)` of a call: expressions and node sets `{2, 3}`.
    Stmt parseArguments(Stmt& s) {
        lex_.expect("(", "to open the arguments");
        while (!lex_.peek().is(")")) {
            CallArg a;
            a.where = lex_.peek().where();
            if (lex_.peek().is("{")) {
                lex_.next();
                a.isNodeSet = true;
                a.nodes = parseNodeList("}");
            } else {
                a.expr = parseExpr(lex_);
            }
            s.args.push_back(std::move(a));
            if (lex_.peek().is(",")) {
                lex_.next();
            } else if (!lex_.peek().is(")")) {
                lex_.failHere("expected ',' or ')' in the arguments");
            }
        }
        lex_.next();
        return s;
    }

    Stmt parsePutSource(Stmt& s) {
        s.kind = Stmt::Kind::Put;
        Token src = lex_.peek();
        if (src.kind == Token::Kind::Int || src.is("-")) {
            s.sourceIsConst = true;
            s.constant = lex_.expectInt("to put");
        } else if (src.kind == Token::Kind::Ident) {
            s.source = parseLocRef();
            if (s.source.node)
                throw InputError(s.source.where, "a put reads a local location: remove '^" +
                                                     std::to_string(*s.source.node) + "'");
        } else {
            lex_.failHere("expected a local location or an integer to put");
        }
        if (!lex_.peek().is(";") && !lex_.peek().is("}"))
            lex_.failHere("a put writes one local location or constant; expected ';'");
        return s;
    }

    // The result of RCAS/RFAA: a local location, or `_` when nobody reads it.
    LocRef parseRmwResult(const std::string& op) {
        LocRef r = parseLocRef();
        if (r.node)
            throw InputError(r.where, op + " writes the old value into a local location: remove '^" +
                                          std::to_string(*r.node) + "'");
        return r;
    }

    // After `RCAS(z,` or `z := RCAS(`: the remote location and the constants.
    Stmt parseRemoteRmw(Stmt& s, const std::string& op) {
        s.kind = op == "RCAS" ? Stmt::Kind::RCas : Stmt::Kind::RFaa;
        s.target = parseLocRef();
        if (!s.target.node)
            throw InputError(s.target.where, op + " works on a remote location, written '" + s.target.name +
                                                 "^n'; a CPU RMW on a local location is CAS");
        lex_.expect(",", ("between " + op + " arguments").c_str());
        s.expr = constantArgument(s.kind == Stmt::Kind::RCas ? "as the expected value" : "to add");
        if (s.kind == Stmt::Kind::RCas) {
            lex_.expect(",", "between RCAS arguments");
            s.expr2 = constantArgument("as the new value");
        }
        if (lex_.peek().is(",")) {
            lex_.next();
            s.workId = lex_.expectIdent(("(a work identifier) as the last argument of " + op).c_str()).text;
        }
        if (lex_.peek().is(","))
            lex_.failHere(op + " takes " + (s.kind == Stmt::Kind::RCas ? "four" : "three") +
                          " arguments and an optional work identifier");
        lex_.expect(")", ("to close " + op).c_str());
        return s;
    }

    // RMW operands are closed: the RMW paper's Fig. 23 requires elocs(e) = {}.
    Expr constantArgument(const char* context) {
        const SourceLoc at = lex_.peek().where();
        return Expr::constant(lex_.expectInt(context), at);
    }

    Stmt parseCas(Stmt& s) {
        lex_.next();
        s.kind = Stmt::Kind::Cas;
        s.result = s.target.name;
        s.source = s.target;  // remember where the result location was written
        lex_.expect("(", "after CAS");
        s.target = parseLocRef();
        if (s.target.node)
            throw InputError(s.target.where, "CAS works on a local location; remote CAS is RCAS");
        lex_.expect(",", "between CAS arguments");
        s.expr = parseExpr(lex_);
        rejectRemote(s.expr);
        lex_.expect(",", "between CAS arguments");
        s.expr2 = parseExpr(lex_);
        rejectRemote(s.expr2);
        lex_.expect(")", "to close CAS");
        return s;
    }

    Lexer& lex_;
    std::set<std::string> threadNames_;
};

}  // namespace

LitmusTest parseRdma(Lexer& lex) { return RdmaParser(lex).parse(); }

}  // namespace rdmacheck
