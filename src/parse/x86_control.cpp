#include "x86_control.hpp"

#include <map>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

Expr registerOf(const std::string& name, const SourceLoc& where) {
    Expr e;
    e.kind = Expr::Kind::Register;
    e.name = name;
    e.where = where;
    return e;
}

namespace {

// The registers of the loop numbered n that code in it jumps out of: whether
// it goes on, and which label it was left for (names no test can write).
std::string goRegister(int n) { return "JMP@go" + std::to_string(n); }
std::string exitRegister(int n) { return "JMP@exit" + std::to_string(n); }

Stmt setRegister(const std::string& name, long long value, const SourceLoc& where) {
    Stmt s;
    s.kind = Stmt::Kind::RegAssign;
    s.where = where;
    s.result = name;
    s.expr = Expr::constant(value, where);
    return s;
}

// A loop that code in it jumps out of: its label and jump back, and a number
// per label it is left for (0: where it ends anyway; else a jump after it).
struct LeftLoop {
    size_t head = 0, back = 0;
    int number = 0;
    std::map<std::string, long long> exits;
};

class Structurer {
public:
    explicit Structurer(std::vector<X86Item> items) : items_(std::move(items)) {
        indexLabels();
        findLeftLoops();
    }

    Block all() const { return region(0, items_.size()); }

    // items [begin, end) as statements; a jump's target must lie in [begin, end].
    Block region(size_t begin, size_t end) const {
        Block out;
        for (size_t i = begin; i < end; ++i) {
            const X86Item& item = items_[i];
            if (item.kind == X86Item::Kind::Code) {
                // Crossing jumps copy code into both branches: bound it before memory runs out.
                if ((copied_ += item.code.size()) > kMaxStatements)
                    throw InputError(item.where, "the jumps that cross copy this thread's code into more than " +
                                                     std::to_string(kMaxStatements) + " statements");
                out.insert(out.end(), item.code.begin(), item.code.end());
            }
            if (item.kind == X86Item::Kind::Label) {
                auto loop = leftLoops_.find(i);
                if (loop != leftLoops_.end() && loop->second.back < end) {
                    leftLoop(loop->second, out);
                    i = loop->second.back;
                }
            }
            if (item.kind == X86Item::Kind::Jump) {
                const size_t left = exitsSoFar();
                i = jump(i, begin, end, out) - 1;
                if (exitsSoFar() != left) {  // what follows runs only while the loop goes on
                    if (Block rest = region(i + 1, end); !rest.empty()) out.push_back(whileGoing(std::move(rest)));
                    return out;
                }
            }
        }
        return out;
    }

private:
    void indexLabels() {
        labels_.clear();
        for (size_t i = 0; i < items_.size(); ++i)
            if (items_[i].kind == X86Item::Kind::Label && !labels_.emplace(items_[i].label, i).second)
                throw InputError(items_[i].where, "label " + items_[i].label + " defined twice in the thread");
    }

    // Where the jump at `at` jumps back to, or none.
    std::optional<size_t> backTarget(size_t at) const {
        if (items_[at].kind != X86Item::Kind::Jump) return std::nullopt;
        auto it = labels_.find(items_[at].label);
        if (it == labels_.end() || it->second >= at) return std::nullopt;
        return it->second;
    }

    // Each loop that code in it jumps out of, inner loops first; after its
    // jump back, one jump per label past its end that it is left for.
    void findLeftLoops() {
        for (size_t back = 0; back < items_.size(); ++back) {
            const std::optional<size_t> head = backTarget(back);
            if (!head) continue;
            LeftLoop loop{*head, back, static_cast<int>(leftLoops_.size()), {}};
            std::vector<X86Item> after;
            for (size_t j = *head + 1; j < back; ++j) {
                auto to = labels_.find(items_[j].label);
                if (items_[j].kind != X86Item::Kind::Jump || to == labels_.end()) continue;
                if (to->second >= *head && to->second < back) continue;  // within, or back to the head
                if (to->second < *head)
                    throw InputError(items_[j].where, "this jump leaves a loop backwards: not supported");
                if (loop.exits.count(to->first)) continue;
                const bool ends = onlyLabels(back + 1, to->second);
                loop.exits[to->first] = ends ? 0 : static_cast<long long>(after.size() + 1);
                if (!ends) after.push_back(exitJump(items_[back], loop.number, to->first, after.size() + 1));
            }
            if (loop.exits.empty()) continue;
            if (leftLoops_.count(*head))
                throw InputError(items_[back].where,
                                 "a second jump back to the head of a loop that is jumped out of: not supported");
            leftLoops_.emplace(*head, std::move(loop));
            items_.insert(items_.begin() + back + 1, after.begin(), after.end());
            indexLabels();
            back += after.size();
        }
        for (size_t j = 0; j < items_.size(); ++j)
            if (auto head = backTarget(j); head && leftLoops_.count(*head) && leftLoops_.at(*head).back != j)
                throw InputError(items_[j].where,
                                 "a second jump back to the head of a loop that is jumped out of: not supported");
    }

