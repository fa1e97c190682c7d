#include "sim/cli/options.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace collsim {

void bad_option(const std::string& option, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, option, std::move(expected), fmt::format("'{}'", found));
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t pos = text.find(',', start);
        out.push_back(text.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
        if (pos == std::string::npos) return out;
        start = pos + 1;
    }
}

}  // namespace collsim
