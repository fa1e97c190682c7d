#pragma once
// Which CPU-side communication ops launched a GPU kernel in a Kineto trace.
// The kernel and the CUDA runtime call that launched it share a "correlation"
// id. The runtime call's "External id" is, in current PyTorch, that of the
// innermost CPU op around it (record_param_comms); in 2.0-era traces it repeats
// the correlation id, and the launching ops are those whose span, on the
// launching thread, encloses the runtime call. Both links are followed: an op
// found by External id counts only where it also encloses the call, so a
// coincidence of the two counters links nothing.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace collsim {

// One complete ("ph": "X") event, times in nanoseconds (kineto_time.hpp).
struct KinetoSpan {
    std::size_t event = 0;  // index in traceEvents
    std::string name;
    std::string thread;  // "tid" as text
    int64_t ts = 0, dur = 0;
    const nlohmann::json* args = nullptr;  // null where the event has none
    std::optional<int64_t> external, correlation;
};

// Whether a CPU op is one of PyTorch's communication ops: record_param_comms,
// c10d::* (the dispatcher's collectives) and nccl:* (ProcessGroupNCCL's annotations).
bool is_comm_op(const std::string& name);

class KinetoLaunches {
public:
    // `comm_ops`: CPU ops for which is_comm_op holds; `runtime`: CUDA runtime
    // and driver calls.
    KinetoLaunches(std::vector<KinetoSpan> comm_ops, std::vector<KinetoSpan> runtime);

    // Whether the trace holds the runtime call of this correlation id (a
    // kernel launched before the profiler started has none).
    bool launched(int64_t correlation) const { return runtime_.contains(correlation); }
    // The communication ops around that launch, innermost first.
    std::vector<const KinetoSpan*> launchers(int64_t correlation) const;

private:
    struct Thread {
        std::vector<KinetoSpan> ops;  // by start, the longer first at equal starts
        std::vector<int> parent;      // the innermost op that encloses each, -1 for none
    };
    std::map<int64_t, KinetoSpan> runtime_;  // by correlation
    std::map<std::string, Thread> threads_;
    std::map<int64_t, std::pair<const Thread*, int>> by_external_;
};

}  // namespace collsim
