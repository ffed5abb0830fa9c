// Reduced from maplibre/maplibre-native platform/qt/src/mbgl/run_loop.cpp and run_loop_impl.hpp
// (before PR #3388).
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

namespace mbgl {
namespace util {

class QSocketNotifier {
public:
    enum Type { Read, Write };
    QSocketNotifier(int fd, Type t) : fd_(fd), type_(t) {}
    int fd_;
    Type type_;
};

class AsyncTask {
public:
    explicit AsyncTask(std::function<void()>&& fn) : task(std::move(fn)) {}
    void send() { pending = true; }
    void runTask() {
        if (pending) {
            pending = false;
            task(); // RECALL: safe
        }
    }
private:
    std::function<void()> task;
    bool pending = false;
};

class RunLoop {
public:
    enum class Event : unsigned char { None = 0, Read = 1, Write = 2, ReadWrite = Read | Write };

    class Impl;

    RunLoop();
    void addWatch(int fd, Event event, std::function<void(int, Event)>&& cb);
    void removeWatch(int fd);
    void process() {}

private:
    std::unique_ptr<Impl> impl;
};

using WatchCallback = std::function<void(int, RunLoop::Event)>;
using WatchPair = std::pair<std::unique_ptr<QSocketNotifier>, WatchCallback>;

class RunLoop::Impl {
public:
    void onReadEvent(int fd);
    void onWriteEvent(int fd);

    std::unique_ptr<AsyncTask> async;
    std::unordered_map<int, WatchPair> readPoll;
    std::unordered_map<int, WatchPair> writePoll;
};

// Qt slot, connected to the read notifier's activated(int) signal.
void RunLoop::Impl::onReadEvent(int fd) {
    readPoll[fd].second(fd, Event::Read); // RECALL: safe
}

// Qt slot, connected to the write notifier's activated(int) signal.
void RunLoop::Impl::onWriteEvent(int fd) {
    writePoll[fd].second(fd, Event::Write); // RECALL: bug
}

RunLoop::RunLoop() : impl(std::make_unique<Impl>()) {
    impl->async = std::make_unique<AsyncTask>(std::bind(&RunLoop::process, this));
}

void RunLoop::addWatch(int fd, Event event, std::function<void(int, Event)>&& cb) {
    if (event == Event::Read || event == Event::ReadWrite) {
        auto notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
        // QObject::connect(notifier, activated(int), impl, onReadEvent(int))
        impl->readPoll[fd] = WatchPair(std::move(notifier), std::move(cb));
    }

    if (event == Event::Write || event == Event::ReadWrite) {
        auto notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Write);
        // QObject::connect(notifier, activated(int), impl, onWriteEvent(int))
        impl->writePoll[fd] = WatchPair(std::move(notifier), std::move(cb));
    }
}

void RunLoop::removeWatch(int fd) {
    auto writePollIter = impl->writePoll.find(fd);
    if (writePollIter != impl->writePoll.end()) {
        impl->writePoll.erase(writePollIter);
    }
    auto readPollIter = impl->readPoll.find(fd);
    if (readPollIter != impl->readPoll.end()) {
        impl->readPoll.erase(readPollIter);
    }
}

} // namespace util
} // namespace mbgl

// A socket user registering for both directions.
void watchSocket(mbgl::util::RunLoop& loop, int fd) {
    loop.addWatch(fd, mbgl::util::RunLoop::Event::ReadWrite,
                  [](int, mbgl::util::RunLoop::Event) { /* perform I/O */ });
}
