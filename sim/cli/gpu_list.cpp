#include "sim/cli/gpu_list.hpp"

#include <charconv>
#include <set>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace collsim {

namespace {
std::optional<int> index_of(std::string_view s) {
    int v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}
}  // namespace

std::vector<DeviceId> parse_gpu_list(const Topology& topo, std::string_view text, std::string_view option) {
    const auto& gpus = topo.gpus();
    const std::string expected =
        fmt::format("GPU names or indices (0 to {}) of topology {}, like '0,2,4' or '0-3'", gpus.size() - 1, topo.name());
    auto bad = [&](std::string found) { return InputError(SourceLocation{}, std::string(option), expected, found); };
    std::vector<DeviceId> out;
    std::set<DeviceId> seen;
    auto add = [&](DeviceId g, std::string_view item) {
        if (!seen.insert(g).second)
            throw InputError(SourceLocation{}, std::string(option), "each GPU once",
                             fmt::format("'{}' ({}) twice", item, topo.device(g).name));
        out.push_back(g);
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item =
            text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) throw bad(fmt::format("an empty entry in '{}'", text));
        const std::size_t dash = item.find('-');
        auto lo = index_of(item.substr(0, dash)), hi = dash == std::string_view::npos ? lo : index_of(item.substr(dash + 1));
        if (lo && hi) {
            if (*lo > *hi || *hi >= static_cast<int>(gpus.size())) throw bad(fmt::format("'{}'", item));
            for (int i = *lo; i <= *hi; ++i) add(gpus[static_cast<std::size_t>(i)], item);
            continue;
        }
        const auto dev = topo.find(item);
        if (!dev) throw bad(fmt::format("'{}'", item));
        if (topo.device(*dev).kind != DeviceKind::gpu)
            throw bad(fmt::format("'{}', a {}", item, to_string(topo.device(*dev).kind)));
        add(*dev, item);
    }
    return out;
}

}  // namespace collsim
