// Reduced from EVerest/libocpp at 76ed3c5b~1: include/ocpp/v16/charge_point_impl.hpp,
// lib/ocpp/v16/charge_point_impl.cpp
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace ocpp {

enum class WebsocketCloseReason { Normal, GoingAway };

class Websocket {
public:
    void register_stopped_connecting_callback(const std::function<void(const WebsocketCloseReason reason)>& callback) {
        this->stopped_connecting_callback = callback;
    }
    void disconnect(WebsocketCloseReason reason);
    void start_connecting();
private:
    std::function<void(const WebsocketCloseReason)> stopped_connecting_callback;
};

namespace v16 {

enum class ConfigurationStatus { Accepted, Rejected, RebootRequired, NotSupported };

struct ChangeConfigurationRequest {
    std::string key;
    std::string value;
};

class ChargePointConfiguration {
public:
    ConfigurationStatus set(const std::string& key, const std::string& value);
    int32_t getConnectionTimeOut();
    int32_t getSecurityProfile();
};

class ChargePointImpl {
private:
    std::unique_ptr<ChargePointConfiguration> configuration;
    std::unique_ptr<Websocket> websocket;

    std::function<void()> switch_security_profile_callback;
    std::function<void(int32_t connection_timeout)> set_connection_timeout_callback;

    void init_websocket();
    void switchSecurityProfile(int32_t new_security_profile, int32_t max_connection_attempts);
    void connected_callback();
    void update_heartbeat_interval();

    /// \brief Calls the set_connection_timeout_callback that can be registered. This function is used to notify an
    /// Auth module about a changed ConnectionTimeout
    void call_set_connection_timeout();

    void handleChangeConfigurationRequest(const ChangeConfigurationRequest& call);

public:
    bool start();

    /// \brief registers a \p callback function that can be used to set the connection timeout.
    /// The set_connection_timeout_callback is called when the configuration key ConnectionTimeout has been changed by
    /// the CSMS
    void register_set_connection_timeout_callback(const std::function<void(int32_t connection_timeout)>& callback);
};

void ChargePointImpl::init_websocket() {
    this->websocket->register_stopped_connecting_callback([this](const WebsocketCloseReason reason) {
        (void)reason;
        if (this->switch_security_profile_callback != nullptr) {
            this->switch_security_profile_callback(); // RECALL: safe
        }
    });
}

void ChargePointImpl::call_set_connection_timeout() {
    if (this->set_connection_timeout_callback != nullptr) {
        this->set_connection_timeout_callback(this->configuration->getConnectionTimeOut()); // RECALL: safe
    }
}

bool ChargePointImpl::start() {
    this->init_websocket();
    this->websocket->start_connecting();
    this->call_set_connection_timeout();
    return true;
}

void ChargePointImpl::connected_callback() {
    this->switch_security_profile_callback = nullptr;
}

void ChargePointImpl::handleChangeConfigurationRequest(const ChangeConfigurationRequest& call) {
    ConfigurationStatus status = this->configuration->set(call.key, call.value);
    if (status == ConfigurationStatus::Accepted) {
        if (call.key == "HeartbeatInterval") {
            this->update_heartbeat_interval();
        } else if (call.key == "SecurityProfile") {
            int32_t security_profile = std::stoi(call.value);
            if (security_profile > this->configuration->getSecurityProfile() && security_profile <= 3) {
                this->switch_security_profile_callback = [this, security_profile]() {
                    this->switchSecurityProfile(security_profile, 1);
                };
                // disconnected_callback will trigger security_profile_callback when it is set
                this->websocket->disconnect(WebsocketCloseReason::Normal);
            }
        } else if (call.key == "ConnectionTimeout") {
            this->set_connection_timeout_callback(this->configuration->getConnectionTimeOut()); // RECALL: bug
        }
    }
}

void ChargePointImpl::register_set_connection_timeout_callback(
    const std::function<void(int32_t connection_timeout)>& callback) {
    this->set_connection_timeout_callback = callback;
}

} // namespace v16
} // namespace ocpp
