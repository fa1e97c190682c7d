#include "sim/cli/tuner_spans.hpp"

#include <algorithm>

#include "algorithms/algorithm.hpp"

namespace collsim {

std::vector<TunerSpan> tuner_spans(const Topology& topo, Routes& routes, PredictRequest req, const Calibration& cal,
                                   Bytes smallest, Bytes largest) {
    // Only the choice is wanted: no schedule is built.
    req.model = ModelTier::analytical;
    req.explain = false;
    int64_t size = 1;
    while (size < std::max<int64_t>(smallest.count(), 1)) size *= 2;
    std::vector<TunerSpan> spans;
    for (; size <= largest.count(); size *= 2) {
        req.bytes = Bytes(size);
        const CollectivePlan p = plan_collective(topo, routes, req, cal);
        const std::string algo(p.algorithm->name), proto(to_string(p.proto));
        if (!spans.empty() && spans.back().algo == algo && spans.back().proto == proto)
            spans.back().to = req.bytes;
        else
            spans.push_back(TunerSpan{req.bytes, req.bytes, algo, proto});
    }
    return spans;
}

}  // namespace collsim
