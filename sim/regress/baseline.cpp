#include "sim/regress/baseline.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/json_input.hpp"
#include "sim/core/text_file.hpp"
#include "sim/model/model_version.hpp"

namespace collsim {

std::string render_baseline(const Baseline& b) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["collsim_version"] = b.collsim_version;
    j["model_version"] = b.model_version;
    j["suite"] = b.suite;
    ordered_json inputs = ordered_json::object();
    for (const auto& [path, hash] : b.inputs) inputs[path] = hash;
    j["inputs"] = inputs;
    ordered_json entries = ordered_json::array();
    for (const EntryResult& e : b.entries) {
        ordered_json o;
        o["name"] = e.name;
        o["model"] = e.model;
        o["hung"] = e.hung;
        if (!e.hang.empty()) o["hang"] = e.hang;
        ordered_json ran = ordered_json::object(), metrics = ordered_json::object();
        for (const auto& [k, v] : e.ran) ran[k] = v;
        for (const auto& [k, v] : e.metrics) metrics[k] = v;
        o["ran"] = ran;
        o["metrics"] = metrics;
        entries.push_back(std::move(o));
    }
    j["entries"] = entries;
    return j.dump(2) + "\n";
}

namespace {
[[noreturn]] void bad(const std::string& path, const std::string& field, const std::string& expected,
                      const std::string& found) {
    throw InputError(SourceLocation{path, 0, 0}, field, expected, found);
}

const nlohmann::json& member(const nlohmann::json& o, const char* key, nlohmann::json::value_t type,
                             const std::string& path, const std::string& at, const char* expected) {
    const auto it = o.find(key);
    if (it == o.end()) bad(path, at + key, std::string(expected) + " (required)", "no such field");
    const bool ok = it->type() == type || (type == nlohmann::json::value_t::number_float && it->is_number());
    if (!ok) bad(path, at + key, expected, it->dump().substr(0, 60));
    return *it;
}
}  // namespace

Baseline load_baseline(const std::string& path) {
    using vt = nlohmann::json::value_t;
    const std::string text = read_text_file(path);
    const nlohmann::json j = parse_json_input(text, path, "a regress baseline (JSON)");
    if (!j.is_object()) bad(path, "baseline", "a JSON object from collsim regress --update", j.type_name());
    Baseline b;
    b.collsim_version = member(j, "collsim_version", vt::string, path, "", "a string").get<std::string>();
    const nlohmann::json& version = j.find("model_version") != j.end() ? j["model_version"] : nlohmann::json();
    if (!version.is_number_integer())
        bad(path, "model_version", "an integer (a baseline from collsim regress --update)", version.dump());
    b.model_version = version.get<int>();
    b.model_version_at = text_position(text, text.find("\"model_version\""), path);
    b.suite = member(j, "suite", vt::string, path, "", "a string").get<std::string>();
    for (const auto& [k, v] : member(j, "inputs", vt::object, path, "", "an object").items()) {
        if (!v.is_string()) bad(path, "inputs." + k, "a hash as a string", v.dump());
        b.inputs.emplace_back(k, v.get<std::string>());
    }
    const nlohmann::json& entries = member(j, "entries", vt::array, path, "", "a list of entries");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string at = fmt::format("entries[{}].", i);
        const nlohmann::json& o = entries[i];
        if (!o.is_object()) bad(path, at.substr(0, at.size() - 1), "an object", o.dump().substr(0, 60));
        EntryResult e;
        e.name = member(o, "name", vt::string, path, at, "a string").get<std::string>();
        e.model = member(o, "model", vt::string, path, at, "a string").get<std::string>();
        e.hung = member(o, "hung", vt::boolean, path, at, "true or false").get<bool>();
        if (o.contains("hang") && o["hang"].is_string()) e.hang = o["hang"].get<std::string>();
        for (const auto& [k, v] : member(o, "ran", vt::object, path, at, "an object").items())
            if (v.is_string()) e.ran.emplace_back(k, v.get<std::string>());
        for (const auto& [k, v] : member(o, "metrics", vt::object, path, at, "an object").items()) {
            if (!v.is_number()) bad(path, at + "metrics." + k, "a number", v.dump());
            e.metrics.emplace_back(k, v.get<double>());
        }
        b.entries.push_back(std::move(e));
    }
    return b;
}

void check_model_version(const Baseline& b, const std::string& path) {
    if (b.model_version == kModelVersion) return;
    throw InputError(b.model_version_at.file.empty() ? SourceLocation{path, 0, 0} : b.model_version_at, "model_version",
                     fmt::format("{}, this collsim's model (the baseline's numbers come from model {} and cannot be "
                                 "compared; make a new one with --update)",
                                 kModelVersion, b.model_version),
                     std::to_string(b.model_version));
}

}  // namespace collsim
