// Every shipped topology file loads, and its summary counts are what its
// parameters imply (worked out by hand in the comments).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "sim/hw/topology_loader.hpp"
#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using Counts = std::map<std::string, std::size_t>;

namespace {
struct Expected {
    std::size_t gpus;
    Counts devices, links;
};

// A DGX-style server: 8 GPUs, one (logical) NVSwitch, 4 PCIe switches with
// 2 GPUs and 2 NICs each, 2 CPUs; 8 NVLink, 8 + 8 + 4 PCIe, 1 CPU link.
const Expected kServer{8, {{"gpu", 8}, {"nic", 8}, {"nvswitch", 1}, {"pcie_switch", 4}, {"root_complex", 2}},
                       {{"cpu", 1}, {"nvlink", 8}, {"pcie", 20}}};
// DGX H100: each GPU shares a PCIe switch with its own NIC only; 8 + 8 + 8 PCIe.
const Expected kDgxH100{8, {{"gpu", 8}, {"nic", 8}, {"nvswitch", 1}, {"pcie_switch", 8}, {"root_complex", 2}},
                        {{"cpu", 1}, {"nvlink", 8}, {"pcie", 24}}};
const Expected kPcieSwitched{8, {{"gpu", 8}, {"pcie_switch", 4}, {"root_complex", 1}}, {{"pcie", 12}}};
const Expected kPcieDirect{8, {{"gpu", 8}, {"root_complex", 2}}, {{"cpu", 1}, {"pcie", 8}}};

// DGX H100 nodes plus a rail-optimised fat-tree: the node counts times
// kDgxH100, plus `switches` and `fabric_links` network links.
Expected cluster(std::size_t nodes, std::size_t switches, std::size_t fabric_links, const Expected& node = kDgxH100) {
    Expected e{8 * nodes, {}, {}};
    for (const auto& [k, v] : node.devices) e.devices[k] = v * nodes;
    for (const auto& [k, v] : node.links) e.links[k] = v * nodes;
    e.devices["switch"] = switches;
    e.links["network"] = fabric_links;
    return e;
}

const std::map<std::string, Expected>& expected() {
    static const std::map<std::string, Expected> files = {
        {"dgx-a100", kServer},
        {"dgx-h100", kDgxH100},
        {"hgx-b200", kServer},
        // 18 trays of 4 GPUs, 2 Grace CPUs, 4 NICs; one NVLink switch. Links:
        // per tray 4 GPU-Grace C2C + 1 Grace-Grace (cpu), 4 NIC (pcie); 72
        // GPU-switch NVLink ports.
        {"gb200-nvl72",
         {72, {{"gpu", 72}, {"nic", 72}, {"nvswitch", 1}, {"root_complex", 36}},
          {{"cpu", 90}, {"nvlink", 72}, {"pcie", 72}}}},
        {"pcie-gen3-2gpu", {2, {{"gpu", 2}, {"pcie_switch", 1}, {"root_complex", 1}}, {{"pcie", 3}}}},
        {"pcie-gen4-x16-8gpu", kPcieSwitched},
        {"pcie-gen4-x8-8gpu", kPcieSwitched},
        {"pcie-gen5-x16-8gpu", kPcieSwitched},
        {"pcie-gen5-x8-8gpu", kPcieSwitched},
        {"pcie-gen4-x16-8gpu-noswitch", kPcieDirect},
        {"pcie-gen5-x16-8gpu-noswitch", kPcieDirect},
        {"rtx4090-4gpu", {4, {{"gpu", 4}, {"root_complex", 1}}, {{"pcie", 4}}}},
        // Radix 64: a leaf has 32 NIC ports and 32 uplinks (16 at 2:1); each
        // rail gets ceil(nodes / 32) leaves. 2 tiers: spines = the smallest
        // divisor s of the uplinks with 64 s >= leaves x uplinks.
        // 2 and 16 nodes: 8 leaves, 8 x 32 = 256 uplinks -> 4 spines.
        {"cluster-h100-2n", cluster(2, 8 + 4, 16 + 256)},
        {"cluster-h100-16n", cluster(16, 8 + 4, 128 + 256)},
        // 128 nodes: 32 leaves, 1024 uplinks -> 16 spines (8 at 2:1, 512 uplinks).
        {"cluster-h100-128n", cluster(128, 32 + 16, 1024 + 1024)},
        {"cluster-h100-128n-2to1", cluster(128, 32 + 8, 1024 + 512)},
        // 512 nodes, 3 tiers: 128 leaves in 4 pods of 32, 32 spines per pod
        // (128), each with 32 uplinks to a group of 8 cores (64 cores).
        {"cluster-h100-512n", cluster(512, 128 + 128 + 64, 4096 * 3)},
        // 2048 nodes, 3 tiers: 512 leaves in 16 pods of 32, 32 spines per pod
        // (512), each with 32 uplinks to a group of 8 cores (256 cores).
        {"cluster-h100-2048n", cluster(2048, 512 + 512 + 256, 16384 * 3)},
        // DGX A100 nodes, radix 40 (20 down ports): 420 nodes need 21 leaves
        // per rail (168), pods of 20 leaves with 20 spines each (9 pods: 180),
        // 100 cores; links 3,360 NIC + 168 x 20 + 180 x 20 uplinks.
        {"cluster-a100-420n", cluster(420, 168 + 180 + 100, 3360 + 3360 + 3600, kServer)},
    };
    return files;
}
}  // namespace

