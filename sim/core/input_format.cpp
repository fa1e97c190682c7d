#include "sim/core/input_format.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace collsim {

namespace {

// Text (YAML, JSON, CSV, logs) holds no C0 control byte but tab, line feed,
// vertical tab, form feed and carriage return, and no DEL.
bool is_control(unsigned char c) { return c < 0x09 || (c > 0x0d && c < 0x20) || c == 0x7f; }

// A Chakra ET file opens with a varint length and a GlobalMetadata message,
// whose first field is `version` (1) or `attr` (2), both length-delimited:
// tag byte 0x0a or 0x12 (Chakra's schema/protobuf/et_def.proto; protobuf's
// wire format). Text never holds the control bytes that lengths below 32
// and varint continuation bytes are, so one of them in the first bytes is
// required too.
bool looks_like_chakra_et(std::string_view head) {
    uint64_t length = 0;
    std::size_t i = 0;
    for (int shift = 0; i < head.size() && shift < 35; shift += 7) {
        const auto b = static_cast<unsigned char>(head[i++]);
        length |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (b < 0x80) break;
    }
    if (i == 0 || i >= head.size()) return false;
    const auto tag = static_cast<unsigned char>(head[i]);
    if (length != 0 && tag != 0x0a && tag != 0x12) return false;
    for (std::size_t k = 0; k < head.size() && k < 16; ++k)
        if (is_control(static_cast<unsigned char>(head[k])) || static_cast<unsigned char>(head[k]) >= 0x80) return true;
    return false;
}

// The first element's name, past a byte-order mark, the XML declaration,
// comments and DOCTYPE; empty when the text does not start like XML. A name
// must start with a letter, so YAML's merge key "<<:" is not XML.
std::string_view root_element(std::string_view t) {
    if (t.starts_with("\xEF\xBB\xBF")) t.remove_prefix(3);
    for (;;) {
        const std::size_t at = t.find_first_not_of(" \t\r\n");
        if (at == std::string_view::npos || t[at] != '<') return {};
        t.remove_prefix(at);
        const std::string_view end = t.starts_with("<!--") ? "-->"
                                     : (t.starts_with("<?") || t.starts_with("<!")) ? ">"
                                                                                     : "";
        if (end.empty()) break;
        const std::size_t close = t.find(end);
        // A file cut inside its header comment is still XML; which kind, its
        // reader will say (and where the comment starts).
        if (close == std::string_view::npos) return "?";
        t.remove_prefix(close + end.size());
    }
    t.remove_prefix(1);
    if (t.empty() || !((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z'))) return {};
    return t.substr(0, t.find_first_of(" \t\r\n/>"));
}

std::string_view advice(InputFormat f) {
    switch (f) {
        case InputFormat::gzip: return "unpack it first (gunzip)";
        case InputFormat::zstd: return "unpack it first (zstd -d)";
        case InputFormat::xz: return "unpack it first (xz -d)";
        case InputFormat::bzip2: return "unpack it first (bunzip2)";
        case InputFormat::zip: return "unpack it first (unzip) and give one of its files, or its folder";
        case InputFormat::tar: return "unpack it first (tar -xf) and give one of its files, or its folder";
        case InputFormat::seven_zip: return "unpack it first (7z x)";
        case InputFormat::chakra_et: return "give it to `collsim replay --trace`";
        case InputFormat::nccl_topology_xml: return "use `collsim topo import` to convert it";
        case InputFormat::msccl_xml: return "give it to `collsim coll --algo-file`";
        default: return "";
    }
}
}  // namespace

InputFormat sniff_input_format(std::string_view head) {
    const std::string_view magic = head.substr(0, 1024);
    if (magic.starts_with("\x1f\x8b")) return InputFormat::gzip;
    if (magic.starts_with("\x28\xb5\x2f\xfd")) return InputFormat::zstd;
    if (magic.starts_with(std::string_view("\xfd" "7zXZ\0", 6))) return InputFormat::xz;
    if (magic.starts_with("BZh") && magic.size() > 3 && magic[3] >= '1' && magic[3] <= '9') return InputFormat::bzip2;
    if (magic.starts_with("PK\x03\x04") || magic.starts_with("PK\x05\x06")) return InputFormat::zip;
    if (magic.starts_with("7z\xbc\xaf\x27\x1c")) return InputFormat::seven_zip;
    // POSIX tar puts its magic "ustar" at byte 257 of the first header.
    if (magic.size() >= 262 && magic.substr(257, 5) == "ustar") return InputFormat::tar;
    if (looks_like_chakra_et(magic)) return InputFormat::chakra_et;
    if (const std::string_view root = root_element(head); !root.empty())
        return root == "system" ? InputFormat::nccl_topology_xml
               : root == "algo" ? InputFormat::msccl_xml
                                : InputFormat::xml;
    if (std::any_of(magic.begin(), magic.end(), [](char c) { return is_control(static_cast<unsigned char>(c)); }))
        return InputFormat::binary;
    return InputFormat::text;
}

std::string_view format_name(InputFormat f) {
    switch (f) {
        case InputFormat::text: return "text";
        case InputFormat::gzip: return "a gzip-compressed file";
        case InputFormat::zstd: return "a zstd-compressed file";
        case InputFormat::xz: return "an xz-compressed file";
        case InputFormat::bzip2: return "a bzip2-compressed file";
        case InputFormat::zip: return "a zip archive";
        case InputFormat::tar: return "a tar archive";
        case InputFormat::seven_zip: return "a 7-Zip archive";
        case InputFormat::chakra_et: return "a Chakra ET protobuf";
        case InputFormat::nccl_topology_xml: return "NCCL topology XML";
        case InputFormat::msccl_xml: return "an MSCCL algorithm (XML)";
        case InputFormat::xml: return "an XML document";
        case InputFormat::binary: return "binary data, not text";
    }
    return "an unknown format";
}

void refuse_foreign_format(std::string_view text, const std::string& file, const std::string& expected,
                           const std::string& field) {
    const InputFormat f = sniff_input_format(text);
    if (f == InputFormat::text) return;
    const std::string_view what = advice(f);
    throw InputError(SourceLocation{file, 1, 1}, field, expected,
                     fmt::format("this is {}{}{}", format_name(f), what.empty() ? "" : ": ", what));
}

}  // namespace collsim
