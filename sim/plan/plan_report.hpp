#pragma once
// What `collsim plan` prints: a table for people, JSON for scripts. The JSON
// keys are stable (README.md, "collsim plan"): model, gpus, layout {tp, pp,
// dp, ep, cp}, step_time_us, tokens_per_s, mfu, memory_per_gpu {weights,
// gradients, optimizer, activations, buffers, total, capacity, fits; bytes},
// communication [{group, op, exposed_us, overlapped_us, share}],
// bubble_share, bottleneck. A layout that does not fit has null times.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/planner.hpp"
#include "sim/report/html_report.hpp"

namespace collsim {

nlohmann::ordered_json plan_json(const PlanResult& r);
std::string render_plan_table(const PlanResult& r, const std::vector<std::string>& notes);
// plan --html: the step's parts as bars, the summary, memory and
// communication tables, the notes, then `p`.
std::string render_plan_html(const PlanResult& r, const std::vector<std::string>& notes, const HtmlProvenance& p);
// One sentence with the numbers, for a layout that does not fit.
std::string does_not_fit(const PlanResult& r);
std::string gib(double bytes);

}  // namespace collsim