    bool onlyLabels(size_t from, size_t to) const {
        for (size_t i = from; i < to; ++i)
            if (items_[i].kind != X86Item::Kind::Label) return false;
        return true;
    }

    static X86Item exitJump(const X86Item& back, int loop, const std::string& label, size_t exit) {
        X86Item jump{X86Item::Kind::Jump, {}, label, Comparison::Eq, back.where};
        jump.exitOf = loop;
        jump.exit = static_cast<long long>(exit);
        return jump;
    }

    // `L: S` left from within S: S once, then `while (go) {S}`; S sets go, and
    // which label it was left for (the jumps after the loop test it).
    void leftLoop(const LeftLoop& loop, Block& out) const {
        const Block once = pass(loop);
        out.insert(out.end(), once.begin(), once.end());
        const SourceLoc& where = items_[loop.back].where;
        Stmt again = compare(where, registerOf(goRegister(loop.number), where), Expr::constant(1, where),
                             Comparison::Eq, pass(loop), {});
        again.kind = Stmt::Kind::While;
        again.backTo = address(loop.head);
        out.push_back(std::move(again));
    }

    // One pass through the loop's code, the jump back last (built anew each
    // time, so that the copies count towards the bound).
    Block pass(const LeftLoop& loop) const {
        inside_.push_back(Inside{&loop, 0});
        Block body = region(loop.head + 1, loop.back + 1);
        inside_.pop_back();
        body.insert(body.begin(), setRegister(goRegister(loop.number), 1, items_[loop.back].where));
        return body;
    }

    // The loop being structured, and how many jumps out of it were made so far.
    struct Inside {
        const LeftLoop* loop;
        size_t exits;
    };
    size_t exitsSoFar() const { return inside_.empty() ? 0 : inside_.back().exits; }

    // Whether the jump at `at` leaves the loop being structured.
    bool leaves(size_t at) const {
        if (inside_.empty()) return false;
        auto it = labels_.find(items_[at].label);
        return it != labels_.end() && (it->second < inside_.back().loop->head || it->second > inside_.back().loop->back);
    }

    // A jump out of the loop, or its jump back, as the registers they set.
    void leaveOrGoOn(size_t at, Block& out) const {
        const X86Item& item = items_[at];
        const LeftLoop& loop = *inside_.back().loop;
        const long long exit = at == loop.back ? 0 : loop.exits.at(item.label);
        Block left{setRegister(goRegister(loop.number), 0, item.where),
                   setRegister(exitRegister(loop.number), exit, item.where)};
        if (at == loop.back) {
            if (item.when) out.push_back(test(item, {}, std::move(left)));  // JMP back: goes on
            return;
        }
        ++inside_.back().exits;
        if (item.when)
            out.push_back(test(item, std::move(left), {}));
        else
            out.insert(out.end(), left.begin(), left.end());
    }

    Stmt whileGoing(Block rest) const {
        const LeftLoop& loop = *inside_.back().loop;
        const SourceLoc& where = items_[loop.back].where;
        return compare(where, registerOf(goRegister(loop.number), where), Expr::constant(1, where), Comparison::Eq,
                       std::move(rest), {});
    }

    // The jump at `at` as a statement into `out`; returns where the code goes on.
    size_t jump(size_t at, size_t begin, size_t end, Block& out) const {
        const X86Item& item = items_[at];
        if (!inside_.empty() && (at == inside_.back().loop->back || leaves(at))) {
            leaveOrGoOn(at, out);
            return at + 1;
        }
        const size_t target = targetOf(item, begin, end);
        if (target < at) {
            out.push_back(loop(item, target, at));
            return at + 1;
        }
        if (!item.when) return target;  // JMP: its stretch is dead code
        if (const size_t join = joinOf(item, at, target); join > target) {
            // Another jump crosses out of the stretch: both branches run on to where every jump from within lands.
            Block notTaken = region(at + 1, join);  // in the text's order (arguments have none): copies counted alike
            out.push_back(test(item, region(target, join), std::move(notTaken)));
            return join;
        }
        // `Jcc L0; (not taken) JMP L1; L0: (taken) L1:` is an if-else.
        const X86Item& last = items_[target - 1];
        if (target - 1 > at && last.kind == X86Item::Kind::Jump && !last.when && !leaves(target - 1)) {
            const size_t join = targetOf(last, begin, end);
            if (join > target && closed(target - 1, join)) {
                Block notTaken = region(at + 1, target - 1);
                out.push_back(test(item, region(target, join), std::move(notTaken)));
                return join;
            }
        }
        out.push_back(test(item, {}, region(at + 1, target)));
        return target;
    }

