#include "record.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include "rdmacheck/choices.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck::machine {

namespace {

// What a run did with one issued event: when (the position of the record in the
// run) it read and wrote, and what it wrote.
struct Issued {
    RunRecord issue;
    int readAt = -1, wroteAt = -1;
    long long written = 0;
};

class RunBuilder {
public:
    RunBuilder(const Program& program, const std::vector<RunRecord>& records, const Model& model)
        : program_(program), records_(records), model_(model), locations_(static_cast<int>(program.locations.size())) {}

    ExecutionGraph build(const State& final) {
        collect();
        addEvents();
        addRegisters(final);
        addPollsFrom();
        addReadsAndWrites();
        if (model_.uses("nfo")) addNfo();
        for (const ChosenRelation& c : chosenRelations())
            if (c.kind == ChoiceKind::GroupOrder && model_.uses(c.name)) addGroupOrder(c);
        return std::move(graph_);
    }

private:
    Issued& issued(int event) { return issued_.at(event - locations_); }

    void collect() {
        for (size_t at = 0; at < records_.size(); ++at) {
            const RunRecord& r = records_[at];
            switch (r.what) {
                case RunRecord::What::Issue:
                    if (r.event != locations_ + static_cast<int>(issued_.size()))
                        throw std::logic_error("machine: recorded events out of order");
                    issued_.push_back(Issued{r});
                    break;
                case RunRecord::What::Read: issued(r.event).readAt = static_cast<int>(at); break;
                case RunRecord::What::Write:
                    issued(r.event).wroteAt = static_cast<int>(at);
                    issued(r.event).written = r.value;
                    break;
            }
        }
    }

    // A failed RCAS issued its narW but never wrote it: the unfolding has none.
    static bool happened(const Issued& e) { return e.issue.kind != EventKind::NAW || e.wroteAt >= 0; }

    void addEvents() {
        for (int l = 0; l < locations_; ++l) {
            Event init;
            init.kind = EventKind::LW;
            init.location = l;
            init.written = Value::of(program_.locations[l].init);
            graph_.events.push_back(init);
            index_.push_back(l);
            ids_.push_back(l);
        }
        index_.resize(locations_ + issued_.size(), -1);
        graph_.threadEvents.resize(program_.threads.size());
        std::map<int, int> inThread;  // event id -> its place in its thread (calls count from it)
        for (size_t t = 0; t < program_.threads.size(); ++t) {
            for (const Issued& e : issued_) {  // ids grow in issue order, which is program order
                if (e.issue.thread != static_cast<int>(t) || !happened(e)) continue;
                inThread[e.issue.event] = static_cast<int>(graph_.threadEvents[t].size());
                index_[e.issue.event] = static_cast<int>(graph_.events.size());
                graph_.threadEvents[t].push_back(static_cast<int>(graph_.events.size()));
                graph_.events.push_back(event(e, inThread.at(e.issue.call)));
                ids_.push_back(e.issue.event);
            }
        }
    }

    // X86 registers: their values at the end of the run.
    void addRegisters(const State& final) {
        for (size_t t = 0; t < program_.threads.size(); ++t) {
            std::map<std::string, Value> registers;
            for (size_t r = 0; r < program_.threads[t].registers.size(); ++r)
                registers[program_.threads[t].registers[r]] = Value::of(final.threads[t].registers[r]);
            graph_.registers.push_back(std::move(registers));
        }
    }

    Event event(const Issued& e, int call) const {
        Event ev;
        ev.kind = e.issue.kind;
        ev.thread = e.issue.thread;
        ev.location = e.issue.location;
        ev.remote = e.issue.remote;
        ev.where = program_.threads[e.issue.thread].code[e.issue.pc].where;
        ev.call = call;
        if (isWrite(ev.kind)) ev.written = Value::of(e.written);
        return ev;
    }

    // The k-th poll towards a node polls the thread's k-th NIC write towards it
    // (a put's nrW, a get's or RMW's nlW), as completions leave wbL in order (§4.2).
    void addPollsFrom() {
        for (const std::vector<int>& events : graph_.threadEvents) {
            std::map<int, std::deque<int>> unpolled;
            for (int e : events) {
                const Event& ev = graph_.events[e];
                if (ev.kind == EventKind::NRW || ev.kind == EventKind::NLW) unpolled[ev.remote].push_back(e);
                if (ev.kind != EventKind::P) continue;
                if (unpolled[ev.remote].empty()) throw std::logic_error("machine: a recorded poll polled nothing");
                graph_.pollsFrom.emplace_back(unpolled[ev.remote].front(), e);
                unpolled[ev.remote].pop_front();
            }
        }
    }

    void addReadsAndWrites() {
        graph_.clearChoices(locations_);
        for (int l = 0; l < locations_; ++l) graph_.mo[l].push_back(l);
        for (const RunRecord& r : records_) {
            if (r.what == RunRecord::What::Issue) continue;
            const int e = index_.at(r.event);
            if (r.what == RunRecord::What::Write) {
                graph_.mo[issued(r.event).issue.location].push_back(e);
                continue;
            }
            // A put of a constant reads its hidden location, which holds the
            // constant from its initial write on.
            graph_.rf[e] = r.source >= 0 ? index_.at(r.source) : issued(r.event).issue.location;
            graph_.readValues[e] = r.value;
        }
    }

    // When the run performed e: a read when it took its value, a write when it
    // reached memory.
    int performedAt(int e) const {
        const Issued& ev = issued_.at(ids_[e] - locations_);
        return isRead(ev.issue.kind) ? ev.readAt : ev.wroteAt;
    }

    // Each same-queue-pair pair the encoder gives an nfo direction, in the
    // encoder's order, directed as the run performed it.
    void addNfo() {
        for (const std::vector<int>& events : graph_.threadEvents)
            for (size_t i = 0; i < events.size(); ++i)
                for (size_t j = i + 1; j < events.size(); ++j) {
                    const int a = events[i], b = events[j];
                    if (!isNfoPair(graph_.events[a], graph_.events[b])) continue;
                    if (performedAt(a) < performedAt(b)) {
                        graph_.nfo.emplace_back(a, b);
                    } else {
                        graph_.nfo.emplace_back(b, a);
                    }
                }
    }

    // Per group of the chosen order (rao: a target node's remote atomic reads),
    // its events in the order the run performed them.
    void addGroupOrder(const ChosenRelation& chosen) {
        for (const auto& [group, events] : chosen.groups(graph_)) {
            std::vector<std::pair<int, int>> order;  // (time, event)
            for (int e : events) order.emplace_back(performedAt(e), e);
            std::sort(order.begin(), order.end());
            for (auto [at, e] : order) graph_.orders[chosen.name][group].push_back(e);
        }
    }

    const Program& program_;
    const std::vector<RunRecord>& records_;
    const Model& model_;
    const int locations_;
    std::vector<Issued> issued_;  // by event id - locations_
    std::vector<int> index_;      // by event id: its index in the graph (-1: it did not happen)
    std::vector<int> ids_;        // by graph index: its event id
    ExecutionGraph graph_;
};

}  // namespace

ExecutionGraph recordedExecution(const Program& program, const std::vector<RunRecord>& records, const State& final,
                                 const Model& model) {
    return RunBuilder(program, records, model).build(final);
}

}  // namespace rdmacheck::machine
