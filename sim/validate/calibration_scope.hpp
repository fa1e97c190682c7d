#pragma once
// What of a calibration fitted on one run carries to another run of its
// machine class. A fitted parameter stands for a mechanism the fitting run
// exercised; carried to a run where another mechanism acts in its place it
// mispredicts that run more than the defaults do (a fit on the R760xa RoCE
// run carried to the same hosts over TCP sockets: 12% latency-bound error
// with defaults, 26% with the fit). So:
// - the launch per GPU of a -g run is the host's own: never carried;
// - the network's bandwidth factor and per-step latency change carry only
//   between multi-node runs whose NICs take the same transports
//   (transport.hpp: ib, roce, efa, tcpx, socket);
// - launch latencies fitted on one node carry only to runs on one node, and
//   those fitted across nodes only to runs across nodes over the same
//   transports: fitted across nodes they absorb what the network's software
//   path costs beyond the model, which a run on one node never pays.
// Everything else (NVLink, PCI, NVLS and point-to-point factors, size
// corrections) carries as fitted. What does not carry stays at the start.
#include <set>

#include "sim/hw/topology.hpp"
#include "sim/model/calibration.hpp"
#include "sim/validate/dataset.hpp"

namespace collsim {

// What a run exercises that a fitted parameter may stand for.
struct RunScope {
    bool multi_node = false;
    std::set<NetTransport> transports;  // of the machine's NICs, on multi-node runs only
    bool operator==(const RunScope&) const = default;
};

RunScope run_scope(const Dataset& d, const Topology& machine);

// `fitted` (a fit on a run of scope `from`, started at `start`) as carried
// to a run of scope `to`.
Calibration carried_calibration(const Calibration& fitted, const Calibration& start, const RunScope& from,
                                const RunScope& to);

}  // namespace collsim