TEST_CASE("topo show counts for each shipped file are what its parameters imply") {
    for (const auto& [name, e] : expected()) {
        INFO(name);
        auto r = run_cli("topo show --format json topologies/" + name + ".yaml");
        REQUIRE(r.exit_code == 0);
        auto j = nlohmann::json::parse(r.out);
        CHECK(j["name"] == name);
        CHECK(j["gpus"] == e.gpus);
        CHECK(j["devices"].get<Counts>() == e.devices);
        CHECK(j["links"].get<Counts>() == e.links);
    }
}

TEST_CASE("every shipped topology file is covered and passes topo check") {
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(collsim::test::source_path("topologies"))) {
        if (entry.path().extension() != ".yaml") continue;
        const std::string stem = entry.path().stem().string();
        INFO(stem);
        ++files;
        // The 131,072-GPU file is checked on its own below.
        if (stem == "cluster-h100-16384n") continue;
        CHECK(expected().count(stem) == 1);
        auto r = run_cli("topo check topologies/" + stem + ".yaml");
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Contains(": ok: " + stem));
    }
    CHECK(files == expected().size() + 1);
}

TEST_CASE("the 131,072-GPU cluster loads with the fabric its parameters imply") {
    // Radix 128: 64 NIC ports per leaf, 16384 NICs per rail -> 256 leaves per
    // rail, 2048 leaves; pods of 64 leaves -> 32 pods of 64 spines (2048);
    // 64 uplinks per spine to a group of 16 cores (16 x 128 ports = 32 pods x
    // 64 uplinks): 1024 cores. Network links: 3 x 131072.
    const collsim::Topology t =
        collsim::load_topology(collsim::test::source_path("topologies/cluster-h100-16384n.yaml"));
    const Expected e = cluster(16384, 2048 + 2048 + 1024, 3 * 131072);
    CHECK(t.gpus().size() == e.gpus);
    Counts devices, links;
    for (const auto& d : t.devices()) ++devices[std::string(collsim::to_string(d.kind))];
    for (const auto& l : t.links()) ++links[std::string(collsim::to_string(l.kind))];
    CHECK(devices == e.devices);
    CHECK(links == e.links);
    CHECK(t.device(t.gpus()[131071]).name == "node16383.gpu7");
}

TEST_CASE("fat-tree bisection is nodes x NICs x NIC bandwidth / 2 at 1:1 and half that at 2:1") {
    for (const auto& [name, nodes] : std::map<std::string, int>{
             {"cluster-h100-2n", 2}, {"cluster-h100-16n", 16}, {"cluster-h100-128n", 128}, {"cluster-h100-2048n", 2048}}) {
        INFO(name);
        auto j = nlohmann::json::parse(run_cli("topo show --format json topologies/" + name + ".yaml").out);
        CHECK(j["bisection_bandwidth_GBps"].get<double>() == Approx(nodes * 8 * 50.0 / 2));
    }
    auto j = nlohmann::json::parse(run_cli("topo show --format json topologies/cluster-h100-128n-2to1.yaml").out);
    CHECK(j["bisection_bandwidth_GBps"].get<double>() == Approx(128 * 8 * 50.0 / 4));
    CHECK(j["fabrics"][0]["tiers"][0]["oversubscription"].get<double>() == Approx(2.0));
    CHECK(j["diameter_hops"] == 8);  // gpu pcie nic leaf spine leaf nic pcie gpu
}
