// Invalid code mid-edit: the server keeps serving and the check does not
// crash on a function whose body does not parse.
#include <functional>
std::function<int(int)> get_policy();
int broken( {
  auto policy = get_policy();
  return policy(1 +;
}
struct S { int x };
int after_errors() {
  auto policy = get_policy();
  return policy(2);
