#include "sim/core/json_input.hpp"

#include "sim/core/error.hpp"

namespace collsim {

namespace {
// Line and column of a byte offset, for nlohmann's parse errors.
SourceLocation position(const std::string& text, std::size_t byte, const std::string& name) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return SourceLocation{name, line, column};
}
}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(position(text, e.byte > 0 ? e.byte - 1 : 0, name), "json", expected, "malformed JSON");
    } catch (const nlohmann::json::out_of_range& e) {  // "number overflow parsing '1e400'": no byte offset
        const std::string what = e.what();
        const auto quote = what.find('\'');
        throw InputError(SourceLocation{name, 0, 0}, "json", "numbers within a double's range",
                         quote == std::string::npos ? what : what.substr(quote));
    }
}

}  // namespace collsim
