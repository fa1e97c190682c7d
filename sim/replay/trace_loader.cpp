#include "sim/replay/trace_loader.hpp"

#include "sim/core/text_file.hpp"
#include "sim/replay/trace_builder.hpp"

namespace collsim {

Trace parse_trace(const std::string& text, const std::string& name) {
    const YAML::Node root = load_yaml_text(text, name);
    YamlFields f(name);
    TraceBuilder b(name);
    if (!f.expect_map(root, "trace")) f.throw_if_errors();
    TraceBuilder::check_keys(f, root);
    b.read_header(f, root);
    b.read_programs(f, root);
    return b.finish(f, root);
}

Trace load_trace(const std::string& path) { return parse_trace(read_text_file(path), path); }

}  // namespace collsim
