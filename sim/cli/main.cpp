// collsim: one binary, one subcommand per question. Results go to stdout,
// diagnostics to stderr. Exit codes: 0 ok, 1 a check failed, 2 bad input.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/cli/calibrate_command.hpp"
#include "sim/cli/coll_command.hpp"
#include "sim/cli/compare_command.hpp"
#include "sim/cli/topo_command.hpp"
#include "sim/cli/diagnose_command.hpp"
#include "sim/cli/numerics_command.hpp"
#include "sim/cli/validate_command.hpp"
#include "sim/core/simulator.hpp"
#include "sim/cli/gen_command.hpp"
#include "sim/cli/replay_command.hpp"
#include "sim/cli/plan_command.hpp"
#include "sim/cli/regress_command.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/core/error.hpp"
#include "version.hpp"

int main(int argc, char** argv) {
    CLI::App app{"collsim: a discrete-event simulator of collective communication on GPU clusters"};
    app.name("collsim");
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("collsim ") + COLLSIM_VERSION + " (commit " + kCollsimCommit + ")");
    collsim::CollOptions coll;
    CLI::App* coll_cmd = collsim::add_coll_command(app, coll);
    collsim::CalibrateOptions calibrate;
    CLI::App* calibrate_cmd = collsim::add_calibrate_command(app, calibrate);
    collsim::ValidateOptions validate;
    CLI::App* validate_cmd = collsim::add_validate_command(app, validate);
    collsim::TopoOptions topo;
    CLI::App* topo_cmd = collsim::add_topo_command(app, topo);
    collsim::NumericsOptions numerics;
    CLI::App* numerics_cmd = collsim::add_numerics_command(app, numerics);
    collsim::DiagnoseOptions diagnose;
    CLI::App* diagnose_cmd = collsim::add_diagnose_command(app, diagnose);
    collsim::ReplayCliOptions replay;
    CLI::App* replay_cmd = collsim::add_replay_command(app, replay);
    collsim::CompareOptions compare;
    CLI::App* compare_cmd = collsim::add_compare_command(app, compare);
    collsim::PlanCliOptions plan;
    CLI::App* plan_cmd = collsim::add_plan_command(app, plan);
    collsim::SweepOptions sweep;
    CLI::App* sweep_cmd = collsim::add_sweep_command(app, sweep);
    collsim::GenCliOptions gen;
    CLI::App* gen_cmd = collsim::add_gen_command(app, gen);
    collsim::RegressOptions regress;
    CLI::App* regress_cmd = collsim::add_regress_command(app, regress);
    // The command line, without the binary's path or the output file, is
    // recorded in generated traces: running it again prints the same trace.
    gen.command = "collsim";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-o" || arg == "--output") ++i;
        else if (!arg.starts_with("--output=")) gen.command += " " + arg;
    }
    const std::string report_command = collsim::report_command_line(argc, argv);
    sweep.html.command_line = report_command;
    compare.html.command_line = report_command;
    regress.html.command_line = report_command;
    plan.html.command_line = report_command;
    // No arguments at all: the usage, not an error about a missing subcommand.
    if (argc < 2) {
        fmt::print("{}", app.help());
        return 0;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "collsim: {}\n", e.what());
        return 2;
    }
    try {
        if (coll_cmd->parsed()) return collsim::run_coll(coll);
        if (calibrate_cmd->parsed()) return collsim::run_calibrate(calibrate);
        if (validate_cmd->parsed()) return collsim::run_validate(validate);
        if (topo_cmd->parsed()) return collsim::run_topo(*topo_cmd, topo);
        if (numerics_cmd->parsed()) return collsim::run_numerics_command(numerics);
        if (diagnose_cmd->parsed()) return collsim::run_diagnose_command(diagnose);
        if (replay_cmd->parsed()) return collsim::run_replay(replay);
        if (gen_cmd->parsed()) return collsim::run_gen(*gen_cmd, gen);
        if (plan_cmd->parsed()) return collsim::run_plan(plan);
        if (regress_cmd->parsed()) return collsim::run_regress(regress);
        if (sweep_cmd->parsed()) return collsim::run_sweep(sweep);
        if (compare_cmd->parsed()) return collsim::run_compare(compare);
    } catch (const collsim::InputErrors& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 2;
    } catch (const collsim::InputError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 2;
    } catch (const collsim::ClockOverflow& e) {
        fmt::print(stderr, "collsim: the input asks for {} (a duration or FLOP count too large?)\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "collsim: internal error: {}\n", e.what());
        return 3;
    }
    return 0;
}
