#include "sim/exec/collective.hpp"

#include <array>
#include <utility>

#include "sim/core/name_table.hpp"

namespace collsim {

namespace {
constexpr NameTable<CollOp, 7> kOps{{
    {"allreduce", CollOp::allreduce},
    {"allgather", CollOp::allgather},
    {"reducescatter", CollOp::reducescatter},
    {"broadcast", CollOp::broadcast},
    {"reduce", CollOp::reduce},
    {"alltoall", CollOp::alltoall},
    {"sendrecv", CollOp::sendrecv},
}};

// nccl-tests' -d names (src/common.cu test_typenames), which the table prints.
constexpr std::array<Dtype, 12> kDtypes{{
    {"float", 4}, {"half", 2},   {"bfloat16", 2}, {"double", 8}, {"int8", 1},   {"uint8", 1},
    {"int32", 4}, {"uint32", 4}, {"int64", 8},    {"uint64", 8}, {"f8e4m3", 1}, {"f8e5m2", 1},
}};
// The names frameworks and traces use for the same types.
constexpr NameTable<std::string_view, 7> kDtypeAliases{{
    {"bf16", "bfloat16"},
    {"fp16", "half"},
    {"float16", "half"},
    {"fp32", "float"},
    {"float32", "float"},
    {"fp64", "double"},
    {"float64", "double"},
}};
}  // namespace

std::string_view to_string(CollOp op) { return name_in(kOps, op); }

std::optional<CollOp> coll_op_from(std::string_view s) { return value_in(kOps, s); }

bool is_point_to_point(CollOp op) { return op == CollOp::alltoall || op == CollOp::sendrecv; }

std::string_view coll_op_choices() {
    return "one of allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv";
}

double busbw_factor(CollOp op, int ranks) {
    const double n = ranks;
    switch (op) {
        case CollOp::allreduce: return 2.0 * (n - 1) / n;
        case CollOp::allgather:
        case CollOp::reducescatter:
        case CollOp::alltoall: return (n - 1) / n;
        case CollOp::broadcast:
        case CollOp::reduce:
        case CollOp::sendrecv: return 1.0;
    }
    return 1.0;
}

std::optional<Dtype> dtype_from(std::string_view s) {
    const std::string_view name = value_in(kDtypeAliases, s).value_or(s);
    for (const auto& d : kDtypes)
        if (d.name == name) return d;
    return std::nullopt;
}

std::string_view dtype_choices() {
    return "one of float, half, bfloat16, double, int8, uint8, int32, uint32, int64, uint64, f8e4m3, f8e5m2";
}

}  // namespace collsim
