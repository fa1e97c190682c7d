#include "sim/cli/validate_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/busbw_plot.hpp"
#include "sim/validate/calibration_profile.hpp"
#include "sim/validate/dataset_prediction.hpp"
#include "sim/validate/validation_report.hpp"

namespace collsim {

namespace {

void write_plots(const ValidationResult& v, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) bad_option("--plot", "a folder that can be created", dir);
    for (const auto& r : v.datasets) {
        if (!r.not_covered.empty()) continue;
        const std::string path = (std::filesystem::path(dir) / (std::filesystem::path(r.dataset->name).stem().string() + ".svg")).string();
        std::ofstream out(path);
        if (!out) bad_option("--plot", "a folder where files can be written", dir);
        out << render_busbw_plot(*r.dataset, r.prediction, v.calibration);
    }
}
}  // namespace

CLI::App* add_validate_command(CLI::App& app, ValidateOptions& o) {
    CLI::App* c = app.add_subcommand("validate", "predict measured nccl-tests runs and report the error");
    c->add_option("--data", o.data, "folder with datasets.yaml and the runs it lists")
        ->capture_default_str()
        ->each([&o](const std::string&) { o.data_given = true; });
    c->add_option("--log", o.log, "one nccl-tests log or CSV instead of --data (needs --topology)");
    c->add_option("--topology,-t", o.topology, "the machine --log was measured on");
    add_set_option(c, o.settings);
    accept_nccl_collective_names(c->add_option("--op", o.op, "the collective of --log, where the log does not name it"));
    accept_nccl_algorithm_names(c->add_option("--algo", o.algo, "the algorithm --log's run forced (NCCL_ALGO): " + algorithm_choices() + ", or auto")->capture_default_str());
    accept_nccl_protocol_names(c->add_option("--proto", o.proto, "the protocol --log's run forced (NCCL_PROTO): ll, ll128, simple, or auto")->capture_default_str());
    add_gpus_per_thread_option(c, o.gpus_per_thread);
    add_algorithm_switches(c, o.disable, o.enable);
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_flag("--cross", o.cross, "fit each dataset alone and predict the others of its machine class");
    c->add_option("--size-corrections", o.size_corrections, "size-range boundaries for the --cross fits, e.g. 64K,64M");
    c->add_option("--plot", o.plot, "write one SVG per dataset (measured and predicted busbw) to this folder");
    c->add_option("--max-bandwidth-error", o.max_bandwidth_error,
                  "exit 1 if the median error of bandwidth-bound rows (out-of-sample with --cross) is above this %")
        ->each([&o](const std::string&) { o.max_bandwidth_given = true; });
    c->add_option("--max-latency-error", o.max_latency_error,
                  "exit 1 if the median error of latency-bound rows (out-of-sample with --cross) is above this %")
        ->each([&o](const std::string&) { o.max_latency_given = true; });
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    add_progress_options(c, o.progress);
    return c;
}