    // Whether every jump strictly between `from` and `to` lands in (from, to].
    bool closed(size_t from, size_t to) const { return extent(from, to) == to; }

    static constexpr size_t kBack = static_cast<size_t>(-1);

    // The least place from `to` on where every jump after `from` and before it
    // lands: `to` when the stretch is closed already, kBack when one of them
    // jumps back to `from` or before (a loop around the stretch).
    size_t extent(size_t from, size_t to) const {
        for (size_t j = from + 1; j < to; ++j) {
            if (items_[j].kind != X86Item::Kind::Jump || leaves(j)) continue;  // a jump out: no join here
            auto it = labels_.find(items_[j].label);
            if (it == labels_.end()) continue;  // targetOf refuses it at the jump
            if (it->second <= from) return kBack;
            if (it->second > to) return extent(from, it->second);
        }
        return to;
    }

    // Where the branches of the jump at `at` join: past the code that jumps
    // from within its stretch cross to.
    size_t joinOf(const X86Item& jump, size_t at, size_t target) const {
        const size_t join = extent(at, target);
        if (join == kBack)
            throw InputError(jump.where, "this jump leaves the loop it is in: only jumps within a loop's stretch are read");
        return join;
    }

    size_t targetOf(const X86Item& jump, size_t begin, size_t end) const {
        auto it = labels_.find(jump.label);
        if (it == labels_.end()) throw InputError(jump.where, "no label " + jump.label + " in this thread");
        if (it->second < begin)
            throw InputError(jump.where, "a jump from before this loop's label enters it, and code in it jumps out "
                                         "of it: not supported");
        if (it->second > end)
            throw InputError(jump.where, "this jump leaves the loop it is in: only jumps within a loop's stretch "
                                         "are read");
        return it->second;
    }

    // `L: S; Jcc L`, where the code so far ran S once: `while (taken) {S}`,
    // which --unroll bounds as herd7's -unroll bounds the jumps taken back
    // (`JMP L`: `while (0 = 0)`, whose every run the bound cuts, as herd7's).
    Stmt loop(const X86Item& jump, size_t label, size_t at) const {
        const Expr zero = Expr::constant(0, jump.where);
        Stmt s = jump.when ? test(jump, {}, {}) : compare(jump.where, zero, zero, Comparison::Eq, {}, {});
        s.kind = Stmt::Kind::While;
        s.backTo = address(label);
        s.body = region(label, at);
        return s;
    }

    // The instruction a label names: labels side by side name one.
    int address(size_t label) const {
        while (label < items_.size() && items_[label].kind == X86Item::Kind::Label) ++label;
        return static_cast<int>(label);
    }

    // `if (taken) {taken} else {notTaken}`, taken as ZF says the last CMP's
    // operands compare (or as the loop before was left, for a jump made after it).
    static Stmt test(const X86Item& jump, Block taken, Block notTaken) {
        if (jump.exitOf >= 0)
            return compare(jump.where, registerOf(exitRegister(jump.exitOf), jump.where),
                           Expr::constant(jump.exit, jump.where), *jump.when, std::move(taken), std::move(notTaken));
        const Expr zeroFlagSet = Expr::constant(*jump.when == Comparison::Eq ? 1 : 0, jump.where);
        return compare(jump.where, registerOf(kZeroFlag, jump.where), zeroFlagSet, Comparison::Eq, std::move(taken),
                       std::move(notTaken));
    }

    static Stmt compare(const SourceLoc& where, Expr left, Expr right, Comparison op, Block taken, Block notTaken) {
        Stmt s;
        s.kind = Stmt::Kind::If;
        s.where = where;
        s.expr = std::move(left);
        s.expr2 = std::move(right);
        s.compare = op;
        s.body = std::move(taken);
        s.orelse = std::move(notTaken);
        return s;
    }

    static constexpr size_t kMaxStatements = 100000;
    std::vector<X86Item> items_;
    std::map<std::string, size_t> labels_;
    std::map<size_t, LeftLoop> leftLoops_;  // by head
    mutable std::vector<Inside> inside_;    // the left loops being structured, innermost last
    mutable size_t copied_ = 0;             // statements emitted so far
};

}  // namespace

Block structureX86(const std::vector<X86Item>& items) { return Structurer(items).all(); }

}  // namespace rdmacheck
