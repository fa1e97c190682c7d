#pragma once
// `--set PATH=VALUE`: what-if changes to a topology file's YAML tree, made
// after it is read and before it is validated, so one file answers "what if
// 2:1, 256 nodes, PCIe x8" without copies (issue 26).
//
// PATH walks the file: `fabrics.ib.oversubscription`, `nodes.count`,
// `devices[gpu0].memory_bandwidth`, `nodes[1].count`. A list's element is
// chosen by index (`[2]`) or by a glob over its identifying fields (name,
// template, prefix, device), in brackets or as the next name; a list of one
// element may be stepped through (`nodes.count`). `links[A--B].FIELD` (at the
// top or in a template) chooses the built links between devices matching A and
// B, in either order, and becomes an override appended to that body, so it
// reaches links that templates and fabrics generate.
//
// VALUE is YAML (`2:1`, `8`, `200Gb/s`, `[2:1, 1:1]`), checked by the normal
// validation; errors on set values, and on paths that match nothing, are
// placed at the setting (`--set #2 'nodes.count=0'`), not at a file line.
#include <string>
#include <vector>

#include "sim/core/yaml_fields.hpp"

namespace collsim {

// Applies `settings` in order to `root`, recording an error in `f` for each
// that cannot be applied and marking every node they add as placed at them.
void apply_topology_settings(YAML::Node root, const std::vector<std::string>& settings, YamlFields& f);

}  // namespace collsim
