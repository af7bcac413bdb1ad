// Which machine implements which model (the RDMA^TSO paper §3 and RMW App. D.1). A fingerprint is the
// hash of the model's definition the machine was checked against (by cross on
// the corpus and random tests); editing that model file changes it, and the
// machine then refuses the model until someone checks them against each other
// again and updates the fingerprint here (tests/unit/test_model_language.cpp
// fails until then).
#include "rdmacheck/machine.hpp"

namespace rdmacheck {

const std::vector<MachineEntry>& machineRegistry() {
    static const std::vector<MachineEntry> machines = {
        {"rdma-tso", "aac2601e3e67045", {MachineFamily::QueuePairs, true, false}},
        {"rdma-tso-nopcie", "1e8eb8d14e25d537", {MachineFamily::QueuePairs, false, false}},
        {"rdma-tso-rmw", "4fe566daffda7ce4", {MachineFamily::QueuePairs, true, true}},
        {"tso", "631349a7f8adb90d", {MachineFamily::QueuePairs, true, false}},
        {"sc", "9bdb46b5f67c130e", {MachineFamily::Sequential, true, false}},
    };
    return machines;
}

const MachineEntry* findMachine(const Model& model) {
    for (const MachineEntry& m : machineRegistry())
        if (m.fingerprint == model.fingerprint) return &m;
    return nullptr;
}

const MachineParams& machineFor(const Model& model, const SourceLoc& where) {
    if (const MachineEntry* m = findMachine(model)) return m->params;
    std::string implemented;
    for (const MachineEntry& m : machineRegistry()) implemented += (implemented.empty() ? "" : ", ") + m.model;
    for (const MachineEntry& m : machineRegistry())
        if (m.model == model.name)
            throw InputError(where,
                             "model '" + model.name + "' differs from the " + m.model +
                                 " the operational machine implements (an edited file or --skip); only the "
                                 "declarative engine checks variants");
    throw InputError(where, "no operational machine implements model '" + model.name + "' (machines implement: " +
                                implemented + "); use the declarative engine");
}

}  // namespace rdmacheck
