// Reading and validating an MSCCL algorithm file (see msccl_algorithm.hpp).
#include <charconv>

#include <fmt/format.h>

#include "algorithms/msccl/msccl_algorithm.hpp"
#include "sim/core/text_file.hpp"
#include "sim/core/xml_tree.hpp"

namespace collsim::msccl {

namespace {

class Fields {
public:
    void error(SourceLocation at, std::string field, std::string expected, std::string found) {
        errors_.emplace_back(std::move(at), std::move(field), std::move(expected), std::move(found));
    }
    std::optional<int> integer(const XmlElement& e, const char* name, bool required, int min, int max) {
        const XmlAttribute* a = e.attribute(name);
        const std::string field = e.name + "." + name;
        if (!a) {
            if (required) error(e.where, field, fmt::format("an integer from {} to {}", min, max), "no such attribute");
            return std::nullopt;
        }
        int v = 0;
        auto [end, ec] = std::from_chars(a->value.data(), a->value.data() + a->value.size(), v);
        if (ec != std::errc{} || end != a->value.data() + a->value.size() || v < min || v > max) {
            error(a->where, field, fmt::format("an integer from {} to {}", min, max), fmt::format("'{}'", a->value));
            return std::nullopt;
        }
        return v;
    }
    std::optional<std::string> text(const XmlElement& e, const char* name, bool required) {
        const XmlAttribute* a = e.attribute(name);
        if (!a && required) error(e.where, e.name + "." + name, "a value", "no such attribute");
        return a ? std::optional<std::string>(a->value) : std::nullopt;
    }
    void unknown_children(const XmlElement& e, std::string_view allowed) {
        for (const auto& c : e.children)
            if (c->name != allowed)
                error(c->where, e.name, fmt::format("<{}> elements inside <{}>", allowed, e.name), "<" + c->name + ">");
    }
    void throw_if_errors() {
        if (!errors_.empty()) throw InputErrors(std::move(errors_));
    }

private:
    std::vector<InputError> errors_;
};

std::optional<CollOp> coll_from(const std::string& s) {
    if (s == "reduce_scatter") return CollOp::reducescatter;
    if (s == "all_to_all") return CollOp::alltoall;
    if (s == "allgather" || s == "allreduce" || s == "reducescatter" || s == "alltoall" || s == "broadcast" ||
        s == "reduce")
        return coll_op_from(s);
    return std::nullopt;
}

std::optional<StepType> step_type_from(const std::string& s) {
    static const std::pair<const char*, StepType> kTypes[] = {
        {"s", StepType::s},       {"r", StepType::r},       {"rrc", StepType::rrc}, {"rcs", StepType::rcs},
        {"rrs", StepType::rrs},   {"rrcs", StepType::rrcs}, {"re", StepType::re},   {"cpy", StepType::cpy},
        {"nop", StepType::nop}};
    for (const auto& [name, t] : kTypes)
        if (s == name) return t;
    return std::nullopt;
}

MscclStep read_step(Fields& f, const XmlElement& e, int index, const MscclGpu& gpu) {
    MscclStep st;
    st.where = e.where;
    if (auto s = f.integer(e, "s", true, 0, 1 << 30); s && *s != index)
        f.error(e.attribute("s")->where, "step.s", fmt::format("{} (steps numbered in order from 0)", index),
                fmt::format("'{}'", *s));
    if (auto t = f.text(e, "type", true)) {
        if (auto k = step_type_from(*t)) st.type = *k;
        else f.error(e.attribute("type")->where, "step.type", "one of s, r, rrc, rcs, rrs, rrcs, re, cpy, nop", "'" + *t + "'");
    }
    // A nop only waits: its buffers and count are not used (files write -1 and 0).
    const bool nop = st.type == StepType::nop;
    st.cnt = nop ? 0 : f.integer(e, "cnt", true, 1, 1 << 20).value_or(1);
    st.depid = f.integer(e, "depid", false, -1, 1 << 20).value_or(-1);
    st.deps = f.integer(e, "deps", false, -1, 1 << 30).value_or(-1);
    for (const char* which : {"src", "dst"}) {
        if (nop) break;
        const std::string buf_name = std::string(which) + "buf", off_name = std::string(which) + "off";
        auto buf = f.text(e, buf_name.c_str(), true);
        auto off = f.integer(e, off_name.c_str(), true, 0, 1 << 30);
        if (!buf || !off) continue;
        const int size = *buf == "i" ? gpu.i_chunks : *buf == "o" ? gpu.o_chunks : *buf == "s" ? gpu.s_chunks : -1;
        if (size < 0) {
            f.error(e.attribute(buf_name.c_str())->where, "step." + buf_name, "one of i, o, s", "'" + *buf + "'");
            continue;
        }
        (which[0] == 's' ? st.srcbuf : st.dstbuf) = (*buf)[0];
        (which[0] == 's' ? st.srcoff : st.dstoff) = *off;
        if (*off + st.cnt > size)
            f.error(e.attribute(off_name.c_str())->where, "step." + off_name,
                    fmt::format("chunks within buffer {} of gpu {} ({} chunks)", *buf, gpu.id, size),
                    fmt::format("{} to {}", *off, *off + st.cnt - 1));
    }
    return st;
}

MscclAlgorithm build(const XmlElement& root, const std::string& file) {
    Fields f;
    MscclAlgorithm a;
    a.file = file;
    if (root.name != "algo") {
        f.error(root.where, "algo", "an <algo> root element", "<" + root.name + ">");
        f.throw_if_errors();
    }
    a.name = f.text(root, "name", false).value_or("");
    a.ngpus = f.integer(root, "ngpus", true, 1, 1 << 20).value_or(0);
    if (a.ngpus == 0) f.throw_if_errors();  // the gpus below are checked against it
    a.nchannels = f.integer(root, "nchannels", true, 1, 64).value_or(1);
    a.nchunksperloop = f.integer(root, "nchunksperloop", true, 1, 1 << 20).value_or(1);
    a.inplace = f.integer(root, "inplace", false, 0, 1).value_or(0) == 1;
    if (auto coll = f.text(root, "coll", true)) {
        if (auto op = coll_from(*coll)) a.op = *op;
        else f.error(root.attribute("coll")->where, "algo.coll",
                     "one of allreduce, allgather, reduce_scatter, alltoall, broadcast, reduce", "'" + *coll + "'");
    }
    if (auto proto = f.text(root, "proto", true)) {
        if (auto p = proto_kind_from(*proto)) a.proto = *p;
        else f.error(root.attribute("proto")->where, "algo.proto", "one of LL, LL128, Simple", "'" + *proto + "'");
    }
    f.unknown_children(root, "gpu");
    a.gpus.resize(static_cast<std::size_t>(a.ngpus));
    std::vector<const XmlElement*> seen(a.gpus.size(), nullptr);
    for (const auto& ge : root.children) {
        if (ge->name != "gpu") continue;
        auto id = f.integer(*ge, "id", true, 0, std::max(0, a.ngpus - 1));
        if (!id) continue;
        if (seen[static_cast<std::size_t>(*id)]) {
            f.error(ge->attribute("id")->where, "gpu.id", "each gpu once",
                    fmt::format("{} again (first at line {})", *id, seen[static_cast<std::size_t>(*id)]->where.line));
            continue;
        }
        seen[static_cast<std::size_t>(*id)] = ge.get();
        MscclGpu& g = a.gpus[static_cast<std::size_t>(*id)];
        g.id = *id;
        g.where = ge->where;
        g.i_chunks = f.integer(*ge, "i_chunks", true, 0, 1 << 20).value_or(0);
        g.o_chunks = f.integer(*ge, "o_chunks", true, 0, 1 << 20).value_or(0);
        g.s_chunks = f.integer(*ge, "s_chunks", true, 0, 1 << 20).value_or(0);
        f.unknown_children(*ge, "tb");
        for (const auto& te : ge->children) {
            if (te->name != "tb") continue;
            MscclBlock b;
            b.where = te->where;
            b.id = f.integer(*te, "id", true, 0, 1 << 20).value_or(0);
            b.send = f.integer(*te, "send", true, -1, a.ngpus - 1).value_or(-1);
            b.recv = f.integer(*te, "recv", true, -1, a.ngpus - 1).value_or(-1);
            b.chan = f.integer(*te, "chan", true, 0, a.nchannels - 1).value_or(0);
            f.unknown_children(*te, "step");
            for (const auto& se : te->children)
                if (se->name == "step") b.steps.push_back(read_step(f, *se, static_cast<int>(b.steps.size()), g));
            for (const MscclStep& st : b.steps) {
                const bool sends = st.type == StepType::s || st.type == StepType::rcs || st.type == StepType::rrs ||
                                   st.type == StepType::rrcs;
                const bool receives = st.type == StepType::r || st.type == StepType::rrc || st.type == StepType::rcs ||
                                      st.type == StepType::rrs || st.type == StepType::rrcs;
                if (sends && b.send < 0) f.error(st.where, "step.type", "a step that does not send (tb send=\"-1\")", "a send");
                if (receives && b.recv < 0)
                    f.error(st.where, "step.type", "a step that does not receive (tb recv=\"-1\")", "a receive");
            }
            g.blocks.push_back(std::move(b));
        }
    }
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (!seen[i]) f.error(root.where, "algo.ngpus", fmt::format("a <gpu id=\"{}\"> for each of the {} gpus", i, a.ngpus), "none");
    for (std::size_t gi = 0; gi < a.gpus.size(); ++gi) {
        if (!seen[gi]) continue;
        const MscclGpu& g = a.gpus[gi];
        const MscclGpu& g0 = a.gpus[0];
        if (g.i_chunks != g0.i_chunks || g.o_chunks != g0.o_chunks)
            f.error(g.where, "gpu.i_chunks", fmt::format("the same buffers on every gpu (gpu 0: i_chunks {} o_chunks {})",
                                                         g0.i_chunks, g0.o_chunks),
                    fmt::format("i_chunks {} o_chunks {}", g.i_chunks, g.o_chunks));
        for (const MscclBlock& b : g.blocks)
            for (const MscclStep& st : b.steps) {
                if (st.depid < 0) continue;
                const MscclBlock* target = nullptr;
                for (const MscclBlock& other : g.blocks) target = other.id == st.depid ? &other : target;
                if (!target || st.deps < 0 || st.deps >= static_cast<int>(target->steps.size()))
                    f.error(st.where, "step.depid", fmt::format("a step of a thread block of gpu {}", g.id),
                            fmt::format("tb {} step {}", st.depid, st.deps));
            }
    }
    f.throw_if_errors();
    return a;
}

}  // namespace

MscclAlgorithm parse_msccl(const std::string& text, const std::string& name) {
    MscclAlgorithm a = build(*parse_xml(text, name), name);
    msccl_schedule(a, Bytes(int64_t{1} << 20));  // sends and receives must match
    return a;
}

MscclAlgorithm load_msccl(const std::string& path) { return parse_msccl(read_text_file(path), path); }

}  // namespace collsim::msccl
