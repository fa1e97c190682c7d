#include "sim/replay/import/kineto_fields.hpp"

#include "sim/core/error.hpp"

namespace collsim {

using nlohmann::json;

namespace {
std::string path_of(const std::string& at, std::string_view key) {
    return at.empty() ? std::string(key) : at + "." + std::string(key);
}
}  // namespace

std::string found_text(const json* v) {
    if (!v || v->is_null()) return "nothing";
    std::string s = v->dump();
    return s.size() <= 40 ? s : s.substr(0, 37) + "...";
}

void KinetoFields::bad(const std::string& field, const std::string& expected, const json* found) const {
    throw InputError(SourceLocation{file_, 0, 0}, field, expected, found_text(found));
}

const json* KinetoFields::member(const json& obj, std::string_view key) const {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> KinetoFields::string(const json& obj, std::string_view key, const std::string& at) const {
    const json* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->is_string()) bad(path_of(at, key), "a string", v);
    return v->get<std::string>();
}

std::optional<int64_t> KinetoFields::integer(const json& obj, std::string_view key, const std::string& at) const {
    const json* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > INT64_MAX))
        bad(path_of(at, key), "an integer", v);
    return v->get<int64_t>();
}

const json* KinetoFields::object(const json& obj, std::string_view key, const std::string& at) const {
    const json* v = member(obj, key);
    if (v && !v->is_object()) bad(path_of(at, key), "an object of fields", v);
    return v;
}

const json* KinetoFields::array(const json& obj, std::string_view key, const std::string& at) const {
    const json* v = member(obj, key);
    if (v && !v->is_array()) bad(path_of(at, key), "a list", v);
    return v;
}

std::optional<std::string> KinetoFields::id(const json& obj, std::string_view key, const std::string& at) const {
    const json* v = member(obj, key);
    if (!v) return std::nullopt;
    if (v->is_string()) return v->get<std::string>();
    if (!v->is_number_integer()) bad(path_of(at, key), "an integer or a string", v);
    return v->dump();
}

}  // namespace collsim
