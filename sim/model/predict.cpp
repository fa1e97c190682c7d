#include "sim/model/predict.hpp"

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
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

int default_channels(Routes& routes, const std::vector<DeviceId>& ranks) {
    std::size_t most = 1;
    for (std::size_t i = 0; ranks.size() > 1 && i < ranks.size(); ++i)
        most = std::max(most, routes.first_hop_links(ranks[i], ranks[(i + 1) % ranks.size()]));
    return static_cast<int>(std::min<std::size_t>(most, 32));
}

CollectivePlan plan_collective(const Topology& topo, Routes& routes, const PredictRequest& req,
                               const Calibration& cal) {
    if (req.algo != "auto" && !find_algorithm(req.algo)) bad("--algo", algorithm_choices() + " or auto", req.algo);
    if (req.proto != "auto" && !proto_kind_from(req.proto))
        bad("--proto", std::string(proto_choices()) + " or auto", req.proto);
    const AlgorithmInfo* fixed = req.algo == "auto" ? nullptr : find_algorithm(req.algo);
    if (fixed && !fixed->supports(req.op))
        bad("--op", fmt::format("an operation that algorithm '{}' implements", fixed->name), std::string(to_string(req.op)));
    if (fixed && req.proto != "auto" && !nccl_protocol(fixed->family, *proto_kind_from(req.proto)))
        bad("--proto", fmt::format("a protocol that NCCL runs with algorithm '{}'", fixed->name), req.proto);

    const CommShape shape = comm_shape(topo, routes, req.ranks);
    auto choice = tune(shape, req.op, req.bytes, req.algo, req.proto);
    if (!choice)
        bad("--algo", fmt::format("an algorithm collsim implements that can run {} here", to_string(req.op)),
            req.algo + "/" + req.proto);
    CollectivePlan p;
    p.algorithm = find_algorithm(choice->algo);
    p.proto = choice->proto;
    p.protocol = calibrated(*nccl_protocol(p.algorithm->family, choice->proto), p.algorithm->family, cal);
    p.channels = req.channels > 0 ? req.channels : choice->channels;
    p.arch = shape.arch;
    p.why = choice->why;
    // Channels on the same links add nothing in a flow model: simulate only as
    // many as there are distinct links (or, across nodes, NICs) to spread them
    // over, and few enough that the schedule stays within req.max_steps.
    const int spread = std::max(default_channels(routes, req.ranks), shape.nodes > 1 ? shape.nics_per_node : 1);
    int simulated = req.channels > 0 ? req.channels : std::min(p.channels, spread);
    const int n = static_cast<int>(req.ranks.size());
    if (req.channels == 0 && simulated > 1) {
        // Each channel is a copy of the same steps: size one channel's schedule
        // before building them all, so an oversized one is never built.
        const std::size_t per_channel = p.algorithm->build(CollectiveCall{req.op, req.bytes, n, 1}).steps.size();
        if (per_channel * static_cast<std::size_t>(simulated) > req.max_steps) {
            simulated = std::max<int>(1, static_cast<int>(req.max_steps / std::max<std::size_t>(per_channel, 1)));
            p.why += fmt::format("; simulated {} channel(s) to bound the schedule's size", simulated);
            p.bounded = true;
        }
    }
    p.schedule = p.algorithm->build(CollectiveCall{req.op, req.bytes, n, simulated});
    p.simulated_channels = simulated;
    p.channel_gpus = rail_aligned_channels(topo, req.ranks, simulated);
    return p;
}

LinkEfficiency collective_link_efficiency(GpuArch arch, const Calibration& cal) {
    LinkEfficiency eff = nccl_link_efficiency(arch);
    for (std::size_t k = 0; k < eff.size(); ++k) eff[k] *= cal.bandwidth_efficiency[k];
    return eff;
}

Prediction predict_collective(const Topology& topo, Routes& routes, const PredictRequest& req, const Calibration& cal) {
    const CollectivePlan plan = plan_collective(topo, routes, req, cal);
    Prediction p;
    p.algo = std::string(plan.algorithm->name);
    p.proto = plan.proto;
    p.channels = plan.channels;
    p.why = plan.why;
    const ScheduleTiming t =
        simulate_schedule(topo, routes, req.ranks, plan.schedule, plan.protocol,
                          SimulateOptions{collective_link_efficiency(plan.arch, cal), req.setup, req.timeout,
                                          req.routing, plan.channel_gpus});
    p.hang = t.hang;
    const double factor = size_factor(cal, req.bytes);
    p.time = factor == 1.0 ? t.time : Time::from_ps(static_cast<int64_t>(static_cast<double>(t.time.ps()) * factor));
    return p;
}

}  // namespace collsim
