#include "search_path.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#ifndef RDMACHECK_MODELS_DIR
#define RDMACHECK_MODELS_DIR "models"
#endif

namespace rdmacheck {

bool isModelName(const std::string& name) {
    return name.find('/') == std::string::npos && std::filesystem::path(name).extension().empty();
}

namespace {

std::string firstExisting(const std::vector<std::string>& files) {
    // What exists is taken, a folder or a FIFO too: the reader says what is wrong with it.
    std::error_code ec;
    for (const std::string& file : files)
        if (std::filesystem::exists(file, ec)) return file;
    return "";
}

// herd7's library: $HERDLIB, as herd7 reads it, else the one installed
// beside a herd7 on the PATH (PREFIX/bin/herd7, PREFIX/share/herdtools7/herd).
std::string herd7Library() {
    if (const char* env = std::getenv("HERDLIB"); env && *env) return env;
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "");
    std::error_code ec;
    for (std::string folder; std::getline(folders, folder, ':');) {
        if (folder.empty() || !std::filesystem::exists(folder + "/herd7", ec)) continue;
        const std::string library = folder + "/../share/herdtools7/herd";
        if (std::filesystem::is_directory(library, ec)) return std::filesystem::path(library).lexically_normal().string();
    }
    return "";
}

}  // namespace

bool isImplicit(const std::string& name) {
    return !name.empty() && name[0] != '/' && name.rfind("./", 0) != 0 && name.rfind("../", 0) != 0;
}

std::vector<std::string> lookedIn(const ModelSearchPath& path, const std::string& name,
                                  const std::string& besideFolder, bool besideFirst) {
    const std::string file = isModelName(name) ? name + ".cat" : name;
    std::vector<std::string> out;
    if (besideFirst && !besideFolder.empty()) out.push_back(besideFolder + "/" + file);
    if (!isModelName(name)) out.push_back(file);
    for (const std::string& folder : path.folders) out.push_back(folder + "/" + file);
    if (!isModelName(name) && !path.herdLibrary.empty()) out.push_back(path.herdLibrary + "/" + file);
    if (!besideFirst && !besideFolder.empty()) out.push_back(besideFolder + "/" + file);
    return out;
}

std::string shippedModelsDir() {
    // An installed rdmacheck (cmake --install, the .deb) has its models beside
    // it, in PREFIX/share/rdmacheck/models; a build uses the source tree's.
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "rdmacheck" / "models";
        if (std::filesystem::is_directory(installed, ec)) return installed.string();
    }
    return RDMACHECK_MODELS_DIR;
}

ModelSearchPath ModelSearchPath::withDefaults(const std::vector<std::string>& added) {
    std::vector<std::string> folders;
    for (const std::string& folder : added)  // herd7's -I +DIR: DIR among the shipped models
        folders.push_back(folder.rfind('+', 0) == 0 ? shippedModelsDir() + "/" + folder.substr(1) : folder);
    if (const char* env = std::getenv("RDMACHECK_MODELS")) {
        std::istringstream list(env);
        for (std::string folder; std::getline(list, folder, ':');)
            if (!folder.empty()) folders.push_back(folder);
    }
    folders.push_back(shippedModelsDir());
    ModelSearchPath path(std::move(folders));
    path.herdLibrary = herd7Library();
    return path;
}


std::string ModelSearchPath::find(const std::string& name, const std::string& besideFolder) const {
    return isImplicit(name) ? firstExisting(lookedIn(*this, name, besideFolder)) : name;
}

std::string ModelSearchPath::findInclude(const std::string& name, const std::string& includingFolder) const {
    return isImplicit(name) ? firstExisting(lookedIn(*this, name, includingFolder, false)) : name;
}

std::vector<std::string> ModelSearchPath::modelNames() const {
    std::set<std::string> names;
    std::error_code ec;
    for (const std::string& folder : folders)
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
            if (entry.path().extension() == ".cat" && entry.path().stem().string().rfind("_", 0) != 0 &&
                entry.path().stem() != "stdlib")
                names.insert(entry.path().stem().string());
    return {names.begin(), names.end()};
}

}  // namespace rdmacheck
