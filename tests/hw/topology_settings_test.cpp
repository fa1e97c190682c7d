#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/hw/topology_loader.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
using collsim::test::input_error_of;
using collsim::test::run_cli;
using collsim::test::source_path;

namespace {

Topology load(const std::string& file, const std::vector<std::string>& settings) {
    return load_topology(source_path("topologies/" + file), nullptr, settings);
}

std::string error_of(const std::string& file, const std::vector<std::string>& settings) {
    return input_error_of([&] { load(file, settings); });
}

std::size_t links_of_kind(const Topology& t, LinkKind kind) {
    return static_cast<std::size_t>(
        std::count_if(t.links().begin(), t.links().end(), [&](const Link& l) { return l.kind == kind; }));
}

bool between(const Topology& t, const Link& l, const std::string& a_part, const std::string& b_part) {
    const std::string& a = t.device(l.a).name;
    const std::string& b = t.device(l.b).name;
    return (a.find(a_part) != std::string::npos && b.find(b_part) != std::string::npos) ||
           (a.find(b_part) != std::string::npos && b.find(a_part) != std::string::npos);
}

}  // namespace

TEST_CASE("--set fabrics.ib.oversubscription=2:1 tapers the leaves as the 2:1 list does") {
    const Topology one = load("cluster-h100-16n.yaml", {});
    const Topology two = load("cluster-h100-16n.yaml", {"fabrics.ib.oversubscription=2:1"});
    const Topology listed = load("cluster-h100-16n.yaml", {"fabrics[0].oversubscription=[2:1]"});
    // 128 NIC links stay; the leaf-to-spine links halve (256 to 128).
    CHECK(links_of_kind(one, LinkKind::network) == 384);
    CHECK(links_of_kind(two, LinkKind::network) == 256);
    CHECK(links_of_kind(listed, LinkKind::network) == 256);
}

TEST_CASE("--set nodes.count=4 grows the cluster and its fabric") {
    CHECK(load("cluster-h100-2n.yaml", {}).gpus().size() == 16);
    CHECK(load("cluster-h100-2n.yaml", {"nodes.count=4"}).gpus().size() == 32);
    // The same element chosen by its template, or by index; the last setting wins.
    CHECK(load("cluster-h100-2n.yaml", {"nodes[dgx-h100].count=3"}).gpus().size() == 24);
    CHECK(load("cluster-h100-2n.yaml", {"nodes.count=4", "nodes[0].count=1"}).gpus().size() == 8);
}

TEST_CASE("--set links[A--B].lanes changes the built links between matching devices, either end order") {
    const Topology t = load("cluster-h100-2n.yaml", {"links[node*.pcie*--node*.gpu*].lanes=8"});
    std::size_t gpu_links = 0;
    for (const Link& l : t.links()) {
        if (l.kind != LinkKind::pcie) continue;
        if (between(t, l, ".gpu", ".pcie")) {
            ++gpu_links;
            CHECK(l.pcie_lanes == 8);
        } else {
            CHECK(l.pcie_lanes == 16);  // NIC and root-complex links are untouched
        }
    }
    CHECK(gpu_links == 16);
    // A flat file's own links are reached the same way.
    const Topology flat = load("pcie-gen4-x16-8gpu.yaml", {"links[gpu*--pcie*].lanes=8"});
    const Topology x8 = load("pcie-gen4-x8-8gpu.yaml", {});
    for (std::size_t i = 0; i < flat.links().size(); ++i) CHECK(flat.links()[i].bandwidth == x8.links()[i].bandwidth);
}

TEST_CASE("--set applies to the YAML an NCCL topology XML import writes") {
    std::vector<std::string> notes;
    const Topology t = load_topology(source_path("tests/data/nccl-topo/nvswitch-2gpu.xml"), &notes,
                                     {"links[gpu*--pcie*].lanes=4"});
    for (const Link& l : t.links())
        if (between(t, l, "gpu", "pcie")) CHECK(l.pcie_lanes == 4);
}

