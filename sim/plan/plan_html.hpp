#pragma once
// `collsim plan --html` for a layout search and for inference (a single
// training layout's page is render_plan_html, plan_report.hpp).
#include <string>
#include <vector>

#include "sim/plan/inference.hpp"
#include "sim/plan/search.hpp"
#include "sim/report/html_report.hpp"

namespace collsim {

// The ranked layouts (the first `top` as a tokens/s chart and a table), how
// many were searched and refused, and the notes.
std::string render_search_html(const std::string& model, int gpus, const std::string& topology, const SearchResult& r,
                               std::size_t top, const std::vector<std::string>& notes, const HtmlProvenance& p);
// Time per token and per request, the per-layer split, memory per GPU.
std::string render_inference_html(const InferenceResult& r, const HtmlProvenance& p);

}  // namespace collsim
