#include "sim/core/json_input.hpp"

#include "sim/core/error.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected) {
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
