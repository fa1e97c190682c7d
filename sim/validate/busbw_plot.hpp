#pragma once
// One dataset as an SVG chart: measured (dots) and predicted (line) bus
// bandwidth against message size, both axes logarithmic. Written directly as
// SVG text, so no plotting library is needed.
#include <string>

#include "sim/validate/dataset_prediction.hpp"

namespace collsim {

std::string render_busbw_plot(const Dataset& d, const DatasetPrediction& p, const std::string& calibration);

}  // namespace collsim
