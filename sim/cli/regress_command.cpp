#include "sim/cli/regress_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/cli/nccl_environment.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/regress_run.hpp"
#include "sim/regress/comparison_report.hpp"
#include "sim/regress/junit.hpp"
#include "sim/regress/tolerance.hpp"

namespace collsim {

CLI::App* add_regress_command(CLI::App& app, RegressOptions& o) {
    CLI::App* c = app.add_subcommand("regress", "run a suite against a stored baseline; exit 1 on a regression or hang");
    c->add_option("--suite", o.suite, "suite YAML: collectives over sizes, MSCCL files, replays, plan layouts")->required();
    c->add_option("--baseline", o.baseline, "baseline JSON (written by --update)")->required();
    c->add_option("--tolerance", o.tolerance, "how much worse a metric may get, e.g. 2% (an entry's tolerance: wins)")
        ->capture_default_str();
    c->add_flag("--update", o.update, "rewrite the baseline from this run (exit 0)");
    c->add_flag("--exact", o.exact, "fail on any change at all, better or worse, added or gone");
    c->add_option("--junit", o.junit, "also write JUnit XML, one testcase per entry, to this file");
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    add_html_option(c, o.html);
    return c;
}

namespace {
void write_file(const std::string& path, const std::string& text, const std::string& option) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text)) bad_option(option, "a file that can be written", path);
}
}  // namespace

int run_regress(const RegressOptions& o) {
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    const std::optional<double> tolerance = parse_tolerance(o.tolerance);
    if (!tolerance) bad_option("--tolerance", "a percentage like 2% or 0.5%, or 0", o.tolerance);
    const Suite suite = load_suite(o.suite);
    // A missing baseline is fine for --update (the first one); the version
    // check waits for the run, so that --update replaces any old one.
    const bool have_baseline = std::filesystem::exists(o.baseline);
    std::optional<Baseline> before;
    if (have_baseline) {
        before = load_baseline(o.baseline);
        if (!o.update) check_model_version(*before, o.baseline);
    } else if (!o.update) {
        bad_option("--baseline", "an existing baseline file (make one with --update)", o.baseline);
    }
    for (const std::string& s : nccl_environment_settings())
        fmt::print(stderr, "collsim regress: note: {} in the environment is ignored: a suite's numbers are the same in "
                           "every shell (give algo: or proto: in the suite)\n", s);
    const Baseline now = run_suite(suite);
    const bool comparable = before && before->model_version == now.model_version;
    if (before && !comparable)
        fmt::print(stderr, "collsim regress: note: {} is from model version {}, this is {}: nothing to compare, "
                           "every entry is new\n", o.baseline, before->model_version, now.model_version);
    const Comparison cmp = compare_runs(comparable ? *before : Baseline{}, now, *tolerance);
    if (!o.junit.empty()) write_file(o.junit, render_junit(cmp, now.suite, o.exact), "--junit");
    const std::string out = o.format == "json"  ? render_comparison_json(cmp, o.exact)
                            : o.format == "csv" ? render_comparison_csv(cmp)
                                                : render_comparison_table(cmp, o.exact);
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (!o.html.file.empty()) {
        // The baseline compared against (before --update rewrites it), then the suite and what it reads.
        std::vector<HtmlInput> inputs;
        if (have_baseline) inputs.push_back(hashed_input("baseline", o.baseline));
        for (const auto& [path, hash] : now.inputs)
            if (path == now.suite) inputs.push_back({"suite", o.suite, hash});
            else inputs.push_back({"suite input (from the suite's folder)", path, hash});
        write_html_report(o.html.file, render_comparison_html(cmp, o.exact, o.suite, report_provenance(o.html, inputs)));
    }
    if (o.update) {
        write_file(o.baseline, render_baseline(now), "--baseline");
        fmt::print(stderr, "collsim regress: wrote {} ({} entries)\n", o.baseline, now.entries.size());
        return 0;
    }
    return cmp.failed(o.exact) ? 1 : 0;
}

}  // namespace collsim
