// The few least of many items, for a report that shows some of what a search
// found: the search's order is arbitrary (the solver's), the least are not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rdmacheck {

template <class T, class Less>
class LeastKept {
public:
    LeastKept(size_t limit, Less less) : limit_(limit), less_(less) {}

    // Copies `item` only when it is among the least so far.
    void offer(const T& item) {
        ++offered_;
        if (kept_.size() < limit_) {
            kept_.push_back(item);
            std::push_heap(kept_.begin(), kept_.end(), less_);
        } else if (limit_ > 0 && less_(item, kept_.front())) {
            std::pop_heap(kept_.begin(), kept_.end(), less_);
            kept_.back() = item;
            std::push_heap(kept_.begin(), kept_.end(), less_);
        }
    }

    uint64_t offered() const { return offered_; }

    // The kept items, least first.
    std::vector<T> sorted() const {
        std::vector<T> out = kept_;
        std::sort_heap(out.begin(), out.end(), less_);
        return out;
    }

private:
    size_t limit_;
    Less less_;
    std::vector<T> kept_;  // a heap, greatest first
    uint64_t offered_ = 0;
};

}  // namespace rdmacheck
