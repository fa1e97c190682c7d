#include "sim/validate/validation.hpp"

#include "sim/core/error.hpp"

namespace collsim {

namespace {

// Rows of every dataset, split by the dataset's node count.
struct RowPool {
    std::vector<RowError> all, single_node, multi_node;
    void add(const Dataset& d, const std::vector<RowError>& rows) {
        all.insert(all.end(), rows.begin(), rows.end());
        auto& part = d.nodes > 1 ? multi_node : single_node;
        part.insert(part.end(), rows.begin(), rows.end());
    }
    ScopedErrors summary() const { return {summarize(all), summarize(single_node), summarize(multi_node)}; }
};

}  // namespace

ValidationResult run_validation(const std::vector<Dataset>& data, TopologyCache& machines, const Calibration& cal,
                                const std::string& calibration_name, const ValidationOptions& options) {
    ValidationResult out;
    out.calibration = calibration_name;
    out.cross = options.cross;
    RowPool given, in_sample, out_of_sample;
    for (const Dataset& d : data) {
        DatasetResult r;
        r.dataset = &d;
        try {
            r.prediction = predict_dataset(d, machines.get(d.topology_path), cal);
        } catch (const InputError& e) {
            // The model has no algorithm for this collective (or protocol) yet.
            r.not_covered = e.what();
        }
        if (r.not_covered.empty() && r.prediction.rows.empty()) r.not_covered = "no row with a usable time";
        r.errors = summarize(r.prediction.errors());
        given.add(d, r.prediction.errors());
        out.datasets.push_back(std::move(r));
    }
    out.given = given.summary();
    out.in_sample = out.given;
    if (!options.cross) return out;

    // Each covered dataset fitted alone, then used on its class partners.
    for (auto& train : out.datasets) {
        if (!train.not_covered.empty()) continue;
        const FitResult fit = fit_calibration({train.dataset}, machines, cal, options.fit);
        train.fitted = fit.after;
        in_sample.add(*train.dataset,
                      predict_dataset(*train.dataset, machines.get(train.dataset->topology_path), fit.calibration).errors());
        const std::string& cls = train.dataset->machine_class;
        if (cls.empty()) continue;
        for (auto& test : out.datasets) {
            if (&test == &train || !test.not_covered.empty() || test.dataset->machine_class != cls) continue;
            const auto rows = predict_dataset(*test.dataset, machines.get(test.dataset->topology_path), fit.calibration).errors();
            test.out_of_sample_rows.insert(test.out_of_sample_rows.end(), rows.begin(), rows.end());
        }
    }
    for (auto& r : out.datasets) {
        if (r.out_of_sample_rows.empty()) continue;
        r.out_of_sample = summarize(r.out_of_sample_rows);
        out_of_sample.add(*r.dataset, r.out_of_sample_rows);
    }
    out.in_sample = in_sample.summary();
    out.out_of_sample = out_of_sample.summary();
    return out;
}

}  // namespace collsim