int run_validate(const ValidateOptions& o) {
    ProgressMonitor monitor("collsim validate", o.progress);
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    if (!o.log.empty() && o.topology.empty()) bad_option("--topology", "a topology file to go with --log", "nothing");
    if (o.log.empty() && !o.topology.empty()) bad_option("--log", "a log to go with --topology", "nothing");
    if (!o.settings.empty() && o.topology.empty())
        bad_option("--set", "--log and --topology to change (the datasets' machines are as measured)", o.settings[0]);
    if (!o.log.empty() && o.data_given) bad_option("--data", "either --data or --log, not both", o.data);
    // A negative (or NaN) threshold would switch the check off.
    if (o.max_bandwidth_given && !(o.max_bandwidth_error >= 0))
        bad_option("--max-bandwidth-error", "a percentage of 0 or more", fmt::format("{}", o.max_bandwidth_error));
    if (o.max_latency_given && !(o.max_latency_error >= 0))
        bad_option("--max-latency-error", "a percentage of 0 or more", fmt::format("{}", o.max_latency_error));
    // What one run forced or how it ran: datasets.yaml and the logs say it for each run of --data.
    if (o.log.empty()) {
        struct LogOnly {
            bool given;
            const char* option;
            const char* why;
            std::string found;
        };
        for (const LogOnly& x : {
                 LogOnly{!o.op.empty(), "--op", "", o.op},
                 LogOnly{o.gpus_per_thread != -1, "--gpus-per-thread", " (datasets.yaml and the logs say it for each run)",
                         std::to_string(o.gpus_per_thread)},
                 LogOnly{o.algo != "auto" || o.proto != "auto", "--algo/--proto",
                         " (datasets.yaml says what each run forced)", o.algo + "/" + o.proto},
                 LogOnly{!o.disable.empty(), "--disable", " (datasets.yaml says what each run turned off)",
                         o.disable.empty() ? "" : o.disable.front()},
                 LogOnly{!o.enable.empty(), "--enable", " (datasets.yaml says what each run turned on)",
                         o.enable.empty() ? "" : o.enable.front()},
             })
            if (x.given) bad_option(x.option, std::string("only with --log") + x.why, x.found);
    }
    check_algorithm_switches(o.disable, o.enable);
    std::optional<CollOp> op;
    if (!o.op.empty() && !(op = coll_op_from(o.op))) bad_option("--op", std::string(coll_op_choices()), o.op);
    ValidationOptions options;
    options.cross = o.cross;
    if (!o.size_corrections.empty())
        options.fit.size_boundaries = parse_size_boundaries(o.size_corrections, "--size-corrections");
    options.monitor = monitor.hook();

    const Calibration cal = o.calibration.empty() ? Calibration{} : load_calibration(o.calibration);
    TopologyCache machines(o.settings);
    std::vector<Dataset> data;
    if (!o.log.empty()) {
        data.push_back(log_dataset(o.log, o.topology, machines,
                                   {op, o.algo, o.proto, o.disable, o.enable, gpus_per_thread(o.gpus_per_thread)}));
    }
    else data = load_datasets(o.data, machines);
    for (const Dataset& d : data)
        if (auto note = skipped_rows_note(d)) fmt::print(stderr, "collsim: note: {}\n", *note);
    const std::string calibration_name = o.calibration.empty() ? "defaults" : o.calibration;
    ValidationResult v;
    try {
        // A lone log the model cannot run is bad input, not a row of a report.
        if (!o.log.empty()) predict_dataset(data[0], machines.get(data[0].topology_path), cal, options.monitor);
        v = run_validation(data, machines, cal, calibration_name, options);
    } catch (const RunStopped& e) {
        // Stopped in that first look at the lone log: no row predicted yet.
        v.calibration = calibration_name;
        v.stopped = ValidationStop{e.what(), 0, predicted_row_count(data[0]), "rows"};
    }
    if (!o.plot.empty()) write_plots(v, o.plot);
    std::string out = o.format == "json" ? stamp_json(render_validation_json(v), Provenance{o.topology, o.calibration, true, {}, {}, o.settings})
                      : o.format == "csv" ? render_validation_csv(v)
                                          : render_validation_table(v, o.log.empty() ? o.data : o.log);
    if (v.stopped)
        out = mark_partial(out, PartialRun{v.stopped->by, v.stopped->done, v.stopped->total, v.stopped->unit},
                           o.format == "json");
    monitor.finish();
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (v.stopped) return 1;  // the --max-*-error checks need the whole run

    const ErrorSummary& judged = v.out_of_sample ? v.out_of_sample->all : v.given.all;
    bool failed = false;
    if (o.max_bandwidth_error >= 0 && judged.median_bandwidth_pct && *judged.median_bandwidth_pct > o.max_bandwidth_error) {
        fmt::print(stderr, "collsim validate: median error of bandwidth-bound rows {:.1f}% is above {}%\n",
                   *judged.median_bandwidth_pct, o.max_bandwidth_error);
        failed = true;
    }
    if (o.max_latency_error >= 0 && judged.median_latency_pct && *judged.median_latency_pct > o.max_latency_error) {
        fmt::print(stderr, "collsim validate: median error of latency-bound rows {:.1f}% is above {}%\n",
                   *judged.median_latency_pct, o.max_latency_error);
        failed = true;
    }
    return failed ? 1 : 0;
}

}  // namespace collsim
