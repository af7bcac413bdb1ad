// The reduced search: dynamic partial-order reduction over the agents and
// footprints of independence.hpp, with the races and source sets of Abdulla et
// al. (POPL 2014) and sleep sets. It keeps one run, the path from the initial
// configuration, and no visited set: memory grows with the depth of a run, time
// with the number of Mazurkiewicz traces (runs up to swapping adjacent
// independent steps), where the hashed search pays for every configuration.
// doc/machines.md argues why it reaches every final memory.
#include <algorithm>
#include <string>

#include "rdmacheck/progress.hpp"
#include "search.hpp"

namespace rdmacheck::machine {

namespace {

// A set of positions in the current run.
class Positions {
public:
    void insert(size_t i) {
        if (words_.size() <= i / 64) words_.resize(i / 64 + 1, 0);
        words_[i / 64] |= uint64_t(1) << (i % 64);
    }
    bool contains(size_t i) const { return i / 64 < words_.size() && (words_[i / 64] >> (i % 64) & 1); }
    void add(const Positions& o) {
        if (words_.size() < o.words_.size()) words_.resize(o.words_.size(), 0);
        for (size_t w = 0; w < o.words_.size(); ++w) words_[w] |= o.words_[w];
    }

private:
    std::vector<uint64_t> words_;
};

// A step of the current run: who took it, what it touched, and the earlier
// steps that happen before it (a chain of same-agent or conflicting steps, or
// the step that gave the agent this step to take).
struct Taken {
    AgentId agent = 0;
    size_t choice = 0;  // which of the agent's successors (control flow may have several)
    Footprint footprint;
    Positions before;
};

// A configuration of the current run, with what is left to explore from it.
struct Level {
    State state;
    std::vector<AgentId> agents;          // the agent of each successor (Rules::successors' order)
    std::vector<PendingStep> pending;     // every agent with a step here, enabled or not
    std::vector<int> givenAt;             // per pending step: the run position whose step gave it (-1: none)
    std::vector<bool> enabledThere;       // per pending step: that step only enabled it (it was pending, disabled)
    std::vector<AgentId> backtrack;       // agents to explore from here
    std::vector<AgentId> done;            // agents explored from here
    std::vector<PendingStep> sleep;       // steps explored from an earlier configuration, still independent
    // The run a race asked for, by agent: explored first from the configuration
    // it starts at, so the search goes where the race pointed instead of into
    // runs its sleep sets would block. Only the order of exploring depends on it.
    std::vector<std::pair<AgentId, std::vector<AgentId>>> wanted;
    std::vector<AgentId> following;       // the rest of a wanted run that led here
    bool exploring = false;               // current is being explored: its successors `choices`
    AgentId current = 0;
    std::vector<size_t> choices;          // its successors' places among all successors
    std::vector<State> choiceStates;      // and the successors themselves
    size_t nextChoice = 0;
    uint32_t chosen = 0;                  // the successor the run took from here
};

bool has(const std::vector<AgentId>& v, AgentId a) { return std::find(v.begin(), v.end(), a) != v.end(); }

const PendingStep* findStep(const std::vector<PendingStep>& v, AgentId a) {
    for (const PendingStep& p : v)
        if (p.agent == a) return &p;
    return nullptr;
}

bool sameFootprint(const Footprint& a, const Footprint& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Access& x, const Access& y) {
               return x.object == y.object && x.write == y.write;
           });
}

class TraceSearch {
public:
    TraceSearch(const LitmusTest& test, const Program& program, const Rules& rules, const MachineOptions& options,
                CheckResult& result)
        : test_(test), program_(program), rules_(rules), options_(options), result_(result) {}

