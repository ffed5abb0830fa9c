// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A flag that the project sets only where it has seen a callable set, and
// that a call tests instead of the callable, on another object and in
// another function (openal-soft's mixer: `if (buffer->mCallback)
// voice->mFlags.set(VoiceFlag::IsCallback);`, then `else if
// (voice.mFlags.test(VoiceFlag::IsCallback)) ... bufferListItem->mCallback(..)`).
// The flag vouches for the callable: in the default mode, what empties the
// source elsewhere, or tests it, is no evidence against such a call. A flag
// that some write sets without that test vouches for nothing. StrictMode
// reports every call.

using Callback = int (*)(void *user, char *data, int size);

enum class VoiceFlag : unsigned char { IsStatic, IsCallback, Stopped };

// A project's enum-indexed bitset (`test` is what makes it one).
template <class E> class Bits {
public:
  bool test(E e) const { return (v_ >> unsigned(e)) & 1u; }
  void set(E e) { v_ |= 1u << unsigned(e); }
  void reset() { v_ = 0; }
  void fill() { v_ = ~0u; }

private:
  unsigned v_ = 0;
};

struct Buffer {
  Callback cb = nullptr;
  void *user = nullptr;
};
struct Item {
  Callback cb = nullptr;
  void *user = nullptr;
};

// The evidence against Item::cb: its source is emptied and tested.
void unload(Buffer *b) { b->cb = nullptr; }
void bindCallback(Buffer *b, Callback f, void *u) {
  b->cb = f;
  b->user = u;
}
Buffer *lookupBuffer(unsigned id);
void queue(Item &item, unsigned id) {
  Buffer *b = lookupBuffer(id);
  if (b->cb && !b->user)
    throw 1;
  item.cb = b->cb;
  item.user = b->user;
}

// A member that takes its values by copies of Buffer::cb, and that
// something empties.
struct Tape {
  Callback cb = nullptr;
};
Tape makeTape(unsigned id) {
  Tape t{};
  t.cb = lookupBuffer(id)->cb;
  return t;
}
void rewind(Tape &t) { t.cb = nullptr; }
bool loaded(const Tape &t) { return t.cb != nullptr; }

struct Voice {
  Bits<VoiceFlag> flags;
  Item *item = nullptr;
  Tape *tape = nullptr;
};

void initVoice(Voice *v, const Buffer *b) {
  v->flags.reset();
  if (b->cb)
    v->flags.set(VoiceFlag::IsCallback);
  else
    v->flags.set(VoiceFlag::IsStatic);
}

