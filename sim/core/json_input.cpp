#include "sim/core/json_input.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

void check_json_depth(const std::string& text, const std::string& name) {
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw InputError(text_position(text, i, name), "json",
                                 fmt::format("lists and objects nested at most {} deep (kMaxJsonDepth)", kMaxJsonDepth),
                                 fmt::format("nesting deeper than {}", kMaxJsonDepth));
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
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
        throw InputError(SourceLocation{name, 0, 0}, "json", "numbers within a double's range",
                         quote == std::string::npos ? what : what.substr(quote));
    }
}

bool looks_like_json(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

}  // namespace collsim
