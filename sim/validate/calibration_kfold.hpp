#pragma once
// A calibration's out-of-sample figure: how well a fit predicts runs it was
// not fitted to. In-sample errors only say how well the parameters bend to
// the rows they were fitted on; a user's next run is out of sample.
#include <optional>
#include <vector>

#include "sim/validate/calibration_fit.hpp"

namespace collsim {

struct OutOfSample {
    int folds = 0;
    ErrorSummary before, after;  // the held-out rows with the start, and with each fold's fit
};

// Deals the runs to k = min(runs, kMaxFolds) folds in turn; for each fold,
// fits on the others and predicts it. nullopt for fewer than two runs.
inline constexpr int kMaxFolds = 5;
std::optional<OutOfSample> out_of_sample(const std::vector<const Dataset*>& data, TopologyCache& machines,
                                         const Calibration& start, const FitOptions& options);

}  // namespace collsim
