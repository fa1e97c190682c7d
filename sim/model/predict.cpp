#include "sim/model/predict.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"
#include "algorithms/tuner/nccl_tables.hpp"
#include "algorithms/tuner/tuner.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/model/channel_layout.hpp"
#include "sim/model/link_efficiency.hpp"

namespace collsim {

namespace {
[[noreturn]] void bad(const std::string& field, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, field, std::move(expected), "'" + found + "'");
}
}  // namespace

void check_algo_proto_names(const std::string& algo, const std::string& proto) {
    if (!algo.empty() && algo != "auto" && !find_algorithm(algo)) bad("--algo", algorithm_choices() + " or auto", algo);
    if (proto != "auto" && !proto_kind_from(proto)) bad("--proto", std::string(proto_choices()) + " or auto", proto);
}

int default_channels(Routes& routes, const std::vector<DeviceId>& ranks) {
    std::size_t most = 1;
    for (std::size_t i = 0; ranks.size() > 1 && i < ranks.size(); ++i)
        most = std::max(most, routes.first_hop_links(ranks[i], ranks[(i + 1) % ranks.size()]));
    return static_cast<int>(std::min<std::size_t>(most, 32));
}

namespace {
// An MSCCL file runs as written: its channels, its protocol unless fixed. It
// runs its own kernel; its steps pay the ring's per-step latencies.
Prediction predict_msccl(const Topology& topo, Routes& routes, const PredictRequest& req, const Calibration& cal) {
    const msccl::MscclAlgorithm& file = *req.msccl;
    if (req.model == ModelTier::analytical || req.model == ModelTier::fluid || req.explain)
        bad("--model", "flow or auto: an MSCCL file has no closed form",
            req.explain ? "--explain" : std::string(to_string(req.model)));
    check_algo_proto_names("", req.proto);
    const ProtoKind kind = req.proto == "auto" ? file.proto : *proto_kind_from(req.proto);
    Prediction p;
    p.algo = file.name.empty() ? "msccl" : file.name;
    p.proto = kind;
    p.channels = file.nchannels;
    p.why = "an MSCCL file";
    const Protocol proto = calibrated(*nccl_protocol(NcclFamily::ring, kind), NcclFamily::ring, cal);
    const CommShape shape = comm_shape(topo, routes, req.ranks);
    const ScheduleTiming t = simulate_schedule(
        topo, routes, req.ranks, msccl::msccl_schedule(file, req.bytes), proto,
        SimulateOptions{collective_link_efficiency(shape.arch, cal), req.setup, req.timeout, req.routing, {}, false,
                        req.link_traffic});
    p.hang = t.hang;
    p.flow = t.time;
    p.time = t.time;
    p.link_traffic = t.link_traffic;
    return p;
}
}  // namespace

