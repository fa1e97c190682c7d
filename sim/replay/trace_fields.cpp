#include "sim/replay/trace_fields.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/replay/gpu_card.hpp"

namespace collsim {

namespace {
template <class T>
std::optional<T> scalar(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key,
                        bool required, const std::function<T(const std::string&)>& parse, const char* expected) {
    const std::string field = path + "." + key;
    const YAML::Node v = map[key];
    if (!v) {
        if (required) f.error(map, field, std::string(expected) + " (required)", "no such field");
        return std::nullopt;
    }
    if (!v.IsScalar()) {
        f.error(v, field, expected, describe_node(v));
        return std::nullopt;
    }
    try {
        return parse(v.Scalar());
    } catch (const std::invalid_argument& e) {
        f.error(v, field, e.what(), describe_node(v));
        return std::nullopt;
    }
}

int parse_int(std::string_view s) {
    int v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) throw std::invalid_argument("an integer");
    return v;
}

// "0-7,16,20-23" -> ranks; throws with what was expected.
std::vector<int> parse_ranges(std::string_view text) {
    std::vector<int> out;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view part = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        const auto dash = part.find('-');
        try {
            const int lo = parse_int(part.substr(0, dash));
            const int hi = dash == std::string_view::npos ? lo : parse_int(part.substr(dash + 1));
            if (lo < 0 || hi < lo) throw std::invalid_argument("");
            for (int r = lo; r <= hi; ++r) out.push_back(r);
        } catch (const std::invalid_argument&) {
            throw std::invalid_argument("ranks as 'all', an integer, a list of integers or ranges like '0-7,16-23'");
        }
    }
    return out;
}
}  // namespace

std::optional<Bytes> read_size(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key,
                               bool required) {
    return scalar<Bytes>(f, map, path, key, required, [](const std::string& s) { return parse_size(s); },
                         "a size like '25MiB' or '4096'");
}

std::optional<double> read_fraction(YamlFields& f, const YAML::Node& map, const std::string& path,
                                    const char* key) {
    return scalar<double>(
        f, map, path, key, false,
        [](const std::string& s) {
            double v = 0;
            auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            std::string_view rest(end, static_cast<std::size_t>(s.data() + s.size() - end));
            if (ec == std::errc() && rest == "%") v /= 100;
            else if (ec != std::errc() || !rest.empty()) throw std::invalid_argument("a share like '0.45' or '45%'");
            if (!(v > 0 && v <= 1)) throw std::invalid_argument("a share above 0 and at most 1");
            return v;
        },
        "a share like '0.45' or '45%'");
}

std::optional<double> read_flops(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key) {
    return scalar<double>(f, map, path, key, false, [](const std::string& s) { return parse_flops(s); },
                          "a FLOP count");
}

std::optional<double> read_flop_rate(YamlFields& f, const YAML::Node& map, const std::string& path,
                                     const char* key) {
    return scalar<double>(f, map, path, key, false, [](const std::string& s) { return parse_flop_rate(s); },
                          "a FLOP rate");
}

std::optional<std::vector<int>> read_rank_set(YamlFields& f, const YAML::Node& node, const std::string& path,
                                              int ranks) {
    std::vector<int> out;
    if (node.IsScalar() && node.Scalar() == "all") {
        for (int r = 0; r < ranks; ++r) out.push_back(r);
        return out;
    }
    try {
        if (node.IsScalar()) {
            out = parse_ranges(node.Scalar());
        } else if (node.IsSequence()) {
            for (const auto& item : node) {
                if (!item.IsScalar()) throw std::invalid_argument("a list of rank numbers");
                const int r = parse_int(item.Scalar());
                if (r < 0) throw std::invalid_argument("rank numbers that are not negative");
                out.push_back(r);
            }
        } else {
            throw std::invalid_argument("ranks as 'all', an integer, a list of integers or ranges like '0-7,16-23'");
        }
    } catch (const std::invalid_argument& e) {
        f.error(node, path, e.what(), describe_node(node));
        return std::nullopt;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty()) {
        f.error(node, path, "at least one rank", "none");
        return std::nullopt;
    }
    if (out.back() >= ranks) {
        f.error(node, path, fmt::format("ranks from 0 to {} (the trace has {} ranks)", ranks - 1, ranks),
                fmt::format("rank {}", out.back()));
        return std::nullopt;
    }
    return out;
}

}  // namespace collsim
