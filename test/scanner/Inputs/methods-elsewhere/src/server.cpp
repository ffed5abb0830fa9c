#include "socket.h"

class Server {
public:
  void handleUpgrade(int fd);
  std::function<void(std::shared_ptr<Socket>)> onConnection;
  std::function<void(int)> onClientMessage;
};

// Tests the callback after the hook and returns without one, or sets it.
void Server::handleUpgrade(int fd) {
  auto ws = std::make_shared<Socket>();
  if (onConnection) {
    onConnection(ws);
    if (!ws->isOnMessageRegistered())
      return;
  } else if (onClientMessage) {
    ws->setOnMessage([this](int m) { onClientMessage(m); });
  } else {
    return;
  }
  ws->connectToSocket(fd);
  ws->setOnMessage(nullptr);
}

// Never sets it.
void runClient(int fd) {
  auto ws = std::make_shared<Socket>();
  ws->connectClient(fd);
}

// Sets it through a setter that may not.
void runConditionally(Socket &s, bool on, int fd) {
  s.setOnMessageIf([](int) {}, on);
  s.connectConditionally(fd);
}

// Tests another member.
void runIfReconnecting(Socket &s, int fd) {
  if (s.isAutoReconnect())
    s.connectIfReconnecting(fd);
}
