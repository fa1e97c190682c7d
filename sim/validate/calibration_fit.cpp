#include "sim/validate/calibration_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/nccl_tables.hpp"
#include "sim/model/link_efficiency.hpp"
#include "sim/validate/calibration_profile.hpp"
#include "sim/validate/dataset_prediction.hpp"
#include "sim/validate/least_squares.hpp"
#include "sim/validate/robust_loss.hpp"

namespace collsim {

namespace {

constexpr std::array<std::string_view, 3> kClassNames{"nvlink", "pci", "net"};
// Per-step latencies rise by at most this much: beyond it a fit is chasing
// something other than latency (a wrong topology, a noisy run).
constexpr double kMaxHopIncreaseUs = 50;
constexpr double kMaxBaseLatencyUs = 1000;
// Weak priors on the link parameters, centred on their start: moving a
// bandwidth factor by a factor e (1 in log), or a per-step latency by 20 us,
// must fit the rows better than one row missed by a factor e would cost.
// Without them a parameter the rows barely see drifts to a bound to absorb
// what the model cannot explain, and then mispredicts every other run of
// the machine: fits on two-node runs bound by their NICs set NVLink to
// 0.09-0.33 of its rate (EFA's slow mid sizes, a NIC slower than the
// measured plateau), and single-node runs predicted from them were 2-9x off.
constexpr double kBandwidthPriorSd = 1.0;
constexpr double kHopPriorSdUs = 20;

Time us_to_time(double us) { return Time::from_ps(static_cast<int64_t>(std::llround(us * 1e6))); }

// Parameters 0-2: log bandwidth factor per link class; 3-5: per-step latency
// change per class (us); 6: log point-to-point factor; 7: log NVLS factor;
// then one launch latency (us) per (family, protocol) in use. Only the launch
// latencies can change without simulating again.
constexpr std::size_t kP2pParam = 6, kNvlsParam = 7, kSimulatedParams = 8;

using BaseKey = std::tuple<CollOp, NcclFamily, ProtoKind>;

struct Layout {
    std::vector<BaseKey> bases;  // one parameter each, after the simulated ones
};

// Two timings of one size in one run (nccl-tests times out-of-place, then
// in-place, over the same iterations) that disagree by more than this say
// the run was noisy there: the row then weighs kNoiseSpread / spread.
constexpr double kNoiseSpread = 0.10;
// Rows that end weighing less than this are listed as down-weighted.
constexpr double kReportedWeight = 0.5;

double noise_weight(const MeasuredRow& row) {
    const auto& a = row.result[0].time_us;
    const auto& b = row.result[1].time_us;
    if (!a || !b || *a <= 0 || *b <= 0) return 1.0;
    const double spread = std::abs(*a - *b) / std::min(*a, *b);
    return spread <= kNoiseSpread ? 1.0 : kNoiseSpread / spread;
}

Calibration apply(const Calibration& start, const Layout& layout, const std::vector<double>& x) {
    Calibration c = start;
    for (std::size_t k = 0; k < 3; ++k) {
        c.bandwidth_efficiency[k] = std::exp(x[k]);
        c.hop_latency_delta[k] = us_to_time(x[3 + k]);
    }
    c.p2p_bandwidth_efficiency = std::exp(x[kP2pParam]);
    c.nvls_bandwidth_efficiency = std::exp(x[kNvlsParam]);
    for (std::size_t b = 0; b < layout.bases.size(); ++b)
        c.op_base_latency[layout.bases[b]] = us_to_time(x[kSimulatedParams + b]);
    return c;
}

std::vector<RowError> predict_all(const std::vector<const Dataset*>& data, TopologyCache& machines,
                                  const Calibration& cal, const FitOptions& options,
                                  std::map<BaseKey, bool>* used = nullptr) {
    std::vector<RowError> out;
    for (const Dataset* d : data) {
        const DatasetPrediction p =
            predict_dataset(*d, machines.get(d->topology_path), cal, options.monitor, false, options.rows);
        for (const auto& row : p.rows) {
            out.push_back(row.error);
            if (used)
                if (const AlgorithmInfo* a = find_algorithm(row.algo))
                    (*used)[{d->op, a->family, row.proto}] |= row.error.size < kBandwidthBoundFrom;
        }
    }
    return out;
}

std::vector<double> log_residuals(const std::vector<RowError>& rows) {
    std::vector<double> r;
    r.reserve(rows.size());
    for (const auto& e : rows) r.push_back(std::log(std::max(e.predicted_us, 1e-9) / e.measured_us));
    return r;
}

// The factor on NCCL's own link figures that would reach a link's nominal
// rate: the physical ceiling, the lowest over the machines fitted. Last, the
// same for NVLS's rate (nvlsEfficiency of NCCL's NVLink figure).
std::array<double, 4> efficiency_ceiling(const std::vector<const Dataset*>& data, TopologyCache& machines) {
    std::array<double, 4> hi{kMaxEfficiencyFactor, kMaxEfficiencyFactor, kMaxEfficiencyFactor, kMaxEfficiencyFactor};
    for (const Dataset* d : data) {
        const Topology& t = machines.get(d->topology_path).topo;
        const GpuArch arch = t.gpus().empty() ? GpuArch::unknown : t.device(t.gpus()[0]).arch;
        const LinkEfficiency base = nccl_link_efficiency(arch);
        for (std::size_t k = 0; k < 3; ++k) hi[k] = std::min(hi[k], 1.0 / base[k]);
        if (const double nvls = nccl::nvls_efficiency(nccl::arch_index(arch)); nvls > 0)
            hi[3] = std::min(hi[3], 1.0 / (base[0] * nvls));
    }
    return hi;
}

}  // namespace

FitResult fit_calibration(const std::vector<const Dataset*>& data, TopologyCache& machines, const Calibration& start,
                          const FitOptions& options) {
    FitResult out;
    Calibration base = start;
    base.size_corrections.clear();  // refitted below, on top of the fitted model
    // Per (collective, family, protocol) in use: whether latency-bound rows ran it.
    std::map<BaseKey, bool> used;
    const std::vector<RowError> before = predict_all(data, machines, start, options, &used);
    out.before = summarize(before);
    out.rows = static_cast<int>(before.size());

    Layout layout;
    for (const auto& [key, latency_rows] : used) layout.bases.push_back(key);
    // Runs of bandwidth-bound rows only cannot tell a slow link from a slow
    // launch: fitted on them alone, the latencies stay where they started,
    // so a run that is slow at 64 MiB does not become hundreds of
    // microseconds of latency that other runs' small messages then pay.
    const bool sees_latency = std::any_of(before.begin(), before.end(),
                                          [](const RowError& e) { return e.size < kBandwidthBoundFrom; });
    // Collectives measure the links' rate and point-to-point runs their own
    // share of it (Calibration::p2p_bandwidth_efficiency): fitted on
    // AllToAll alone, the link factors stay where they started, so what
    // sets NCCL's send/recv path apart from its collectives (GB300: AllToAll
    // 628 GB/s busbw at its plateau, AllReduce 685) does not carry over to
    // the collectives predicted from that fit.
    const bool sees_collectives = std::any_of(data.begin(), data.end(), [](const Dataset* d) {
        return !is_point_to_point(d->op);
    });
    const bool sees_p2p = std::any_of(data.begin(), data.end(), [](const Dataset* d) { return is_point_to_point(d->op); });
    // NVLS's factor (Calibration::nvls_bandwidth_efficiency) is fitted on one
    // node's NVLS rows only. A run spanning nodes (NVLSTree) cannot tell the
    // switch's rate from the network's: fitted on two-node H100 runs (EFA's
    // slow mid sizes, a noisy IB run) it fell to 0.57-0.83 and every
    // single-node NVLS AllReduce predicted from them was 17-69% too slow.
    const bool sees_nvls = std::any_of(used.begin(), used.end(), [](const auto& u) {
        return std::get<1>(u.first) == NcclFamily::nvls;
    });
    // NVLS and NVLSTree cross NVLink only through the switch, at NVLS's rate.
    const bool sees_nvlink = sees_collectives && std::any_of(used.begin(), used.end(), [](const auto& u) {
        const NcclFamily f = std::get<1>(u.first);
        return f != NcclFamily::nvls && f != NcclFamily::nvls_tree;
    });
    std::vector<BoxParameter> params;
    // A bandwidth factor, fitted in log and up to `ceiling` where rows see it, else fixed at its start.
    auto add_factor = [&](std::string name, double start, double ceiling, bool seen) {
        const double e = std::clamp(start, kMinEfficiencyFactor, ceiling);
        const double lo = seen ? kMinEfficiencyFactor : e, hi = seen ? ceiling : e;
        params.push_back({std::log(e), std::log(lo), std::log(hi), 1e-3, kBandwidthPriorSd});
        out.parameters.push_back({std::move(name), e, e, lo, hi, true, {}});
    };
    const auto ceiling = efficiency_ceiling(data, machines);
    for (std::size_t k = 0; k < 3; ++k)
        add_factor(fmt::format("{} bandwidth factor", kClassNames[k]), base.bandwidth_efficiency[k], ceiling[k],
                   k == 0 ? sees_nvlink : sees_collectives);
    for (std::size_t k = 0; k < 3; ++k) {
        // No per-step latency of a protocol in use may go below zero.
        double lowest = kMaxHopIncreaseUs;
        for (const auto& [key, latency_rows] : used)
            if (auto p = nccl_protocol(std::get<1>(key), std::get<2>(key))) lowest = std::min(lowest, p->hop_latency[k].us());
        const double d = std::clamp(base.hop_latency_delta[k].us(), -lowest, kMaxHopIncreaseUs);
        params.push_back({d, sees_latency ? -lowest : d, sees_latency ? kMaxHopIncreaseUs : d, 0.02, kHopPriorSdUs});
        out.parameters.push_back({fmt::format("{} per-step latency change (us)", kClassNames[k]), d, d, -lowest,
                                  kMaxHopIncreaseUs, true, {}});
    }
    add_factor("point-to-point bandwidth factor", base.p2p_bandwidth_efficiency, kMaxEfficiencyFactor, sees_p2p);
    add_factor("NVLS bandwidth factor", base.nvls_bandwidth_efficiency, ceiling[3], sees_nvls);
    // A launch latency is fitted per collective, family and protocol, and
    // only where latency-bound rows of it were measured: bandwidth-bound rows
    // cannot tell a slow launch from a slow link, and one collective's
    // launch says nothing about another's.
    for (const auto& key : layout.bases) {
        const auto [op, family, proto] = key;
        const Time start_latency = calibrated(*nccl_protocol(family, proto), family, base, op).base_latency;
        const double b = start_latency.us();
        const bool seen = sees_latency && used[key];
        params.push_back({b, seen ? 0.0 : b, seen ? kMaxBaseLatencyUs : b, 0.05});
        out.parameters.push_back({fmt::format("{} {}/{} base latency (us)", to_string(op), to_string(family),
                                              to_string(proto)),
                                  b, b, 0.0, kMaxBaseLatencyUs, true, {}});
    }

    // A launch latency adds to a row's time (up to the launch floor of the
    // run's -g, which the fit leaves where it is) and changes nothing else (the
    // executor waits it out before the first step, and the tuner's choice
    // does not depend on the calibration), so rows are simulated with every
    // launch latency at zero, once per setting of the link parameters, and
    // each row's launch latency is added to that: varying a launch latency
    // costs no simulation.
    std::vector<std::size_t> row_base;  // per row, its index into layout.bases
    std::vector<double> row_floor;      // per row, the launch floor of its run's -g
    std::vector<double> row_noise;      // per row, its weight for the run's noise there
    std::vector<std::pair<const Dataset*, int>> row_at;  // per row, its run and line
    std::vector<double> cached_key;
    std::vector<RowError> cached_rows;
    int simulated = 0;
    auto residuals = [&](const std::vector<double>& x) {
        const std::vector<double> key(x.begin(), x.begin() + kSimulatedParams);
        if (cached_rows.empty() || key != cached_key) {
            std::vector<double> zero = x;
            std::fill(zero.begin() + kSimulatedParams, zero.end(), 0.0);
            cached_rows.clear();
            row_base.clear();
            row_floor.clear();
            row_noise.clear();
            row_at.clear();
            for (const Dataset* d : data) {
                std::map<int, double> noise;
                for (const MeasuredRow& m : d->measurement.rows) noise[m.line] = noise_weight(m);
                const DatasetPrediction p =
                    predict_dataset(*d, machines.get(d->topology_path), apply(base, layout, zero),
                                    options.monitor, false, options.rows);
                for (const auto& row : p.rows) {
                    cached_rows.push_back(RowError{row.error.size, row.error.measured_us, row.device_us});
                    row_floor.push_back(launch_floor(d->gpus_per_thread, base).us());
                    row_noise.push_back(noise[row.line]);
                    row_at.emplace_back(d, row.line);
                    const BaseKey k{d->op, find_algorithm(row.algo)->family, row.proto};
                    row_base.push_back(static_cast<std::size_t>(
                        std::find(layout.bases.begin(), layout.bases.end(), k) - layout.bases.begin()));
                }
            }
            cached_key = key;
            ++simulated;
        }
        std::vector<RowError> rows = cached_rows;
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i].predicted_us = std::max(rows[i].predicted_us + x[kSimulatedParams + row_base[i]], row_floor[i]);
        std::vector<double> r = log_residuals(rows);
        for (std::size_t i = 0; i < r.size(); ++i) r[i] = row_noise[i] * huber_residual(r[i]);
        return r;
    };
    const LeastSquaresResult lsq = least_squares(residuals, params, options.max_iterations);
    out.evaluations = simulated + 2;  // and once each before and after
    Calibration fitted = apply(base, layout, lsq.x);
    for (std::size_t i = 0; i < params.size(); ++i) {
        FittedParameter& p = out.parameters[i];
        p.active = lsq.active[i];
        p.value = i < 3 || i == kP2pParam || i == kNvlsParam ? std::exp(lsq.x[i]) : lsq.x[i];
        // A parameter the rows pushed to a bound would have gone further: the
        // model cannot explain those rows with it, and the profile says so.
        const double room = 1e-6 * std::max(1.0, params[i].hi - params[i].lo);
        if (p.active && params[i].lo < params[i].hi) {
            if (lsq.x[i] <= params[i].lo + room) p.at_bound = "lower";
            else if (lsq.x[i] >= params[i].hi - room) p.at_bound = "upper";
        }
    }
    // Launch latencies the rows do not identify are left out of the profile,
    // so its collectives keep theirs.
    for (std::size_t b = 0; b < layout.bases.size(); ++b)
        if (!lsq.active[kSimulatedParams + b]) {
            const auto it = start.op_base_latency.find(layout.bases[b]);
            if (it == start.op_base_latency.end()) fitted.op_base_latency.erase(layout.bases[b]);
            else fitted.op_base_latency[layout.bases[b]] = it->second;
        }
    {
        // The rows the fit weighed down, at the fitted parameters.
        const std::vector<double> r = residuals(lsq.x);
        for (std::size_t i = 0; i < r.size(); ++i) {
            const double raw = std::log(std::max(cached_rows[i].predicted_us + lsq.x[kSimulatedParams + row_base[i]],
                                                 row_floor[i]) /
                                        cached_rows[i].measured_us);
            const double w = row_noise[i] * huber_weight(raw);
            if (w >= kReportedWeight) continue;
            out.downweighted.push_back({row_at[i].first->name, row_at[i].second, cached_rows[i].size,
                                        cached_rows[i].measured_us, cached_rows[i].measured_us * std::exp(raw), w,
                                        row_noise[i] < 1 ? "its out-of-place and in-place times disagree"
                                                         : "far from what the model predicts"});
        }
    }
    // Parameters no row depends on keep their start, so the profile says
    // nothing about links the logs never used.
    for (std::size_t k = 0; k < 3; ++k) {
        if (!lsq.active[k]) fitted.bandwidth_efficiency[k] = start.bandwidth_efficiency[k];
        if (!lsq.active[3 + k]) fitted.hop_latency_delta[k] = start.hop_latency_delta[k];
    }
    if (!lsq.active[kP2pParam]) fitted.p2p_bandwidth_efficiency = start.p2p_bandwidth_efficiency;
    if (!lsq.active[kNvlsParam]) fitted.nvls_bandwidth_efficiency = start.nvls_bandwidth_efficiency;

