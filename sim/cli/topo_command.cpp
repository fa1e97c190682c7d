#include "sim/cli/topo_command.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/report/topo_dot.hpp"
#include "sim/report/topo_summary.hpp"

namespace collsim {

namespace {
void common(CLI::App* c, TopoOptions& o) {
    c->add_option("file", o.file, "topology file (YAML, or NCCL topology XML)")->required();
    c->add_option("--seed", o.seed, "random seed (accepted; topology commands are not random)");
}

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }
}  // namespace

CLI::App* add_topo_command(CLI::App& app, TopoOptions& o) {
    CLI::App* topo = app.add_subcommand("topo", "validate, summarise or draw a topology");
    topo->require_subcommand(1);
    CLI::App* check = topo->add_subcommand("check", "validate a topology file (exit 2 with the location on error)");
    common(check, o);
    check->add_option("--format", o.format, "table or json")->capture_default_str();
    CLI::App* show = topo->add_subcommand("show", "devices, links, injection and bisection bandwidth, diameter");
    common(show, o);
    show->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    CLI::App* dot = topo->add_subcommand("dot", "the topology as a Graphviz DOT graph");
    common(dot, o);
    dot->add_flag("--collapse", o.collapse, "draw one vertex per node template instance");
    add_topo_import_command(*topo, o);
    return topo;
}

int run_topo(const CLI::App& topo_cmd, const TopoOptions& o) {
    if (topo_cmd.got_subcommand("import")) return run_topo_import(o);
    const bool check = topo_cmd.got_subcommand("check"), show = topo_cmd.got_subcommand("show");
    const bool formatted = check || show;
    if (formatted && o.format != "table" && o.format != "json" && !(show && o.format == "csv"))
        throw InputError(SourceLocation{}, "--format", show ? "one of table, json, csv" : "one of table, json",
                         "'" + o.format + "'");
    const Topology topo = load_cli_topology(o.file);
    if (check) {
        if (o.format == "json") {
            nlohmann::ordered_json j;
            j["file"] = o.file;
            j["name"] = topo.name();
            j["valid"] = true;
            j["gpus"] = topo.gpus().size();
            j["devices"] = topo.devices().size();
            j["links"] = topo.links().size();
            print(j.dump(2) + "\n");
        } else {
            print(fmt::format("{}: ok: {} ({} GPUs, {} devices, {} links)\n", o.file, topo.name(), topo.gpus().size(),
                              topo.devices().size(), topo.links().size()));
        }
        return 0;
    }
    if (show) {
        const TopoSummary s = summarize(topo);
        print(o.format == "json" ? render_json(s) : o.format == "csv" ? render_csv(s) : render_table(s));
        return 0;
    }
    print(render_dot(topo, o.collapse));
    return 0;
}

}  // namespace collsim
