#pragma once
// A sweep over several processes: under `mpirun -n K` (or `srun` in a Slurm
// allocation) on a build with Open MPI, process r runs the points r, r+K,
// r+2K, ... of those left to run, each with -j threads, and rank 0 gathers
// every row and writes the CSV, byte for byte the one a single process
// writes. Without MPI, or started without a launcher, there is one process.
#include <functional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_runner.hpp"

namespace collsim {

struct SweepProcesses {
    int rank = 0, size = 1;
};

// Joins the launcher's processes (MPI_Init once, finalised at exit) where
// there is one; else {0, 1}.
SweepProcesses sweep_processes();

// As run_sweep_points, over every process: rank 0's result holds every row
// (`on_row` sees each, from rank 0's thread), the others' only their own. A
// bad input on any process is rethrown on the process that hit it and on
// rank 0 (rank 0's own first, else that of the lowest rank that failed).
SweepRows run_distributed_sweep(const SweepSpec& spec, const std::vector<SweepPoint>& points, int jobs,
                                RunMonitor* monitor,
                                const std::function<void(const SweepPoint&, const std::vector<std::string>&)>& on_row,
                                const SweepProcesses& procs);

}  // namespace collsim
