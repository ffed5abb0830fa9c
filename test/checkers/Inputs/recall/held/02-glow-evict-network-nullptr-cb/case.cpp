// Reduced from pytorch/glow at 9b20efd18~1: include/glow/Backends/DeviceManager.h,
// QueueBackedDeviceManager.h, lib/Backends/CPU/CPUDeviceManager.cpp,
// lib/Backends/Habana/HabanaDeviceManager.cpp, lib/Runtime/HostManager/HostManager.cpp
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace glow {

struct Error {
    std::string msg;
    static Error success() { return Error{}; }
};
inline Error MAKE_ERR(const std::string& m) { return Error{m}; }

namespace runtime {

using EvictFunctionCBTy = std::function<void(std::string functionName, Error)>;

class DeviceManager {
public:
    virtual ~DeviceManager() = default;
    /// Remove (and delete) the provided network and all its functions.
    /// \p evictCB will be called when the operation is completed or failed.
    virtual void evictNetwork(std::string functionName, EvictFunctionCBTy evictCB) = 0;
    virtual Error stop() { return Error::success(); }
};

class QueueBackedDeviceManager : public DeviceManager {
protected:
    std::vector<std::function<void()>> work_;
    virtual void evictNetworkImpl(std::string functionName, EvictFunctionCBTy evictCB) = 0;
public:
    void evictNetwork(std::string functionName, EvictFunctionCBTy evictCB) override {
        work_.push_back([this, functionName, evictCB] {
            evictNetworkImpl(functionName, evictCB);
        });
    }
    void drain() {
        for (auto& w : work_) {
            w();
        }
        work_.clear();
    }
};

class CPUDeviceManager : public QueueBackedDeviceManager {
    std::map<std::string, int> functions_;
    size_t usedMemoryBytes_ = 0;
    size_t functionCost_ = 1;
protected:
    void evictNetworkImpl(std::string functionName, EvictFunctionCBTy evictCB) override {
        Error err = Error::success();
        if (functions_.erase(functionName)) {
            usedMemoryBytes_ -= functionCost_;
        } else {
            err = MAKE_ERR("Could not find function with name " + functionName + " to evict");
        }
        if (evictCB) {
            evictCB(functionName, std::move(err)); // RECALL: safe
        } else {
            std::cerr << err.msg;
        }
    }
};

class InterpreterDeviceManager : public QueueBackedDeviceManager {
    std::map<std::string, int> functions_;
protected:
    void evictNetworkImpl(std::string functionName, EvictFunctionCBTy evictCB) override {
        Error err = Error::success();
        if (!functions_.erase(functionName)) {
            err = MAKE_ERR("Could not find function with name " + functionName + " to evict");
        }
        if (evictCB) {
            evictCB(functionName, std::move(err)); // RECALL: safe
        } else {
            std::cerr << err.msg;
        }
    }
};

int synUnloadTopology(unsigned deviceId, unsigned long topologyId);

class HabanaDeviceManager : public DeviceManager {
    struct FunctionInfo { unsigned long topologyId; };
    std::map<std::string, FunctionInfo> functions_;
    std::mutex instanceMtx_;
    unsigned deviceId_ = 0;
public:
    void evictNetwork(std::string functionName, EvictFunctionCBTy evictCB) override {
        std::unique_lock<std::mutex> lk(instanceMtx_);
        if (functions_.count(functionName) == 0) {
            std::cerr << "Failed to evict network: function called " << functionName
                      << " was not added.\n";
            lk.unlock();
            evictCB(functionName, MAKE_ERR("Failed to evict network")); // RECALL: bug
            return;
        }
        unsigned long topologyId = functions_[functionName].topologyId;
        (void)synUnloadTopology(deviceId_, topologyId);
        functions_.erase(functionName);
        lk.unlock();
        evictCB(functionName, Error::success()); // RECALL: bug
    }
};

struct DAGNode {
    std::string name;
    unsigned deviceID;
};
struct DAG { std::vector<std::unique_ptr<DAGNode>> nodes; };
struct NetworkData { DAG dag; };

class HostManager {
    std::map<unsigned, std::unique_ptr<DeviceManager>> devices_;
    std::map<std::string, NetworkData> networks_;
    std::mutex networkLock_;
public:
    void removeNetwork(const std::string& networkName) {
        std::lock_guard<std::mutex> networkLock(networkLock_);
        auto networkIterator = networks_.find(networkName);
        if (networkIterator == networks_.end()) {
            return;
        }
        for (auto& node : networkIterator->second.dag.nodes) {
            std::promise<void> removeNetwork;
            Error removeErr = Error::success();
            auto done = removeNetwork.get_future();
            devices_[node->deviceID]->evictNetwork(
                node->name, [&removeNetwork, &removeErr](std::string name, Error err) {
                    removeErr = std::move(err);
                    removeNetwork.set_value();
                });
            done.get();
        }
        networks_.erase(networkIterator);
    }

    Error clearHost() {
        std::lock_guard<std::mutex> networkLock(networkLock_);
        Error last = Error::success();
        for (auto& it : devices_) {
            last = it.second->stop();
        }
        for (auto& network : networks_) {
            for (auto& node : network.second.dag.nodes) {
                devices_[node->deviceID]->evictNetwork(node->name, /*evictCB=*/nullptr);
            }
        }
        networks_.clear();
        return last;
    }
};

} // namespace runtime
} // namespace glow
