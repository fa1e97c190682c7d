#include "sim/validate/validation_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace collsim {

namespace {

using Json = nlohmann::ordered_json;

Json number_or_null(const std::optional<double>& v) {
    if (!v) return nullptr;
    // Two decimals of a percentage: enough, and stable across platforms.
    return std::round(*v * 100.0) / 100.0;
}

void add_errors(Json& j, const ErrorSummary& s) {
    j["latency_rows"] = s.latency_rows;
    j["bandwidth_rows"] = s.bandwidth_rows;
    j["median_ape_latency_pct"] = number_or_null(s.median_latency_pct);
    j["median_ape_bandwidth_pct"] = number_or_null(s.median_bandwidth_pct);
    j["p90_ape_latency_pct"] = number_or_null(s.p90_latency_pct);
    j["p90_ape_bandwidth_pct"] = number_or_null(s.p90_bandwidth_pct);
    j["median_ape_pct"] = number_or_null(s.median_pct);
    j["geomean_ape_pct"] = number_or_null(s.geomean_pct);
}

Json summary_json(const ErrorSummary& s) {
    Json j;
    j["rows"] = s.rows;
    add_errors(j, s);
    return j;
}

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

std::string summary_line(const ErrorSummary& s) {
    // A size range without rows prints '-'.
    auto p = [](const std::optional<double>& v) { return v ? pct(v) + "%" : std::string("-"); };
    return fmt::format("{} rows; latency-bound (<64 KiB, {} rows) median {} p90 {}; bandwidth-bound (>=64 MiB, {} "
                       "rows) median {} p90 {}; geomean {}",
                       s.rows, s.latency_rows, p(s.median_latency_pct), p(s.p90_latency_pct), s.bandwidth_rows,
                       p(s.median_bandwidth_pct), p(s.p90_bandwidth_pct), p(s.geomean_pct));
}

}  // namespace

std::string render_validation_table(const ValidationResult& v, const std::string& source) {
    std::string out = fmt::format("# collsim validate: {} datasets from {}, calibration: {}{}\n", v.datasets.size(),
                                  source, v.calibration, v.cross ? ", cross-validated within machine classes" : "");
    out += "# absolute percentage error of time: latency-bound rows < 64 KiB, bandwidth-bound rows >= 64 MiB\n#\n";
    out += fmt::format("# {:<56} {:>13} {:>5} {:>3} {:>4} {:>9} {:>12} {:>7} {:>7} {:>7} {:>7} {:>7}", "dataset", "op",
                       "ranks", "-g", "rows", "algo", "proto", "lat-med", "lat-p90", "bw-med", "bw-p90", "geomean");
    if (v.cross) out += fmt::format(" {:>7} {:>7} {:>7} {:>7}", "fit-lat", "fit-bw", "x-lat", "x-bw");
    out += "\n";
    for (const auto& r : v.datasets) {
        if (!r.not_covered.empty()) continue;
        const Dataset& d = *r.dataset;
        const ErrorSummary& s = r.errors;
        out += fmt::format("  {:<56} {:>13} {:>5} {:>3} {:>4} {:>9} {:>12} {:>7} {:>7} {:>7} {:>7} {:>7}", d.name,
                           to_string(d.op), d.ranks, d.gpus_per_thread, s.rows, r.prediction.algos(), r.prediction.protos(),
                           pct(s.median_latency_pct), pct(s.p90_latency_pct), pct(s.median_bandwidth_pct),
                           pct(s.p90_bandwidth_pct), pct(s.geomean_pct));
        if (v.cross) {
            const ErrorSummary none;
            const ErrorSummary& f = r.fitted ? *r.fitted : none;
            const ErrorSummary& x = r.out_of_sample ? *r.out_of_sample : none;
            out += fmt::format(" {:>7} {:>7} {:>7} {:>7}", pct(f.median_latency_pct), pct(f.median_bandwidth_pct),
                               pct(x.median_latency_pct), pct(x.median_bandwidth_pct));
        }
        out += "\n";
    }
    bool header = false;
    for (const auto& r : v.datasets) {
        if (r.not_covered.empty()) continue;
        if (!header) out += "#\n# not covered by the model:\n";
        header = true;
        out += fmt::format("#   {} ({} on {} ranks): {}\n", r.dataset->name, to_string(r.dataset->op), r.dataset->ranks,
                           r.not_covered);
    }
    auto scoped = [&](const char* what, const ScopedErrors& e) {
        out += fmt::format("# overall, {}:\n#   all runs:         {}\n#   single-node runs: {}\n#   multi-node runs:  {}\n"
                           "#   8-GPU NVSwitch AllReduce: {}\n",
                           what, summary_line(e.all), summary_line(e.single_node), summary_line(e.multi_node),
                           summary_line(e.nvswitch_8gpu_allreduce));
    };
    out += "#\n";
    scoped("calibration as given", v.given);
    if (v.cross) {
        scoped("in-sample (each dataset fitted on itself)", v.in_sample);
        scoped("out-of-sample (fitted on another dataset of its class)", *v.out_of_sample);
    }
    return out;
}

