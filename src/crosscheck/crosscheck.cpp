#include "rdmacheck/crosscheck.hpp"

#include <algorithm>

#include "rdmacheck/check.hpp"
#include "rdmacheck/print.hpp"
#include "rdmacheck/shrink.hpp"

namespace rdmacheck {

namespace {

const std::vector<std::string>& engineNames() {
    static const std::vector<std::string> names = {"declarative", "concrete", "simplified", "concrete-full",
                                                   "simplified-full"};
    return names;
}

std::vector<FinalState> statesOf(const CheckResult& r) {
    std::vector<FinalState> states;
    for (const auto& [state, satisfies] : r.states) states.push_back(state);
    return states;
}

std::vector<FinalState> minus(const std::vector<FinalState>& a, const std::vector<FinalState>& b) {
    std::vector<FinalState> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

// The first configuration each one is compared with.
size_t referenceOf(const std::vector<EngineConfig>& configs, size_t i, bool againstFirst) {
    if (againstFirst) return 0;
    for (size_t j = 0; j < i; ++j)
        if (configs[j].model == configs[i].model) return j;
    return i;
}

// The difference between two configurations' runs, if their state sets differ.
std::optional<Difference> difference(const EngineConfig& a, const CheckResult& ra, const EngineConfig& b,
                                     const CheckResult& rb) {
    const std::vector<FinalState> sa = statesOf(ra), sb = statesOf(rb);
    if (sa == sb) return std::nullopt;
    Difference d;
    d.first = a;
    d.second = b;
    d.names = ra.shown;
    d.onlyFirst = minus(sa, sb);
    d.onlySecond = minus(sb, sa);
    return d;
}

}  // namespace

std::vector<EngineConfig> parseEngineConfigs(const std::string& spec) {
    std::vector<EngineConfig> configs;
    size_t start = 0;
    while (start <= spec.size()) {
        size_t comma = spec.find(',', start);
        if (comma == std::string::npos) comma = spec.size();
        const std::string item = spec.substr(start, comma - start);
        const size_t colon = item.find(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == item.size())
            throw InputError(SourceLoc{"--configs", 0, 0}, "expected ENGINE:MODEL, got '" + item + "'");
        EngineConfig c{item.substr(0, colon), item.substr(colon + 1)};
        if (std::find(engineNames().begin(), engineNames().end(), c.engine) == engineNames().end())
            throw InputError(SourceLoc{"--configs", 0, 0},
                             "unknown engine '" + c.engine +
                                 "' (known: declarative, concrete, simplified, concrete-full, simplified-full)");
        configs.push_back(c);
        start = comma + 1;
    }
    return configs;
}

std::map<std::string, Model> loadConfigModels(const std::vector<EngineConfig>& configs, const ModelSearchPath& modelPath,
                                              const ResourceLimits& limits) {
    std::map<std::string, Model> models;
    for (const EngineConfig& c : configs)
        if (!models.count(c.model)) models.emplace(c.model, loadModel(modelPath, c.model, ModelOptions{{}, limits, ""}));
    return models;
}

CheckResult runConfig(const LitmusTest& test, const EngineConfig& config, const Model& model,
                      const CrossOptions& options) {
    LitmusTest everything = test;
    everything.shown = everyName(test);
    if (config.engine == "declarative") {
        CheckOptions o;
        o.unroll = options.unroll;
        o.limits = options.limits;
        return check(everything, model, o);
    }
    MachineOptions o;
    o.kind = config.engine.compare(0, 8, "concrete") == 0 ? MachineKind::Concrete : MachineKind::Simplified;
    o.reduce = config.engine.find("-full") == std::string::npos;
    o.unroll = options.unroll;
    o.maxStates = options.maxStates;
    o.limits = options.limits;
    return explore(everything, model, o);
}

std::optional<Difference> crossCheck(const LitmusTest& test, const std::map<std::string, Model>& models,
                                     const CrossOptions& options) {
    const auto& configs = options.configs;
    // Each configuration runs once, though several may be compared with it.
    std::vector<std::optional<CheckResult>> runs(configs.size());
    auto run = [&](size_t i) -> const CheckResult& {
        if (!runs[i]) runs[i] = runConfig(test, configs[i], models.at(configs[i].model), options);
        return *runs[i];
    };
    for (size_t i = 0; i < configs.size(); ++i) {
        const size_t ref = referenceOf(configs, i, options.againstFirst);
        if (ref == i) continue;
        const EngineConfig& a = configs[ref];
        const EngineConfig& b = configs[i];
        std::optional<Difference> d = difference(a, run(ref), b, run(i));
        if (!d) continue;
        d->addresses = test.addresses;
        if (options.shrink && test.arch == Arch::Rdma) {
            LitmusTest small = shrink(test, [&](const LitmusTest& candidate) {
                const CheckResult ra = runConfig(candidate, a, models.at(a.model), options);
                return difference(a, ra, b, runConfig(candidate, b, models.at(b.model), options)).has_value();
            });
            d->reproducer = printLitmus(small);
        } else if (test.arch == Arch::Rdma) {
            d->reproducer = printLitmus(test);
        }
        return d;
    }
    return std::nullopt;
}

}  // namespace rdmacheck
