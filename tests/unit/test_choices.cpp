// The registry of chosen relations (choices.hpp) is the one list of what an
// execution chooses: the model language, the pictures and the sources follow it.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "rdmacheck/choices.hpp"
#include "rdmacheck/library.hpp"
#include "rdmacheck/picture.hpp"
#include "rdmacheck/relations.hpp"

namespace rdmacheck {
namespace {

using testing::readFile;
using testing::sourceDir;

TEST(Choices, AreTheDynamicBaseRelationsInRegistryOrder) {
    std::vector<std::string> dynamic, chosen;
    for (const BaseRelation& r : baseRelations())
        if (r.dynamic) dynamic.push_back(r.name);
    for (const ChosenRelation& c : chosenRelations()) chosen.push_back(c.name);
    EXPECT_EQ(dynamic, chosen);
    EXPECT_EQ(chosen, (std::vector<std::string>{"rf", "mo", "rb", "nfo", "rao", "lo"}));
}

// A group order is data: its grouping function; the other kinds have none. Each
// entry names registered libraries: rao the core's remote RMWs, lo the locks.
TEST(Choices, GroupOrdersAreDataOfTheirLibraries) {
    for (const ChosenRelation& c : chosenRelations()) {
        EXPECT_EQ(static_cast<bool>(c.groups), c.kind == ChoiceKind::GroupOrder) << c.name;
        EXPECT_FALSE(c.libraries.empty()) << c.name;
        for (const std::string& library : c.libraries) EXPECT_TRUE(findLibrary(library)) << c.name << ": " << library;
    }
    EXPECT_EQ(findChosenRelation("rao")->libraries, std::vector<std::string>{"rdma"});
    EXPECT_EQ(findChosenRelation("lo")->libraries, (std::vector<std::string>{"wl", "sl", "nl"}));
    EXPECT_EQ(findChosenRelation("po"), nullptr);
}

TEST(Choices, PicturesDrawEachAsItsEntrySays) {
    std::set<int> slots;
    for (const ChosenRelation& c : chosenRelations()) {
        EXPECT_EQ(relationStyle(c.name).color, c.drawing.colour) << c.name;
        EXPECT_EQ(relationStyle(c.name).style, c.drawing.style) << c.name;
        EXPECT_TRUE(slots.insert(c.drawing.legendSlot).second) << c.name << " shares its legend slot";
    }
}

// Users iterate the registry: a group order's name is spelled, as a string, only
// in the one source that declares it (next to its library).
TEST(Choices, EachGroupOrderIsNamedInOneSourceOnly) {
    std::vector<std::string> sources;
    for (const char* dir : {"/src", "/include"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(sourceDir() + dir))
            if (entry.is_regular_file()) sources.push_back(entry.path().string());
    for (const ChosenRelation& c : chosenRelations()) {
        if (c.kind != ChoiceKind::GroupOrder) continue;
        std::vector<std::string> naming;
        for (const std::string& path : sources)
            if (readFile(path).find("\"" + c.name + "\"") != std::string::npos) naming.push_back(path);
        EXPECT_EQ(naming.size(), 1u) << c.name << " is named in " << ::testing::PrintToString(naming);
    }
}

}  // namespace
}  // namespace rdmacheck
