#pragma once
// Typed access to the fields of a Kineto trace. A field of the wrong JSON type
// ("name": 5, "args": [], "External id": "x") is an InputError that names the
// field's path ("traceEvents[3].name"), what was expected and what was found;
// nothing reaches nlohmann's type_error. The error carries the file but no
// line: with_json_places (json_places.hpp) finds the field's place in the text.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace collsim {

class KinetoFields {
public:
    explicit KinetoFields(std::string file) : file_(std::move(file)) {}

    // `at` is the path of `obj` ("traceEvents[3]", "traceEvents[3].args").
    // Each returns nothing where the member is absent (or null) and throws
    // where it has another type.
    std::optional<std::string> string(const nlohmann::json& obj, std::string_view key, const std::string& at) const;
    std::optional<int64_t> integer(const nlohmann::json& obj, std::string_view key, const std::string& at) const;
    const nlohmann::json* object(const nlohmann::json& obj, std::string_view key, const std::string& at) const;
    const nlohmann::json* array(const nlohmann::json& obj, std::string_view key, const std::string& at) const;
    // A thread or stream id: Kineto writes integers, some tools strings ("stream 7").
    std::optional<std::string> id(const nlohmann::json& obj, std::string_view key, const std::string& at) const;

    [[noreturn]] void bad(const std::string& field, const std::string& expected, const nlohmann::json* found) const;
    const std::string& file() const { return file_; }

private:
    const nlohmann::json* member(const nlohmann::json& obj, std::string_view key) const;
    std::string file_;
};

// How an error quotes a value: its JSON text, cut to 40 characters; "nothing" for none.
std::string found_text(const nlohmann::json* v);

}  // namespace collsim
