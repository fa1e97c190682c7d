#pragma once
// Text helpers shared by the SVG charts collsim writes by hand (validate's
// bandwidth plots, sweep plots): no plotting library is needed for them.
#include <string>

namespace collsim {

// `s` safe inside SVG/XML text and attribute values.
std::string escape_xml(const std::string& s);
// A byte count on a power-of-1024 scale: 8, 64K, 1M, 1.5G.
std::string size_label(double bytes);
// A round grid step (1, 2, 2.5 or 5 times a power of ten) that cuts `span`
// into about five.
double nice_step(double span);

}  // namespace collsim
