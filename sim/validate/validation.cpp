#include "sim/validate/validation.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#include "algorithms/communicator.hpp"
#include "sim/core/error.hpp"

namespace collsim {

namespace {

// An AllReduce on one server's eight GPUs, each linked to an NVSwitch.
bool nvswitch_8gpu_allreduce(const Dataset& d, TopologyCache& machines) {
    if (d.op != CollOp::allreduce || d.ranks != 8 || d.nodes != 1) return false;
    const Topology& t = machines.get(d.topology_path).topo;
    const auto gpus = first_gpus(t, d.ranks).gpus;
    return std::all_of(gpus.begin(), gpus.end(), [&](DeviceId g) {
        const auto& graph = t.graph();
        for (auto [e, end] = boost::out_edges(g, graph); e != end; ++e)
            if (t.device(static_cast<DeviceId>(boost::target(*e, graph))).kind == DeviceKind::nvswitch) return true;
        return false;
    });
}

// Rows of every dataset, split by the dataset's node count, and those of
// 8-GPU NVSwitch AllReduce runs.
struct RowPool {
    std::vector<RowError> all, single_node, multi_node, nvswitch8;
    void add(const Dataset& d, bool eight_nvswitch, const std::vector<RowError>& rows) {
        all.insert(all.end(), rows.begin(), rows.end());
        auto& part = d.nodes > 1 ? multi_node : single_node;
        part.insert(part.end(), rows.begin(), rows.end());
        if (eight_nvswitch) nvswitch8.insert(nvswitch8.end(), rows.begin(), rows.end());
    }
    ScopedErrors summary() const {
        return {summarize(all), summarize(single_node), summarize(multi_node), summarize(nvswitch8)};
    }
};

}  // namespace

ValidationResult run_validation(const std::vector<Dataset>& data, TopologyCache& machines, const Calibration& cal,
                                const std::string& calibration_name, const ValidationOptions& options) {
    ValidationResult out;
    out.calibration = calibration_name;
    out.cross = options.cross;
    RowPool given, in_sample, out_of_sample;
    std::vector<bool> eight;  // per dataset: an 8-GPU NVSwitch AllReduce
    RunMonitor* const monitor = options.monitor;
    std::size_t rows_total = 0, rows_done = 0;
    for (const Dataset& d : data) rows_total += predicted_row_count(d);
    if (monitor) monitor->begin_stage("rows", rows_total);
    // Two threads throughout, for the CI machine's two cores: a dataset's
    // rows while one thread predicts them all, then two fits at once, and
    // the rows of the last fits as the other thread runs out of fits.
    SpareCores cores(1);
    try {
        RowThreads rows(cores, machines.settings());
        for (const Dataset& d : data) {
            eight.push_back(nvswitch_8gpu_allreduce(d, machines));
            DatasetResult r;
            r.dataset = &d;
            try {
                r.prediction = predict_dataset(d, machines.get(d.topology_path), cal, monitor, true, &rows);
            } catch (const InputError& e) {
                // The model has no algorithm for this collective (or protocol) yet.
                r.not_covered = e.what();
            }
            if (r.not_covered.empty() && r.prediction.rows.empty()) r.not_covered = "no row with a usable time";
            r.errors = summarize(r.prediction.errors());
            given.add(d, eight.back(), r.prediction.errors());
            out.datasets.push_back(std::move(r));
            rows_done += predicted_row_count(d);
        }
    } catch (const RunStopped& e) {
        out.stopped = ValidationStop{e.what(), rows_done, rows_total, "rows"};
    }
    out.given = given.summary();
    out.in_sample = out.given;
    if (!options.cross || out.stopped) return out;

    // Each covered dataset fitted alone, then used on its class partners.
    // The fits are independent, so two threads share them (the CI machine
    // has two cores), each with its own topologies (Routes cache paths and
    // are not shared between threads). Results are kept per dataset and
    // merged in dataset order, so the report never depends on scheduling.
    struct CrossResult {
        ErrorSummary fitted;
        std::vector<RowError> in_sample;
        std::vector<std::pair<std::size_t, std::vector<RowError>>> partners;  // (dataset index, its rows)
    };
    const std::size_t n = out.datasets.size();
    std::vector<CrossResult> cross(n);
    // Largest communicators first, so the two threads finish together rather
    // than one fitting the 72-rank rack alone at the end.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return out.datasets[a].dataset->ranks > out.datasets[b].dataset->ranks;
    });
    // A run without a covered partner of its class has nothing to predict out
    // of sample: its fit would only cost time (the 72-rank rack's is most of
    // the whole cross-validation), so it is left out of the in-sample figure too.
    auto has_partner = [&](std::size_t i) {
        const Dataset& d = *out.datasets[i].dataset;
        for (std::size_t j = 0; j < n; ++j)
            if (j != i && !d.machine_class.empty() && out.datasets[j].not_covered.empty() &&
                out.datasets[j].dataset->machine_class == d.machine_class)
                return true;
        return false;
    };
    std::size_t fits_total = 0;
    for (std::size_t i = 0; i < n; ++i) fits_total += out.datasets[i].not_covered.empty() && has_partner(i) ? 1 : 0;
    if (monitor) monitor->begin_stage("fits", fits_total);
    FitOptions fit_options = options.fit;
    fit_options.monitor = monitor;
    std::atomic<std::size_t> next{0}, fits_done{0};
    // After the first failure (bad input, or the monitor's stop) the other
    // thread stops too, at its next fit: its work would be thrown away.
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_lock;
    auto work = [&] {
        TopologyCache own(machines.settings());
        RowThreads rows(cores, machines.settings());
        FitOptions mine = fit_options;
        mine.rows = &rows;
        for (std::size_t slot = next++; slot < n && !failed; slot = next++) {
            const std::size_t i = order[slot];
            const DatasetResult& train = out.datasets[i];
            if (!train.not_covered.empty() || !has_partner(i)) continue;
            try {
                const FitResult fit = fit_calibration({train.dataset}, own, cal, mine);
                cross[i].fitted = fit.after;
                cross[i].in_sample = predict_dataset(*train.dataset, own.get(train.dataset->topology_path),
                                                     fit.calibration, monitor, false, &rows).errors();
                const std::string& cls = train.dataset->machine_class;
                for (std::size_t j = 0; j < n && !cls.empty(); ++j) {
                    const DatasetResult& test = out.datasets[j];
                    if (j == i || !test.not_covered.empty() || test.dataset->machine_class != cls) continue;
                    cross[i].partners.emplace_back(
                        j, predict_dataset(*test.dataset, own.get(test.dataset->topology_path), fit.calibration,
                                           monitor, false, &rows).errors());
                }
                ++fits_done;
                if (monitor) monitor->add_done();
            } catch (...) {
                const std::lock_guard<std::mutex> hold(failure_lock);
                if (!failure) failure = std::current_exception();
                failed = true;
            }
        }
        cores.give();  // out of fits: the other thread's rows may use this core
    };
    cores.take();  // the second fit thread's (the first stage is over)
    std::thread helper(work);
    work();
    helper.join();
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const RunStopped& e) {
            // The figures of the calibration given are whole; the fits are not.
            out.cross = false;
            out.stopped = ValidationStop{e.what(), fits_done, fits_total, "fits"};
            return out;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!out.datasets[i].not_covered.empty() || !has_partner(i)) continue;
        out.datasets[i].fitted = cross[i].fitted;
        in_sample.add(*out.datasets[i].dataset, eight[i], cross[i].in_sample);
        for (const auto& [j, rows] : cross[i].partners) {
            auto& dst = out.datasets[j].out_of_sample_rows;
            dst.insert(dst.end(), rows.begin(), rows.end());
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        DatasetResult& r = out.datasets[i];
        if (r.out_of_sample_rows.empty()) continue;
        r.out_of_sample = summarize(r.out_of_sample_rows);
        out_of_sample.add(*r.dataset, eight[i], r.out_of_sample_rows);
    }
    out.in_sample = in_sample.summary();
    out.out_of_sample = out_of_sample.summary();
    return out;
}

}  // namespace collsim
