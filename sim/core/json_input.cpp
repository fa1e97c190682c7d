#include "sim/core/json_input.hpp"

#include <cctype>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

namespace {
// The offset of the first '[' or '{' past kMaxJsonDepth levels, if any.
std::optional<std::size_t> too_deep_at(const std::string& text) {
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::nullopt;
}

// Where the number `quoted` ('1e400', as nlohmann's overflow message quotes
// it) first stands alone in `text`, outside strings; 0 where it is not found.
std::size_t number_offset(const std::string& text, const std::string& quoted) {
    const std::string number = quoted.size() > 2 ? quoted.substr(1, quoted.size() - 2) : quoted;
    auto part_of_number = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+'; };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
        } else if (text.compare(i, number.size(), number) == 0 && (i == 0 || !part_of_number(text[i - 1])) &&
                   (i + number.size() == text.size() || !part_of_number(text[i + number.size()]))) {
            return i;
        }
    }
    return 0;
}

// Stops at the top-level `key`; nothing is kept.
class TopLevelKey : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit TopLevelKey(std::string_view key) : key_(key) {}
    bool found = false, malformed = false;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return ++depth_, true; }
    bool end_object() override { return --depth_, true; }
    bool start_array(std::size_t) override { return ++depth_, true; }
    bool end_array() override { return --depth_, true; }
    bool key(string_t& k) override {
        found = depth_ == 1 && k == key_;
        return !found;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        malformed = true;
        return false;
    }

private:
    std::string_view key_;
    int depth_ = 0;
};
}  // namespace

InputError json_too_deep(SourceLocation where) {
    return InputError(std::move(where), "json",
                      fmt::format("lists and objects nested at most {} deep (kMaxJsonDepth)", kMaxJsonDepth),
                      fmt::format("nesting deeper than {}", kMaxJsonDepth));
}

void check_json_depth(const std::string& text, const std::string& name) {
    if (const std::optional<std::size_t> at = too_deep_at(text)) throw json_too_deep(text_position(text, *at, name));
}

nlohmann::json parse_embedded_json(const std::string& text) {
    if (too_deep_at(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, false);
}

std::optional<bool> json_has_top_level_key(const std::string& text, std::string_view key) {
    TopLevelKey sax(key);
    nlohmann::json::sax_parse(text, &sax);
    if (sax.found) return true;
    if (sax.malformed) return std::nullopt;
    return false;
}

nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected) {
    check_json_depth(text, name);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(text_position(text, e.byte > 0 ? e.byte - 1 : 0, name), "json", expected, "malformed JSON");
    } catch (const nlohmann::json::out_of_range& e) {  // "number overflow parsing '1e400'": no byte offset
        const std::string what = e.what();
        const auto quote = what.find('\'');
        const std::string number = quote == std::string::npos ? what : what.substr(quote);
        throw InputError(text_position(text, number_offset(text, number), name), "json",
                         "numbers within a double's range", number);
    }
}

bool looks_like_json(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

}  // namespace collsim