std::string render_validation_json(const ValidationResult& v) {
    Json j;
    j["calibration"] = v.calibration;
    j["cross"] = v.cross;
    j["datasets"] = Json::array();
    j["not_covered"] = Json::array();
    for (const auto& r : v.datasets) {
        const Dataset& d = *r.dataset;
        if (!r.not_covered.empty()) {
            j["not_covered"].push_back(Json{{"file", d.name}, {"op", to_string(d.op)}, {"ranks", d.ranks},
                                            {"reason", r.not_covered}});
            continue;
        }
        Json o;
        o["file"] = d.name;
        o["class"] = d.machine_class;
        o["op"] = to_string(d.op);
        o["ranks"] = d.ranks;
        o["nodes"] = d.nodes;
        o["gpus_per_thread"] = d.gpus_per_thread;
        o["rows"] = r.errors.rows;
        o["algo"] = r.prediction.algos();
        o["proto"] = r.prediction.protos();
        add_errors(o, r.errors);
        if (v.cross) {
            o["fitted"] = r.fitted ? summary_json(*r.fitted) : Json(nullptr);
            o["out_of_sample"] = r.out_of_sample ? summary_json(*r.out_of_sample) : Json(nullptr);
        }
        j["datasets"].push_back(std::move(o));
    }
    j["overall"]["given"] = summary_json(v.given.all);
    j["overall"]["in_sample"] = summary_json(v.in_sample.all);
    j["overall"]["out_of_sample"] = v.out_of_sample ? summary_json(v.out_of_sample->all) : Json(nullptr);
    for (const auto& [key, pick] : {std::pair{"single_node", &ScopedErrors::single_node},
                                    std::pair{"multi_node", &ScopedErrors::multi_node},
                                    std::pair{"nvswitch_8gpu_allreduce", &ScopedErrors::nvswitch_8gpu_allreduce}}) {
        Json& scope = j["overall"][key];
        scope["given"] = summary_json(v.given.*pick);
        scope["in_sample"] = summary_json(v.in_sample.*pick);
        scope["out_of_sample"] = v.out_of_sample ? summary_json((*v.out_of_sample).*pick) : Json(nullptr);
    }
    return j.dump(2) + "\n";
}

std::string render_validation_csv(const ValidationResult& v) {
    std::string out = "file,class,op,ranks,line,size_bytes,measured_us,predicted_us,ape_pct,algo,proto\n";
    for (const auto& r : v.datasets) {
        if (!r.not_covered.empty()) continue;
        const Dataset& d = *r.dataset;
        for (const auto& row : r.prediction.rows)
            out += fmt::format("{},{},{},{},{},{},{:.3f},{:.3f},{:.2f},{},{}\n", d.name, d.machine_class, to_string(d.op),
                               d.ranks, row.line, row.error.size.count(), row.error.measured_us, row.error.predicted_us,
                               row.error.ape_pct(), row.algo, to_string(row.proto));
    }
    return out;
}

}  // namespace collsim
