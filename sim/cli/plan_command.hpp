#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/cli/html_option.hpp"
#include "sim/plan/planner.hpp"

namespace collsim {

// Options of `collsim plan`; numbers whose absence matters default to 0 (not given).
struct PlanCliOptions {
    std::string model, topology, calibration, format = "table", gpu;
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    int gpus = 0, tp = 1, pp = 1, dp = 0, ep = 1, cp = 1, vpp = 1, zero = 1;
    std::string sp = "auto";  // on when tp > 1
    int64_t micro_batch = 1, global_batch = 0, seq = 0;
    std::string recompute = "selective", dtype = "bf16", overlap = "on", tier = "fluid";
    double matmul_efficiency = 0;
    bool search = false;
    int top = 10;
    std::string shard = "0/1";
    std::string mode = "train";
    int64_t batch = 1, context = 2048, tokens = 256;
    HtmlOption html;  // a training layout's report (not --search or inference)
};

CLI::App* add_plan_command(CLI::App& app, PlanCliOptions& o);
int run_plan(const PlanCliOptions& o);
// The training step of the layout the options give (--mode train, no
// --search), as run_plan prints it; throws InputError on bad input.
PlanResult plan_training(const PlanCliOptions& o);

// A layout option of `plan` by the name files give it (tp, micro_batch,
// recompute, ...: plan's option without its dashes, '-' as '_'), as regress
// suites, sweep specs and compare --layout name them. False for a name that
// is none; throws InputError (field `field`) for a number that is not an
// integer of 32 bits.
bool set_plan_layout_option(PlanCliOptions& o, const std::string& key, const std::string& value,
                            const std::string& field);

}  // namespace collsim
