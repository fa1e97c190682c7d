#pragma once
// Maximum flow by Dinic's algorithm (Dinitz 1970): breadth-first levels, then
// blocking flows along level-increasing arcs. Iterative, so a long chain of
// routers cannot overflow the stack; arcs are stored flat for large fabrics.
#include <cstdint>
#include <vector>

namespace collsim {

class MaxFlow {
public:
    explicit MaxFlow(uint32_t vertices) : first_(vertices + 1, 0) {}

    // Adds an arc u -> v of `capacity` (its residual reverse arc starts at 0).
    void add_arc(uint32_t u, uint32_t v, int64_t capacity);
    int64_t run(uint32_t source, uint32_t sink);

private:
    void freeze();
    bool levels(uint32_t source, uint32_t sink);
    int64_t blocking_flow(uint32_t source, uint32_t sink);

    struct Pending {
        uint32_t u, v;
        int64_t capacity;
    };
    std::vector<Pending> pending_;
    std::vector<uint32_t> first_, to_, reverse_, next_arc_;
    std::vector<int64_t> capacity_;
    std::vector<int> level_;
};

}  // namespace collsim
