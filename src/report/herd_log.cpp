#include "rdmacheck/herd_log.hpp"

#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "rdmacheck/report.hpp"
#include "rdmacheck/text_file.hpp"

namespace rdmacheck {

namespace {

// A JSON error record: the report of its file just before it (a picture that
// could not be written) takes it, otherwise it stands for a test that gave no verdict.
void addError(const std::string& line, const nlohmann::json& j, FileReport& r, std::vector<FileReport>& out) {
    FileReport& target = !out.empty() && out.back().checked && out.back().file == r.file ? out.back() : r;
    target.status = std::max(target.status, j.at("exit_code").get<int>());
    target.timedOut = target.timedOut || j.value("timeout", false);
    target.print(false, line + "\n");
    if (&target == &r) out.push_back(std::move(r));
}

}  // namespace

void FileReport::print(bool toStderr, const std::string& text) {
    if (!text.empty()) pieces.emplace_back(toStderr, text);
}

void FileReport::flush() const {
    for (const auto& [toStderr, text] : pieces) (toStderr ? std::cerr : std::cout) << text << std::flush;
}

void readLog(const std::string& path, const std::string& text, std::vector<FileReport>& out) {
    std::istringstream in(text);
    std::optional<size_t> block;  // the text block being read (an index: `out` grows)
    bool inStates = false;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("{", 0) == 0) {
            FileReport r;
            try {
                const nlohmann::json j = nlohmann::json::parse(line);
                r.file = j.value("file", "");
                if (j.value("type", "") == "error") {
                    addError(line, j, r, out);
                    continue;
                }
                r.test = j.at("test").get<std::string>();
                r.ok = j.at("ok").get<bool>();
                r.undefined = j.value("undefined", false);
                for (const nlohmann::json& w : j.value("warnings", nlohmann::json::array()))
                    r.loop = r.loop || w.value("message", "") == kUnrollCut;
                r.quantifier = quantifierOfKind(j.at("kind").get<std::string>());
                r.seconds = j.value("time", 0.0);
                r.hash = j.value("hash", "");
                r.options = j.value("options", nlohmann::json::object());
                for (const nlohmann::json& state : j.at("states")) r.states.push_back(state.at("line"));
            } catch (const nlohmann::json::exception& e) {
                refuse(path + ":" + std::to_string(n) + ": not a report: " + e.what());
            }
            r.checked = true;
            r.print(false, line + "\n");
            out.push_back(std::move(r));
        } else if (line.rfind("Test ", 0) == 0) {
            block = out.size();
            FileReport& r = out.emplace_back();
            std::istringstream words(line.substr(5));
            std::string kind;
            words >> r.test >> kind;
            r.quantifier = quantifierOfKind(kind);
            r.print(false, line + "\n");
        } else if (block) {
            FileReport& r = out[*block];
            r.print(false, line + "\n");
            if (line.rfind("States ", 0) == 0) {
                inStates = true;
            } else if (const std::string verdict = line.substr(line.rfind("Loop ", 0) == 0 ? 5 : 0);
                       verdict == "Ok" || verdict == "No" || verdict == "Undef") {
                inStates = false;
                r.checked = true, r.ok = verdict == "Ok", r.loop = verdict.size() < line.size();
                r.undefined = verdict == "Undef";
            } else if (inStates) {
                r.states.push_back(line);
            }
            if (line.rfind("Time ", 0) == 0) r.seconds = std::atof(line.substr(line.rfind(' ') + 1).c_str());
            if (line.rfind("Hash=", 0) == 0) r.hash = line.substr(5);
            if (line.empty()) block.reset();
        } else if (!line.empty()) {
            refuse(path + ":" + std::to_string(n) + ": expected a report ('Test NAME ...' or a JSON object)");
        }
    }
}

void readLogFile(const std::string& path, std::vector<FileReport>& out) { readLog(path, readTextFile(path, "log"), out); }

}  // namespace rdmacheck
