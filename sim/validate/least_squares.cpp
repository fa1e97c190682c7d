#include "sim/validate/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace collsim {

namespace {

double sum_squares(const std::vector<double>& r) {
    double s = 0;
    for (double v : r) s += v * v;
    return s;
}

// Solves A x = b for a small dense symmetric positive definite A (Gaussian
// elimination with partial pivoting); nullopt if A is singular.
std::optional<std::vector<double>> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
    const std::size_t n = b.size();
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
        if (std::abs(a[pivot][c]) < 1e-300) return std::nullopt;
        std::swap(a[c], a[pivot]);
        std::swap(b[c], b[pivot]);
        for (std::size_t r = c + 1; r < n; ++r) {
            const double k = a[r][c] / a[c][c];
            for (std::size_t j = c; j < n; ++j) a[r][j] -= k * a[c][j];
            b[r] -= k * b[c];
        }
    }
    std::vector<double> x(n);
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t j = i + 1; j < n; ++j) s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return x;
}

}  // namespace

LeastSquaresResult least_squares(const Residuals& data, const std::vector<BoxParameter>& params, int max_iterations) {
    const std::size_t n = params.size();
    std::size_t data_rows = 0;
    const auto f = [&](const std::vector<double>& x) {
        std::vector<double> r = data(x);
        data_rows = r.size();
        for (std::size_t i = 0; i < n; ++i)
            if (params[i].prior_sd > 0) r.push_back((x[i] - params[i].start) / params[i].prior_sd);
        return r;
    };
    LeastSquaresResult res;
    res.x.resize(n);
    for (std::size_t i = 0; i < n; ++i) res.x[i] = std::clamp(params[i].start, params[i].lo, params[i].hi);
    res.active.assign(n, true);
    for (std::size_t i = 0; i < n; ++i) res.active[i] = params[i].lo < params[i].hi;  // boxed to one value: fixed
    std::vector<double> r = f(res.x);
    ++res.evaluations;
    res.cost = res.start_cost = sum_squares(r);
    double lambda = 1e-3;
    // jac[i][k] = d r_k / d x_i. Computed by finite differences at the start
    // and after a failed step; between, Broyden's rank-one update keeps it
    // close for the cost of no extra evaluation (each one is a batch of
    // simulations).
    std::vector<std::vector<double>> jac(n, std::vector<double>(r.size(), 0.0));
    auto differentiate = [&](bool first) {
        for (std::size_t i = 0; i < n; ++i) {
            if (!res.active[i]) continue;
            std::vector<double> x = res.x;
            // Forward differences, stepping backwards at an upper bound.
            const double h = x[i] + params[i].step <= params[i].hi ? params[i].step : -params[i].step;
            x[i] += h;
            const std::vector<double> ri = f(x);
            ++res.evaluations;
            bool moved = false;
            for (std::size_t k = 0; k < r.size(); ++k) {
                jac[i][k] = (ri[k] - r[k]) / h;
                moved = moved || (k < data_rows && jac[i][k] != 0.0);
            }
            // Parameters the data cannot see stay where they started.
            if (first && !moved) res.active[i] = false;
        }
    };
    differentiate(true);
    bool fresh = true, refreshed = false;
    for (int it = 0; it < max_iterations; ++it) {
        res.iterations = it + 1;
        // Parameters the data sees, less those pinned at a bound that the
        // descent direction (-J^T r) pushes against: stepping them would be
        // clipped away and spoil the others' step.
        std::vector<std::size_t> live;
        for (std::size_t i = 0; i < n; ++i) {
            if (!res.active[i]) continue;
            double descent = 0;
            for (std::size_t k = 0; k < r.size(); ++k) descent -= jac[i][k] * r[k];
            const bool pinned = (res.x[i] >= params[i].hi && descent > 0) || (res.x[i] <= params[i].lo && descent < 0);
            if (!pinned) live.push_back(i);
        }
        if (live.empty()) break;
        const std::size_t m = live.size();
        std::vector<std::vector<double>> jtj(m, std::vector<double>(m, 0.0));
        std::vector<double> jtr(m, 0.0);
        for (std::size_t a = 0; a < m; ++a) {
            for (std::size_t b = 0; b < m; ++b)
                for (std::size_t k = 0; k < r.size(); ++k) jtj[a][b] += jac[live[a]][k] * jac[live[b]][k];
            for (std::size_t k = 0; k < r.size(); ++k) jtr[a] -= jac[live[a]][k] * r[k];
        }
        bool improved = false;
        for (int attempt = 0; attempt < (fresh ? 8 : 2) && !improved; ++attempt) {
            auto damped = jtj;
            for (std::size_t a = 0; a < m; ++a) damped[a][a] += lambda * std::max(jtj[a][a], 1e-12);
            const auto delta = solve(damped, jtr);
            if (!delta) {
                lambda *= 10;
                continue;
            }
            std::vector<double> x = res.x;
            for (std::size_t a = 0; a < m; ++a) {
                const std::size_t i = live[a];
                x[i] = std::clamp(x[i] + (*delta)[a], params[i].lo, params[i].hi);
            }
            const std::vector<double> rx = f(x);
            ++res.evaluations;
            const double cost = sum_squares(rx);
            if (cost < res.cost) {
                const double gain = (res.cost - cost) / std::max(res.cost, 1e-300);
                // Broyden: J += (dr - J dx) dx^T / (dx^T dx), over the step actually taken.
                double dxdx = 0;
                std::vector<double> dx(n, 0.0);
                for (std::size_t i = 0; i < n; ++i) dx[i] = x[i] - res.x[i], dxdx += dx[i] * dx[i];
                if (dxdx > 0)
                    for (std::size_t k = 0; k < r.size(); ++k) {
                        double predicted = 0;
                        for (std::size_t i = 0; i < n; ++i) predicted += jac[i][k] * dx[i];
                        const double miss = (rx[k] - r[k]) - predicted;
                        for (std::size_t i = 0; i < n; ++i)
                            if (res.active[i]) jac[i][k] += miss * dx[i] / dxdx;
                    }
                res.x = x;
                r = rx;
                res.cost = cost;
                lambda = std::max(lambda / 3, 1e-9);
                improved = true;
                // A 0.1% gain in the sum of squared log errors no longer moves any reported error.
                if (gain < 1e-3) return res;
            } else {
                lambda *= 4;
            }
        }
        if (improved) {
            fresh = false;
        } else if (fresh || refreshed) {
            // Even exact derivatives find no better point, or they were
            // already recomputed once: each recomputation costs a batch of
            // simulations per parameter, more than the last digits are worth.
            break;
        } else {
            differentiate(false);
            fresh = refreshed = true;
        }
    }
    return res;
}

}  // namespace collsim