int mix(Voice &v, char *out, int n) {
  if (v.flags.test(VoiceFlag::IsStatic))
    return 0;
  else if (v.flags.test(VoiceFlag::IsCallback))
    return v.item->cb(v.item->user, out, n); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'v.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 'v.item->cb' is not empty before this call, e.g. 'if (v.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  return -1;
}

// The early exit's form of the same test.
int mixEarly(Voice &v, char *out, int n) {
  if (!v.flags.test(VoiceFlag::IsCallback))
    return 0;
  return v.item->cb(v.item->user, out, n); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'v.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:10: note: check that 'v.item->cb' is not empty before this call, e.g. 'if (v.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:10: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:10: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
}

// Another bit: the write that sets it proves the callable empty.
int mixStatic(Voice &v, char *out, int n) {
  if (v.flags.test(VoiceFlag::IsStatic))
    return v.item->cb(v.item->user, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'v.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'v.item->cb' is not empty before this call, e.g. 'if (v.item->cb)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  // CHECK-NOTES: :[[@LINE-5]]:12: note: a value from 'Buffer::cb' is checked for emptiness in 'queue' ({{.*}}.cpp:49)
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: warning: call through possibly empty callable 'v.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: check that 'v.item->cb' is not empty before this call, e.g. 'if (v.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-9]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  return 0;
}

// The flag vouches for a member that takes its values only by copies of a
// source it proves set, and that nothing empties, where the member's
// constructions leave it empty and code elsewhere tests it (openal-soft's
// queue items, copied from their buffers).
struct Clip {
  Callback cb = nullptr;
};
Clip *lookupClip(unsigned id);
struct Slot {
  Slot() {}
  Callback cb = nullptr;
  void *user = nullptr;
};
Slot *newSlot() { return new Slot(); }
void fillSlot(Slot &s, unsigned id) { s.cb = lookupClip(id)->cb; }
bool playable(const Slot &s) { return s.cb != nullptr; }
struct Track {
  Bits<VoiceFlag> flags;
  Slot *slot = nullptr;
};
void initTrack(Track &t, unsigned id) {
  if (lookupClip(id)->cb)
    t.flags.set(VoiceFlag::IsCallback);
}
int mixTrack(Track &t, char *out, int n) {
  if (t.flags.test(VoiceFlag::IsCallback))
    return t.slot->cb(t.slot->user, out, n); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 't.slot->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 't.slot->cb' is not empty before this call, e.g. 'if (t.slot->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: 'Slot' is constructed with 'Slot()', which leaves 'Slot::cb' empty, in 'newSlot' ({{.*}}.cpp:134)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: note: a value from 'Slot::cb' is checked for emptiness in 'playable' ({{.*}}.cpp:136)
  if (t.flags.test(VoiceFlag::IsStatic))
    return t.slot->cb(t.slot->user, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 't.slot->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 't.slot->cb' is not empty before this call, e.g. 'if (t.slot->cb)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Slot' is constructed with 'Slot()', which leaves 'Slot::cb' empty, in 'newSlot' ({{.*}}.cpp:134)
  // CHECK-NOTES: :[[@LINE-4]]:12: note: a value from 'Slot::cb' is checked for emptiness in 'playable' ({{.*}}.cpp:136)
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: warning: call through possibly empty callable 't.slot->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: note: check that 't.slot->cb' is not empty before this call, e.g. 'if (t.slot->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: 'Slot' is constructed with 'Slot()', which leaves 'Slot::cb' empty, in 'newSlot' ({{.*}}.cpp:134)
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:12: note: a value from 'Slot::cb' is checked for emptiness in 'playable' ({{.*}}.cpp:136)
  return 0;
}

// ...but not for one that something empties.
int mixTape(Voice &v, char *out, int n) {
  if (v.flags.test(VoiceFlag::IsCallback))
    return v.tape->cb(nullptr, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'v.tape->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'v.tape->cb' is not empty before this call, e.g. 'if (v.tape->cb)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Tape::cb' is made empty in 'rewind' ({{.*}}.cpp:65)
  // CHECK-NOTES: :[[@LINE-4]]:12: note: a value from 'Tape::cb' is checked for emptiness in 'loaded' ({{.*}}.cpp:66)
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: warning: call through possibly empty callable 'v.tape->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: note: check that 'v.tape->cb' is not empty before this call, e.g. 'if (v.tape->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: 'Tape::cb' is made empty in 'rewind' ({{.*}}.cpp:65)
  return 0;
}

// A `bool` flag stored as the test itself.
struct Player {
  bool hasCallback = false;
  Item *item = nullptr;
};
void bindPlayer(Player &p, const Buffer *b) { p.hasCallback = b->cb != nullptr; }
int play(Player &p, char *out, int n) {
  if (p.hasCallback && n > 0)
    return p.item->cb(p.item->user, out, n); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 'p.item->cb' is not empty before this call, e.g. 'if (p.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  return 0;
}

// A `bool` flag that one write sets without the test.
struct Stream {
  bool live = false;
  Item *item = nullptr;
};
void startStream(Stream &s, const Buffer *b) {
  if (b->cb)
    s.live = true;
}
void forceStream(Stream &s) { s.live = true; }
int pump(Stream &s, char *out, int n) {
  if (s.live)
    return s.item->cb(s.item->user, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 's.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 's.item->cb' is not empty before this call, e.g. 'if (s.item->cb)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  // CHECK-NOTES: :[[@LINE-5]]:12: note: a value from 'Buffer::cb' is checked for emptiness in 'queue' ({{.*}}.cpp:49)
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: warning: call through possibly empty callable 's.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: check that 's.item->cb' is not empty before this call, e.g. 'if (s.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-9]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  return 0;
}

// A bitset that a write fills whole: every bit is set without the test.
struct Deck {
  Bits<VoiceFlag> flags;
  Item *item = nullptr;
};
void armDeck(Deck &d, const Buffer *b) {
  if (b->cb)
    d.flags.set(VoiceFlag::IsCallback);
}
void armAll(Deck &d) { d.flags.fill(); }
int spin(Deck &d, char *out, int n) {
  if (d.flags.test(VoiceFlag::IsCallback))
    return d.item->cb(d.item->user, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'd.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'd.item->cb' is not empty before this call, e.g. 'if (d.item->cb)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  // CHECK-NOTES: :[[@LINE-5]]:12: note: a value from 'Buffer::cb' is checked for emptiness in 'queue' ({{.*}}.cpp:49)
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: warning: call through possibly empty callable 'd.item->cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: check that 'd.item->cb' is not empty before this call, e.g. 'if (d.item->cb)'
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:12: note: 'Item::cb' is assigned a value from 'Buffer::cb' in 'queue' ({{.*}}.cpp:51)
  // CHECK-NOTES-STRICT: :[[@LINE-9]]:12: note: 'Buffer::cb' is made empty in 'unload' ({{.*}}.cpp:41)
  return 0;
}
