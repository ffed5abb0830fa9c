// A class whose private helpers call its callback: the callers, its own
// methods in another TU, decide whether the callback is set.
typedef void (*ExportFn)(const char *);
class Exporter {
public:
  explicit Exporter(ExportFn cb) : callback(cb) {}
  void run(bool loud);

private:
  void emit_all();
  void emit_loud();
  ExportFn callback;
};
