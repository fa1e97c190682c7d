#pragma once
// How the harness's processes find each other without MPI: the rank and size
// come from the launcher's environment (mpirun, srun or torchrun), and rank 0
// hands NCCL's unique id to the others over one TCP connection each, at
// MASTER_ADDR:MASTER_PORT as torchrun sets them. The same connections carry
// each rank's device description back to rank 0 for the device list.
#include <string>
#include <vector>

namespace harness {

struct Placement {
    int rank = 0, size = 1, local_rank = 0;
    bool launched = false;  // false: one process, no launcher
};

// OMPI_COMM_WORLD_*, PMI_*, SLURM_* or RANK / WORLD_SIZE / LOCAL_RANK.
Placement placement_from_env();

class Rendezvous {
public:
    // Rank 0 listens, the others connect (retrying for `timeout_s`).
    Rendezvous(const Placement& p, int timeout_s = 120);
    ~Rendezvous();
    Rendezvous(const Rendezvous&) = delete;
    Rendezvous& operator=(const Rendezvous&) = delete;

    // Rank 0's bytes reach every rank (in place).
    void broadcast(std::vector<char>& bytes);
    // Every rank's line, in rank order, on rank 0 (others get an empty list).
    std::vector<std::string> gather(const std::string& line);

private:
    Placement p_;
    int listen_fd_ = -1;
    std::vector<int> peers_;  // rank 0: one socket per rank (index = rank); others: [0] to rank 0
};

}  // namespace harness
