// The sweep's processes on a build without MPI: always one.
#include "sim/sweep/sweep_distributed.hpp"

namespace collsim {

SweepProcesses sweep_processes() { return {}; }

SweepRows run_distributed_sweep(const SweepSpec& spec, const std::vector<SweepPoint>& points, int jobs,
                                RunMonitor* monitor,
                                const std::function<void(const SweepPoint&, const std::vector<std::string>&)>& on_row,
                                const SweepProcesses&) {
    return run_sweep_points(spec, points, jobs, monitor, on_row);
}

}  // namespace collsim
