#pragma once
// Every usable row of a dataset predicted with the algorithm and protocol NCCL
// would have used there (the tuner behind predict_collective), or with what
// the run forced through NCCL_ALGO / NCCL_PROTO.
#include <string>
#include <vector>

#include "sim/core/run_monitor.hpp"
#include "sim/model/calibration.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/row_threads.hpp"

namespace collsim {

struct PredictedRow {
    RowError error;  // size, measured and predicted time
    std::string algo;
    ProtoKind proto = ProtoKind::simple;
    int line = 0;    // the row in its file
    // The collective on the GPUs, before the launch floor of the run's -g
    // (error.predicted_us is the larger of the two).
    double device_us = 0;
};

struct DatasetPrediction {
    std::vector<PredictedRow> rows;
    // Distinct algorithms / protocols in size order, joined by '+' ("ring", "ll+simple").
    std::string algos() const;
    std::string protos() const;
    std::vector<RowError> errors() const;
};

// Rows of zero bytes (nccl-tests' own loop, no collective runs) and rows with
// no usable time are left out. Throws InputError where the model cannot run
// the dataset at all (no registered algorithm for its collective, say).
// With a monitor, every row's simulation reports to it and it is polled
// after each row (a RunStopped it throws leaves); with `count_rows` each
// row is also a unit of its work done (validate's first stage, not the
// many predictions of a fit). With `threads`, a second thread may take
// some rows (the result is the same).
DatasetPrediction predict_dataset(const Dataset& d, TopologyCache::Entry& machine, const Calibration& cal,
                                  RunMonitor* monitor = nullptr, bool count_rows = false,
                                  RowThreads* threads = nullptr);

// The rows predict_dataset predicts: those of non-zero size with a usable time.
std::size_t predicted_row_count(const Dataset& d);
// Which rows of the dataset's file are not predicted, by line (rows of 0
// bytes, rows with no time above 0); nullopt when every row is.
std::optional<std::string> skipped_rows_note(const Dataset& d);

}  // namespace collsim
