#pragma once
// Parametric fabrics, expanded on load: fat-trees (optionally rail-optimised
// and multi-plane) and rings/tori. A fabric names its endpoints with a glob
// over the devices declared so far and adds its switches and links.
#include <optional>
#include <string>
#include <vector>

#include "sim/hw/fragment.hpp"

namespace collsim {

enum class FabricKind { fat_tree, rail_fat_tree, torus, ring };

// Oversubscription of one tier: down ports to up ports, "2:1".
struct PortRatio {
    int64_t down = 1, up = 1;
};

struct FabricSpec {
    std::string name;
    FabricKind kind = FabricKind::fat_tree;
    std::string kind_name;
    std::vector<DeviceId> endpoints;
    int tiers = 0;
    int radix = 0;
    int planes = 1;
    std::vector<PortRatio> oversubscription;  // per tier below the top
    std::vector<int> dims;                    // torus: routers per dimension
    bool wrap = true;
    Link link;           // switch to switch (properties only)
    Link endpoint_link;  // endpoint to its first switch
    DeviceKind switch_kind = DeviceKind::network_switch;
    Time switch_latency{};
    bool in_network_reduction = false;
    YAML::Node node;  // for errors found while generating
    std::string path;
    SourceLocation where;
};

// Reads fabrics[i] and adds the fabric to `b`; errors go to `f`.
void expand_fabric(YamlFields& f, FragmentBuilder& b, const YAML::Node& n, const std::string& path);

// Generators, called by expand_fabric with a validated spec.
void build_fat_tree(YamlFields& f, FragmentBuilder& b, const FabricSpec& spec);
void build_torus(YamlFields& f, FragmentBuilder& b, const FabricSpec& spec);

// A network switch of a generated fabric.
Device fabric_switch(const FabricSpec& spec, std::string name);

}  // namespace collsim
