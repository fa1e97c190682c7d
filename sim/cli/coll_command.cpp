#include "sim/cli/coll_command.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/cli/coll_run.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/report/coll_report.hpp"

namespace collsim {

CLI::App* add_coll_command(CLI::App& app, CollOptions& o) {
    CLI::App* c = app.add_subcommand("coll", "one collective over a size sweep, as an nccl-tests table");
    c->add_option("--topology,-t", o.topology, "topology file: YAML, or NCCL topology XML (imported on the fly)")->required();
    add_set_option(c, o.settings);
    accept_nccl_collective_names(c->add_option(
        "--op", o.op,
        fmt::format("collective operation: {} (or all_reduce, reduce_scatter, ... as nccl-tests' binaries); default "
                    "allreduce, or the --algo-file's",
                    coll_op_choices())));
    auto* algo = c->add_option("--algo", o.algo,
                               fmt::format("algorithm: {}, or auto (as NCCL would choose); NCCL's names too, in any "
                                           "case (Ring, Tree, NVLS, NVLSTree, CollnetDirect)",
                                           algorithm_choices()))
                     ->each([&o](const std::string&) { o.algo_given = true; })
                     ->capture_default_str();
    accept_nccl_algorithm_names(algo);
    c->add_option("--algo-file", o.algo_file, "an MSCCL XML algorithm to run instead of --algo")->excludes(algo);
    accept_nccl_protocol_names(
        c->add_option("--proto", o.proto, "NCCL protocol: ll, ll128, simple, or auto (LL, LL128, Simple too)")
            ->each([&o](const std::string&) { o.proto_given = true; })
            ->capture_default_str());
    add_algorithm_switches(c, o.disable, o.enable);
    for (const char* name : {"--disable", "--enable"})
        c->get_option(name)->each([&o](const std::string&) { o.switches_given = true; });
    auto* ranks = c->add_option("--ranks", o.ranks, "number of ranks (the first N GPUs); default all")
                      ->each([&o](const std::string&) { o.ranks_given = true; });
    c->add_option("--gpus", o.gpus, "the communicator's GPUs in rank order: indices or names, e.g. 0,2,4,6 or 0-3")
        ->each([&o](const std::string&) { o.gpus_given = true; })
        ->excludes(ranks);
    c->add_option("--root,-r", o.root, "root rank of Broadcast and Reduce (default 0)")
        ->each([&o](const std::string&) { o.root_given = true; });
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps), MIN:MAX:FACTOR or a list 8,1K,1M (or nccl-tests' -b/-e/-f/-i)")
        ->each([&o](const std::string&) { o.sizes_given = true; })
        ->capture_default_str();
    c->add_option("--dtype,-d,--datatype", o.dtype, fmt::format("element type: {} (bf16, fp16, fp32 too)", dtype_choices()))
        ->capture_default_str();
    c->add_option("--channels", o.channels, "channels (rings); default: chosen from the topology")
        ->each([&o](const std::string&) { o.channels_given = true; });
    add_gpus_per_thread_option(c, o.gpus_per_thread, "--gpus-per-thread,-g,--ngpus");
    c->add_option("--model", o.model,
                  "auto, flow (every chunk a flow), fluid (pipelines as long-lived flows) or analytical (closed form)")
        ->capture_default_str();
    c->add_flag("--explain", o.explain, "per size: flow and closed-form times, their terms, and why they differ");
    c->add_option("--links", o.links, "busiest link directions reported per simulated size (0: none)")
        ->capture_default_str();
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_option("--routing", o.routing, "equal-cost path choice: ecmp, single or adaptive")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    c->add_option("--faults", o.faults, "fault scenario YAML (link down, degrade, flap)");
    c->add_option("--timeout", o.timeout, "watchdog: report a hang when a collective runs longer, e.g. 10min");
    c->add_flag("--fail-on-hang", o.fail_on_hang, "exit 1 when a collective hangs");
    add_progress_options(c, o.progress);
    add_nccl_tests_flags(c, o.nccl_tests);
    return c;
}

int run_coll(const CollOptions& o) {
    ProgressMonitor monitor("collsim coll", o.progress);
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    const CollRun run = run_coll_sweep(o, monitor);
    std::string out = o.format == "json" ? stamp_json(render_json(run.report),
                                                     Provenance{o.topology, o.calibration, true, o.seed, o.model, o.settings})
                      : o.format == "csv" ? render_csv(run.report)
                                          : render_table(run.report);
    if (run.partial) out = mark_partial(out, *run.partial, o.format == "json");
    monitor.finish();
    std::fwrite(out.data(), 1, out.size(), stdout);
    return run.partial || (run.hung && o.fail_on_hang) ? 1 : 0;
}

}  // namespace collsim