    // Size corrections: per range, the geometric mean of measured / predicted.
    if (!options.size_boundaries.empty()) {
        const std::vector<RowError> rows = predict_all(data, machines, fitted, options);
        std::vector<Bytes> edges{Bytes(0)};
        edges.insert(edges.end(), options.size_boundaries.begin(), options.size_boundaries.end());
        edges.push_back(Bytes(int64_t{1} << 60));  // 1 EiB: above any size a log holds
        for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
            double sum = 0;
            int n = 0;
            for (const auto& e : rows)
                if (e.size >= edges[i] && e.size < edges[i + 1]) sum += std::log(e.measured_us / e.predicted_us), ++n;
            if (n == 0) continue;
            const double factor = std::clamp(std::exp(sum / n), kMinSizeFactor, kMaxSizeFactor);
            fitted.size_corrections.push_back(SizeCorrection{edges[i], edges[i + 1], factor});
        }
    }

    std::set<std::string> versions;
    std::string from;
    for (const Dataset* d : data) {
        versions.insert(d->measurement.nccl_version);
        from += (from.empty() ? "" : ", ") + d->name;
    }
    if (versions.size() == 1 && !versions.begin()->empty()) fitted.nccl_version = *versions.begin();
    fitted.fitted_from = from;
    out.after = summarize(predict_all(data, machines, fitted, options));
    out.calibration = std::move(fitted);
    return out;
}

std::string fit_made_worse(const ErrorSummary& before, const ErrorSummary& after) {
    constexpr double kSlackPct = 0.5;
    std::string out;
    auto check = [&](const char* what, const std::optional<double>& b, const std::optional<double>& a) {
        if (b && a && *a > *b + kSlackPct)
            out += fmt::format("{}{} {:.1f}% -> {:.1f}%", out.empty() ? "" : ", ", what, *b, *a);
    };
    check("latency-bound median", before.median_latency_pct, after.median_latency_pct);
    check("bandwidth-bound median", before.median_bandwidth_pct, after.median_bandwidth_pct);
    check("geometric mean", before.geomean_pct, after.geomean_pct);
    return out;
}

}  // namespace collsim
