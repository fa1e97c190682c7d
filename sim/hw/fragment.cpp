#include "sim/hw/fragment.hpp"

#include <fmt/format.h>

namespace collsim {

bool FragmentBuilder::add_device(Device d, const std::string& origin_path, const YAML::Node& node) {
    const DeviceId id = static_cast<DeviceId>(frag_.devices.size());
    auto [it, inserted] = ids_.emplace(d.name, id);
    if (!inserted) {
        const Device& first = frag_.devices[it->second];
        f_.error(node["name"] ? node["name"] : node, origin_path + ".name", "a device name not used before",
                 fmt::format("'{}', already declared at line {}", d.name, first.where.line));
        return false;
    }
    frag_.origin.push_back(static_cast<uint32_t>(frag_.origins.size()));
    frag_.origins.push_back(origin_path);
    frag_.devices.push_back(std::move(d));
    return true;
}

void FragmentBuilder::add_instance(const Fragment& t, const std::string& name, const std::string& template_name,
                                   const YAML::Node& node, const std::string& path) {
    const DeviceId base = static_cast<DeviceId>(frag_.devices.size());
    // A template's declaration paths are copied once, however many instances.
    auto [known, first_use] = origin_base_.emplace(&t, static_cast<uint32_t>(frag_.origins.size()));
    if (first_use) frag_.origins.insert(frag_.origins.end(), t.origins.begin(), t.origins.end());
    const uint32_t origin_base = known->second;
    // Template devices that clash with a name already here are dropped, and
    // so are the links that touch them; the error names the first clash.
    std::vector<DeviceId> new_id(t.devices.size(), UINT32_MAX);
    bool reported = false;
    for (std::size_t i = 0; i < t.devices.size(); ++i) {
        Device d = t.devices[i];
        d.name = name + "." + d.name;
        const DeviceId id = static_cast<DeviceId>(frag_.devices.size());
        auto [it, inserted] = ids_.emplace(d.name, id);
        if (!inserted) {
            if (!reported)
                f_.error(node, path, "an instance whose device names are not used before",
                         fmt::format("'{}', already declared at line {}", d.name,
                                     frag_.devices[it->second].where.line));
            reported = true;
            continue;
        }
        new_id[i] = id;
        frag_.origin.push_back(origin_base + t.origin[i]);
        frag_.devices.push_back(std::move(d));
    }
    for (const Link& l : t.links) {
        if (new_id[l.a] == UINT32_MAX || new_id[l.b] == UINT32_MAX) continue;
        Link copy = l;
        copy.a = new_id[l.a];
        copy.b = new_id[l.b];
        frag_.links.push_back(std::move(copy));
    }
    frag_.instances.push_back(
        Instance{name, template_name, base, static_cast<uint32_t>(frag_.devices.size() - base)});
}

std::optional<DeviceId> FragmentBuilder::find(std::string_view name) const {
    auto it = ids_.find(std::string(name));
    if (it == ids_.end()) return std::nullopt;
    return it->second;
}

std::vector<DeviceId> FragmentBuilder::match(const NameGlob& glob) const {
    std::vector<DeviceId> out;
    if (glob.literal()) {
        if (auto id = find(glob.pattern())) out.push_back(*id);
        return out;
    }
    for (DeviceId i = 0; i < frag_.devices.size(); ++i)
        if (glob.matches(frag_.devices[i].name)) out.push_back(i);
    return out;
}

}  // namespace collsim
