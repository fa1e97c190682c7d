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

constexpr std::array<Dtype, 8> kDtypes{{
    {"float", 4}, {"half", 2}, {"bfloat16", 2}, {"double", 8},
    {"int8", 1},  {"uint8", 1}, {"int32", 4},   {"int64", 8},
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
    for (const auto& d : kDtypes)
        if (d.name == s) return d;
    return std::nullopt;
}

std::string_view dtype_choices() { return "one of float, half, bfloat16, double, int8, uint8, int32, int64"; }

}  // namespace collsim
