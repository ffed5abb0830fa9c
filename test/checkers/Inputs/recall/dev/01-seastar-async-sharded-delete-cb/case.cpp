// Reduced from seastar core/sharded.hh (as vendored in scylla, 2015) and
// scylla message/messaging_service.cc.
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace seastar {

template <typename T>
class sharded;

// If a sharded service inherits from this class sharded::stop() will wait
// until all references to a service on each shard disappear.
template <typename T>
class async_sharded_service : public std::enable_shared_from_this<T> {
protected:
    std::function<void()> _delete_cb;
    virtual ~async_sharded_service() {
        _delete_cb(); // RECALL: bug
    }
    template <typename Service> friend class sharded;
};

struct promise_void {
    bool set = false;
    void set_value() { set = true; }
};

template <typename Service>
class sharded {
    struct entry {
        std::shared_ptr<Service> service;
        promise_void freed;
    };
    std::vector<entry> _instances;
    unsigned _cpu = 0;

    void service_deleted() { _instances[_cpu].freed.set_value(); }

    void track_deletion(std::shared_ptr<Service>&, std::false_type) {
        service_deleted();
    }
    void track_deletion(std::shared_ptr<Service>& s, std::true_type) {
        s->_delete_cb = std::bind(std::mem_fn(&sharded<Service>::service_deleted), this);
    }

    template <typename... Args>
    std::shared_ptr<Service> create_local_service(Args&&... args) {
        // If Service's constructor throws, the base-class destructor of
        // async_sharded_service runs before track_deletion() ever set _delete_cb.
        auto s = std::make_shared<Service>(std::forward<Args>(args)...);
        track_deletion(s, std::is_base_of<async_sharded_service<Service>, Service>());
        return s;
    }

public:
    template <typename... Args>
    void start(Args&&... args) {
        _instances.resize(1);
        _instances[_cpu].service = create_local_service(std::forward<Args>(args)...);
    }

    void invoke_on_all(std::function<void(Service&)> func) {
        for (auto& e : _instances) {
            if (e.service) {
                func(*e.service); // RECALL: safe
            }
        }
    }

    template <typename... Args>
    void invoke_on_all(void (Service::*func)(Args...), Args... args) {
        invoke_on_all(std::function<void(Service&)>([func, args...](Service& service) mutable {
            (service.*func)(args...); // RECALL: safe
        }));
    }

    void stop() {
        for (auto& e : _instances) {
            e.service = nullptr; // last reference: ~async_sharded_service -> _delete_cb
        }
        _instances.clear();
    }
};

} // namespace seastar

namespace net {

struct inet_address { std::string addr; };

struct rpc_server {
    explicit rpc_server(const inet_address& ip) {
        if (ip.addr.empty()) {
            throw std::runtime_error("bind: Address already in use");
        }
    }
};

class messaging_service : public seastar::async_sharded_service<messaging_service> {
    inet_address _listen_address;
    std::unique_ptr<rpc_server> _server;
public:
    explicit messaging_service(inet_address ip)
        : _listen_address(ip)
        , _server(new rpc_server(ip)) {   // throws when the port can't be bound
    }
    void stop_tls() {}
};

seastar::sharded<messaging_service> _the_messaging_service;

void init_messaging_service(inet_address ip) {
    _the_messaging_service.start(ip);
    _the_messaging_service.invoke_on_all(&messaging_service::stop_tls);
}

} // namespace net