CollectivePlan plan_collective(const Topology& topo, Routes& routes, const PredictRequest& req,
                               const Calibration& cal) {
    check_algo_proto_names(req.algo, req.proto);
    const AlgorithmInfo* fixed = req.algo == "auto" ? nullptr : find_algorithm(req.algo);
    if (fixed && !fixed->supports(req.op))
        bad("--op", fmt::format("an operation that algorithm '{}' implements", fixed->name), std::string(to_string(req.op)));
    CollectivePlan c;
    c.comm = make_communicator(topo, req.ranks);
    const CommLayout& comm = c.comm;
    if (fixed)
        if (auto why = fixed->why_not(req.op, comm))
            bad("--algo", fmt::format("an algorithm that can run here ({})", *why), req.algo);
    if (fixed && req.proto != "auto" && !nccl_protocol(fixed->family, *proto_kind_from(req.proto)))
        bad("--proto", fmt::format("a protocol that NCCL runs with algorithm '{}'", fixed->name), req.proto);

    const CommShape shape = comm_shape(topo, routes, req.ranks);
    std::map<std::string, bool> usable;  // why_not can be costly (SHARP trees): ask once per algorithm
    auto tuned = tune(shape, req.op, req.bytes, req.algo, req.proto, [&](const std::string& name) {
        auto it = usable.find(name);
        if (it == usable.end()) {
            const AlgorithmInfo* a = find_algorithm(name);
            const bool off = std::find(req.disabled.begin(), req.disabled.end(), name) != req.disabled.end() ||
                             (!a->enabled_by.empty() &&
                              std::find(req.enabled.begin(), req.enabled.end(), name) == req.enabled.end());
            it = usable.emplace(name, !off && !a->why_not(req.op, comm)).first;
        }
        return it->second;
    }, req.protos);
    if (!tuned)
        bad("--algo", fmt::format("an algorithm collsim implements that can run {} here", to_string(req.op)),
            req.algo + "/" + req.proto);
    c.algorithm = find_algorithm(tuned->algo);
    c.proto = tuned->proto;
    c.protocol = calibrated(*nccl_protocol(c.algorithm->family, tuned->proto), c.algorithm->family, cal, req.op);
    if (is_point_to_point(req.op))
        c.protocol = point_to_point(c.protocol, cal, tuned->ceiling_GBps);
    else
        c.protocol.rank_ceiling = Bandwidth::bytes_per_s(static_cast<int64_t>(tuned->ceiling_GBps * 1e9));
    if (c.algorithm->family == NcclFamily::nvls || c.algorithm->family == NcclFamily::nvls_tree) {
        // NVLink SHARP carries less than the links' rate: NCCL's cost model
        // scales NVLS bandwidth inside the node by nvlsEfficiency (0.85
        // Hopper, 0.74 Blackwell; src/graph/tuning.cc, MODEL-FACTS.md), so
        // sends into and out of the switch carry that share of payload.
        double eff = nccl::nvls_efficiency(nccl::arch_index(shape.arch));
        // NCCL gives NVLSTree the bus bandwidth of one node's NVLS (same
        // bwIntra, same channels) and turns it into algorithm bandwidth by
        // nRanks / 2(nRanks-1), so the switch part of n ranks on nodes of p
        // takes (n-1)/n over (p-1)/p as long as one node's NVLS: 7% more for
        // two nodes of eight, though a GPU's NVSwitch traffic is the same.
        // Measured two-node NVLSTree runs agree (H100 10%, B300 17% above
        // one node's NVLS; perfect overlap, the flow model alone, says 0).
        if (c.algorithm->family == NcclFamily::nvls_tree) {
            const double n = shape.ranks, p = shape.ppn;
            eff *= ((p - 1) / p) / ((n - 1) / n);
        }
        // The calibration's own NVLS factor, in place of its NVLink factor.
        eff *= cal.nvls_bandwidth_efficiency / cal.bandwidth_efficiency[0];
        if (eff > 0) {
            constexpr int64_t kScale = 1'000'000;
            c.protocol.switch_payload_num = std::llround(eff * kScale);
            c.protocol.switch_payload_den = kScale;
        }
    }
    c.channels = req.channels > 0 ? req.channels : tuned->channels;
    c.arch = shape.arch;
    c.why = tuned->why;
    // Channels on the same links add nothing in a flow model: simulate only as
    // many as there are distinct links (or, across nodes, NICs) to spread them
    // over, each standing for its share of NCCL's channels
    // (CollectiveCall::launched_channels), and laid over the GPUs as NCCL lays
    // its rings.
    // An NVLSTree channel already leaves every node through every GPU's NIC
    // (each local rank owns a slice), so more channels add no NIC to spread over.
    const bool spans_rails = c.algorithm->family == NcclFamily::nvls_tree;
    const int spread = std::max(default_channels(routes, req.ranks),
                                shape.nodes > 1 && !spans_rails ? shape.nics_per_node : 1);
    const int simulated = req.channels > 0 ? req.channels : std::min(c.channels, spread);
    const int n = static_cast<int>(req.ranks.size());
    auto call = [&](int ch, std::size_t max_steps) {
        CollectiveCall k{req.op, req.bytes, n, ch, req.root, c.channels};
        k.max_steps = max_steps;
        return k;
    };
    c.closed_call = call(simulated, 0);
    c.closed_call.network_alone = req.network_alone;
    const bool ring = c.algorithm->name == "ring";
    // Only a ring (and its chains) crosses from node to node at the ends of each node's span.
    c.channel_gpus = rail_aligned_channels(routes, req.ranks, simulated, ring);
    if (simulated < c.channels)
        c.reductions.push_back(fmt::format("channels: {} simulated for NCCL's {}, each carrying {} on the same links",
                                           simulated, c.channels, c.channels / simulated));
    if (req.model == ModelTier::analytical && !req.explain) {
        c.tier = ModelTier::analytical;
        c.simulated_channels = simulated;
        c.call = c.closed_call;
        return c;
    }
    const bool has_fluid = static_cast<bool>(c.algorithm->fluid);
    const bool exact = req.model != ModelTier::fluid && fits_chunk_level(*c.algorithm, c.closed_call, comm, kAutoChunkSteps);
    c.tier = req.model == ModelTier::flow || exact || !has_fluid ? ModelTier::flow : ModelTier::fluid;
    if (req.model == ModelTier::fluid && !has_fluid)
        c.reductions.push_back(fmt::format("fluid: {} has no fluid form; its schedule ran chunk by chunk", c.algorithm->name));
    if (c.tier == ModelTier::fluid) {
        CostModel model(comm, routes, c.protocol, collective_link_efficiency(c.arch, cal), c.channel_gpus, req.routing);
        const FluidForm form = c.algorithm->fluid(c.closed_call, model, true);
        c.schedule = fluid_schedule(form, c.closed_call, std::string(c.algorithm->name), c.protocol.base_latency);
        c.simulated_channels = simulated;
        c.call = c.closed_call;
        if (form.reductions.empty())
            c.reductions.push_back(fmt::format("fluid: the steady state as {} long-lived streams; the closed form's "
                                               "latencies, fill and drain ({:.2f} us) paid with the launch",
                                               c.schedule->steps.size(), c.schedule->fill.us()));
        c.reductions.insert(c.reductions.end(), form.reductions.begin(), form.reductions.end());
        return c;
    }
    int bounded = simulated;
    if (req.channels == 0 && simulated > 1) {
        // Each channel is a copy of the same steps: size one channel's schedule
        // before building them all, so an oversized one is never built.
        CollectiveCall one = call(1, req.max_steps / static_cast<std::size_t>(simulated));
        one.launched_channels = std::max(1, c.channels / simulated);
        const std::size_t per_channel = c.algorithm->build(one, comm).steps.size();
        if (per_channel * static_cast<std::size_t>(simulated) > req.max_steps) {
            bounded = std::max<int>(1, static_cast<int>(req.max_steps / std::max<std::size_t>(per_channel, 1)));
            c.why += fmt::format("; simulated {} channel(s) to bound the schedule's size", bounded);
            c.reductions.push_back(fmt::format("channels: {} of {} simulated to keep the schedule within {} steps",
                                               bounded, simulated, req.max_steps));
            c.bounded = true;
        }
    }
    c.simulated_channels = bounded;
    c.call = call(bounded, req.max_steps);
    if (bounded != simulated) c.channel_gpus = rail_aligned_channels(routes, req.ranks, bounded, ring);
    c.schedule = c.algorithm->build(c.call, comm);
    c.lumped = c.schedule->latency_scale > 1.0;
    if (c.lumped) {
        c.why += fmt::format("; lumped {:.1f} ring steps into each send to bound the schedule's size",
                             c.schedule->latency_scale);
        c.reductions.push_back(fmt::format("steps: {:.1f} ring steps lumped into each send to keep the schedule "
                                           "within {} steps", c.schedule->latency_scale, req.max_steps));
    } else if (!exact && !fits_chunk_level(*c.algorithm, c.closed_call, comm, req.max_steps)) {
        c.reductions.push_back(fmt::format("pipeline: fewer, larger chunks to keep the schedule within {} steps",
                                           req.max_steps));
    }
    return c;
}

