// Templates declared before they are defined, as tiny-dnn's network.h
// declares `network`. A template's instantiations hang off its first
// declaration (RecursiveASTVisitor visits them there), so the traversal
// scope must walk that declaration as code of its own (issue 24). Each TU
// instantiates the templates with its own callable types; only b.cpp's
// std::function instantiations call through something that may be empty.
#pragma once
#include <functional>

namespace tv {

template <class T> class Net;
template <class F> int run(F f, int x);

template <class T> class Net {
public:
  // Net<int> is instantiated by both TUs, this member with other types.
  template <class OnBatch> T fit(T v, OnBatch on_batch) {
    on_batch();
    return v;
  }
};

template <class F> int run(F f, int x) { return f(x); }

// A member template defined out of line: its instantiations are walked with
// the class; the function around a finding in them is named all the same.
struct Trainer {
  template <class Step> int step(Step s);
};
template <class Step> int Trainer::step(Step s) { return s(1); }

} // namespace tv
