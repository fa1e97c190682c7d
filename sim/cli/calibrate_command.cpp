#include "sim/cli/calibrate_command.hpp"

#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithm.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/calibration_fit.hpp"
#include "sim/validate/calibration_kfold.hpp"
#include "sim/validate/calibration_profile.hpp"
#include "sim/validate/dataset_prediction.hpp"

namespace collsim {

namespace {

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "-"; }

std::string quality(const ErrorSummary& s) {
    return fmt::format("latency-bound median {} p90 {}, bandwidth-bound median {} p90 {}, all rows median {} geomean {}",
                       pct(s.median_latency_pct), pct(s.p90_latency_pct), pct(s.median_bandwidth_pct),
                       pct(s.p90_bandwidth_pct), pct(s.median_pct), pct(s.geomean_pct));
}

nlohmann::ordered_json quality_json(const ErrorSummary& s) {
    auto num = [](const std::optional<double>& v) {
        return v ? nlohmann::ordered_json(std::round(*v * 100) / 100) : nlohmann::ordered_json(nullptr);
    };
    return {{"median_ape_latency_pct", num(s.median_latency_pct)},
            {"median_ape_bandwidth_pct", num(s.median_bandwidth_pct)},
            {"p90_ape_latency_pct", num(s.p90_latency_pct)},
            {"p90_ape_bandwidth_pct", num(s.p90_bandwidth_pct)},
            {"median_ape_pct", num(s.median_pct)},
            {"geomean_ape_pct", num(s.geomean_pct)}};
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& o) {
    CLI::App* c = app.add_subcommand("calibrate", "fit the model's free parameters to nccl-tests logs");
    c->add_option("--log", o.logs, "nccl-tests logs or CSVs measured on --topology")->required();
    c->add_option("--topology,-t", o.topology, "the machine the logs were measured on")->required();
    add_set_option(c, o.settings);
    accept_nccl_collective_names(c->add_option("--op", o.op, "the collective, for logs that do not name it"));
    accept_nccl_algorithm_names(c->add_option("--algo", o.algo, "the algorithm the runs forced (NCCL_ALGO): " + algorithm_choices() + ", or auto")->capture_default_str());
    accept_nccl_protocol_names(c->add_option("--proto", o.proto, "the protocol the runs forced (NCCL_PROTO): ll, ll128, simple, or auto")->capture_default_str());
    add_gpus_per_thread_option(c, o.gpus_per_thread);
    add_algorithm_switches(c, o.disable, o.enable);
    c->add_option("--calibration", o.start, "a profile to start from; default: specs and NCCL's constants");
    c->add_option("--size-corrections", o.size_corrections, "fit a time factor per size range, e.g. 64K,64M");
    c->add_option("--output,-o", o.output, "the calibration profile to write")->required();
    c->add_option("--format", o.format, "table or json (the fit quality)")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    c->add_flag("--force", o.force, "write the profile even when the fit is worse than its start on its own rows");
    return c;
}

int run_calibrate(const CalibrateOptions& o) {
    if (o.format != "table" && o.format != "json") bad_option("--format", "table or json", o.format);
    std::optional<CollOp> op;
    if (!o.op.empty() && !(op = coll_op_from(o.op))) bad_option("--op", std::string(coll_op_choices()), o.op);
    check_algorithm_switches(o.disable, o.enable);
    FitOptions options;
    if (!o.size_corrections.empty()) options.size_boundaries = parse_size_boundaries(o.size_corrections, "--size-corrections");
    const Calibration start = o.start.empty() ? Calibration{} : load_calibration(o.start);

    TopologyCache machines(o.settings);
    SpareCores cores(1);  // rows share two threads: the CI machine has two cores
    RowThreads rows(cores, o.settings);
    options.rows = &rows;
    std::vector<Dataset> data;
    for (const auto& log : o.logs) {
        data.push_back(log_dataset(log, o.topology, machines,
                                   {op, o.algo, o.proto, o.disable, o.enable, gpus_per_thread(o.gpus_per_thread)}));
    }
    for (const Dataset& d : data)
        if (auto note = skipped_rows_note(d)) fmt::print(stderr, "collsim: note: {}\n", *note);
    std::vector<const Dataset*> refs;
    for (const auto& d : data) refs.push_back(&d);
    const FitResult fit = fit_calibration(refs, machines, start, options);
    const std::optional<OutOfSample> held_out = out_of_sample(refs, machines, start, options);
    for (const auto& p : fit.parameters)
        if (!p.at_bound.empty())
            fmt::print(stderr, "collsim calibrate: warning: {} ended at its {} bound ({:.4g}): the rows push it past "
                               "what is physical, so the model misses something they measure\n",
                       p.name, p.at_bound, p.value);
    const std::string worse = fit_made_worse(fit.before, fit.after);
    if (!worse.empty()) {
        fmt::print(stderr, "collsim calibrate: the fit is worse than its start on its own rows ({}); {}\n", worse,
                   o.force ? "writing it anyway (--force)" : "nothing written (--force writes it anyway)");
        if (!o.force) return 1;
    }

    const std::string comment = fmt::format(
        "collsim calibration profile, fitted to {} rows of {} log(s) on {} ({} simulations of each row)\n"
        "before: {}\nafter:  {}{}",
        fit.rows, data.size(), o.topology, fit.evaluations, quality(fit.before), quality(fit.after),
        held_out ? fmt::format("\nout of sample ({} folds over the logs): {}", held_out->folds, quality(held_out->after))
                 : std::string());
    std::ofstream file(o.output);
    if (!file) bad_option("--output", "a file that can be written", o.output);
    file << render_calibration(fit.calibration, comment);
    if (!file.flush()) bad_option("--output", "a file that can be written", o.output);

    std::string out;
    if (o.format == "json") {
        nlohmann::ordered_json j;
        j["output"] = o.output;
        j["rows"] = fit.rows;
        j["simulations_per_row"] = fit.evaluations;
        j["before"] = quality_json(fit.before);
        j["after"] = quality_json(fit.after);
        if (held_out)
            j["out_of_sample"] = {{"folds", held_out->folds},
                                  {"rows", held_out->after.rows},
                                  {"before", quality_json(held_out->before)},
                                  {"after", quality_json(held_out->after)}};
        else j["out_of_sample"] = nullptr;
        j["parameters"] = nlohmann::ordered_json::array();
        for (const auto& p : fit.parameters)
            j["parameters"].push_back({{"name", p.name}, {"start", p.start}, {"value", p.value}, {"lo", p.lo},
                                       {"hi", p.hi}, {"fitted", p.active},
                                       {"at_bound", p.at_bound.empty() ? nlohmann::ordered_json(nullptr)
                                                                       : nlohmann::ordered_json(p.at_bound)}});
        j["downweighted_rows"] = nlohmann::ordered_json::array();
        for (const auto& r : fit.downweighted)
            j["downweighted_rows"].push_back({{"file", r.file}, {"line", r.line}, {"bytes", r.size.count()},
                                              {"measured_us", r.measured_us}, {"predicted_us", r.predicted_us},
                                              {"weight", std::round(r.weight * 1000) / 1000}, {"why", r.why}});
        out = stamp_json(j.dump(2), Provenance{o.topology, o.start, true, {}, {}, o.settings});
    } else {
        out = fmt::format("# collsim calibrate: {} rows of {} log(s) on {}, written to {}\n", fit.rows, data.size(),
                          o.topology, o.output);
        out += fmt::format("# before: {}\n# after:  {}\n", quality(fit.before), quality(fit.after));
        if (held_out)
            out += fmt::format("# out of sample, {} folds over the logs (fitted on the others, predicting each):\n"
                               "#   start:  {}\n#   fitted: {}\n",
                               held_out->folds, quality(held_out->before), quality(held_out->after));
        out += "#\n";
        out += fmt::format("# {:<40} {:>10} {:>10} {:>10} {:>10}  {}\n", "parameter", "start", "fitted", "lower",
                           "upper", "");
        for (const auto& p : fit.parameters)
            out += fmt::format("  {:<40} {:>10.4g} {:>10.4g} {:>10.4g} {:>10.4g}  {}\n", p.name, p.start, p.value, p.lo,
                               p.hi, !p.active ? "(the rows cannot tell it: kept)"
                                 : p.at_bound.empty() ? ""
                                                      : "(at its " + p.at_bound + " bound)");
        for (const auto& s : fit.calibration.size_corrections)
            out += fmt::format("  size factor [{}, {}) B {:>27.4g}\n", s.from.count(), s.to.count(), s.factor);
        if (!fit.downweighted.empty()) {
            out += fmt::format("#\n# {} row(s) weighed down by the fit:\n", fit.downweighted.size());
            for (const auto& r : fit.downweighted)
                out += fmt::format("  {}:{} {} B measured {:.2f} us, fitted model {:.2f} us, weight {:.2f}: {}\n",
                                   r.file, r.line, r.size.count(), r.measured_us, r.predicted_us, r.weight, r.why);
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
