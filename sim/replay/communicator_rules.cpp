#include "sim/replay/communicator_rules.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/replay/trace_fields.hpp"

namespace collsim {

std::vector<std::vector<int>> strided_groups(int ranks, int size, int stride) {
    if (size < 1 || stride < 1 || ranks % (size * stride) != 0)
        throw std::invalid_argument(fmt::format("groups that tile the {} ranks (size x stride divides {})", ranks,
                                                ranks));
    std::vector<std::vector<int>> groups;
    for (int base = 0; base < ranks; base += size * stride)
        for (int j = 0; j < stride; ++j) {
            std::vector<int> g;
            for (int i = 0; i < size; ++i) g.push_back(base + j + i * stride);
            groups.push_back(std::move(g));
        }
    return groups;
}

std::optional<Communicator> read_communicator(YamlFields& f, const YAML::Node& rule, const std::string& path,
                                              const std::string& name, int ranks) {
    Communicator c;
    c.name = name;
    c.where = f.at(rule);
    const char* expected = "'all', {blocks: N}, {stride: N}, {size: S, stride: N} or {groups: [[ranks], ...]}";
    if (rule.IsScalar() && rule.Scalar() == "all") {
        c.groups = strided_groups(ranks, ranks, 1);
    } else if (rule.IsMap()) {
        f.check_keys(rule, path, {"blocks", "stride", "size", "groups"});
        const auto blocks = f.integer(rule, path, "blocks", false);
        const auto stride = f.integer(rule, path, "stride", false);
        const auto size = f.integer(rule, path, "size", false);
        const YAML::Node groups = rule["groups"];
        const int forms = (blocks ? 1 : 0) + (stride || size ? 1 : 0) + (groups ? 1 : 0);
        if (forms != 1 || (size && !stride)) {
            f.error(rule, path, expected, describe_node(rule));
            return std::nullopt;
        }
        try {
            if (blocks) {
                c.groups = strided_groups(ranks, static_cast<int>(*blocks), 1);
            } else if (stride) {
                const int k = static_cast<int>(*stride);
                const int s = size ? static_cast<int>(*size) : (k > 0 ? ranks / k : 0);
                c.groups = strided_groups(ranks, s, k);
            } else {
                if (!f.expect_sequence(groups, path + ".groups")) return std::nullopt;
                for (std::size_t g = 0; g < groups.size(); ++g) {
                    auto set = read_rank_set(f, groups[g], fmt::format("{}.groups[{}]", path, g), ranks);
                    if (!set) return std::nullopt;
                    c.groups.push_back(std::move(*set));
                }
            }
            index_communicator(c, ranks);
        } catch (const std::invalid_argument& e) {
            f.error(rule, path, e.what(), describe_node(rule));
            return std::nullopt;
        }
    } else {
        f.error(rule, path, expected, describe_node(rule));
        return std::nullopt;
    }
    if (c.group_of.empty()) index_communicator(c, ranks);
    return c;
}

}  // namespace collsim
