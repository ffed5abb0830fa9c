// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A virtual method of a class runs only on objects whose class does not
// override it. Where the project makes the class only as the base of
// classes that override the method (without calling the base's version),
// those constructions make no object the method's call runs on, and the
// fields they leave empty are no evidence there. nlopt's StoGO: `Global`'s
// `ObjectiveGradient` calls `Objective` and `Gradient`, which the only
// construction, `MyGlobal(..) : Global(D, 0, 0, P)`, leaves null; MyGlobal
// overrides `ObjectiveGradient` with its own function.

typedef double (*Pobj)(const double *);
typedef void (*Pgrad)(const double *, double *);

class Global {
public:
  Pobj Objective;
  Pgrad Gradient;
  virtual double ObjectiveGradient(const double *x, double *g) {
    Gradient(x, g); // no-warning
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'Gradient' [wrapguard-unchecked-policy-call]
    return Objective(x); // no-warning
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'Objective' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 'Objective' is not empty before this call, e.g. 'if (Objective)'
  }
  Global(Pobj o, Pgrad g) : Objective(o), Gradient(g) {}
  virtual ~Global() {}
};

class MyGlobal : public Global {
public:
  typedef double (*func)(const double *, double *, void *);
  MyGlobal(func f, void *data) : Global(0, 0), my_func(f), my_data(data) {}
  double ObjectiveGradient(const double *x, double *g) override {
    return my_func(x, g, my_data);
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'my_func' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 'my_func' is not empty before this call, e.g. 'if (my_func)'
  }

private:
  func my_func;
  void *my_data;
};

double minimize(MyGlobal::func f, void *data, const double *x, double *g) {
  MyGlobal G(f, data);
  Global &Base = G;
  return Base.ObjectiveGradient(x, g);
}

// True neighbours: an override that calls the base's version, and a
// derived class that does not override the method.
class Solver {
public:
  Pobj Objective;
  virtual double value(const double *x) { return Objective(x); }
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: call through possibly empty callable 'Objective' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:50: note: check that 'Objective' is not empty before this call, e.g. 'if (Objective)'
  // CHECK-NOTES: :[[@LINE-3]]:50: note: 'Solver::Objective' is set by none of the 2 constructions of 'Solver' in the project
  // CHECK-NOTES: :[[@LINE-4]]:50: note: 'Solver' is constructed with 'Solver(Pobj)', which leaves 'Solver::Objective' empty, in 'Logged::Logged' ({{.*}}.cpp:[[@LINE+10]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:50: warning: call through possibly empty callable 'Objective' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:50: note: check that 'Objective' is not empty before this call, e.g. 'if (Objective)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:50: note: 'Solver::Objective' is set by none of the 2 constructions of 'Solver' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:50: note: 'Solver' is constructed with 'Solver(Pobj)', which leaves 'Solver::Objective' empty, in 'Logged::Logged' ({{.*}}.cpp:[[@LINE+6]])
  explicit Solver(Pobj o) : Objective(o) {}
  virtual ~Solver() {}
};
class Logged : public Solver {
public:
  Logged() : Solver(nullptr) {}
  double value(const double *x) override { return Solver::value(x) + 1; }
};
class Plain : public Solver {
public:
  Plain() : Solver(nullptr) {}
};
double run(const double *x) {
  Logged l;
  Plain p;
  return l.value(x) + p.value(x);
}
