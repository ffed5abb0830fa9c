// Reduced from ml-explore/mlx at 9a277a277~1: mlx/distributed/utils.h, utils.cpp,
// ring/ring.cpp, jaccl/jaccl.cpp
#include <cerrno>
#include <chrono>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern "C" int socket(int domain, int type, int protocol);
struct sockaddr;
extern "C" int connect(int fd, const sockaddr* addr, unsigned len);

namespace mlx::core::distributed::detail {

struct address_t {
    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(storage); }
    char storage[128];
    unsigned len;
};
address_t parse_address(const std::string& ip_port);

class TCPSocket {
public:
    TCPSocket(TCPSocket&& s) : sock_(s.sock_) { s.sock_ = -1; }
    int detach() { int s = sock_; sock_ = -1; return s; }

    static TCPSocket connect(
        const char* tag,
        const address_t& addr,
        int num_retries = 1,
        int wait = 0,
        std::function<void(int, int)> cb = nullptr);

private:
    explicit TCPSocket(int sock) : sock_(sock) {}
    int sock_;
};

TCPSocket TCPSocket::connect(
    const char* tag,
    const address_t& addr,
    int num_retries,
    int wait,
    std::function<void(int, int)> cb) {
    int sock, success;

    // Attempt to connect `num_retries` times with exponential backoff.
    for (int attempt = 0; attempt < num_retries; attempt++) {
        sock = socket(2 /*AF_INET*/, 1 /*SOCK_STREAM*/, 0);
        if (sock < 0) {
            std::ostringstream msg;
            msg << tag << " Couldn't create socket to connect (error: " << errno << ")";
            throw std::runtime_error(msg.str());
        }

        success = ::connect(sock, addr.get(), addr.len);
        if (success == 0) {
            break;
        }

        cb(attempt, wait); // RECALL: bug
        if (wait > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(wait));
        }

        wait <<= 1;
    }

    if (success < 0) {
        std::ostringstream msg;
        msg << tag << " Couldn't connect (error: " << errno << ")";
        throw std::runtime_error(msg.str());
    }

    return TCPSocket(sock);
}

} // namespace mlx::core::distributed::detail

namespace mlx::core::distributed::ring {

constexpr const char* RING_TAG = "[ring]";
constexpr int CONN_ATTEMPTS = 5;
constexpr int CONN_WAIT = 1000;

template <typename... T>
void log_info(bool verbose, T... args) {
    if (verbose) {
        ((std::cerr << args << " "), ...);
        std::cerr << std::endl;
    }
}

std::vector<int> make_connections(
    const std::vector<detail::address_t>& addresses,
    bool verbose) {
    std::vector<int> sockets;
    for (auto& address : addresses) {
        sockets.push_back(detail::TCPSocket::connect(
                              RING_TAG,
                              address,
                              CONN_ATTEMPTS,
                              CONN_WAIT,
                              [verbose](int attempt, int wait) {
                                  log_info(verbose, "Attempt", attempt, "waiting", wait,
                                           "ms (error:", errno, ")");
                              })
                              .detach());
    }
    return sockets;
}

} // namespace mlx::core::distributed::ring

// Client of the public detail API, as in the report's reproducer: uses the defaults.
int connect_side_channel() {
    using namespace mlx::core::distributed::detail;
    auto addr = parse_address("127.0.0.1:1");
    auto sock = TCPSocket::connect("repro", addr, /*num_retries=*/1, /*wait=*/0);
    return sock.detach();
}
