#include "rdmacheck/events.hpp"

#include "rdmacheck/arith.hpp"

namespace rdmacheck {

static const char* const kKindNames[kEventKindCount] = {"lR", "lW", "CAS", "F", "P",
                                                        "nlR", "nrW", "nrR", "nlW", "nF",
                                                        "narR", "narW", "wait", "gF", "barX",
                                                        "acq", "relCW", "relGF", "relRF", "relNRW",
                                                        "scR", "scW", "scU",
                                                        "subCW", "subNRW", "subF", "recv", "recvF"};

const char* kindName(EventKind k) { return kKindNames[static_cast<int>(k)]; }

bool kindFromName(const std::string& name, EventKind& out) {
    for (int i = 0; i < kEventKindCount; ++i) {
        if (name == kKindNames[i]) {
            out = static_cast<EventKind>(i);
            return true;
        }
    }
    return false;
}

bool isRead(EventKind k) {
    return k == EventKind::LR || k == EventKind::CAS || k == EventKind::NLR || k == EventKind::NRR ||
           k == EventKind::NAR || k == EventKind::SCR || k == EventKind::SCU;
}

bool isWrite(EventKind k) {
    return k == EventKind::LW || k == EventKind::CAS || k == EventKind::NLW || k == EventKind::NRW ||
           k == EventKind::NAW || k == EventKind::SCW || k == EventKind::SCU;
}

bool isInstantaneous(EventKind k) {
    // A release's and a submit's aCW and aNRW_n stamps are write stamps, as the oracle's Inst says.
    return k != EventKind::LW && k != EventKind::NLW && k != EventKind::NRW && k != EventKind::NAW &&
           k != EventKind::RCW && k != EventKind::RNRW && k != EventKind::SUBCW && k != EventKind::SUBNRW;
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

Value Value::received(int event, int index) {
    Value v = readBy(event);
    v.constant = index + 1;
    return v;
}

void Value::shiftEvents(int offset) {
    if (kind == Kind::Read) event += offset;
    for (Value& a : args) a.shiftEvents(offset);
}

long long Value::eval(const std::vector<long long>& readValues) const {
    switch (kind) {
        case Kind::Const: return constant;
        case Kind::Read: return readValues.at(event);
        case Kind::Add: return arith::add(args[0].eval(readValues), args[1].eval(readValues));
        case Kind::Sub: return arith::sub(args[0].eval(readValues), args[1].eval(readValues));
        case Kind::Mul: return arith::mul(args[0].eval(readValues), args[1].eval(readValues));
        case Kind::Mod: return arith::mod(args[0].eval(readValues), args[1].eval(readValues));
        case Kind::Neg: return arith::neg(args[0].eval(readValues));
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

const std::map<int, std::vector<int>>& ExecutionGraph::orderOf(const std::string& name) const {
    static const std::map<int, std::vector<int>> none;
    auto it = orders.find(name);
    return it == orders.end() ? none : it->second;
}

}  // namespace rdmacheck
