#include "rdmacheck/events.hpp"

#include <tuple>

#include "rdmacheck/arith.hpp"
#include "rdmacheck/library.hpp"

namespace rdmacheck {

namespace {

struct CoreKind {
    const char* name;
    bool read, write, instantaneous;
};

// the RDMA^TSO paper's kinds, in EventKind order.
const CoreKind kCoreKinds[kCoreEventKinds] = {
    {"lR", true, false, true},     {"lW", false, true, false},   {"CAS", true, true, true},
    {"F", false, false, true},     {"P", false, false, true},    {"nlR", true, false, true},
    {"nrW", false, true, false},   {"nrR", true, false, true},   {"nlW", false, true, false},
    {"nF", false, false, true},    {"narR", true, false, true},  {"narW", false, true, false},
    {"wait", false, false, true},  {"gF", false, false, true},
};

}  // namespace

int eventKindCount() { return kCoreEventKinds + registeredLibraryKinds(); }

const char* kindName(EventKind k) {
    const int i = static_cast<int>(k);
    return i < kCoreEventKinds ? kCoreKinds[i].name : registeredLibraryKind(k).name;
}

bool kindFromName(const std::string& name, EventKind& out) {
    for (int i = 0; i < eventKindCount(); ++i) {
        if (name == kindName(static_cast<EventKind>(i))) {
            out = static_cast<EventKind>(i);
            return true;
        }
    }
    return false;
}

bool isRead(EventKind k) {
    const int i = static_cast<int>(k);
    return i < kCoreEventKinds ? kCoreKinds[i].read : registeredLibraryKind(k).read;
}

bool isWrite(EventKind k) {
    const int i = static_cast<int>(k);
    return i < kCoreEventKinds ? kCoreKinds[i].write : registeredLibraryKind(k).write;
}

bool isInstantaneous(EventKind k) {
    const int i = static_cast<int>(k);
    return i < kCoreEventKinds ? kCoreKinds[i].instantaneous : registeredLibraryKind(k).instantaneous;
}

const char* comparisonText(Comparison c) {
    static const char* const texts[] = {"=", "!=", "<", "<=", ">", ">="};
    return texts[static_cast<int>(c)];
}

Comparison negated(Comparison c) {
    switch (c) {
        case Comparison::Eq: return Comparison::Ne;
        case Comparison::Ne: return Comparison::Eq;
        case Comparison::Lt: return Comparison::Ge;
        case Comparison::Le: return Comparison::Gt;
        case Comparison::Gt: return Comparison::Le;
        case Comparison::Ge: return Comparison::Lt;
    }
    return c;
}

Value Value::of(long long c) {
    Value v;
    v.constant = c;
    return v;
}

Value Value::readBy(int event) {
    Value v;
    v.kind = Kind::Read;
    v.event = event;
    return v;
}

Value Value::operation(Operator op, std::vector<Value> args) { return arith::operationNode(op, std::move(args)); }

Value Value::received(int event, int index) {
    Value v = readBy(event);
    v.constant = index + 1;
    return v;
}

std::optional<int> Value::copiedRead() const {
    if (kind == Kind::Read) return event;
    if (!is(Operator::Add) && !is(Operator::Or)) return std::nullopt;
    auto zero = [](const Value& a) { return a.kind == Kind::Const && a.constant == 0; };
    if (zero(args[0])) return args[1].copiedRead();
    if (zero(args[1])) return args[0].copiedRead();
    return std::nullopt;
}

std::optional<std::pair<int, int>> Value::xorOfCopies() const {
    if (!is(Operator::Xor)) return std::nullopt;
    const auto a = args[0].copiedRead(), b = args[1].copiedRead();
    if (!a || !b) return std::nullopt;
    return std::make_pair(*a, *b);
}

void Value::shiftEvents(int offset) {
    if (kind == Kind::Read) event += offset;
    for (Value& a : args) a.shiftEvents(offset);
}

long long Value::eval(const std::vector<long long>& readValues) const {
    switch (kind) {
        case Kind::Const: return constant;
        case Kind::Read: return readValues.at(event);
        case Kind::Operation: return arith::evaluate(*this, [&](const Value& a) { return a.eval(readValues); });
    }
    return 0;
}

void ExecutionGraph::clearChoices(size_t locationCount) {
    rf.assign(events.size(), -1);
    readValues.assign(events.size(), 0);
    mo.assign(locationCount, {});
    nfo.clear();
    orders.clear();
}

bool canonicallyBefore(const ExecutionGraph& a, const ExecutionGraph& b) {
    return std::tie(a.paths, a.rf, a.mo, a.nfo, a.orders) < std::tie(b.paths, b.rf, b.mo, b.nfo, b.orders);
}

const std::map<int, std::vector<int>>& ExecutionGraph::orderOf(const std::string& name) const {
    static const std::map<int, std::vector<int>> none;
    auto it = orders.find(name);
    return it == orders.end() ? none : it->second;
}

}  // namespace rdmacheck
