#pragma once
// A topology under construction: the devices and links of one file or one
// node template, with names resolved to ids. Templates are expanded once into
// a Fragment and then copied per instance, so a 16,384-node cluster parses its
// node description once.
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/yaml_fields.hpp"
#include "sim/hw/name_glob.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

struct Fragment {
    std::vector<Device> devices;
    std::vector<Link> links;
    // Per device, the index into `origins` of the YAML path that declared it
    // (one entry per declaration, shared by every instance of a template).
    std::vector<uint32_t> origin;
    std::vector<std::string> origins;
    std::vector<Instance> instances;
    std::vector<FabricInfo> fabrics;
};

// Adds devices and links to a Fragment while keeping a name index, and
// records duplicate names as located errors.
class FragmentBuilder {
public:
    explicit FragmentBuilder(YamlFields& f) : f_(f) {}

    // Adds a device declared at YAML path `origin_path` (node: where to report
    // a duplicate). Returns false if the name was already used.
    bool add_device(Device d, const std::string& origin_path, const YAML::Node& node);
    void add_link(Link l) { frag_.links.push_back(std::move(l)); }
    // Copies `t` in as instance `name` of template `template_name`; its
    // devices are renamed `<name>.<device>`.
    void add_instance(const Fragment& t, const std::string& name, const std::string& template_name,
                      const YAML::Node& node, const std::string& path);
    void add_fabric(FabricInfo info) { frag_.fabrics.push_back(std::move(info)); }

    std::optional<DeviceId> find(std::string_view name) const;
    // Devices whose names match, in id order.
    std::vector<DeviceId> match(const NameGlob& glob) const;
    const Device& device(DeviceId id) const { return frag_.devices[id]; }
    Device& device(DeviceId id) { return frag_.devices[id]; }
    std::size_t device_count() const { return frag_.devices.size(); }
    std::vector<Link>& links() { return frag_.links; }
    const std::string& origin_of(DeviceId id) const { return frag_.origins[frag_.origin[id]]; }

    Fragment take() { return std::move(frag_); }

private:
    YamlFields& f_;
    Fragment frag_;
    std::unordered_map<std::string, DeviceId> ids_;
    std::map<const Fragment*, uint32_t> origin_base_;
};

}  // namespace collsim
