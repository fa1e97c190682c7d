#include "sim/validate/validation.hpp"

#include "sim/core/error.hpp"

namespace collsim {

ValidationResult run_validation(const std::vector<Dataset>& data, TopologyCache& machines, const Calibration& cal,
                                const std::string& calibration_name, const ValidationOptions& options) {
    ValidationResult out;
    out.calibration = calibration_name;
    out.cross = options.cross;
    std::vector<RowError> given, in_sample, out_of_sample;
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
        for (const auto& e : r.prediction.errors()) given.push_back(e);
        out.datasets.push_back(std::move(r));
    }
    out.given = summarize(given);
    out.in_sample = out.given;
    if (!options.cross) return out;

    // Each covered dataset fitted alone, then used on its class partners.
    for (auto& train : out.datasets) {
        if (!train.not_covered.empty()) continue;
        const FitResult fit = fit_calibration({train.dataset}, machines, cal, options.fit);
        train.fitted = fit.after;
        for (const auto& e : predict_dataset(*train.dataset, machines.get(train.dataset->topology_path), fit.calibration).errors())
            in_sample.push_back(e);
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
        out_of_sample.insert(out_of_sample.end(), r.out_of_sample_rows.begin(), r.out_of_sample_rows.end());
    }
    out.in_sample = summarize(in_sample);
    out.out_of_sample = summarize(out_of_sample);
    return out;
}

}  // namespace collsim
