#include "sim/replay/import/chakra_et.hpp"

#include <climits>

#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>

#include "chakra_et.pb.h"
#include "sim/replay/import/chakra_graph.hpp"

namespace collsim {

namespace {
namespace pb = collsim::chakra;

// The value of an integer attribute, whichever of protobuf's integer types
// the writer chose (Chakra's converters use int64_val, ASTRA-sim's
// generators int32_val for peers).
std::optional<int64_t> integer_of(const pb::AttributeProto& a) {
    switch (a.value_case()) {
        case pb::AttributeProto::kInt32Val: return a.int32_val();
        case pb::AttributeProto::kInt64Val: return a.int64_val();
        case pb::AttributeProto::kUint32Val: return a.uint32_val();
        case pb::AttributeProto::kUint64Val:
            return a.uint64_val() > INT64_MAX ? std::nullopt : std::optional<int64_t>(a.uint64_val());
        case pb::AttributeProto::kSint32Val: return a.sint32_val();
        case pb::AttributeProto::kSint64Val: return a.sint64_val();
        case pb::AttributeProto::kFixed32Val: return a.fixed32_val();
        case pb::AttributeProto::kFixed64Val:
            return a.fixed64_val() > INT64_MAX ? std::nullopt : std::optional<int64_t>(a.fixed64_val());
        case pb::AttributeProto::kSfixed32Val: return a.sfixed32_val();
        case pb::AttributeProto::kSfixed64Val: return a.sfixed64_val();
        case pb::AttributeProto::kBoolVal: return a.bool_val() ? 1 : 0;
        default: return std::nullopt;
    }
}

void read_attributes(const pb::Node& m, ChakraNode& n, const std::string& file) {
    for (const pb::AttributeProto& a : m.attr()) {
        std::optional<uint64_t>* target = a.name() == "comm_type"   ? &n.comm_type
                                          : a.name() == "comm_size" ? &n.comm_size
                                          : a.name() == "comm_src"  ? &n.comm_src
                                          : a.name() == "comm_dst"  ? &n.comm_dst
                                                                    : nullptr;
        if (!target && a.name() != "is_cpu_op") continue;
        const std::optional<int64_t> v = integer_of(a);
        if (!v || *v < 0)
            throw InputError(SourceLocation{file, 0, 0}, n.where + ".attr " + a.name(),
                             "an integer that is not negative (or a bool)",
                             v ? std::to_string(*v) : "a value of another type");
        if (target) *target = static_cast<uint64_t>(*v);
        else n.is_cpu_op = *v != 0;
    }
}
}  // namespace

bool chakra_et_supported() { return true; }

ImportedProgram import_chakra_et_rank(const std::string& bytes, const std::string& file, int rank) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX))
        throw InputError(SourceLocation{file, 0, 0}, "file", "a Chakra ET file of at most 2 GiB (protobuf's limit)",
                         fmt::format("{} bytes", bytes.size()));
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              static_cast<int>(bytes.size()));
    in.SetTotalBytesLimit(INT_MAX);
    ChakraGraph g;
    g.file = file;
    g.format = "Chakra ET protobuf";
    // Message k of the stream: the metadata, then node k - 1.
    for (std::size_t k = 0; !in.ExpectAtEnd(); ++k) {
        const int start = in.CurrentPosition();
        const std::string what = k == 0 ? "GlobalMetadata" : fmt::format("node[{}]", k - 1);
        const std::string where = fmt::format("byte {}: {}", start, what);
        uint32_t length = 0;
        if (!in.ReadVarint32(&length) || length > bytes.size() - static_cast<std::size_t>(in.CurrentPosition()))
            throw InputError(SourceLocation{file, 0, 0}, where,
                             "a message length (varint) within the file (Chakra ET protobuf)",
                             "a cut-off or corrupt length");
        const auto limit = in.PushLimit(static_cast<int>(length));
        bool ok;
        pb::Node m;
        pb::GlobalMetadata meta;
        ok = k == 0 ? meta.ParseFromCodedStream(&in) : m.ParseFromCodedStream(&in);
        if (!ok || !in.ConsumedEntireMessage())
            throw InputError(SourceLocation{file, 0, 0}, where,
                             fmt::format("a {}-byte {} message (Chakra ET protobuf)", length,
                                         k == 0 ? "GlobalMetadata" : "Node"),
                             "bytes protobuf cannot parse as one");
        in.PopLimit(limit);
        if (k == 0) continue;
        ChakraNode& n = g.nodes.emplace_back();
        n.where = where;
        n.at = SourceLocation{file, 0, 0, start};
        n.id = m.id();
        n.name = m.name();
        n.type = m.type();
        n.duration_us = m.duration_micros();
        n.data_deps.assign(m.data_deps().begin(), m.data_deps().end());
        read_attributes(m, n, file);
    }
    return chakra_program(g, rank);
}

}  // namespace collsim
