// A class whose setter and accessor are defined in its own .cpp: IXWebSocket's
// WebSocket, reduced.
#include <functional>
#include <memory>
#include <mutex>

using OnMessage = std::function<void(int)>;

class Socket {
public:
  void setOnMessage(const OnMessage &cb);
  // Sets the callback only when asked to: its facts record no copy.
  void setOnMessageIf(const OnMessage &cb, bool on);
  bool isOnMessageRegistered() const;
  // Tests another member: its facts record no test of the callback.
  bool isAutoReconnect() const;
  int connectToSocket(int fd);
  int connectClient(int fd);
  int connectConditionally(int fd);
  int connectIfReconnecting(int fd);

private:
  OnMessage onMessage;
  mutable std::mutex mu;
  bool autoReconnect = false;
};
