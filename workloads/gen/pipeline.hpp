#pragma once
// Pipeline schedules: the order in which a stage runs the forward (F) and
// backward (B) passes of m microbatches.
//   GPipe (Huang et al., 2019): all forwards, then all backwards.
//   1F1B (PipeDream-Flush; Narayanan et al., 2021): p - s - 1 warm-up
//   forwards on stage s, then alternate one forward and one backward, then
//   the remaining backwards.
// With equal passes both leave each stage idle for (p - 1)/(m + p - 1) of
// the step (the pipeline bubble); 1F1B keeps fewer activations alive.
// Activations go to the next stage after each forward, gradients to the
// previous one after each backward, as send/recv pairs on streams of their
// own per direction so no transfer waits behind an unrelated one.
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "workloads/gen/trace_doc.hpp"

namespace collsim::gen {

enum class PipeSchedule { gpipe, one_f_one_b };
std::optional<PipeSchedule> pipe_schedule_from(std::string_view s);

struct PipeSlot {
    bool forward = true;
    int microbatch = 0;
};

std::vector<PipeSlot> stage_order(PipeSchedule sched, int stages, int stage, int microbatches);

// The ops of one pass on the compute stream; the first waits for `after`.
using PassBody = std::function<std::vector<Json>(bool forward, int microbatch, const Names& after)>;

struct PipeLinks {
    std::string comm;  // the stages' communicator: next and prev are the neighbouring stages
    Bytes activation;  // per microbatch, each way
};

// Appends stage `stage`'s passes in schedule order, each with its receive
// before and its send after.
void pipeline_stage(std::vector<Json>& ops, PipeSchedule sched, int stages, int stage, int microbatches,
                    const PipeLinks& links, const PassBody& body);

}  // namespace collsim::gen
