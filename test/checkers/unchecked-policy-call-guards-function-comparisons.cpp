// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A function pointer compared equal to a function's address is that
// function, so not null where the comparison holds (fltk's
// `Fl_Text_Editor::handle_key`: `if (f == kf_undo || f == kf_redo) { if
// (!f(key, this)) fl_beep(); }`), with or without `&`, on either side.
// Where it fails, or for `!=`, the pointer may be anything.

typedef int (*Key_Func)(int, void *);
int kf_undo(int, void *);
int kf_redo(int, void *);
Key_Func lookup(int key);
Key_Func bound(int key) { return key ? lookup(key) : nullptr; }

int handle_key(int key) {
  Key_Func f = bound(key);
  if (f == kf_undo || &kf_redo == f) {
    if (!f(key, nullptr)) // no-warning
      return -1;
    return 1;
  } else if (f) {
    return f(key, nullptr);
  }
  return 0;
}

int not_undo(int key) {
  Key_Func f = bound(key);
  if (f != kf_undo)
    return f(key, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:16: note: a value from 'bound' is checked for emptiness in 'handle_key' ({{.*}}.cpp:[[@LINE-11]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:16: note: a value from 'bound' is checked for emptiness in 'handle_key' ({{.*}}.cpp:[[@LINE-13]])
  return 0;
}
