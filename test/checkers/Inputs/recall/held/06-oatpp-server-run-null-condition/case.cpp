// Reduced from oatpp/oatpp at cc7ef1b2~1: src/oatpp/network/Server.hpp, Server.cpp
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace oatpp { namespace network {

using v_int32 = int;

struct IOStream {};

class ServerConnectionProvider {
public:
    virtual ~ServerConnectionProvider() = default;
    virtual std::shared_ptr<IOStream> get() = 0;
};

class ConnectionHandler {
public:
    virtual ~ConnectionHandler() = default;
    virtual void handleConnection(const std::shared_ptr<IOStream>& connection) = 0;
};

class Server {
private:
    static void mainLoop(Server* instance);
    void conditionalMainLoop();

    bool setStatus(v_int32 expectedStatus, v_int32 newStatus);
    void setStatus(v_int32 status);

    std::atomic<v_int32> m_status;
    std::function<bool()> m_condition;
    std::thread m_thread;
    std::mutex m_mutex;

    std::shared_ptr<ServerConnectionProvider> m_connectionProvider;
    std::shared_ptr<ConnectionHandler> m_connectionHandler;
    bool m_threaded;

public:
    static const v_int32 STATUS_CREATED = 0;
    static const v_int32 STATUS_STARTING = 1;
    static const v_int32 STATUS_RUNNING = 2;
    static const v_int32 STATUS_STOPPING = 3;
    static const v_int32 STATUS_DONE = 4;

    Server(const std::shared_ptr<ServerConnectionProvider>& connectionProvider,
           const std::shared_ptr<ConnectionHandler>& connectionHandler)
        : m_status(STATUS_CREATED)
        , m_connectionProvider(connectionProvider)
        , m_connectionHandler(connectionHandler)
        , m_threaded(false) {}

    virtual ~Server() { stop(); }

    /**
     * Call `ConnectionProvider::getConnection()` in the loop and pass obtained Connection to
     * ConnectionHandler. @param conditional - Function that is called every mainloop iteration
     * to check if the server should continue to run.
     */
    void run(std::function<bool()> conditional = nullptr);

    [[deprecated]] void run(bool startAsNewThread);

    void stop();
    v_int32 getStatus() { return m_status.load(); }
};

void Server::conditionalMainLoop() {
    setStatus(STATUS_STARTING, STATUS_RUNNING);

    while (getStatus() == STATUS_RUNNING) {
        if (m_condition()) { // RECALL: bug
            auto connection = m_connectionProvider->get();
            if (connection) {
                if (getStatus() == STATUS_RUNNING) {
                    if (m_condition()) { // RECALL: bug
                        m_connectionHandler->handleConnection(connection);
                    } else {
                        setStatus(STATUS_STOPPING);
                    }
                }
            }
        } else {
            setStatus(STATUS_STOPPING);
        }
    }
    setStatus(STATUS_DONE);
}

void Server::mainLoop(Server* instance) {
    instance->setStatus(STATUS_STARTING, STATUS_RUNNING);
    while (instance->getStatus() == STATUS_RUNNING) {
        auto connection = instance->m_connectionProvider->get();
        if (connection) {
            if (instance->getStatus() == STATUS_RUNNING) {
                instance->m_connectionHandler->handleConnection(connection);
            }
        }
    }
    instance->setStatus(STATUS_DONE);
}

void Server::run(std::function<bool()> conditional) {
    std::unique_lock<std::mutex> ul(m_mutex);
    switch (getStatus()) {
        case STATUS_STARTING:
            throw std::runtime_error("[oatpp::network::server::run()] Error. Server already starting");
        case STATUS_RUNNING:
            throw std::runtime_error("[oatpp::network::server::run()] Error. Server already started");
    }

    m_threaded = false;
    setStatus(STATUS_CREATED, STATUS_STARTING);

    m_condition = std::move(conditional);

    ul.unlock(); // early unlock
    conditionalMainLoop();
}

void Server::run(bool startAsNewThread) {
    std::unique_lock<std::mutex> ul(m_mutex);
    m_threaded = startAsNewThread;
    setStatus(STATUS_CREATED, STATUS_STARTING);
    if (m_threaded) {
        m_thread = std::thread(mainLoop, this);
    } else {
        ul.unlock();
        mainLoop(this);
    }
}

void Server::stop() {
    std::lock_guard<std::mutex> lg(m_mutex);
    switch (getStatus()) {
        case STATUS_CREATED:
            return;
        case STATUS_STARTING:
        case STATUS_RUNNING:
            setStatus(STATUS_STOPPING);
            break;
    }
    if (m_threaded && m_thread.joinable()) {
        m_thread.join();
    }
}

bool Server::setStatus(v_int32 expectedStatus, v_int32 newStatus) {
    v_int32 expected = expectedStatus;
    return m_status.compare_exchange_weak(expected, newStatus);
}

void Server::setStatus(v_int32 status) {
    m_status.store(status);
}

}} // namespace oatpp::network

// Typical application (from the report): plain run() after the update.
void runApp(const std::shared_ptr<oatpp::network::ServerConnectionProvider>& provider,
            const std::shared_ptr<oatpp::network::ConnectionHandler>& handler) {
    oatpp::network::Server server(provider, handler);
    server.run();
}
