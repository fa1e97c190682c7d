#include "sim/cli/numerics_command.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/report/numerics_report.hpp"

namespace collsim {

CLI::App* add_numerics_command(CLI::App& app, NumericsOptions& o) {
    CLI::App* c = app.add_subcommand("numerics", "reduction-order error and run-to-run variation of an algorithm");
    c->add_option("--op", o.op, "allreduce or reducescatter")->capture_default_str();
    c->add_option("--algo", o.algo, "algorithm")->capture_default_str();
    c->add_option("--compare", o.compare, "comma-separated algorithms to run on the same data");
    c->add_option("--ranks,-n", o.ranks, "ranks")->capture_default_str();
    c->add_option("--elements,-e", o.elements, "elements per rank (1M = 2^20)")->capture_default_str();
    c->add_option("--dtype", o.dtype, "fp32, bf16 or fp16")->capture_default_str();
    c->add_option("--accum", o.accum, "native (partial sums stored in dtype, as NCCL) or fp32")->capture_default_str();
    c->add_option("--topology,-t", o.topology, "topology whose timing orders arrivals (default: a crossbar)");
    c->add_option("--runs", o.runs, "runs with different seeded jitter")->capture_default_str();
    c->add_option("--seed", o.seed, "seed for inputs and jitter")->capture_default_str();
    c->add_option("--dist", o.dist, "normal, lognormal or gradients")->capture_default_str();
    c->add_option("--format", o.format, "table or json")->capture_default_str();
    return c;
}

int run_numerics_command(const NumericsOptions& o) {
    if (o.format != "table" && o.format != "json") bad_option("--format", "one of table, json", o.format);
    NumericsRequest req;
    auto op = coll_op_from(o.op);
    if (!op) bad_option("--op", "allreduce or reducescatter", o.op);
    req.op = *op;
    req.algos = o.compare.empty() ? std::vector<std::string>{o.algo} : split_list(o.compare);
    req.ranks = o.ranks;
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
    req.topology = o.topology;
    req.runs = o.runs;
    req.seed = o.seed;
    const NumericsReport report = run_numerics(req);
    const std::string out = o.format == "json" ? render_numerics_json(report) : render_numerics_table(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
