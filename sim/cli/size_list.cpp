#include "sim/cli/size_list.hpp"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace collsim {

namespace {
constexpr const char* kExpected = "sizes as MIN:MAX (x2 steps), MIN:MAX:FACTOR, or a list like 8,1K,1M";

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        std::size_t pos = text.find(sep, start);
        parts.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos) return parts;
        start = pos + 1;
    }
}

Bytes one(std::string_view text, std::string_view option) {
    try {
        Bytes b = parse_size(text);
        if (b.count() <= 0) throw std::invalid_argument("a size of at least 1 byte");
        return b;
    } catch (const std::invalid_argument& e) {
        throw InputError(SourceLocation{}, std::string(option), e.what(), fmt::format("'{}'", text));
    }
}
}  // namespace

std::vector<Bytes> parse_size_list(std::string_view text, std::string_view option) {
    const std::string found = fmt::format("'{}'", text);
    if (text.find(':') != std::string_view::npos) {
        auto parts = split(text, ':');
        if (parts.size() > 3) throw InputError(SourceLocation{}, std::string(option), kExpected, found);
        Bytes lo = one(parts[0], option), hi = one(parts[1], option);
        int64_t factor = 2;
        if (parts.size() == 3) {
            try {
                std::size_t used = 0;
                factor = std::stoll(std::string(parts[2]), &used);
                if (used != parts[2].size()) factor = 0;
            } catch (const std::exception&) {
                factor = 0;
            }
            if (factor < 2)
                throw InputError(SourceLocation{}, std::string(option), "an integer step factor of at least 2",
                                 found);
        }
        if (hi < lo) throw InputError(SourceLocation{}, std::string(option), "MIN no larger than MAX", found);
        std::vector<Bytes> sizes;
        for (int64_t s = lo.count(); s <= hi.count(); s *= factor) {
            sizes.emplace_back(s);
            if (s > hi.count() / factor) break;
        }
        return sizes;
    }
    std::vector<Bytes> sizes;
    for (auto part : split(text, ',')) sizes.push_back(one(part, option));
    return sizes;
}

std::vector<Bytes> parse_size_boundaries(std::string_view text, std::string_view option) {
    std::vector<Bytes> sizes = parse_size_list(text, option);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        if (!(sizes[i - 1] < sizes[i]))
            throw InputError(SourceLocation{}, std::string(option), "boundaries in increasing order, each once",
                             fmt::format("'{}': {} after {}", text, sizes[i].count(), sizes[i - 1].count()));
    return sizes;
}

}  // namespace collsim
