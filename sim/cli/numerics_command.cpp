#include "sim/cli/numerics_command.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/core/error.hpp"
#include "sim/report/numerics_report.hpp"

namespace collsim {

CLI::App* add_numerics_command(CLI::App& app, NumericsOptions& o) {
    CLI::App* c = app.add_subcommand(
        "numerics", "reduction-order error and run-to-run variation of an algorithm, or of several configurations");
    accept_nccl_collective_names(c->add_option("--op", o.op, "allreduce or reducescatter")->capture_default_str());
    accept_nccl_algorithm_names(c->add_option("--algo", o.algo, "algorithm: " + algorithm_choices())->capture_default_str());
    c->add_option("--compare", o.compare,
                  "comma-separated configurations to run on the same data, each ALGO[@RANKS][:TOPOLOGY] "
                  "(rank count and topology default to --ranks and --topology); every element sums as many "
                  "contributions as the least common multiple of the rank counts, each rank adding its share "
                  "locally first, so all configurations reduce the same numbers");
    c->add_option("--ranks,-n", o.ranks, "ranks")->capture_default_str();
    c->add_option("--elements,-e", o.elements, "elements per rank (1M = 2^20)")->capture_default_str();
    c->add_option("--dtype", o.dtype, "fp32, bf16 or fp16 (float, bfloat16, half too)")->capture_default_str();
    c->add_option("--accum", o.accum, "native (partial sums stored in dtype, as NCCL), fp32, bf16 or fp16")
        ->capture_default_str();
    c->add_option("--topology,-t", o.topology, "topology whose timing orders arrivals (default: a crossbar)");
    c->add_option("--runs", o.runs, "runs with different seeded jitter")->capture_default_str();
    c->add_option("--seed", o.seed, "seed for inputs and jitter")->capture_default_str();
    c->add_option("--dist", o.dist, "normal, lognormal or gradients")->capture_default_str();
    c->add_option("--format", o.format, "table or json")->capture_default_str();
    c->footer(
        "--compare examples: ring,tree (algorithms); ring@8,ring@16,ring@32 (rank counts); "
        "tree@16:topologies/cluster-h100-2n.yaml,tree@16 (topologies; no topology: a crossbar). Each pair of "
        "configurations reports whether it is bitwise identical, the elements that differ, the largest ulp distance "
        "and the largest relative difference |a-b|/max(|a|,|b|); each configuration, its error against the exact sum "
        "(the same for all).");
    return c;
}

namespace {
// "ring", "ring@16", "tree@16:topologies/cluster-h100-2n.yaml", "ring:a.yaml".
NumericsConfig parse_compare_entry(const std::string& entry, const NumericsOptions& o) {
    const std::string syntax = "ALGO[@RANKS][:TOPOLOGY]";
    NumericsConfig c{o.algo, o.ranks, o.topology, "--compare"};
    const std::size_t colon = entry.find(':'), at = entry.substr(0, colon).find('@');
    c.algo = entry.substr(0, std::min(at, colon));
    if (c.algo.empty()) bad_option("--compare", fmt::format("entries {} with an algorithm", syntax), entry);
    if (at != std::string::npos) {
        const std::string ranks = entry.substr(at + 1, colon == std::string::npos ? colon : colon - at - 1);
        const bool digits = !ranks.empty() && ranks.size() <= 9 &&
                            std::all_of(ranks.begin(), ranks.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (!digits) bad_option("--compare", fmt::format("a rank count after '@' in {}", syntax), entry);
        c.ranks = std::stoi(ranks);
    }
    if (colon != std::string::npos) {
        c.topology = entry.substr(colon + 1);
        if (c.topology.empty()) bad_option("--compare", fmt::format("a topology file after ':' in {}", syntax), entry);
    }
    return c;
}
}  // namespace

int run_numerics_command(const NumericsOptions& o) {
    if (o.format != "table" && o.format != "json") bad_option("--format", "one of table, json", o.format);
    NumericsRequest req;
    auto op = coll_op_from(o.op);
    if (!op) bad_option("--op", "allreduce or reducescatter", o.op);
    req.op = *op;
    if (o.compare.empty()) {
        req.configs = {NumericsConfig{o.algo, o.ranks, o.topology, ""}};
    } else {
        req.configs.clear();
        for (const std::string& entry : split_list(o.compare)) req.configs.push_back(parse_compare_entry(entry, o));
    }
    try {
        req.elements = parse_size(o.elements).count();
    } catch (const std::invalid_argument& e) {
        bad_option("--elements", e.what(), o.elements);
    }
    auto dtype = float_format_from(o.dtype);
    if (!dtype) bad_option("--dtype", std::string(float_format_choices()), o.dtype);
    req.dtype = *dtype;
    if (o.accum != "native") {
        auto accum = float_format_from(o.accum);
        if (!accum) bad_option("--accum", "native or one of fp32, bf16, fp16", o.accum);
        req.accum = *accum;
    }
    auto dist = input_distribution_from(o.dist);
    if (!dist) bad_option("--dist", "one of normal, lognormal, gradients", o.dist);
    req.dist = *dist;
    req.runs = o.runs;
    req.seed = o.seed;
    const NumericsReport report = run_numerics(req);
    const std::string out = o.format == "json" ? stamp_json(render_numerics_json(report), Provenance{o.topology, "", false, o.seed})
                                               : render_numerics_table(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
