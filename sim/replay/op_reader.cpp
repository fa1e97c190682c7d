#include "sim/replay/op_reader.hpp"

#include <charconv>

#include <fmt/format.h>

#include "sim/replay/trace_fields.hpp"

namespace collsim {

namespace {

bool read_compute(YamlFields& f, const YAML::Node& n, const std::string& path, ComputeCost& c) {
    c.duration = f.time(n, path, "duration", false);
    if (auto v = read_flops(f, n, path, "flops")) c.flops = *v;
    if (auto v = read_size(f, n, path, "bytes", false)) c.memory = *v;
    if (auto v = read_fraction(f, n, path, "flops_efficiency")) c.flops_efficiency = *v;
    if (auto v = read_fraction(f, n, path, "memory_efficiency")) c.memory_efficiency = *v;
    if (auto v = f.boolean(n, path, "host", false)) c.host = *v;
    if (auto d = f.string(n, path, "dtype", false)) {
        if (auto t = flop_type_from(*d)) c.type = *t;
        else f.error(n["dtype"], path + ".dtype", std::string(flop_type_choices()), describe_node(n["dtype"]));
    }
    const bool roofline = n["flops"] || n["bytes"];
    if (n["duration"] && roofline) {
        f.error(n, path, "either a duration or FLOPs and bytes for the roofline, not both", "both");
        return false;
    }
    if (!n["duration"] && !roofline) {
        f.error(n, path, "a duration, or flops and/or bytes (compute op)", "none of them");
        return false;
    }
    return true;
}

std::optional<uint32_t> read_comm(YamlFields& f, const YAML::Node& n, const std::string& path, const Trace& t,
                                  bool required) {
    auto name = f.string(n, path, "comm", required);
    if (!name) return std::nullopt;
    if (auto c = t.find_communicator(*name)) return c;
    std::string names;
    for (const auto& c : t.communicators) names += (names.empty() ? "" : ", ") + c.name;
    f.error(n["comm"], path + ".comm", "the name of a communicator (" + (names.empty() ? "none declared" : names) + ")",
            describe_node(n["comm"]));
    return std::nullopt;
}

std::optional<std::string> dtype_name(std::string_view s) {
    if (s == "bf16") return "bfloat16";
    if (s == "fp16") return "half";
    if (s == "fp32") return "float";
    if (s == "fp64") return "double";
    if (dtype_from(s)) return std::string(s);
    return std::nullopt;
}

bool read_collective(YamlFields& f, const YAML::Node& n, const std::string& path, const Trace& t,
                     CollectiveSpec& c) {
    bool ok = true;
    const auto op = f.string(n, path, "collective", true);
    if (op) {
        if (auto o = coll_op_from(*op); o && *o != CollOp::sendrecv) c.op = *o;
        else {
            f.error(n["collective"], path + ".collective",
                    "one of allreduce, allgather, reducescatter, broadcast, reduce, alltoall (send/recv are ops "
                    "of their own)",
                    describe_node(n["collective"]));
            ok = false;
        }
    }
    if (auto d = f.string(n, path, "dtype", false)) {
        if (auto name = dtype_name(*d)) c.dtype = *name;
        else f.error(n["dtype"], path + ".dtype", std::string(dtype_choices()), describe_node(n["dtype"]));
    }
    if (auto comm = read_comm(f, n, path, t, true)) c.comm = *comm;
    else ok = false;
    if (auto root = f.integer(n, path, "root", false)) c.root = static_cast<int>(*root);
    c.duration = f.time(n, path, "duration", false);
    if (const YAML::Node split = n["split"]) {
        if (c.op != CollOp::alltoall) {
            f.error(split, path + ".split", "no split (only alltoall takes per-peer sizes)", "a split");
            return false;
        }
        if (!f.expect_sequence(split, path + ".split")) return false;
        Bytes total;
        for (std::size_t i = 0; i < split.size(); ++i) {
            try {
                if (!split[i].IsScalar()) throw std::invalid_argument("a size like '1MiB'");
                c.split.push_back(parse_size(split[i].Scalar()));
                total = total + c.split.back();
            } catch (const std::invalid_argument& e) {
                f.error(split[i], fmt::format("{}.split[{}]", path, i), e.what(), describe_node(split[i]));
                return false;
            }
        }
        if (n["bytes"]) {
            f.error(n["bytes"], path + ".bytes", "no bytes when split gives the size to every peer", "bytes");
            return false;
        }
        c.bytes = total;
    } else if (auto b = read_size(f, n, path, "bytes", true)) {
        c.bytes = *b;
    } else {
        ok = false;
    }
    return ok && op.has_value();
}

bool read_p2p(YamlFields& f, const YAML::Node& n, const std::string& path, const char* key, const Trace& t,
              P2PSpec& p) {
    const YAML::Node peer = n[key];
    const std::string field = path + "." + key;
    const char* expected = "a rank number, or next, prev, +K or -K within the group of `comm`";
    if (!peer.IsScalar()) {
        f.error(peer, field, expected, describe_node(peer));
        return false;
    }
    const std::string& s = peer.Scalar();
    int value = 0;
    bool relative = true;
    if (s == "next") value = 1;
    else if (s == "prev") value = -1;
    else {
        relative = !s.empty() && (s[0] == '+' || s[0] == '-');
        const char* begin = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
        auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
        if (ec != std::errc() || end != s.data() + s.size() || (!relative && value < 0) || (relative && value == 0)) {
            f.error(peer, field, expected, describe_node(peer));
            return false;
        }
    }
    auto comm = read_comm(f, n, path, t, relative);
    if (relative && !comm) return false;
    if (relative) {
        p.comm = comm;
        p.offset = value;
    } else {
        if (value >= t.ranks) {
            f.error(peer, field, fmt::format("a rank from 0 to {}", t.ranks - 1), describe_node(peer));
            return false;
        }
        p.peer = value;
    }
    auto bytes = read_size(f, n, path, "bytes", true);
    if (!bytes) return false;
    p.bytes = *bytes;
    return true;
}
}  // namespace

std::optional<OpDraft> read_op(YamlFields& f, const YAML::Node& node, const std::string& path, Trace& trace) {
    if (!f.expect_map(node, path)) return std::nullopt;
    f.check_keys(node, path,
                 {"name", "stream", "after", "duration", "flops", "bytes", "dtype", "flops_efficiency",
                  "memory_efficiency", "host", "collective", "comm", "split", "root", "send", "recv"});
    OpDraft d;
    TraceOp& op = d.op;
    op.where = f.at(node);
    const auto name = f.string(node, path, "name", true);
    if (name) op.name = *name;
    const int kinds = (node["collective"] ? 1 : 0) + (node["send"] ? 1 : 0) + (node["recv"] ? 1 : 0);
    if (kinds > 1) {
        f.error(node, path, "at most one of collective, send and recv", "several");
        return std::nullopt;
    }
    bool ok = name.has_value();
    if (node["collective"]) {
        op.kind = OpKind::collective;
        ok = read_collective(f, node, path, trace, op.collective) && ok;
    } else if (node["send"] || node["recv"]) {
        op.kind = node["send"] ? OpKind::send : OpKind::recv;
        ok = read_p2p(f, node, path, node["send"] ? "send" : "recv", trace, op.p2p) && ok;
    } else {
        op.kind = OpKind::compute;
        ok = read_compute(f, node, path, op.compute) && ok;
    }
    const auto stream = f.string(node, path, "stream", false);
    op.stream = trace.stream_index(stream ? *stream : op.kind == OpKind::compute ? "compute" : "comm");
    if (const YAML::Node after = node["after"]) {
        if (!f.expect_sequence(after, path + ".after")) return std::nullopt;
        for (std::size_t i = 0; i < after.size(); ++i) {
            if (!after[i].IsScalar()) {
                f.error(after[i], fmt::format("{}.after[{}]", path, i), "the name of an op", describe_node(after[i]));
                ok = false;
                continue;
            }
            d.after.push_back({after[i].Scalar(), f.at(after[i])});
        }
    }
    if (!ok) return std::nullopt;
    return d;
}

}  // namespace collsim
