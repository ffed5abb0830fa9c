#include "backend.h"

int Backend::conv_forward(int x) {
  return pad_in(x);
}

int Backend::deconv_backward(int x) {
  return backward_activation(x);
}

int Backend::forward(int x) {
  return activation(x);
}
