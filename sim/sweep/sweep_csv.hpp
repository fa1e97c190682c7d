#pragma once
// The sweep's CSV: a header of `point`, the spec's parameters and the
// command's metrics, then one row per point in spec order. Fields are quoted
// as RFC 4180 says where they hold a comma, a quote or a line break (a set
// value like `[2:1, 1:1]`).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.hpp"

namespace collsim {

std::string sweep_csv_header(const SweepSpec& spec);
std::string sweep_csv_row(std::size_t point, const std::vector<std::string>& values,
                          const std::vector<std::string>& metrics);
// A line's fields, quotes undone; nullopt when the quoting is broken.
std::optional<std::vector<std::string>> split_csv_line(const std::string& line);

// The finished rows of an earlier run of the same spec, keyed by their
// parameter values (so that a spec that gained values keeps its old rows):
// each row's metrics. An absent file is no rows. Throws InputError (file,
// line) for a file whose header is not this spec's, or a malformed row.
std::map<std::vector<std::string>, std::vector<std::string>> read_sweep_csv(const std::string& path,
                                                                            const SweepSpec& spec);

}  // namespace collsim
