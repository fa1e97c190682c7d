#pragma once
// A validation run: every dataset predicted with the calibration given, and
// with --cross each dataset fitted on its own (in-sample) and used to
// predict the other datasets of its machine class (out-of-sample), with what
// of the fit carries to each (calibration_scope.hpp).
#include <optional>
#include <string>
#include <vector>

#include "sim/validate/calibration_fit.hpp"
#include "sim/validate/dataset_prediction.hpp"

namespace collsim {

struct DatasetResult {
    const Dataset* dataset = nullptr;
    std::string not_covered;        // why the model cannot run it; empty when it can
    DatasetPrediction prediction;   // with the calibration given
    ErrorSummary errors;
    // --cross only:
    std::optional<ErrorSummary> fitted;         // fitted on this dataset alone, predicting it
    std::vector<RowError> out_of_sample_rows;   // predicted by fits on the other datasets of its class
    std::optional<ErrorSummary> out_of_sample;  // nullopt: no other covered dataset in its class
};

// One figure over all rows, and apart over single-node and multi-node runs
// (a run's node count comes from its CSV header), and over the AllReduce
// runs of one server's eight GPUs joined by NVSwitch (issue 5 holds those to
// 5% bandwidth-bound).
struct ScopedErrors {
    ErrorSummary all, single_node, multi_node, nvswitch_8gpu_allreduce;
};

// Where a RunMonitor stopped a validation (ValidationOptions::monitor).
// Stopped while predicting with the calibration given: `datasets` holds those
// predicted whole before the stop, `done` their rows. Stopped in the --cross
// fits: the report is that of the calibration given (complete), `cross`
// false, `done` the fits finished.
struct ValidationStop {
    std::string by;  // what stopped it: "--wall-limit 30s"
    std::size_t done = 0, total = 0;
    std::string unit;  // "rows" or "fits"
};

struct ValidationResult {
    std::string calibration;  // "defaults" or the profile's file
    bool cross = false;
    std::vector<DatasetResult> datasets;
    ScopedErrors given;                         // every covered row, calibration as given
    ScopedErrors in_sample;                     // --cross: each dataset with its own fit; else = given
    std::optional<ScopedErrors> out_of_sample;  // --cross only
    std::optional<ValidationStop> stopped;      // set when the run did not finish
};

struct ValidationOptions {
    bool cross = false;
    FitOptions fit;
    // Polled by every prediction and fit, from both threads of --cross
    // (progress, a wall-clock limit). Its units: rows predicted with the
    // calibration given, then fits. A RunStopped it throws ends the run
    // with a partial result (ValidationResult::stopped).
    RunMonitor* monitor = nullptr;
};

ValidationResult run_validation(const std::vector<Dataset>& data, TopologyCache& machines, const Calibration& cal,
                                const std::string& calibration_name, const ValidationOptions& options);

}  // namespace collsim
