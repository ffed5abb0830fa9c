#include "socket.h"

void Socket::setOnMessage(const OnMessage &cb) {
  std::lock_guard<std::mutex> lock(mu);
  onMessage = cb;
}
void Socket::setOnMessageIf(const OnMessage &cb, bool on) {
  if (on)
    onMessage = cb;
}
bool Socket::isOnMessageRegistered() const {
  std::lock_guard<std::mutex> lock(mu);
  return onMessage != nullptr;
}
bool Socket::isAutoReconnect() const { return autoReconnect; }

int Socket::connectToSocket(int fd) {
  onMessage(fd);
  return fd;
}
int Socket::connectClient(int fd) {
  onMessage(fd);
  return fd;
}
int Socket::connectConditionally(int fd) {
  onMessage(fd);
  return fd;
}
int Socket::connectIfReconnecting(int fd) {
  onMessage(fd);
  return fd;
}
