#include "sim/validate/dataset_prediction.hpp"

#include <algorithm>

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
}  // namespace

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

DatasetPrediction predict_dataset(const Dataset& d, TopologyCache::Entry& machine, const Calibration& cal) {
    const auto& gpus = machine.topo.gpus();
    PredictRequest req;
    req.op = d.op;
    req.ranks = {gpus.begin(), gpus.begin() + d.ranks};
    req.algo = d.algo;
    req.proto = d.proto;
    req.disabled = d.disabled;
    req.enabled = d.enabled;
    req.protos = d.protos;
    DatasetPrediction out;
    for (const auto& row : d.measurement.rows) {
        if (row.size.count() == 0) continue;
        const auto measured = measured_time_us(row, d.op, d.ranks);
        if (!measured || *measured <= 0) continue;
        req.bytes = row.size;
        const Prediction p = predict_collective(machine.topo, machine.routes, req, cal);
        const Time measured_like = with_launch_floor(p.time, d.gpus_per_thread, cal);
        out.rows.push_back(
            PredictedRow{RowError{row.size, *measured, measured_like.us()}, p.algo, p.proto, row.line, p.time.us()});
    }
    return out;
}

}  // namespace collsim
