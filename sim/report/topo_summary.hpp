#pragma once
// `collsim topo show`: what a topology contains and what it can carry.
#include <map>
#include <string>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

struct TopoSummary {
    std::string name, file;
    std::size_t gpus = 0;
    std::size_t instances = 0;
    std::map<std::string, std::size_t> devices;  // by kind, as spelled in files
    std::map<std::string, std::size_t> links;
    // Per-GPU injection bandwidth by level (nvlink, pcie, network), GB/s per
    // direction: the least and the most any GPU has. A GPU's network share is
    // its own network links plus its node's NIC links divided among the node's
    // GPUs (the whole topology counts as one node when there are no templates).
    std::map<std::string, double> injection_min_GBps, injection_max_GBps;
    double bisection_GBps = 0;
    int diameter_hops = 0;
    std::vector<FabricInfo> fabrics;
};

TopoSummary summarize(const Topology& topo);

std::string render_table(const TopoSummary& s);
std::string render_json(const TopoSummary& s);
std::string render_csv(const TopoSummary& s);

}  // namespace collsim