TEST_CASE("--set paths that match nothing are errors at the setting") {
    CHECK(error_of("cluster-h100-2n.yaml", {"nodes.count=2", "fabrics.ib.oversubscriptio=2:1"}) ==
          "--set #2 'fabrics.ib.oversubscriptio=2:1': fabrics[0].oversubscriptio: expected one of the keys name, "
          "kind, endpoints, link, endpoint_link, switch, planes, tiers, radix, oversubscription, found unknown key "
          "'oversubscriptio'");
    CHECK(error_of("cluster-h100-2n.yaml", {"fabrics.eth.radix=2"}) ==
          "--set #1 'fabrics.eth.radix=2': fabrics.eth: expected an element of fabrics whose name, template, prefix "
          "or device matches 'eth' (ib), or fabrics[N] with N below 1, found no such element");
    CHECK(error_of("cluster-h100-2n.yaml", {"fabrics.ib.spine.radix=2"}) ==
          "--set #1 'fabrics.ib.spine.radix=2': fabrics.ib.spine: expected one of the fields there: name, kind, "
          "endpoints, tiers, radix, oversubscription, link, switch, found no field 'spine'");
    CHECK(error_of("cluster-h100-2n.yaml", {"fabrics[3].radix=2"}) ==
          "--set #1 'fabrics[3].radix=2': fabrics[3]: expected an index below 1 (the entries of fabrics), found 3");
    CHECK(error_of("cluster-h100-2n.yaml", {"links[node*.gpu*--spine*].lanes=8"}) ==
          "--set #1 'links[node*.gpu*--spine*].lanes=8': overrides[0].link: expected patterns matching at least one "
          "link, found [node*.gpu*, spine*], which matches no link");
    CHECK(error_of("cluster-h100-2n.yaml", {"nodes.count"}) ==
          "--set #1 'nodes.count': --set: expected PATH=VALUE, like nodes.count=256, found 'nodes.count'");
    CHECK_THAT(error_of("cluster-h100-2n.yaml", {"nodes[0.count=1"}), Catch::Contains("with a '[' never closed"));
}

TEST_CASE("a bad value a --set gave is reported at the setting, not at the file line it replaced") {
    CHECK(error_of("cluster-h100-2n.yaml", {"fabrics.ib.link.bandwidth=400"}) ==
          "--set #1 'fabrics.ib.link.bandwidth=400': fabrics[0].link.bandwidth: expected a unit after the number "
          "(GB/s for bytes, Gb/s for bits), found '400'");
    CHECK_THAT(error_of("cluster-h100-2n.yaml", {"nodes.count=0"}),
               Catch::StartsWith("--set #1 'nodes.count=0': nodes[0].count: expected a node count from 1"));
}

TEST_CASE("collsim --set is exit 2 at the override, and a set run equals the file it stands for") {
    auto bad = run_cli("topo check topologies/cluster-h100-2n.yaml --set fabrics.ib.oversubscriptio=2:1");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::StartsWith("--set #1 'fabrics.ib.oversubscriptio=2:1': "));
    const std::string set = "coll -t topologies/pcie-gen4-x16-8gpu.yaml --sizes 8,1M --format csv --set "
                            "'links[gpu*--pcie*].lanes=8'";
    auto a = run_cli(set), b = run_cli(set);
    auto x8 = run_cli("coll -t topologies/pcie-gen4-x8-8gpu.yaml --sizes 8,1M --format csv");
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    auto without_name = [](std::string s) {
        for (const std::string name : {"pcie-gen4-x16-8gpu", "pcie-gen4-x8-8gpu"})
            for (std::size_t p; (p = s.find(name)) != std::string::npos;) s.erase(p, name.size());
        return s;
    };
    CHECK(without_name(a.out) == without_name(x8.out));
    // The JSON stamp lists the settings beside the file's hash.
    auto j = run_cli("topo show --format json topologies/cluster-h100-2n.yaml --set nodes.count=3 --set fabrics.ib.switch.latency=200ns");
    REQUIRE(j.exit_code == 0);
    CHECK_THAT(j.out, Catch::Contains("\"settings\": [\n        \"nodes.count=3\",\n        \"fabrics.ib.switch.latency=200ns\"\n      ]"));
    CHECK_THAT(j.out, Catch::Contains("\"gpus\": 24"));
}

TEST_CASE("every command that reads a topology takes --set and reports a bad one at the setting") {
    const std::string t = "topologies/cluster-h100-2n.yaml", log = "tests/data/nccl-logs/new-layout-allreduce.log";
    for (const std::string& command :
         {"coll -t " + t, "replay -t " + t + " --trace workloads/samples/tp-decode-8gpu.yaml", "topo show " + t,
          "topo dot " + t, "topo check --format json " + t, "plan --model gpt3-175b --topology " + t,
          "diagnose tests/data/timings/late-rank5.csv --topology " + t,
          "calibrate --log " + log + " --topology " + t + " -o /dev/null", "validate --log " + log + " --topology " + t}) {
        INFO(command);
        auto r = run_cli(command + " --set fabrics.ib.nosuch.x=1");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::StartsWith("--set #1 'fabrics.ib.nosuch.x=1': fabrics.ib.nosuch: expected one of the "
                                            "fields there: name, kind,"));
    }
    // validate's datasets were measured on their own machines: --set needs --log and --topology.
    CHECK(run_cli("validate --set nodes.count=2").exit_code == 2);
}
