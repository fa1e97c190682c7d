// A root complex with a memory_bandwidth stages GPU traffic through host
// memory (no PCIe peer-to-peer, as on GeForce cards): every flow crossing it
// shares that bandwidth on top of its PCIe links.
#include <catch2/catch.hpp>

#include "sim/exec/executor.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
// Time for `senders` GPUs of rtx4090-4gpu.yaml to each send `bytes` to the
// next GPU at once.
double seconds(int senders, int64_t bytes) {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/rtx4090-4gpu.yaml");
    Simulator sim;
    Network net(sim, network_resources(t));
    Routes routes(t);
    Executor exec(sim, net, routes, t, t.gpus(), *nccl_protocol(NcclFamily::ring, ProtoKind::simple));
    Schedule s;
    s.ranks = 4;
    for (int r = 0; r < senders; ++r) {
        Step st;
        st.kind = StepKind::send;
        st.rank = r;
        st.peer = (r + 1) % 4;
        st.bytes = Bytes(bytes);
        s.add(st);
    }
    Time end{};
    exec.start(s, [&] { end = sim.now(); });
    sim.run();
    return end.us() * 1e-6;
}

// Seconds per extra byte: the latencies cancel.
double per_byte(int senders) { return (seconds(senders, 512'000'000) - seconds(senders, 256'000'000)) / 256e6; }
}  // namespace

TEST_CASE("GPUs without peer-to-peer share the host memory bandwidth") {
    // One flow: its Gen4 x16 links (31.5 GB/s) are the bottleneck, not host
    // memory (102.4 GB/s). Four flows: 102.4 / 4 = 25.6 GB/s each, below PCIe.
    const double one = per_byte(1), four = per_byte(4);
    CHECK(four / one == Approx(31.507692307 / 25.6).epsilon(1e-6));
}
