#pragma once
// Building native trace documents (workloads/README.md) for the generators:
// ops as JSON objects with the format's field names, a document with its
// communicators, programs and overrides, and rendering as JSON (generated
// traces) or YAML (for samples meant to be read).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace collsim::gen {

using Json = nlohmann::ordered_json;
using Names = std::vector<std::string>;

// "25MiB" when a whole number of MiB or KiB, else the byte count.
Json size_value(Bytes b);

Json compute_op(const std::string& name, Time duration, const Names& after = {}, const std::string& stream = "");
// Costed by the GPU's roofline: FLOPs and HBM bytes.
Json roofline_op(const std::string& name, double flops, Bytes memory, const Names& after = {},
                 const std::string& stream = "");
Json collective_op(const std::string& name, const std::string& op, Bytes bytes, const std::string& comm,
                   const Names& after = {}, const std::string& stream = "");
Json alltoallv_op(const std::string& name, const std::vector<Bytes>& split, const std::string& comm,
                  const Names& after = {}, const std::string& stream = "");
// `peer` is "next", "prev", "+K", "-K" within `comm`.
Json p2p_op(const std::string& name, bool send, const std::string& peer, const std::string& comm, Bytes bytes,
            const Names& after = {}, const std::string& stream = "");

struct GpuSpec {
    std::string card;  // empty: from the topology
    double flops_efficiency = 1.0, memory_efficiency = 1.0;
};

class TraceDoc {
public:
    TraceDoc(std::string name, int ranks, std::string generated_by, std::string description);
    void gpu(const GpuSpec& g);
    void communicator(const std::string& name, Json rule);
    void program(std::vector<Json> ops);                            // every rank
    void program_for(const std::string& ranks, std::vector<Json> ops);  // "0-7,16"
    void override_op(const std::string& ranks, const std::string& op, Json fields);
    Json document() const { return doc_; }

private:
    Json doc_;
};

std::string render_json(const Json& doc);
std::string render_yaml(const Json& doc);

}  // namespace collsim::gen
