#include "x86_control.hpp"

#include <map>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

namespace {

Expr cmpRegister(const char* name, const SourceLoc& where) {
    Expr e;
    e.kind = Expr::Kind::Register;
    e.name = name;
    e.where = where;
    return e;
}

class Structurer {
public:
    explicit Structurer(const std::vector<X86Item>& items) : items_(items) {
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].kind == X86Item::Kind::Label && !labels_.emplace(items[i].label, i).second)
                throw InputError(items[i].where, "label " + items[i].label + " defined twice in the thread");
    }

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
            if (item.kind == X86Item::Kind::Jump) i = jump(i, begin, end, out) - 1;
        }
        return out;
    }

private:
    // The jump at `at` as a statement into `out`; returns where the code goes on.
    size_t jump(size_t at, size_t begin, size_t end, Block& out) const {
        const X86Item& item = items_[at];
        const size_t target = targetOf(item, at, begin, end);
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
        if (target - 1 > at && last.kind == X86Item::Kind::Jump && !last.when) {
            const size_t join = targetOf(last, target - 1, begin, end);
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
            if (items_[j].kind != X86Item::Kind::Jump) continue;
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

    size_t targetOf(const X86Item& jump, size_t at, size_t begin, size_t end) const {
        auto it = labels_.find(jump.label);
        if (it == labels_.end()) throw InputError(jump.where, "no label " + jump.label + " in this thread");
        if (it->second < begin || it->second > end)
            throw InputError(jump.where, "this jump leaves the loop it is in (or enters one before its label): "
                                         "only jumps within a loop's stretch are read");
        if (it->second < at && !jump.when)
            throw InputError(jump.where, "an unconditional backward jump loops for ever: no execution ends");
        return it->second;
    }

    // `L: S; Jcc L`, where the code so far ran S once: `while (taken) {S}`,
    // which --unroll bounds as herd7's -unroll bounds the jumps taken back.
    Stmt loop(const X86Item& jump, size_t label, size_t at) const {
        Stmt s = test(jump, {}, {});
        s.kind = Stmt::Kind::While;
        s.body = region(label, at);
        return s;
    }

    // `if (taken) {taken} else {notTaken}`, taken as the last CMP's operands compare.
    static Stmt test(const X86Item& jump, Block taken, Block notTaken) {
        Stmt s;
        s.kind = Stmt::Kind::If;
        s.where = jump.where;
        s.expr = cmpRegister(kCmpLeft, jump.where);
        s.expr2 = cmpRegister(kCmpRight, jump.where);
        s.compare = *jump.when;
        s.body = std::move(taken);
        s.orelse = std::move(notTaken);
        return s;
    }

    static constexpr size_t kMaxStatements = 100000;
    const std::vector<X86Item>& items_;
    std::map<std::string, size_t> labels_;
    mutable size_t copied_ = 0;  // statements emitted so far
};

}  // namespace

Block structureX86(const std::vector<X86Item>& items) { return Structurer(items).region(0, items.size()); }

}  // namespace rdmacheck
