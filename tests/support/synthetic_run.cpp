#include "tests/support/synthetic_run.hpp"

#include "sim/model/predict.hpp"
#include "tests/support/run_cli.hpp"

namespace collsim::test {

Dataset synthetic_run(const std::string& topology, TopologyCache& machines, const Calibration& truth,
                      int gpus_per_thread, CollOp op, const std::string& algo) {
    Dataset d;
    d.name = topology;
    d.path = topology;
    d.topology_path = source_path(topology);
    d.op = op;
    d.algo = algo;
    d.proto = "simple";
    d.gpus_per_thread = gpus_per_thread;
    auto& m = machines.get(d.topology_path);
    d.ranks = static_cast<int>(m.topo.gpus().size());
    PredictRequest req;
    req.ranks = m.topo.gpus();
    req.op = op;
    req.algo = algo;
    req.proto = "simple";
    for (int64_t size = 8; size <= (int64_t{1} << 30); size *= 8) {
        req.bytes = Bytes(size);
        MeasuredRow row;
        row.size = Bytes(size);
        row.line = static_cast<int>(d.measurement.rows.size()) + 1;  // as in a log, one line a row
        row.result[0].time_us =
            with_launch_floor(predict_collective(m.topo, m.routes, req, truth).time, gpus_per_thread, truth).us();
        d.measurement.rows.push_back(row);
    }
    return d;
}

}  // namespace collsim::test
