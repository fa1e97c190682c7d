#pragma once
// collsim sweep --html: the spec's plots (the SVGs --plot writes) and the
// CSV's rows as a table, in one self-contained page (sim/report/html_report).
#include <map>
#include <string>
#include <vector>

#include "sim/report/html_report.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace collsim {

// `rows`: each finished point's metrics, by point index (as the CSV has them).
std::string render_sweep_html(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                              const std::map<std::size_t, std::vector<std::string>>& rows, const HtmlProvenance& p);

// The spec and every file its points read, with their hashes.
std::vector<HtmlInput> sweep_inputs(const SweepSpec& spec);

}  // namespace collsim
