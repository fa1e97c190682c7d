// Malformed topology files under tests/data/topo: each gives one precise
// error (file:line:column, the YAML path of the field, what was expected and
// what was found) and exit code 2 from `collsim topo check`.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
const std::vector<std::pair<std::string, std::string>> kCases = {
    {"wrong-type",
         "tests/data/topo/wrong-type.yaml:7:31: nodes[0].count: expected an integer, found 'many'"},
    {"unknown-template",
         "tests/data/topo/unknown-template.yaml:7:16: nodes[0].template: expected the name of a template declared under templates (server), found 'dgx-b300'"},
    {"override-matches-nothing",
         "tests/data/topo/override-matches-nothing.yaml:12:14: overrides[0].device: expected a pattern matching at least one device, found 'node9.nic*', which matches nothing"},
    {"override-link-matches-nothing",
         "tests/data/topo/override-link-matches-nothing.yaml:12:12: overrides[0].link: expected patterns matching at least one link, found [node0.gpu0, node1.gpu0], which matches no link"},
    {"radix-too-small",
         "tests/data/topo/radix-too-small.yaml:13:12: fabrics[0].radix: expected a radix large enough for 40 endpoints in 2 tiers, found radix 8: 10 leaf switches, more than the 8 ports of a spine"},
    {"duplicate-names",
         "tests/data/topo/duplicate-names.yaml:5:12: devices[1].name: expected a device name not used before, found 'gpu0', already declared at line 4"},
    {"instance-name-clash",
         "tests/data/topo/instance-name-clash.yaml:9:5: nodes[0]: expected an instance whose device names are not used before, found 'node1.gpu0', already declared at line 7"},
    {"template-cycle",
         "tests/data/topo/template-cycle.yaml:12:20: templates.server.nodes[0].template: expected templates that do not contain themselves (a tree of templates), found the cycle rack -> server -> rack"},
    {"include-cycle-a",
         "tests/data/topo/include-cycle-b.yaml:5:13: templates.a.file: expected a file that does not include itself, found the cycle include-cycle-a.yaml -> include-cycle-b.yaml -> include-cycle-a.yaml"},
    {"bad-ratio",
         "tests/data/topo/bad-ratio.yaml:14:24: fabrics[0].oversubscription[0]: expected a ratio of down to up ports of at least 1:1, like '2:1', found '1:2'"},
    {"ratio-not-whole",
         "tests/data/topo/ratio-not-whole.yaml:14:24: fabrics[0].oversubscription[0]: expected a ratio that splits the 4 down ports of a tier-1 switch into whole up ports, found '3:1' (4 x 1/3 up ports)"},
    {"endpoints-match-nothing",
         "tests/data/topo/endpoints-match-nothing.yaml:11:16: fabrics[0].endpoints: expected a pattern matching at least one declared device, found 'node*.hca*', which matches nothing"},
    {"torus-dims",
         "tests/data/topo/torus-dims.yaml:12:11: fabrics[0].dims: expected dimensions whose product is the 8 endpoints, found 16 routers"},
    {"unknown-fabric-kind",
         "tests/data/topo/unknown-fabric-kind.yaml:10:11: fabrics[0].kind: expected one of fat_tree, rail_fat_tree, torus, ring, found 'dragonfly'"},
    {"rail-outside-node",
         "tests/data/topo/rail-outside-node.yaml:13:16: fabrics[0].endpoints: expected devices of node instances, like 'node*.nic*' (a rail is a device's name within its node), found 'nic0', which is not in a node instance"},
    {"unknown-key",
         "tests/data/topo/unknown-key.yaml:13:5: fabrics[0].radx: expected one of the keys name, kind, endpoints, link, endpoint_link, switch, planes, tiers, radix, oversubscription, found unknown key 'radx'\n"
         "tests/data/topo/unknown-key.yaml:9:5: fabrics[0].radix: expected an integer (required), found no such field"},
    {"too-many-tiers",
         "tests/data/topo/too-many-tiers.yaml:12:12: fabrics[0].tiers: expected an integer from 1 to 3, found '4'"},
    {"missing-template-file",
         "tests/data/topo/missing-template-file.yaml:5:18: templates.server.file: expected a readable topology file, found 'no-such-server.yaml' (tests/data/topo/no-such-server.yaml)"},
    {"schema-version",
         "tests/data/topo/schema-version.yaml:2:9: topology.schema: expected schema version 1, found '2'"},
    {"disconnected-nodes",
         "tests/data/topo/server.yaml:4:5: devices[0]: expected a GPU connected to the other GPUs (through links and non-GPU devices), found no path between 'node0.gpu0' and 'node1.gpu0'\n"
         "tests/data/topo/server.yaml:5:5: devices[1]: expected a GPU connected to the other GPUs (through links and non-GPU devices), found no path between 'node0.gpu0' and 'node1.gpu1'"},
};
}  // namespace

TEST_CASE("every malformed topology file gives its precise error and exit code 2") {
    CHECK(kCases.size() >= 12);
    for (const auto& [name, expected] : kCases) {
        INFO(name);
        auto r = run_cli("topo check tests/data/topo/" + name + ".yaml");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == expected + "\n");
    }
}
