#include "sim/core/json_input.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

namespace {

// nlohmann parses without recursion, but reading the values back (dump, the
// importers' walks) recurses: a list nested 10^6 deep overflowed the stack
// (issue 24). The text is checked before it is parsed, so the error has a place.
void check_depth(const std::string& text, const std::string& name) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limits::kMaxJsonDepth)
                throw InputError(text_position(text, i, name), "json",
                                 fmt::format("JSON nested at most {} deep (the nesting limit)", limits::kMaxJsonDepth),
                                 fmt::format("a value nested {} deep", depth));
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

template <class Parse>
nlohmann::json parse_checked(const std::string& text, const std::string& name, const std::string& expected,
                             Parse&& parse) {
    check_depth(text, name);
    try {
        return parse();
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(text_position(text, e.byte > 0 ? e.byte - 1 : 0, name), "json", expected, "malformed JSON");
    } catch (const nlohmann::json::out_of_range& e) {  // "number overflow parsing '1e400'": no byte offset
        const std::string what = e.what();
        const auto quote = what.find('\'');
        throw InputError(SourceLocation{name, 0, 0}, "json", "numbers within a double's range",
                         quote == std::string::npos ? what : what.substr(quote));
    }
}

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected) {
    return parse_checked(text, name, expected, [&] { return nlohmann::json::parse(text); });
}

nlohmann::json parse_json_outline(const std::string& text, const std::string& name, const std::string& expected) {
    // The callback keeps an element when it returns true: the top-level
    // object's keys and values are at depth 1, whatever they hold deeper is dropped.
    const nlohmann::json::parser_callback_t top_level = [](int depth, nlohmann::json::parse_event_t,
                                                           nlohmann::json&) { return depth <= 1; };
    return parse_checked(text, name, expected, [&] { return nlohmann::json::parse(text, top_level); });
}

bool looks_like_json(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

}  // namespace collsim
