#include "sim/replay/import/nccl_kernel.hpp"

#include <array>
#include <utility>

namespace collsim {

namespace {
constexpr std::array<std::pair<std::string_view, CollOp>, 9> kOps{{
    {"AllReduce", CollOp::allreduce},
    {"AllGather", CollOp::allgather},
    {"ReduceScatter", CollOp::reducescatter},
    {"Broadcast", CollOp::broadcast},
    {"Reduce", CollOp::reduce},
    {"AllToAll", CollOp::alltoall},
    {"SendRecv", CollOp::sendrecv},
    {"Send", CollOp::sendrecv},
    {"Recv", CollOp::sendrecv},
}};

// NCCL's type names in kernel names (both schemes) to nccl-tests' names.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kTypes{{
    {"float", "float"}, {"f32", "float"}, {"half", "half"}, {"f16", "half"}, {"bf16", "bfloat16"},
    {"__nv_bfloat16", "bfloat16"}, {"double", "double"}, {"f64", "double"}, {"int8_t", "int8"}, {"i8", "int8"},
    {"uint8_t", "uint8"}, {"u8", "uint8"}, {"int32_t", "int32"}, {"i32", "int32"}, {"int64_t", "int64"},
    {"i64", "int64"},
}};
constexpr std::array<std::string_view, 6> kRedOps{"Sum", "Prod", "Min", "Max", "PreMulSum", "SumPostDiv"};

// The type follows the reduction operator: "Sum_float" (old) or "Sum_bf16_RING_LL" (new).
std::string dtype_in(std::string_view fields) {
    for (std::size_t at = fields.find('_'); at != std::string_view::npos; at = fields.find('_', at + 1)) {
        std::string_view rest = fields.substr(at + 1);
        for (std::string_view red : kRedOps) {
            if (rest.substr(0, red.size()) != red || rest.substr(red.size(), 1) != "_") continue;
            const std::string_view type = rest.substr(red.size() + 1);
            for (const auto& [label, dtype] : kTypes)
                if (type.substr(0, label.size()) == label &&
                    (type.size() == label.size() || type[label.size()] == '_'))
                    return std::string(dtype);
        }
    }
    return "";
}
}  // namespace

std::optional<NcclKernel> parse_nccl_kernel(std::string_view name) {
    name = name.substr(0, name.find('('));
    for (std::string_view prefix : {"ncclKernel_", "ncclDevKernel_"}) {
        if (name.substr(0, prefix.size()) != prefix) continue;
        std::string_view rest = name.substr(prefix.size());
        const std::string_view coll = rest.substr(0, rest.find('_'));
        for (const auto& [label, op] : kOps) {
            if (label != coll) continue;
            NcclKernel k{op, dtype_in(rest)};
            return k;
        }
    }
    return std::nullopt;
}

std::string_view nccl_kernel_label(CollOp op) {
    for (const auto& [label, o] : kOps)
        if (o == op) return label;
    return "";
}

}  // namespace collsim