LinkEfficiency collective_link_efficiency(GpuArch arch, const Calibration& cal) {
    LinkEfficiency eff = nccl_link_efficiency(arch);
    for (std::size_t k = 0; k < eff.size(); ++k) eff[k] *= cal.bandwidth_efficiency[k];
    return eff;
}

Prediction predict_collective(const Topology& topo, Routes& routes, const PredictRequest& req, const Calibration& cal) {
    if (req.msccl) return predict_msccl(topo, routes, req, cal);
    const CollectivePlan c = plan_collective(topo, routes, req, cal);
    Prediction p;
    p.algo = std::string(c.algorithm->name);
    p.proto = c.proto;
    p.channels = c.channels;
    p.why = c.why;
    const LinkEfficiency eff = collective_link_efficiency(c.arch, cal);
    const double factor = size_factor(cal, req.bytes);
    auto scaled = [factor](Time t) {
        return factor == 1.0 ? t : Time::from_ps(static_cast<int64_t>(static_cast<double>(t.ps()) * factor));
    };
    p.tier = c.tier;
    p.reductions = c.reductions;
    if (c.tier == ModelTier::analytical || req.explain) {
        // A schedule bounded to fewer channels lays them out anew; the closed form keeps them all.
        const bool same = c.closed_call.channels == c.call.channels;
        CostModel model(c.comm, routes, c.protocol, eff,
                        same ? c.channel_gpus
                             : rail_aligned_channels(routes, req.ranks, c.closed_call.channels, c.algorithm->name == "ring"),
                        req.routing);
        const Estimate e = c.algorithm->estimate(c.closed_call, model);
        p.closed = Estimate{scaled(e.latency), scaled(e.bandwidth)};
        p.time = p.closed->total();
    }
    if (c.schedule) {
        const ScheduleTiming t = simulate_schedule(topo, routes, req.ranks, *c.schedule, c.protocol,
                                                   SimulateOptions{eff, req.setup, req.timeout, req.routing,
                                                                   c.channel_gpus, req.explain, req.link_traffic});
        p.hang = t.hang;
        p.flow = scaled(t.time);
        p.peak_link_load = t.peak_link_load;
        p.link_traffic = t.link_traffic;
        p.events = t.events;
        if (c.tier != ModelTier::analytical) p.time = *p.flow;
    }
    return p;
}

}  // namespace collsim