    Reached run() {
        ProgressLine progress(test_.name, options_.progress);
        const ResourceGuard guard(test_.file, options_.limits);
        enter(rules_.initial(), {}, {});
        while (!levels_.empty()) {
            guard.check();
            if (!step()) {
                levels_.pop_back();
                if (!run_.empty() && run_.size() >= levels_.size()) run_.pop_back();
            }
            if ((reached_.states & 0x3ff) == 0)
                progress.tick([&](double seconds) {
                    return std::to_string(reached_.runs) + " runs, " + std::to_string(reached_.states) +
                           " states, " + std::to_string(ProgressLine::perSecond(reached_.states, seconds)) +
                           " states/s, depth " + std::to_string(levels_.size());
                });
        }
        return std::move(reached_);
    }

private:
    // Takes the next step to explore from the deepest configuration; false when none is left.
    bool step() {
        Level& level = levels_.back();
        if (level.nextChoice == level.choices.size()) {
            if (level.exploring) level.done.push_back(level.current);
            if (!chooseAgent(level)) return false;
        }
        const size_t n = level.nextChoice++;
        level.chosen = static_cast<uint32_t>(level.choices[n]);
        const PendingStep& taken = *findStep(level.pending, level.current);
        const size_t at = &taken - level.pending.data();
        // Its races, now that it is taken; an enabling step is no reason it cannot come first.
        findRaces(taken, level.enabledThere[at] ? -1 : level.givenAt[at]);
        run_.push_back(takenStep(level, at));
        run_.back().choice = level.nextChoice - 1;
        std::vector<PendingStep> sleep = childSleep(level, taken);
        // The level keeps a successor only while its agent has other choices to come.
        State child = level.choices.size() == 1 ? std::move(level.choiceStates[n]) : level.choiceStates[n];
        enter(std::move(child), std::move(sleep), rest(level));
        return true;
    }

    // The next agent of the backtrack set not explored and not asleep.
    bool chooseAgent(Level& level) {
        for (size_t i = 0; i < level.backtrack.size(); ++i) {
            const AgentId a = level.backtrack[i];
            if (has(level.done, a)) continue;
            if (findStep(level.sleep, a)) {
                level.done.push_back(a);
                continue;
            }
            level.current = a;
            level.exploring = true;
            level.choices.clear();
            level.nextChoice = 0;
            for (size_t k = 0; k < level.agents.size(); ++k)
                if (level.agents[k] == a) level.choices.push_back(k);
            level.choiceStates.clear();
            applyRules(test_, [&] { rules_.agentSuccessors(level.state, a, level.choiceStates, scratch_); });
            if (!level.choices.empty()) return true;
            level.done.push_back(a);  // a register test that fails: the thread never goes on
            level.exploring = false;
        }
        return false;
    }

    // Steps asleep after taking `taken`: those asleep here and those of agents
    // already explored from here, that commute with it.
    std::vector<PendingStep> childSleep(const Level& level, const PendingStep& taken) const {
        std::vector<PendingStep> sleep;
        auto keep = [&](const PendingStep& p) {
            if (p.agent != taken.agent && !conflict(p.footprint, taken.footprint)) sleep.push_back(p);
        };
        for (const PendingStep& p : level.sleep) keep(p);
        for (AgentId a : level.done)
            if (const PendingStep* p = findStep(level.pending, a)) keep(*p);
        return sleep;
    }

    // Pending step `at` of the deepest configuration, taken, with what happens before it.
    Taken takenStep(const Level& level, size_t at) const {
        const PendingStep& step = level.pending[at];
        Taken t{step.agent, 0, step.footprint, {}};
        const int given = level.givenAt[at];
        if (given >= 0) addWithPast(t.before, static_cast<size_t>(given));
        for (size_t k = run_.size(); k-- > 0;) {
            if (t.before.contains(k)) continue;  // and so is all that happens before it
            if (run_[k].agent == step.agent || conflict(run_[k].footprint, step.footprint)) addWithPast(t.before, k);
        }
        return t;
    }

    void addWithPast(Positions& set, size_t k) const {
        set.insert(k);
        set.add(run_[k].before);
    }

