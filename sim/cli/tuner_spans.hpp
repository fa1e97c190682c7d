#pragma once
// Where the tuner changes its mind: `coll --explain` asks it at every power
// of two between the sweep's smallest and largest size, so the crossovers
// show even when the sweep itself is coarse.
#include <vector>

#include "sim/model/predict.hpp"
#include "sim/report/coll_report.hpp"

namespace collsim {

// `req` as the sweep runs it (its size is replaced). Consecutive sizes with
// the same algorithm and protocol form one span.
std::vector<TunerSpan> tuner_spans(const Topology& topo, Routes& routes, PredictRequest req, const Calibration& cal,
                                   Bytes smallest, Bytes largest);

}  // namespace collsim
