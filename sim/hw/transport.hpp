#pragma once
// The transport a NIC's traffic takes through NCCL's network layer. NCCL's
// per-step NET latencies (hwLatencies in src/graph/tuning.cc) were measured
// with its own verbs transport (src/transport/net_ib.cc, which serves
// InfiniBand and RoCE alike) and do not tell net types apart. Other
// transports are net plugins with a software path of their own: AWS EFA
// through libfabric (aws-ofi-nccl), GPUDirect-TCPX (Google's TCP plugin),
// and NCCL's socket transport (src/transport/net_socket.cc, kernel TCP with
// every byte staged in host memory). What such a path costs per message is
// the NIC's software_latency, paid on every network step on top of NCCL's
// figure, at each end of the step that has such a NIC.
#include <optional>
#include <string_view>

namespace collsim {

enum class NetTransport { ib, roce, efa, tcpx, socket };

std::string_view to_string(NetTransport t);
std::optional<NetTransport> net_transport_from(std::string_view s);
std::string_view net_transport_choices();

}  // namespace collsim
