// A backend with one constructor per layer kind (tiny-dnn's shape): each
// sets the callables its own kind's methods call.
#pragma once
#include <functional>

using Fn = std::function<int(int)>;
struct ConvP {};
struct DeconvP {};

class Backend {
public:
  Backend(ConvP *, Fn pad, Fn act) : pad_in(std::move(pad)), activation(act) {}
  Backend(DeconvP *, Fn act) : activation(std::move(act)) {}
  int conv_forward(int x);     // calls pad_in: set by the conv constructor
  int deconv_backward(int x);  // calls backward_activation: set by none
  int forward(int x);          // calls activation: set by both

private:
  Fn pad_in;
  Fn activation;
  Fn backward_activation;
};
