#include "sim/validate/robust_loss.hpp"

#include <cmath>

namespace collsim {

double huber_residual(double r, double delta) {
    const double a = std::abs(r);
    if (a <= delta) return r;
    return std::copysign(std::sqrt(delta * (2 * a - delta)), r);
}

double huber_weight(double r, double delta) {
    const double a = std::abs(r);
    return a <= delta ? 1.0 : delta / a;
}

}  // namespace collsim
