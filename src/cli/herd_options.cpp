// herd7's and mcompare7's options (herd/herd.ml, tools/mcompare.ml), read as
// rdmacheck's before CLI11 parses the command line: a herd7 user's command
// line and configuration files (-conf) work unchanged where they have a
// meaning here, and are refused by name where they have none.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <sstream>

#include "options.hpp"
#include "rdmacheck/diagnostics.hpp"
#include "rdmacheck/model.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck::cli {

namespace {

// herd7 options that are rdmacheck options of another name, with their argument.
const std::map<std::string, std::string> kRenamed{
    {"-I", "--models-dir"}, {"-cat", "--model"}, {"-nshow", "--max-pictures"}, {"-nohash", "--no-hash"},
    {"-q", "--quiet"},      {"-v", "--progress"},        {"-badflag", "--bad-flag"}};

// herd7's boolean options (-name true|false) that are rdmacheck flags.
const std::map<std::string, std::string> kBooleans{{"-showinitwrites", "--show-init"}, {"-hexa", "--hexa"}};

// herd7 options that change what is checked in ways rdmacheck has no counterpart for.
const std::map<std::string, std::string> kMeaningless{
    {"-variant", "rdmacheck's models have no architecture variants; a variant is a model file of its own"},
    {"-through", "rdmacheck reports consistent executions only"},
    {"-throughflag", "rdmacheck reports consistent executions only"},
    {"-strictskip", "--skip drops the axioms it names, nothing more"},
    {"-machsize", "values are 64-bit integers"},
    {"-endian", "values are integers, not bytes"},
    {"-candidates", "rdmacheck enumerates the consistent executions only, not herd7's candidates"},
    {"-outcomereads", "a final state shows the condition's and `locations`' names only"},
    {"-showflag", "rdmacheck prints every flag a model raises (Flag NAME) and draws no picture by flag"},
    {"-restrict", "every consistent execution counts"},
    {"-set-libdir", "the shipped models stay on the search path; add folders with -I DIR"},
    {"-c11", "rdmacheck reads no C11 tests (herd7's alias for -conf cpp11.cfg)"}};

// mcompare7's options (tools/mcompare.ml) other than -nohash, -pos, -neg and
// -eq: compare prints mcompare7's default table and nothing else.
bool isMcompareOption(const std::string& arg) {
    static const char* const options[] = {"-show", "-o", "-kinds", "-conds", "-restrict", "-nolitmus", "-nofst",
                                           "-noempty", "-mode", "-macro", "-forcekind", "-showkinds", "-cost", "-e",
                                           "-kmg", "-terse", "-pos", "-eq", "-neg", "-cpos", "-cneg", "-optcond",
                                           "-hexa", "-int32", "-big", "-faulttype", "-show_litmus_summary"};
    return std::find(std::begin(options), std::end(options), arg) != std::end(options);
}

// Configuration keys of herd7 that only style herd7's pictures (herd/lexConf_herd.mll).
bool isPictureStyle(const std::string& key) {
    static const char* const keys[] = {
        "graph", "squished", "showevents", "movelabel", "fontsize", "xscale", "yscale", "arrowsize", "splines",
        "pad", "doshow", "unshow", "edgeattr", "withbox", "labelbox", "showlegend", "showkind", "shortlegend",
        "showthread", "fixedsize", "extrachars", "dotmode", "dotcom", "penwidth", "fontname", "margin", "sep",
        "overlap", "mono", "scale", "ptscale", "boxscale", "dsiy", "siwidth", "threadposy", "relabel",
        "brackets", "showobserved", "edgemerge", "symetric", "noid", "showraw", "oneinit", "labelinit",
        "initpos", "initrfpos", "finalrfpos", "showinitrf", "showfinalrf", "showpo", "classes", "shift",
        "dotheader", "edgefontsizedelta"};
    for (const char* k : keys)
        if (key == k) return true;
    return false;
}

// -json, -model: a word after one dash (not -j4, a short option and its number).
bool isWordOption(const std::string& arg) {
    if (arg.size() <= 2 || arg[0] != '-' || !std::isalpha(static_cast<unsigned char>(arg[1]))) return false;
    return !std::all_of(arg.begin() + 2, arg.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

class Translator {
public:
    Translator(const CLI::App& app, std::vector<std::string>& out) : out_(out) {
        mainOptions_ = longOptionNames(app);
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
            commandOptions_[sub->get_name()] = longOptionNames(*sub);
    }

    // herd7's -name true|false (OCaml's Arg.Bool; -speedcheck also fast): whether it is on.
    static bool boolean(const std::string& arg, const std::string& value, const SourceLoc& where, bool fast) {
        if (value == "true" || value == "false" || (fast && value == "fast")) return value != "false";
        fail(where, "herd7's " + arg + " takes " + (fast ? "false, true or fast" : "true or false") + ", not '" +
                        value + "'");
    }

    // Translates args[i] (and its argument); returns the index of the last argument taken.
    size_t take(const std::vector<std::string>& args, size_t i, const SourceLoc& where) {
        const std::string& arg = args[i];
        if (arg == "compare") compare_ = true;
        if (command_.empty() && commandOptions_.count(arg)) command_ = arg;
        const bool herds = isWordOption(arg) || kRenamed.count(arg) || kMeaningless.count(arg) || arg == "-o" || (compare_ && isMcompareOption(arg));
        if (!herds) {
            out_.push_back(arg);
            return i;
        }
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) fail(where, "herd7's " + arg + " needs an argument");
            return args[++i];
        };
        if (auto it = kMeaningless.find(arg); it != kMeaningless.end())
            fail(where, "herd7's " + arg + " has no meaning in rdmacheck: " + it->second);
        if (compare_ && (arg == "-pos" || arg == "-neg" || arg == "-eq")) {
            out_.push_back("-" + arg);
            out_.push_back(value());
            return i;
        }
        if (compare_ && arg == "-e")  // tools/mcompare.ml: show_diffs takes no test names
            fail(where, "mcompare7's -e filters its other tables, not the default one compare prints (7.58 leaves "
                        "that table whole); rdmacheck's --filter REGEXP filters it");
        if (compare_ && isMcompareOption(arg))
            fail(where, "mcompare7's " + arg + " has no counterpart: rdmacheck compare prints mcompare7's default table");
        if (auto it = kRenamed.find(arg); it != kRenamed.end()) {
            out_.push_back(it->second);
            if (it->first == "-I" || it->first == "-cat" || it->first == "-badflag") out_.push_back(value());
            if (it->first == "-nshow") {
                const std::string& shown = value();
                out_.push_back(shown == "0" ? "1" : shown);  // herd7 7.58 shows one for 0
            }
        } else if (auto it = kBooleans.find(arg); it != kBooleans.end()) {
            switchTo(arg, boolean(arg, value(), where, false) ? std::vector<std::string>{it->second}
                                                              : std::vector<std::string>{});
        } else if (arg == "-speedcheck") {
            // herd7 (herd/mem.ml, top_herd.ml): true skips the executions whose final
            // state cannot decide the condition; fast stops at the first that does.
            const std::string& mode = value();
            std::vector<std::string> words;
            if (boolean(arg, mode, where, true)) words.push_back(mode == "fast" ? "--speedcheck" : "--deciding-executions");
            switchTo(arg, words);
        } else if (arg == "-badexecs") {  // herd/top_herd.ml: false prints no report of a test with a bad one
            switchTo(arg, boolean(arg, value(), where, false) ? std::vector<std::string>{}
                                                              : std::vector<std::string>{"--hide-undefined"});
        } else if (arg == "-showone") {  // herd/herd.ml: true sets -nshow to 1, false does nothing
            if (boolean(arg, value(), where, false)) out_.insert(out_.end(), {"--max-pictures", "1"});
        } else if (arg == "-skipchecks") {
            std::istringstream names(value());
            for (std::string name; std::getline(names, name, ',');) out_.insert(out_.end(), {"--skip", name});
            out_.push_back("--skip-only-present");
        } else if (arg == "-o") {
            const std::string& dir = value();
            if (dir == "-") fail(where, "rdmacheck writes pictures to files: -o DIR (one DIR/TEST.dot per test)");
            out_.insert(out_.end(), {"--dot", dir, "--dot-per-test"});
            herdPictures_ = true;
        } else if (arg == "-conf" || arg == "-web") {  // herd/herd.ml: -web is -conf web.cfg
            readConfiguration(arg == "-web" ? "web.cfg" : value(), where);
        } else if (isPictureStyle(arg.substr(1))) {
            value();
            ignoredPictureStyle(arg.substr(1), where);
        } else if (known("-" + arg)) {
            out_.push_back("-" + arg);  // -model, -show, -unroll, -timeout, -json ...: the same option
        } else {
            fail(where, "unknown option " + arg + " (rdmacheck's options start with '--'" + didYouMean("-" + arg, options()) +
                            ")");
        }
        return i;
    }

private:
    // herd7's switches are last-wins (OCaml's Arg.Bool sets a reference): a
    // repeated one takes back the words the earlier one put in.
    void switchTo(const std::string& arg, const std::vector<std::string>& words) {
        if (auto it = switchedAt_.find(arg); it != switchedAt_.end()) {
            const auto [at, count] = it->second;
            out_.erase(out_.begin() + at, out_.begin() + at + count);
            for (auto& [name, place] : switchedAt_)
                if (place.first > at) place.first -= count;
        }
        switchedAt_[arg] = {out_.size(), words.size()};
        out_.insert(out_.end(), words.begin(), words.end());
    }

    // herd7's settings of its pictures' style (each takes an argument), in a
    // configuration file or on the command line: read, and said to be ignored.
    static void ignoredPictureStyle(const std::string& key, const SourceLoc& where) {
        std::cerr << where.str() << ": warning: herd7's picture setting '" << key
                  << "' is ignored: rdmacheck draws in its own style\n";
    }

    [[noreturn]] static void fail(const SourceLoc& where, const std::string& message) {
        throw InputError(where, message);
    }

    // herd7's configuration file: `key value` or `key = value` per line, `#`
    // comments; each key is the option -key.
    void readConfiguration(const std::string& name, const SourceLoc& from) {
        if (++depth_ > 8) fail(from, "configuration files nested more than 8 deep (a -conf cycle?)");
        const std::string found = ModelSearchPath::withDefaults(foldersGiven()).find(name);
        const std::string path = found.empty() ? name : found;
        std::istringstream text(readTextFile(path, "configuration file", from));
        int line = 0;
        for (std::string content; std::getline(text, content);) {
            ++line;
            const size_t first = content.find_first_not_of(" \t\r");
            if (first == std::string::npos || content[first] == '#') continue;
            const SourceLoc where{path, line, static_cast<int>(first) + 1};
            const size_t keyEnd = content.find_first_of(" \t=", first);
            const std::string key = content.substr(first, keyEnd - first);
            size_t valueAt = keyEnd == std::string::npos ? keyEnd : content.find_first_not_of(" \t=", keyEnd);
            std::string value = valueAt == std::string::npos ? "" : content.substr(valueAt);
            value.erase(value.find_last_not_of(" \t\r") + 1);
            if (isPictureStyle(key)) {
                ignoredPictureStyle(key, where);
                continue;
            }
            std::vector<std::string> words{key == "include" ? "-I" : "-" + key};
            if (!value.empty()) words.push_back(value);
            for (size_t i = 0; i < words.size(); ++i) i = take(words, i, where);
        }
        --depth_;
    }

    // herd7 finds a configuration file as a model (its libfind): in the
    // current folder, the -I folders given so far, then its library.
    std::vector<std::string> foldersGiven() const {
        std::vector<std::string> folders;
        for (size_t i = 0; i + 1 < out_.size(); ++i)
            if (out_[i] == "--models-dir") folders.push_back(out_[i + 1]);
        return folders;
    }

public:
    // herd7's -o DIR shows nothing unless -show says what (herd/opts.ml: ShowNone).
    void showAsHerd7() {
        if (herdPictures_ && std::find(out_.begin(), out_.end(), "--show") == out_.end())
            out_.insert(out_.end(), {"--show", "none"});
    }

private:
    bool herdPictures_ = false;  // -o DIR was given
    std::vector<std::string>& out_;
    // The options a misspelt one is compared with: the main command's and the command's given before it.
    std::vector<std::string> options() const {
        std::vector<std::string> out = mainOptions_;
        if (auto it = commandOptions_.find(command_); it != commandOptions_.end())
            out.insert(out.end(), it->second.begin(), it->second.end());
        return out;
    }

    // Whether some command has the option `name` (--model, --size, ...).
    bool known(const std::string& name) const {
        auto in = [&](const std::vector<std::string>& names) {
            return std::find(names.begin(), names.end(), name) != names.end();
        };
        return in(mainOptions_) ||
               std::any_of(commandOptions_.begin(), commandOptions_.end(), [&](const auto& c) { return in(c.second); });
    }

    std::vector<std::string> mainOptions_;
    std::map<std::string, std::vector<std::string>> commandOptions_;
    std::string command_;  // the command given (run, diy, ...), if any yet
    bool compare_ = false;
    int depth_ = 0;
    std::map<std::string, std::pair<size_t, size_t>> switchedAt_;  // a switch's words in out_: first, count
};

}  // namespace

std::vector<std::string> herdAliases(const CLI::App& app, int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::vector<std::string> out;
    Translator translator(app, out);
    for (size_t i = 0; i < args.size(); ++i) i = translator.take(args, i, SourceLoc{"rdmacheck", 0, 0});
    translator.showAsHerd7();
    return out;
}

}  // namespace rdmacheck::cli
