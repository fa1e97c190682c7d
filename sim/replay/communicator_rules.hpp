#pragma once
// Communicators by rule. With ranks numbered so that the fastest-varying
// parallel dimension is innermost (TP, then PP, then DP, as Megatron-LM lays
// them out), every usual group is "size s, stride k": s ranks k apart, the
// pattern repeating every s*k ranks.
//   all               one group of every rank
//   {blocks: 8}       0-7, 8-15, ...                       (size 8, stride 1)
//   {stride: 8}       {0, 8, 16, ...}, {1, 9, 17, ...}, ... (size ranks/8, stride 8)
//   {size: 4, stride: 8}  {0, 8, 16, 24}, ..., {7, 15, 23, 31}, {32, 40, 48, 56}, ...
//   {groups: [[0, 1], [2, 3]]}   explicit
#include <optional>
#include <string>
#include <vector>

#include "sim/core/yaml_fields.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

// Groups of `size` ranks `stride` apart; throws std::invalid_argument unless
// size * stride divides `ranks`.
std::vector<std::vector<int>> strided_groups(int ranks, int size, int stride);

// Reads one rule; nullopt (with the error recorded) when it is malformed.
std::optional<Communicator> read_communicator(YamlFields& f, const YAML::Node& rule, const std::string& path,
                                              const std::string& name, int ranks);

}  // namespace collsim
