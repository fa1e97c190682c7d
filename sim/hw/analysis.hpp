#pragma once
// Whole-topology figures for summaries: bisection bandwidth and diameter.
#include "sim/hw/topology.hpp"

namespace collsim {

// Per-direction bandwidth between the first half of the GPUs (rank order) and
// the second half: the maximum flow from one half to the other over link
// directions. For a fat-tree whose halves fill whole leaves (or pods) this is
// the classic bisection; for a ring of N it is two links.
Bandwidth bisection_bandwidth(const Topology& topo);

// The largest hop count of a shortest path between two GPUs (GPUs never
// transit; bandwidths are ignored). Exact: the eccentricity-bounds method of
// Takes and Kosters ("Determining the diameter of small world networks",
// CIKM 2011), restricted to GPU endpoints, so fabrics need a few
// breadth-first searches, not one per GPU.
int gpu_diameter_hops(const Topology& topo);

}  // namespace collsim
