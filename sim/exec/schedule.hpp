#pragma once
// A collective as data: per participant and channel, the steps that move and
// combine chunks, with explicit dependencies. Algorithms build schedules; the
// executor times them on a network; a symbolic run checks them without timing.
//
// Participants are the communicator's ranks (0..ranks-1) and, after them, any
// switches that take part in the collective themselves (in-network reduction:
// NVLS on an NVSwitch, SHARP on a network switch). A switch participant holds
// chunks, reduces what it receives and sends (multicasts) results like a rank.
//
// Memory matters at scale (a flat ring on 16,384 GPUs has ~10^9 steps): a step
// is 32 bytes and dependencies live in one shared array, not a vector per step.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

using StepId = uint32_t;
inline constexpr StepId kNoStep = UINT32_MAX;

// A dependency is normally on a step's completion. A dependency on a send
// marked with after_sent() is met once the send's bytes have left the sender,
// before they arrive: pipelined algorithms put chunk j+1 on a link as soon as
// chunk j is on the wire, so a hop's latency is paid once, not once per chunk
// (NCCL keeps up to NCCL_STEPS = 8 chunks in flight per connection).
inline constexpr StepId kAfterSent = 0x80000000u;
constexpr StepId after_sent(StepId s) { return s | kAfterSent; }
constexpr StepId dep_step(StepId d) { return d & ~kAfterSent; }
constexpr bool dep_on_sent(StepId d) { return (d & kAfterSent) != 0; }

enum class StepKind : uint8_t {
    send,        // participant's value of `chunk` goes to `peer`
    reduce,      // the data of send step `from` is added to the value of `src_chunk`, result into `chunk`
    copy,        // the data of send step `from` becomes the value of `chunk`
    local_copy,    // the value of `src_chunk` is copied into `chunk` on the same participant
    local_reduce,  // the value of `src_chunk` is added to that of `chunk` on the same participant
};

// Step flags.
inline constexpr uint8_t kNoHopLatency = 1;  // a send that NCCL does not count as a protocol step
// A long-lived stream of a fluid schedule (algorithms/fluid_form.hpp): it pays
// no latency of its own, since the schedule's fill holds every latency.
inline constexpr uint8_t kFluidStream = 2;

struct Step {
    StepKind kind = StepKind::send;
    uint8_t flags = 0;
    uint16_t channel = 0;
    int32_t rank = 0;       // the participant that runs the step
    int32_t peer = 0;       // send: destination; reduce/copy: the sender (for reports)
    int32_t chunk = 0;      // send: the chunk read; others: the chunk written
    int32_t src_chunk = 0;  // reduce, local_copy, local_reduce: the local chunk read
    StepId from = kNoStep;  // reduce, copy: the send step whose data is consumed
    Bytes bytes;

    bool pays_hop_latency() const { return (flags & (kNoHopLatency | kFluidStream)) == 0; }
    bool fluid() const { return (flags & kFluidStream) != 0; }
};
static_assert(sizeof(Step) == 32, "steps are kept small: schedules reach 10^9 steps");

// Where the operation's data lives in the chunk space of every rank, for
// checking (see symbolic.hpp). Built-in algorithms work in place (input and
// output are the same chunks); MSCCL files can use separate buffers.
struct BufferLayout {
    int input_offset = 0, input_chunks = 0;
    int output_offset = 0, output_chunks = 0;
};

struct Schedule {
    std::string algorithm;
    int ranks = 0;
    int channels = 1;
    int chunks = 0;                 // every participant's buffer is cut into this many chunks
    BufferLayout layout;            // defaults to [0, chunks) for both when left empty
    std::vector<DeviceId> switches; // participant ranks + i is the switch switches[i]
    std::vector<Step> steps;
    // How many times each send pays its latency (the path's, the protocol's
    // hop latency and any fault's): above 1 in a lumped schedule, whose sends
    // each stand for that many lockstep steps of the exact one (on average).
    // Lumped schedules time an algorithm too large to simulate step by step
    // (see ring_steps.hpp); they are not for symbolic checks.
    double latency_scale = 1.0;
    // Time the kernel spends on handshakes rather than on transfers, paid once
    // with the launch: NVLS waits on its peers' flags for every chunk (nvls.cpp).
    Time handshakes;
    // A fluid schedule (algorithms/fluid_form.hpp) holds only the steady-state
    // streams of a pipelined algorithm; `fill` is the rest of its closed form
    // (latencies, pipeline fill and drain), paid once with the launch. Like a
    // lumped schedule, it is for timing only.
    bool fluid = false;
    Time fill;

    int participants() const { return ranks + static_cast<int>(switches.size()); }

    // Adds a step after `deps` (each an earlier step, possibly after_sent()). A reduce or copy also
    // depends on the send it consumes; that dependency is added here.
    StepId add(const Step& s, std::span<const StepId> deps);
    StepId add(const Step& s, std::initializer_list<StepId> deps = {}) {
        return add(s, std::span<const StepId>(deps.begin(), deps.size()));
    }
    // Shorthands for the common steps. A send that does not pay its protocol's
    // hop latency (kNoHopLatency) follows one that did, in the same chunk.
    StepId send(int rank, int peer, int channel, int chunk, Bytes bytes, std::span<const StepId> deps,
                bool pays_hop_latency = true);
    StepId send(int rank, int peer, int channel, int chunk, Bytes bytes, std::initializer_list<StepId> deps = {},
                bool pays_hop_latency = true) {
        return send(rank, peer, channel, chunk, bytes, std::span<const StepId>(deps.begin(), deps.size()),
                    pays_hop_latency);
    }
    // Receives send step `from` into `chunk` (reduce: added to the value of the same chunk).
    StepId receive(StepKind kind, StepId from, int chunk, std::initializer_list<StepId> deps = {});
    StepId receive(StepKind kind, StepId from, int chunk, std::span<const StepId> deps);
    // Copies `src_chunk` into `chunk` on one participant.
    StepId local_copy(int rank, int channel, int src_chunk, int chunk, Bytes bytes,
                      std::initializer_list<StepId> deps = {});
    // A local step (local_copy or local_reduce) after `deps`.
    StepId local(StepKind kind, int rank, int channel, int src_chunk, int chunk, Bytes bytes,
                 std::span<const StepId> deps);

    // The dependencies of step s, as given (use dep_step / dep_on_sent).
    std::span<const StepId> deps(StepId s) const {
        return {dep_ids_.data() + dep_begin_[s], dep_begin_[s + 1] - dep_begin_[s]};
    }
    std::size_t dependency_count() const { return dep_ids_.size(); }
    // Bytes held for steps and dependencies.
    std::size_t memory_bytes() const;
    BufferLayout effective_layout() const;

private:
    std::vector<uint32_t> dep_begin_{0};
    std::vector<StepId> dep_ids_;
};

}  // namespace collsim
