#include "sim/cli/sweep_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "sim/cli/html_option.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text_file.hpp"
#include "sim/sweep/sweep_csv.hpp"
#include "sim/sweep/sweep_distributed.hpp"
#include "sim/sweep/sweep_html.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "sim/sweep/sweep_point.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace collsim {

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& o) {
    CLI::App* c = app.add_subcommand(
        "sweep", "run a grid or zip of coll or replay points from a spec, in parallel; one CSV row per point");
    c->add_option("spec", o.spec, "sweep spec YAML (sim/sweep/sweep_spec.hpp, examples/what-if)")->required();
    c->add_option("-j,--jobs", o.jobs, "points run at once on this machine")->capture_default_str();
    c->add_option("-o,--output", o.output,
                  "CSV file; points already in it are skipped (resume), the rest added; default: stdout");
    c->add_option("--plot", o.plot_dir, "folder for one SVG per plot of the spec");
    add_html_option(c, o.html);
    add_progress_options(c, o.progress);
    return c;
}

int run_sweep(const SweepOptions& o) {
    if (o.jobs < 1 || o.jobs > 1024) bad_option("-j", "1 to 1024", std::to_string(o.jobs));
    const SweepSpec spec = read_sweep_spec(o.spec);
    const std::vector<SweepPoint> points = sweep_points(spec);
    const SweepProcesses procs = sweep_processes();
    std::map<std::vector<std::string>, std::vector<std::string>> earlier;
    // A regular file: it is read back to resume and rewritten whole at the end.
    if (!o.output.empty() && std::filesystem::exists(o.output) && !std::filesystem::is_regular_file(o.output))
        bad_option("-o", "a regular file (resumed from and rewritten whole; leave -o out for stdout)", o.output);
    if (!o.output.empty()) earlier = read_sweep_csv(o.output, spec);
    std::map<std::size_t, std::vector<std::string>> rows;
    std::vector<SweepPoint> todo;
    for (const SweepPoint& p : points) {
        const auto it = earlier.find(sweep_point_values(spec, p));
        if (it != earlier.end()) rows[p.index] = it->second;
        else todo.push_back(p);
    }
    const std::size_t resumed = rows.size();
    ProgressMonitor monitor("collsim sweep", procs.rank == 0 ? o.progress : ProgressOptions{o.progress.wall_limit, true});
    // Rows go to the output as they finish, so a run that is stopped keeps them.
    std::ofstream partial;
    if (!o.output.empty() && procs.rank == 0) {
        const bool fresh = earlier.empty() && (!std::filesystem::exists(o.output) || std::filesystem::file_size(o.output) == 0);
        partial.open(o.output, std::ios::binary | std::ios::app);
        if (!partial) bad_option("-o", "a file that can be written", o.output);
        if (fresh) partial << sweep_csv_header(spec) << "\n" << std::flush;
    }
    const auto on_row = [&](const SweepPoint& p, const std::vector<std::string>& m) {
        if (partial.is_open()) partial << sweep_csv_row(p.index, sweep_point_values(spec, p), m) << "\n" << std::flush;
    };
    SweepRows ran = run_distributed_sweep(spec, todo, o.jobs, monitor.hook(), on_row, procs);
    monitor.finish();
    if (procs.rank != 0) return ran.stopped ? 1 : 0;
    for (auto& [index, m] : ran.metrics) rows[index] = std::move(m);
    std::string csv = sweep_csv_header(spec) + "\n";
    for (const SweepPoint& p : points)
        if (const auto it = rows.find(p.index); it != rows.end())
            csv += sweep_csv_row(p.index, sweep_point_values(spec, p), it->second) + "\n";
    if (partial.is_open()) partial.close();
    if (o.output.empty()) std::fwrite(csv.data(), 1, csv.size(), stdout);
    else write_text_file_whole(o.output, csv, "-o");
    if (!o.plot_dir.empty()) {
        std::filesystem::create_directories(o.plot_dir);
        for (const SweepPlot& plot : spec.plots)
            for (const SweepChart& c : render_sweep_plots(spec, plot, points, rows))
                write_text_file_whole((std::filesystem::path(o.plot_dir) / c.name).string(), c.svg, "--plot");
    }
    if (!o.html.file.empty())
        write_html_report(o.html.file, render_sweep_html(spec, points, rows, report_provenance(o.html, sweep_inputs(spec))));
    const std::size_t dropped = earlier.size() - resumed;
    std::string summary = fmt::format("collsim sweep: {} points: {} run", points.size(), ran.metrics.size());
    if (procs.size > 1) summary += fmt::format(" over {} processes", procs.size);
    if (!o.output.empty()) summary += fmt::format(", {} from {}", resumed, o.output);
    if (dropped) summary += fmt::format(" ({} of its rows not points of this spec: left out)", dropped);
    if (ran.stopped)
        summary += fmt::format("; stopped by --wall-limit {}: {} points not run (run again to resume)",
                               o.progress.wall_limit, todo.size() - ran.metrics.size());
    fmt::print(stderr, "{}\n", summary);
    return ran.stopped ? 1 : 0;
}

}  // namespace collsim
