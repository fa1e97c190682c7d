// The sweep's processes on a build with Open MPI (sweep_distributed.hpp).
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/sweep/sweep_distributed.hpp"

namespace collsim {

namespace {

// Rows and errors cross processes as length-prefixed strings in one buffer.
class Wire {
public:
    void put(uint64_t v) { buf_.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void put(const std::string& s) { put(static_cast<uint64_t>(s.size())), buf_ += s; }
    uint64_t u64() {
        uint64_t v = 0;
        std::memcpy(&v, buf_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string str() {
        const auto n = static_cast<std::size_t>(u64());
        std::string s = buf_.substr(at_, n);
        at_ += n;
        return s;
    }
    bool done() const { return at_ >= buf_.size(); }
    std::string& bytes() { return buf_; }

private:
    std::string buf_;
    std::size_t at_ = 0;
};

void put_error(Wire& w, const InputError& e) {
    w.put(e.where().file), w.put(static_cast<uint64_t>(e.where().line)), w.put(static_cast<uint64_t>(e.where().column));
    w.put(e.field()), w.put(e.expected()), w.put(e.found());
}

InputError get_error(Wire& w) {
    SourceLocation at;
    at.file = w.str();
    at.line = static_cast<int>(w.u64());
    at.column = static_cast<int>(w.u64());
    std::string field = w.str(), expected = w.str(), found = w.str();
    return InputError(at, field, expected, found);
}

bool launched_by_mpirun() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

}  // namespace

SweepProcesses sweep_processes() {
    static const SweepProcesses procs = [] {
        SweepProcesses p;
        if (!launched_by_mpirun()) return p;
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        std::atexit([] { MPI_Finalize(); });
        MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
        MPI_Comm_size(MPI_COMM_WORLD, &p.size);
        return p;
    }();
    return procs;
}

SweepRows run_distributed_sweep(const SweepSpec& spec, const std::vector<SweepPoint>& points, int jobs,
                                RunMonitor* monitor,
                                const std::function<void(const SweepPoint&, const std::vector<std::string>&)>& on_row,
                                const SweepProcesses& procs) {
    if (procs.size == 1) return run_sweep_points(spec, points, jobs, monitor, on_row);
    std::vector<SweepPoint> mine;
    for (std::size_t i = static_cast<std::size_t>(procs.rank); i < points.size(); i += static_cast<std::size_t>(procs.size))
        mine.push_back(points[i]);
    const auto nothing = [](const SweepPoint&, const std::vector<std::string>&) {};
    SweepRows rows;
    std::vector<InputError> errors;
    std::exception_ptr failure;
    try {
        rows = run_sweep_points(spec, mine, jobs, monitor, procs.rank == 0 ? on_row : nothing);
    } catch (const InputErrors& e) {
        errors = e.errors(), failure = std::current_exception();
    } catch (const InputError& e) {
        errors = {e}, failure = std::current_exception();
    }
    // Every process's rows and errors to rank 0: sizes first, then the bytes.
    Wire out;
    out.put(static_cast<uint64_t>(rows.stopped));
    out.put(static_cast<uint64_t>(errors.size()));
    for (const InputError& e : errors) put_error(out, e);
    for (const auto& [index, m] : rows.metrics) {
        out.put(static_cast<uint64_t>(index)), out.put(static_cast<uint64_t>(m.size()));
        for (const std::string& s : m) out.put(s);
    }
    const int size = static_cast<int>(out.bytes().size());
    std::vector<int> sizes(static_cast<std::size_t>(procs.size)), offsets(sizes.size());
    MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (procs.rank == 0) {
        int total = 0;
        for (std::size_t r = 0; r < sizes.size(); ++r) offsets[r] = total, total += sizes[r];
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(out.bytes().data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (procs.rank != 0) {
        if (failure) std::rethrow_exception(failure);
        return rows;
    }
    std::map<std::size_t, const SweepPoint*> by_index;
    for (const SweepPoint& p : points) by_index[p.index] = &p;
    // The errors of the lowest rank that failed (rank 0's own first).
    std::optional<std::vector<InputError>> first;
    for (std::size_t r = 1; r < sizes.size(); ++r) {
        Wire in;
        in.bytes() = all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r]));
        rows.stopped = rows.stopped || in.u64() != 0;
        std::vector<InputError> theirs;
        for (uint64_t n = in.u64(); n > 0; --n) theirs.push_back(get_error(in));
        if (!theirs.empty() && !first) first = std::move(theirs);
        while (!in.done()) {
            const auto index = static_cast<std::size_t>(in.u64());
            std::vector<std::string> m(static_cast<std::size_t>(in.u64()));
            for (std::string& s : m) s = in.str();
            on_row(*by_index.at(index), m);
            rows.metrics[index] = std::move(m);
        }
    }
    if (failure) std::rethrow_exception(failure);
    if (first) {
        if (first->size() == 1) throw first->front();
        throw InputErrors(*first);
    }
    return rows;
}

}  // namespace collsim
