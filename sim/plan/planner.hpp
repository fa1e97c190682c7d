#pragma once
// One training layout, planned: the step as Megatron-LM runs it, composed
// from the compute of each layer (layer_compute), the collectives of each
// communicator timed on the topology (collective_costs), the 1F1B pipeline
// (pipeline_step) and the bucketed data-parallel synchronisation (sync_step),
// with memory per GPU (memory). A layout that does not fit gets no step time.
#include <optional>
#include <string>
#include <vector>

#include "sim/plan/collective_costs.hpp"
#include "sim/plan/layout.hpp"
#include "sim/plan/memory.hpp"
#include "sim/plan/model_card.hpp"

namespace collsim {

struct CommLine {
    std::string group;  // TP, CP, EP, PP, DP
    std::string op;     // AllReduce, ReduceScatter, AllGather, AllToAll, SendRecv
    double exposed = 0, overlapped = 0;  // seconds per step
    int64_t calls = 0;                   // per step on one GPU
    Bytes bytes;                         // of one call
    std::string algo;
};

struct PlanResult {
    std::string model;
    int gpus = 0;
    Layout layout;
    MemoryPerGpu memory;
    // Set when the layout fits memory:
    double step = 0, tokens_per_s = 0, mfu = 0, hfu = 0;
    double model_flops_per_gpu = 0, hardware_flops_per_gpu = 0;  // FLOP/s, without and with recomputation
    double compute = 0, bubble = 0, optimizer = 0;  // seconds per step
    std::vector<CommLine> communication;
    std::string bottleneck;
};

struct PlanSettings {
    const GpuCard* card = nullptr;
    double sustained = 0;  // 0: the card's
    double capacity = 0;   // 0: the card's
};

// Throws InputError for a command-line option, as the CLI's bad_option does.
[[noreturn]] void bad_layout(const std::string& option, const std::string& expected, const std::string& found);

// Throws InputError when the layout does not divide the model or the GPUs.
void check_layout(const ModelCard& c, const Layout& l, int gpus, int gpus_per_node);

PlanResult plan_layout(const ModelCard& c, const Layout& l, const PlanSettings& s, CollectiveCosts& costs);

// What every plan assumes, for the notes of the report.
std::vector<std::string> plan_notes(const PlanSettings& s);

}  // namespace collsim
