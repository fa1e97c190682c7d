#pragma once
// The fluid tier's view of a collective. A pipelined algorithm in steady
// state is a set of long-lived streams: every link of every channel busy with
// its share of the chunks at once. Its closed form (launch + the first
// chunk's trip + (k-1) x the busiest resource per chunk) already separates the
// two: the trip is latency, fill and drain, and the rest is that steady
// state. The fluid tier keeps the closed form's trip and replaces its steady
// part by the time the streams take as flows on the network, sharing links
// max-min with each other and with anything else there (other collectives of
// a replay, faults, ECMP collisions), over the routes the chunks would take.
//
// Why the streams give the chunk-level rates: in steady state every chunk of
// a stage crosses the same links at the same rate, so a stage's chunks in
// flight add up to one flow carrying their bytes; and max-min over streams
// with equal demands gives each the fair share of its most loaded link, which
// is the per-chunk share the closed form charges (the first level of
// progressive filling freezes exactly the flows on the busiest link at that
// share). Where the streams' demands differ or something else shares a link,
// max-min moves the surplus where the chunks would also take it.
// Dependencies between stages are not simulated: a stage fed by a slower one
// is taken to keep up, which holds in a pipeline and is what the closed
// form assumes too.
#include <functional>
#include <string>
#include <vector>

#include "algorithms/cost_model.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

// One steady-state stream: participant `from` sends `bytes` of payload to
// participant `to` on `channel` (participants: ranks, then the schedule's
// switches); with to == kMemoryStream, `from` reduces that much in its memory
// (bytes as the closed form charges reductions: exposed_reduction of each),
// with to == kCopyStream it copies that much locally.
inline constexpr int kMemoryStream = -1;
inline constexpr int kCopyStream = -2;
struct FluidStream {
    int from = 0, to = 0, channel = 0;
    Bytes bytes;
};

struct FluidForm {
    Estimate closed;         // the algorithm's closed form (its estimate)
    Time steady;             // what the closed form charges for the streams' bytes
    std::vector<FluidStream> streams;
    std::vector<DeviceId> switches;  // participants ranks + i, as in Schedule
    // What the form reduced beyond its streams, for the output's reductions
    // (an AllToAll's pair classes, alltoall_classes.hpp).
    std::vector<std::string> reductions = {};
};

// The fluid schedule: one step per stream (streams of one connection run side
// by side, not one after another as its chunks' sends do), and the closed form's other part,
// closed - launch - steady, paid with the launch as Schedule::fill. The
// streams carry every chunk, the first one's too, so that a dead link stalls
// them and other traffic meets them even where a pipeline has one chunk; the
// fill is then the first chunk's trip less its share of the steady state,
// and none where the trip is shorter than that share (the fluid time is then
// at most that share above the closed form).
Schedule fluid_schedule(const FluidForm& form, const CollectiveCall& call, std::string algorithm, Time launch);

// An algorithm's fluid form; `streams`: build them (the closed form alone,
// its estimate, needs none).
using FluidBuilder = std::function<FluidForm(const CollectiveCall&, CostModel&, bool streams)>;

}  // namespace collsim
