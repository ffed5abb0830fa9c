// Reduced from COVESA/capicxx-core-runtime 3.1.12.x: include/CommonAPI/Event.hpp
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

namespace CommonAPI {

enum class CallStatus { SUCCESS, OUT_OF_MEMORY, NOT_AVAILABLE, CONNECTION_FAILED, REMOTE_ERROR, UNKNOWN };

template<typename... Arguments_>
class Event {
public:
    typedef std::function<void(const Arguments_&...)> Listener;
    typedef uint32_t Subscription;
    typedef std::set<Subscription> SubscriptionsSet;
    typedef std::function<void(const CallStatus)> ErrorListener;
    typedef std::tuple<Listener, ErrorListener> Listeners;
    typedef std::map<Subscription, Listeners> ListenersMap;

    Event() : nextSubscription_(0) {}

    Subscription subscribe(Listener listener, ErrorListener errorListener = nullptr);
    void unsubscribe(Subscription subscription);

    virtual ~Event() {}

protected:
    void notifyListeners(const Arguments_&... _eventArguments);
    void notifySpecificListener(const Subscription _subscription, const Arguments_&... _eventArguments);
    void notifySpecificError(const Subscription _subscription, const CallStatus status);
    void notifyErrorListeners(const CallStatus status);

    virtual void onFirstListenerAdded(const Listener& _listener) { (void)_listener; }
    virtual void onListenerAdded(const Listener& _listener, const Subscription _subscription) {
        (void)_listener;
        (void)_subscription;
    }

private:
    void applyPending() {
        for (auto iterator = pendingUnsubscriptions_.begin(); iterator != pendingUnsubscriptions_.end(); iterator++) {
            subscriptions_.erase(*iterator);
        }
        pendingUnsubscriptions_.clear();
        for (auto iterator = pendingSubscriptions_.begin(); iterator != pendingSubscriptions_.end(); iterator++) {
            subscriptions_.insert(*iterator);
        }
        pendingSubscriptions_.clear();
    }

    ListenersMap subscriptions_;
    Subscription nextSubscription_;
    ListenersMap pendingSubscriptions_;
    SubscriptionsSet pendingUnsubscriptions_;
    std::recursive_mutex mutex_;
};

template<typename ... Arguments_>
typename Event<Arguments_...>::Subscription Event<Arguments_...>::subscribe(Listener listener, ErrorListener errorListener) {
    Subscription subscription;
    bool isFirstListener;
    Listeners listeners;

    {
        std::lock_guard<std::recursive_mutex> itsLock(mutex_);
        subscription = nextSubscription_++;
        isFirstListener = (0 == pendingSubscriptions_.size()) && (pendingUnsubscriptions_.size() == subscriptions_.size());
        listener = std::move(listener);
        listeners = std::make_tuple(listener, std::move(errorListener));
        pendingSubscriptions_[subscription] = std::move(listeners);
    }

    if (isFirstListener) {
        onFirstListenerAdded(listener);
    }
    onListenerAdded(listener, subscription);

    return subscription;
}

template<typename ... Arguments_>
void Event<Arguments_...>::unsubscribe(const Subscription subscription) {
    std::lock_guard<std::recursive_mutex> itsLock(mutex_);
    if (0 == pendingSubscriptions_.erase(subscription)) {
        pendingUnsubscriptions_.insert(subscription);
    }
}

template<typename ... Arguments_>
void Event<Arguments_...>::notifyListeners(const Arguments_&... eventArguments) {
    std::lock_guard<std::recursive_mutex> itsLock(mutex_);
    applyPending();
    for (auto iterator = subscriptions_.begin(); iterator != subscriptions_.end(); iterator++) {
        (std::get<0>(iterator->second))(eventArguments...); // RECALL: bug
    }
}

template<typename ... Arguments_>
void Event<Arguments_...>::notifySpecificListener(const Subscription subscription, const Arguments_&... eventArguments) {
    std::lock_guard<std::recursive_mutex> itsLock(mutex_);
    applyPending();
    for (auto iterator = subscriptions_.begin(); iterator != subscriptions_.end(); iterator++) {
        if (subscription == iterator->first) {
            (std::get<0>(iterator->second))(eventArguments...); // RECALL: bug
        }
    }
}

template<typename ... Arguments_>
void Event<Arguments_...>::notifySpecificError(const Subscription subscription, const CallStatus status) {
    std::lock_guard<std::recursive_mutex> itsLock(mutex_);
    applyPending();
    for (auto iterator = subscriptions_.begin(); iterator != subscriptions_.end(); iterator++) {
        if (subscription == iterator->first) {
            ErrorListener listener = std::get<1>(iterator->second);
            if (listener) {
                listener(status); // RECALL: safe
            }
        }
    }
}

template<typename ... Arguments_>
void Event<Arguments_...>::notifyErrorListeners(const CallStatus status) {
    std::lock_guard<std::recursive_mutex> itsLock(mutex_);
    applyPending();
    for (auto iterator = subscriptions_.begin(); iterator != subscriptions_.end(); iterator++) {
        ErrorListener listener = std::get<1>(iterator->second);
        if (listener) {
            listener(status); // RECALL: safe
        }
    }
}

} // namespace CommonAPI

// A generated proxy event and its use from an application.
class SpeedEvent : public CommonAPI::Event<int> {
public:
    void onMessage(int speed) { notifyListeners(speed); }
    void onSubscriptionError(Subscription s) { notifySpecificError(s, CommonAPI::CallStatus::NOT_AVAILABLE); }
    void onInitialValue(Subscription s, int speed) { notifySpecificListener(s, speed); }
};

void app(SpeedEvent& ev) {
    ev.subscribe([](const int& speed) { (void)speed; });
    ev.onMessage(42);
}
