#include "sim/model/predict.hpp"

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/simulate.hpp"
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

Prediction predict_collective(const Topology& topo, Routes& routes, const PredictRequest& req, const Calibration& cal) {
    Prediction p;
    const std::string algo_name = req.algo == "auto" ? "ring" : req.algo;
    const AlgorithmInfo* algo = find_algorithm(algo_name);
    if (!algo) bad("--algo", algorithm_choices() + " or auto", req.algo);
    if (!algo->supports(req.op))
        bad("--op", fmt::format("an operation that algorithm '{}' implements", algo->name), std::string(to_string(req.op)));
    const std::string proto_name = req.proto == "auto" ? "simple" : req.proto;
    auto kind = proto_kind_from(proto_name);
    if (!kind) bad("--proto", std::string(proto_choices()) + " or auto", req.proto);
    auto proto = nccl_protocol(algo->family, *kind);
    if (!proto) bad("--proto", fmt::format("a protocol that NCCL runs with algorithm '{}'", algo->name), req.proto);
    p.algo = std::string(algo->name);
    p.proto = *kind;
    p.channels = req.channels > 0 ? req.channels : default_channels(routes, req.ranks);
    p.why = req.algo == "auto" || req.proto == "auto" ? "ring/simple until the tuner lands" : "fixed by the caller";

    const int n = static_cast<int>(req.ranks.size());
    const Schedule schedule = algo->build(CollectiveCall{req.op, req.bytes, n, p.channels});
    LinkEfficiency eff = nccl_link_efficiency(n > 0 ? topo.device(req.ranks[0]).arch : GpuArch::unknown);
    for (std::size_t k = 0; k < eff.size(); ++k) eff[k] *= cal.bandwidth_efficiency[k];
    const ScheduleTiming t =
        simulate_schedule(topo, routes, req.ranks, schedule, calibrated(*proto, algo->family, cal), eff);
    const double factor = size_factor(cal, req.bytes);
    p.time = factor == 1.0 ? t.time : Time::from_ps(static_cast<int64_t>(static_cast<double>(t.time.ps()) * factor));
    return p;
}

}  // namespace collsim
