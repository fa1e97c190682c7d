#include "sim/validate/dataset_prediction.hpp"

#include <algorithm>
#include <utility>

#include "sim/exec/monitored_setup.hpp"
#include "sim/model/predict.hpp"

namespace collsim {

namespace {
std::string join_distinct(const std::vector<std::string>& items) {
    std::vector<std::string> seen;
    std::string out;
    for (const auto& s : items) {
        if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
        seen.push_back(s);
        out += (out.empty() ? "" : "+") + s;
    }
    return out;
}

// Zero bytes: nccl-tests' own loop, no collective runs.
std::optional<double> usable_time_us(const MeasuredRow& row, const Dataset& d) {
    if (row.size.count() == 0) return std::nullopt;
    const auto measured = measured_time_us(row, d.op, d.ranks);
    if (!measured || *measured <= 0) return std::nullopt;
    return measured;
}
}  // namespace

std::optional<std::string> skipped_rows_note(const Dataset& d) {
    std::string zero, untimed;
    for (const auto& row : d.measurement.rows) {
        if (usable_time_us(row, d)) continue;
        std::string& list = row.size.count() == 0 ? zero : untimed;
        list += (list.empty() ? "" : ", ") + std::to_string(row.line);
    }
    if (zero.empty() && untimed.empty()) return std::nullopt;
    std::string note = d.path + ": skipped";
    if (!zero.empty()) note += " the rows of 0 bytes (nccl-tests runs no collective for them) at line(s) " + zero;
    if (!untimed.empty()) note += (zero.empty() ? "" : ";") + std::string(" the rows without a time above 0 at line(s) ") + untimed;
    return note;
}

std::string DatasetPrediction::algos() const {
    std::vector<std::string> v;
    for (const auto& r : rows) v.push_back(r.algo);
    return join_distinct(v);
}

std::string DatasetPrediction::protos() const {
    std::vector<std::string> v;
    for (const auto& r : rows) v.emplace_back(to_string(r.proto));
    return join_distinct(v);
}

std::vector<RowError> DatasetPrediction::errors() const {
    std::vector<RowError> out;
    for (const auto& r : rows) out.push_back(r.error);
    return out;
}

std::size_t predicted_row_count(const Dataset& d) {
    std::size_t n = 0;
    for (const auto& row : d.measurement.rows) n += usable_time_us(row, d) ? 1 : 0;
    return n;
}

DatasetPrediction predict_dataset(const Dataset& d, TopologyCache::Entry& machine, const Calibration& cal,
                                  RunMonitor* monitor, bool count_rows, RowThreads* threads) {
    PredictRequest req;
    req.op = d.op;
    req.algo = d.algo;
    req.proto = d.proto;
    req.disabled = d.disabled;
    req.enabled = d.enabled;
    req.protos = d.protos;
    req.setup = with_monitor({}, monitor);
    std::vector<std::pair<const MeasuredRow*, double>> todo;  // with its measured time
    for (const auto& row : d.measurement.rows)
        if (const auto measured = usable_time_us(row, d)) todo.emplace_back(&row, *measured);
    DatasetPrediction out;
    out.rows.resize(todo.size());
    auto predict = [&](std::size_t i, TopologyCache::Entry& m) {
        // Before each row, not after: a run whose last row is done is never stopped.
        if (monitor) monitor->poll();
        const auto& gpus = m.topo.gpus();
        PredictRequest r = req;
        r.ranks = {gpus.begin(), gpus.begin() + d.ranks};
        r.bytes = todo[i].first->size;
        const Prediction p = predict_collective(m.topo, m.routes, r, cal);
        const Time measured_like = with_launch_floor(p.time, d.gpus_per_thread, cal);
        out.rows[i] = PredictedRow{RowError{r.bytes, todo[i].second, measured_like.us()}, p.algo, p.proto,
                                   todo[i].first->line, p.time.us()};
        if (monitor && count_rows) monitor->add_done();
    };
    if (threads) threads->run(todo.size(), d.topology_path, machine, predict);
    else
        for (std::size_t i = 0; i < todo.size(); ++i) predict(i, machine);
    return out;
}

}  // namespace collsim
