#include "sim/cli/diagnose_command.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "sim/cli/options.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/report/diagnose_report.hpp"

namespace collsim {

CLI::App* add_diagnose_command(CLI::App& app, DiagnoseOptions& o) {
    CLI::App* c = app.add_subcommand("diagnose", "find straggler ranks and shared components from per-rank timings");
    c->add_option("input", o.input, "CSV with columns rank,collective,enter_us,exit_us, or a replay's JSON report")->required();
    c->add_option("--topology,-t", o.topology, "topology, to name NICs and switches that suspects share");
    add_set_option(c, o.settings);
    c->add_option("--format", o.format, "table or json")->capture_default_str();
    return c;
}

int run_diagnose_command(const DiagnoseOptions& o) {
    if (o.format != "table" && o.format != "json")
        bad_option("--format", "one of table, json", o.format);
    const auto timings = load_rank_timings(o.input);
    Diagnosis d;
    if (o.topology.empty()) {
        d = diagnose(timings, nullptr);
    } else {
        const Topology topo = load_cli_topology(o.topology, o.settings);
        // Rank r runs on the topology's r-th GPU: a timing of a rank past them has no GPU to blame.
        int highest = -1;
        for (const RankTiming& t : timings) highest = std::max(highest, t.rank);
        if (highest >= static_cast<int>(topo.gpus().size()))
            bad_option("--topology",
                       fmt::format("a topology with a GPU for every rank of {} (ranks 0 to {})", o.input, highest),
                       fmt::format("{}, with {} GPUs", o.topology, topo.gpus().size()));
        d = diagnose(timings, &topo);
    }
    const std::string out = o.format == "json" ? stamp_json(render_diagnosis_json(d), Provenance{o.topology, {}, false, {}, {}, o.settings})
                                               : render_diagnosis_table(d);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
