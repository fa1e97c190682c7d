#include "sim/validate/calibration_kfold.hpp"

#include <algorithm>

#include "sim/validate/dataset_prediction.hpp"

namespace collsim {

std::optional<OutOfSample> out_of_sample(const std::vector<const Dataset*>& data, TopologyCache& machines,
                                         const Calibration& start, const FitOptions& options) {
    if (data.size() < 2) return std::nullopt;
    OutOfSample out;
    out.folds = std::min(static_cast<int>(data.size()), kMaxFolds);
    std::vector<RowError> before, after;
    for (int fold = 0; fold < out.folds; ++fold) {
        std::vector<const Dataset*> train, test;
        for (std::size_t i = 0; i < data.size(); ++i)
            (static_cast<int>(i) % out.folds == fold ? test : train).push_back(data[i]);
        const Calibration fitted = fit_calibration(train, machines, start, options).calibration;
        for (const Dataset* d : test) {
            TopologyCache::Entry& machine = machines.get(d->topology_path);
            for (const Calibration* cal : {&start, &fitted})
                for (const RowError& e : predict_dataset(*d, machine, *cal, options.monitor, false, options.rows).errors())
                    (cal == &start ? before : after).push_back(e);
        }
    }
    out.before = summarize(before);
    out.after = summarize(after);
    return out;
}

}  // namespace collsim