    // What is left of the wanted run the current agent of level starts or continues.
    static std::vector<AgentId> rest(const Level& level) {
        for (const auto& [agent, run] : level.wanted)
            if (agent == level.current) return {run.begin() + 1, run.end()};
        if (!level.following.empty() && level.following.front() == level.current)
            return {level.following.begin() + 1, level.following.end()};
        return {};
    }

    // The configuration the run reaches next: lists its steps, finds the
    // races of those that are disabled, picks a first step.
    void enter(State s, std::vector<PendingStep> sleep, std::vector<AgentId> following) {
        checkStates(++reached_.states, options_, test_);
        levels_.emplace_back();
        Level& level = levels_.back();
        level.state = std::move(s);
        level.sleep = std::move(sleep);
        applyRules(test_, [&] { rules_.enabledAgents(level.state, level.agents, scratch_); });
        rules_.pending(level.state, level.pending);  // at a run's end too: a blocked step may race
        markGiven(level);
        // A disabled step is never taken here: its races now (another agent may have disabled it).
        for (size_t i = 0; i < level.pending.size(); ++i)
            if (!has(level.agents, level.pending[i].agent))
                findRaces(level.pending[i], level.enabledThere[i] ? -1 : level.givenAt[i]);
        if (level.agents.empty()) {
            ++reached_.runs;
            if (auto o = outcomeAtEnd(level.state, rules_, program_, test_, result_))
                if (!reached_.outcomes.count(*o)) reached_.outcomes.emplace(*o, path());
            return;
        }
        for (size_t t = 0; t < level.state.threads.size(); ++t) {
            if (rules_.controlStep(level.state, static_cast<int>(t))) {
                level.backtrack = {agentId(static_cast<int>(t), Role::Program)};
                return;
            }
        }
        if (!following.empty() && has(level.agents, following.front()) && !findStep(level.sleep, following.front())) {
            level.backtrack.push_back(following.front());
            level.following = std::move(following);
            return;
        }
        for (AgentId a : level.agents) {
            if (findStep(level.sleep, a)) continue;
            level.backtrack.push_back(a);
            return;
        }
    }

    // A pending step that the previous configuration had too, unchanged, as
    // enabled or more, and not its agent's just-taken one, was given where it
    // was; else the last step gave it: made it appear, changed it, enabled it.
    void markGiven(Level& level) const {
        const size_t d = levels_.size() - 1;
        for (const PendingStep& p : level.pending) {
            int given = d == 0 ? -1 : static_cast<int>(d - 1);
            bool enabled = false;
            if (d > 0 && run_[d - 1].agent != p.agent) {
                const Level& before = levels_[d - 1];
                const PendingStep* q = findStep(before.pending, p.agent);
                const bool enabledBefore = has(before.agents, p.agent) || !has(level.agents, p.agent);
                if (q && sameFootprint(q->footprint, p.footprint)) {
                    const size_t at = q - before.pending.data();
                    enabled = !enabledBefore || before.enabledThere[at];
                    if (enabledBefore) given = before.givenAt[at];
                }
            }
            level.givenAt.push_back(given);
            level.enabledThere.push_back(enabled);
        }
    }

    // Every step of the run that conflicts with p and does not happen before
    // it is a race: p could have come first there (Abdulla et al., "Optimal
    // dynamic partial order reduction", POPL 2014, Alg. 1, whose races are
    // between steps taken; here p may also be a disabled step, which another
    // agent's step may have disabled).
    void findRaces(const PendingStep& p, int given) {
        Positions past;  // what happens before p: its agent's steps, the step that gave it, causal objects
        if (given >= 0) addWithPast(past, static_cast<size_t>(given));
        for (size_t k = 0; k < run_.size(); ++k)
            if (run_[k].agent == p.agent) addWithPast(past, k);
        for (size_t i = run_.size(); i-- > 0;) {
            if (past.contains(i)) continue;
            if (causallyAfter(p.footprint, run_[i].footprint)) {
                addWithPast(past, i);
            } else if (conflict(run_[i].footprint, p.footprint)) {
                reverse(i, p, past);
            }
        }
    }

