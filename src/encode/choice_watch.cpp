#include "choice_watch.hpp"

namespace rdmacheck {

ChoiceWatch::ChoiceWatch(z3::solver& solver) : solver_(solver) {
    z3::context& ctx = solver_.ctx();
    Z3_solver_propagate_init(ctx, solver_, this, pushed, popped, fresh);
    Z3_solver_propagate_fixed(ctx, solver_, fixed);
    Z3_solver_propagate_final(ctx, solver_, finalCheck);
    ctx.check_error();
}

unsigned ChoiceWatch::watch(const z3::expr& b) {
    const unsigned id = Z3_solver_propagate_register(solver_.ctx(), solver_, b);
    solver_.ctx().check_error();
    if (id >= value_.size()) value_.resize(id + 1, -1);
    value_[id] = -1;
    return id;
}

void ChoiceWatch::refute(const std::vector<unsigned>& ids) {
    z3::context& ctx = solver_.ctx();
    Z3_solver_propagate_consequence(ctx, callback_, static_cast<unsigned>(ids.size()), ids.data(), 0, nullptr,
                                    nullptr, ctx.bool_val(false));
}

void ChoiceWatch::pushed(void* self) {
    auto* w = static_cast<ChoiceWatch*>(self);
    w->scopes_.push_back(w->assignedIds_.size());
    ++w->changes_;
}

void ChoiceWatch::popped(void* self, unsigned scopes) {
    auto* w = static_cast<ChoiceWatch*>(self);
    if (scopes == 0) return;
    ++w->changes_;
    const size_t kept = scopes >= w->scopes_.size() ? 0 : w->scopes_[w->scopes_.size() - scopes];
    w->scopes_.resize(scopes >= w->scopes_.size() ? 0 : w->scopes_.size() - scopes);
    for (; w->assignedIds_.size() > kept; w->assignedIds_.pop_back()) w->value_[w->assignedIds_.back()] = -1;
}

// Z3 asks for a copy only when it copies the solver, which the encoder never does.
void* ChoiceWatch::fresh(void*, Z3_context) { return nullptr; }

void ChoiceWatch::fixed(void* self, Z3_solver_callback, unsigned id, Z3_ast value) {
    auto* w = static_cast<ChoiceWatch*>(self);
    if (id >= w->value_.size()) w->value_.resize(id + 1, -1);
    w->value_[id] = Z3_get_bool_value(w->solver_.ctx(), value) == Z3_L_TRUE ? 1 : 0;
    w->assignedIds_.push_back(id);
    ++w->changes_;
}

// Z3 asks its theories for their final checks in turn, from the one after the
// last that asked to go on, and stops at the first that does: a theory asked
// before another may see an assignment the other then refutes. So the first
// final check of an assignment only asks to go on (a propagation of `true`,
// which changes nothing); when the next one finds the assignment unchanged
// (no scope pushed or popped, no watched Boolean assigned), every other theory
// has passed it since, and the handler runs.
void ChoiceWatch::finalCheck(void* self, Z3_solver_callback cb) {
    auto* w = static_cast<ChoiceWatch*>(self);
    if (!w->handler_) return;
    w->callback_ = cb;
    if (w->armed_ && w->armedAt_ == w->changes_) {
        w->armed_ = false;
        w->handler_();
    } else {
        w->armed_ = true;
        w->armedAt_ = w->changes_;
        z3::context& ctx = w->solver_.ctx();
        Z3_solver_propagate_consequence(ctx, cb, 0, nullptr, 0, nullptr, nullptr, ctx.bool_val(true));
    }
    w->callback_ = nullptr;
}

}  // namespace rdmacheck
