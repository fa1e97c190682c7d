#include "sim/plan/collective_costs.hpp"

#include <fmt/format.h>

#include "sim/model/predict.hpp"

namespace collsim {

CollectiveCosts::CollectiveCosts(const Topology& topo, const Calibration& cal, ModelTier tier)
    : topo_(topo), cal_(cal), tier_(tier), routes_(topo) {}

const CollectiveCost& CollectiveCosts::cost(CollOp op, Bytes bytes, const std::vector<int>& ranks) {
    if (ranks.size() < 2 || bytes.count() == 0) return none_;
    auto key = std::make_tuple(op, bytes.count(), ranks);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    PredictRequest req;
    req.op = op;
    req.bytes = bytes;
    req.model = tier_;
    for (int r : ranks) req.ranks.push_back(topo_.gpus()[static_cast<std::size_t>(r)]);
    const Prediction p = predict_collective(topo_, routes_, req, cal_);
    if (p.hang)
        throw std::runtime_error(fmt::format("a {} of {} bytes on {} GPUs never finished on topology '{}'",
                                             to_string(op), bytes.count(), ranks.size(), topo_.name()));
    CollectiveCost c{p.time.us() * 1e-6, p.algo, p.tier};
    return cache_.emplace(std::move(key), std::move(c)).first->second;
}

}  // namespace collsim