    // Makes levels_[i] explore a run that puts p before step i: one that
    // starts with an initial of v, the steps after i that do not happen after
    // it, then p. Nothing to do if one is explored there already.
    void reverse(size_t i, const PendingStep& p, const Positions& past) {
        Level& at = levels_[i];
        std::vector<size_t> v;
        for (size_t j = i + 1; j < run_.size(); ++j)
            if (!run_[j].before.contains(i)) v.push_back(j);
        auto initial = [&](auto happensBefore) {
            return std::none_of(v.begin(), v.end(), [&](size_t k) { return happensBefore(k); });
        };
        std::vector<std::pair<AgentId, size_t>> initials;  // an agent, and its step's place in v (v.size(): p)
        for (size_t n = 0; n < v.size(); ++n) {
            const size_t j = v[n];
            if (initial([&](size_t k) { return k < j && run_[j].before.contains(k); }))
                initials.emplace_back(run_[j].agent, n);
        }
        if (initial([&](size_t k) { return past.contains(k); })) initials.emplace_back(p.agent, v.size());
        initials.erase(std::remove_if(initials.begin(), initials.end(), [&](const auto& q) { return !has(at.agents, q.first); }),
                       initials.end());
        // p disabled there: unless v enables it, only i or steps after i do
        // (P3 emptying wbR for G3, S-PRW turning an older PUTV into an ACK),
        // and p cannot come first.
        const bool pFirst = !initials.empty() && initials.back().second == v.size();
        if (initials.empty() || (!pFirst && !enabledAfter(i, v, p.agent))) return;
        if (std::any_of(initials.begin(), initials.end(), [&](const auto& q) { return has(at.backtrack, q.first); })) return;
        for (const auto& [q, n] : initials) {
            if (findStep(at.sleep, q)) continue;  // its runs are explored from an earlier configuration
            at.backtrack.push_back(q);
            std::vector<AgentId> run = {q};  // then the rest of v, and p
            for (size_t m = 0; m < v.size(); ++m)
                if (m != n) run.push_back(run_[v[m]].agent);
            if (n != v.size()) run.push_back(p.agent);
            at.wanted.emplace_back(q, std::move(run));
            return;
        }
    }

    // Whether p's agent has a step after the steps v of the run, taken from levels_[i].
    bool enabledAfter(size_t i, const std::vector<size_t>& v, AgentId p) {
        State s = levels_[i].state;
        for (size_t j : v)
            if (!takeAgain(s, run_[j].agent, run_[j].choice)) return false;
        replayed_.clear();
        applyRules(test_, [&] { rules_.agentSuccessors(s, p, replayed_, scratch_); });
        return !replayed_.empty();
    }

    // Agent a's step (its choice-th successor) from s, into s; false if it has none.
    bool takeAgain(State& s, AgentId a, size_t choice) {
        replayed_.clear();
        applyRules(test_, [&] { rules_.agentSuccessors(s, a, replayed_, scratch_); });
        if (choice >= replayed_.size()) return false;
        s = std::move(replayed_[choice]);
        return true;
    }

    Path path() const {
        Path p;
        for (size_t d = 0; d + 1 < levels_.size(); ++d) p.push_back(levels_[d].chosen);
        return p;
    }

    const LitmusTest& test_;
    const Program& program_;
    const Rules& rules_;
    const MachineOptions& options_;
    CheckResult& result_;
    std::vector<Level> levels_;  // the current run's configurations; levels_[d] after d steps
    std::vector<Taken> run_;     // run_[d]: the step from levels_[d] to levels_[d + 1]
    Reached reached_;
    State scratch_;                // the successors the rules compute but the search does not keep
    std::vector<State> replayed_;  // enabledAfter's
};

}  // namespace

Reached searchTraces(const LitmusTest& test, const Program& program, const Rules& rules,
                     const MachineOptions& options, CheckResult& result) {
    return TraceSearch(test, program, rules, options, result).run();
}

}  // namespace rdmacheck::machine
