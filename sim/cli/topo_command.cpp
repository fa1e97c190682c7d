#include "sim/cli/topo_command.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/cli/provenance.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/report/topo_dot.hpp"
#include "sim/report/topo_summary.hpp"

namespace collsim {

namespace {
void common(CLI::App* c, TopoOptions& o) {
    c->add_option("file", o.file, "topology file (YAML, or NCCL topology XML)")->required();
    add_set_option(c, o.settings);
    c->add_option("--seed", o.seed, "random seed (accepted; topology commands are not random)");
}

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

nlohmann::ordered_json error_json(const InputError& e) {
    const SourceLocation& w = e.where();
    return {{"file", w.file.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(w.file)},
            {"line", w.line > 0 ? nlohmann::ordered_json(w.line) : nlohmann::ordered_json()},
            {"column", w.line > 0 ? nlohmann::ordered_json(w.column) : nlohmann::ordered_json()},
            {"field", e.field()},
            {"expected", e.expected()},
            {"found", e.found()}};
}

// `topo check --format json`: {"valid", "errors": [{"file", "line", "column",
// "field", "expected", "found"}]} on stdout whether or not the file is valid
// (exit 2 when not, as the table form), so a script reads one shape.
int check_as_json(const TopoOptions& o) {
    nlohmann::ordered_json j;
    j["file"] = o.file;
    j["errors"] = nlohmann::ordered_json::array();
    int rc = 0;
    try {
        const Topology topo = load_topology(o.file, nullptr, o.settings);
        j["valid"] = true;
        j["name"] = topo.name();
        j["gpus"] = topo.gpus().size();
        j["devices"] = topo.devices().size();
        j["links"] = topo.links().size();
    } catch (const InputErrors& e) {
        j["valid"] = false;
        for (const InputError& one : e.errors()) j["errors"].push_back(error_json(one));
        fmt::print(stderr, "{}\n", e.what());
        rc = 2;
    } catch (const InputError& e) {
        j["valid"] = false;
        j["errors"].push_back(error_json(e));
        fmt::print(stderr, "{}\n", e.what());
        rc = 2;
    }
    print(stamp_json(j.dump(), Provenance{rc == 0 ? o.file : "", {}, false, {}, {}, o.settings}));
    return rc;
}
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
    if (check && o.format == "json") return check_as_json(o);
    const Topology topo = load_cli_topology(o.file, o.settings);
    if (check) {
        print(fmt::format("{}: ok: {} ({} GPUs, {} devices, {} links)\n", o.file, topo.name(), topo.gpus().size(),
                          topo.devices().size(), topo.links().size()));
        return 0;
    }
    if (show) {
        const TopoSummary s = summarize(topo);
        print(o.format == "json" ? stamp_json(render_json(s), Provenance{o.file, {}, false, {}, {}, o.settings})
              : o.format == "csv" ? render_csv(s)
                                  : render_table(s));
        return 0;
    }
    print(render_dot(topo, o.collapse));
    return 0;
}

}  // namespace collsim
