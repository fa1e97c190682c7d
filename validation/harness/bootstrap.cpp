#include "bootstrap.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace harness {

namespace {

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

void send_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t k = ::send(fd, p, n, 0);
        if (k <= 0) throw std::runtime_error("rendezvous: send failed");
        p += k, n -= static_cast<std::size_t>(k);
    }
}

void recv_all(int fd, void* data, std::size_t n) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
        const ssize_t k = ::recv(fd, p, n, 0);
        if (k <= 0) throw std::runtime_error("rendezvous: connection closed");
        p += k, n -= static_cast<std::size_t>(k);
    }
}

void send_blob(int fd, const std::string& s) {
    const uint32_t n = htonl(static_cast<uint32_t>(s.size()));
    send_all(fd, &n, sizeof n);
    send_all(fd, s.data(), s.size());
}

std::string recv_blob(int fd) {
    uint32_t n = 0;
    recv_all(fd, &n, sizeof n);
    std::string s(ntohl(n), '\0');
    recv_all(fd, s.data(), s.size());
    return s;
}

}  // namespace

Placement placement_from_env() {
    Placement p;
    // Open MPI, then MPICH/Intel MPI (PMI), then Slurm, then torchrun.
    const char* sets[][3] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
                             {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
                             {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
                             {"RANK", "WORLD_SIZE", "LOCAL_RANK"}};
    for (const auto& s : sets) {
        if (!std::getenv(s[0]) || !std::getenv(s[1])) continue;
        p.rank = env_int(s[0], 0);
        p.size = env_int(s[1], 1);
        p.local_rank = env_int(s[2], 0);
        p.launched = p.size > 1;
        break;
    }
    return p;
}

Rendezvous::Rendezvous(const Placement& p, int timeout_s) : p_(p) {
    if (p.size <= 1) return;
    const char* addr = std::getenv("MASTER_ADDR");
    const int port = env_int("MASTER_PORT", 29500);
    if (!addr) throw std::runtime_error("set MASTER_ADDR (and MASTER_PORT) to rank 0's host for the rendezvous");
    if (p.rank == 0) {
        listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        a.sin_port = htons(static_cast<uint16_t>(port));
        if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, p.size) != 0)
            throw std::runtime_error("rendezvous: cannot listen on MASTER_PORT " + std::to_string(port));
        peers_.assign(static_cast<std::size_t>(p.size), -1);
        for (int i = 1; i < p.size; ++i) {
            const int fd = ::accept(listen_fd_, nullptr, nullptr);
            if (fd < 0) throw std::runtime_error("rendezvous: accept failed");
            int32_t rank = 0;
            recv_all(fd, &rank, sizeof rank);
            rank = static_cast<int32_t>(ntohl(static_cast<uint32_t>(rank)));
            if (rank <= 0 || rank >= p.size || peers_[static_cast<std::size_t>(rank)] >= 0)
                throw std::runtime_error("rendezvous: unexpected rank " + std::to_string(rank));
            peers_[static_cast<std::size_t>(rank)] = fd;
        }
        return;
    }
    addrinfo hints{}, *res = nullptr;
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    if (::getaddrinfo(addr, std::to_string(port).c_str(), &hints, &res) != 0 || !res)
        throw std::runtime_error(std::string("rendezvous: cannot resolve MASTER_ADDR ") + addr);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    int fd = -1;
    while (true) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (::connect(fd, res->ai_addr, res->ai_addrlen) == 0) break;
        ::close(fd);
        if (std::chrono::steady_clock::now() > deadline) {
            ::freeaddrinfo(res);
            throw std::runtime_error("rendezvous: rank 0 did not answer at MASTER_ADDR:MASTER_PORT");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ::freeaddrinfo(res);
    const int32_t me = static_cast<int32_t>(htonl(static_cast<uint32_t>(p.rank)));
    send_all(fd, &me, sizeof me);
    peers_ = {fd};
}

Rendezvous::~Rendezvous() {
    for (int fd : peers_)
        if (fd >= 0) ::close(fd);
    if (listen_fd_ >= 0) ::close(listen_fd_);
}

void Rendezvous::broadcast(std::vector<char>& bytes) {
    if (p_.size <= 1) return;
    if (p_.rank == 0) {
        for (int i = 1; i < p_.size; ++i) send_blob(peers_[static_cast<std::size_t>(i)], std::string(bytes.begin(), bytes.end()));
    } else {
        const std::string s = recv_blob(peers_[0]);
        bytes.assign(s.begin(), s.end());
    }
}

std::vector<std::string> Rendezvous::gather(const std::string& line) {
    if (p_.size <= 1) return {line};
    if (p_.rank != 0) {
        send_blob(peers_[0], line);
        return {};
    }
    std::vector<std::string> out{line};
    for (int i = 1; i < p_.size; ++i) out.push_back(recv_blob(peers_[static_cast<std::size_t>(i)]));
    return out;
}

}  // namespace harness
