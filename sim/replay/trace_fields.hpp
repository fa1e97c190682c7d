#pragma once
// Typed fields that traces need beyond YamlFields' own (sizes, fractions, FLOP
// counts, rank sets), reported the same way: file:line:column, the field's
// path, what was expected and what was found.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/yaml_fields.hpp"

namespace collsim {

std::optional<Bytes> read_size(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key,
                               bool required);
// A share in (0, 1], as "0.45" or "45%".
std::optional<double> read_fraction(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key);
std::optional<double> read_flops(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key);
std::optional<double> read_flop_rate(YamlFields& f, const YAML::Node& map, const std::string& path,
                                     const char* key);

// A set of ranks: one integer, a list of integers, a string of ranges
// ("0-7,16-23") or "all". Sorted, without duplicates; every rank < `ranks`.
std::optional<std::vector<int>> read_rank_set(YamlFields& f, const YAML::Node& node, const std::string& path,
                                              int ranks);

}  // namespace collsim
