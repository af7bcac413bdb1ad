#include "locations.hpp"

namespace rdmacheck {

int findLocation(const std::vector<Location>& locations, const std::string& name) {
    for (size_t i = 0; i < locations.size(); ++i)
        if (locations[i].name == name && !locations[i].hidden) return static_cast<int>(i);
    return -1;
}

}  // namespace rdmacheck
