// Reduced from couchbase/couchbase-cxx-client at fc62fb16~1:
// core/transactions/attempt_context_impl.hxx, core/transactions/attempt_context_impl.cxx
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace couchbase::core::transactions {

struct document_id { std::string bucket, key; };
struct transaction_get_result { document_id id; std::string content; };

enum error_class { FAIL_OTHER, FAIL_DOC_NOT_FOUND };
enum external_exception { UNKNOWN, PREVIOUS_OPERATION_FAILED, FEATURE_NOT_AVAILABLE_EXCEPTION };

class transaction_operation_failed : public std::runtime_error {
public:
    transaction_operation_failed(error_class ec, const std::string& what)
        : std::runtime_error(what), ec_(ec) {}
    external_exception cause() const { return cause_; }
private:
    error_class ec_;
    external_exception cause_{ UNKNOWN };
};
class op_exception : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct query_response { std::vector<std::string> rows; bool not_found = false; };

struct op_list {
    void increment_ops() {}
    void decrement_ops() {}
    void decrement_in_flight() {}
};

class attempt_context_impl : public std::enable_shared_from_this<attempt_context_impl> {
public:
    using Callback = std::function<void(std::exception_ptr, std::optional<transaction_get_result>)>;

    void get_with_query(const document_id& id, bool optional, Callback&& cb);

private:
    op_list op_list_;
    std::vector<transaction_operation_failed> errors_;

    void existing_error(bool prev_op_failed = true);
    void handle_err_from_callback(std::exception_ptr e);
    void wrap_query(const std::string& statement, std::function<void(std::exception_ptr, query_response)>&& cb);

    template<typename Cb, typename T>
    void op_completed_with_callback(Cb&& cb, std::optional<T> t)
    {
        try {
            op_list_.decrement_in_flight();
            cb({}, t); // RECALL: safe
            op_list_.decrement_ops();
        } catch (...) {
            handle_err_from_callback(std::current_exception());
        }
    }

    template<typename Ret, typename E>
    void op_completed_with_error(std::function<void(std::exception_ptr, std::optional<Ret>)>&& cb, E&& err)
    {
        return op_completed_with_error(std::move(cb), std::make_exception_ptr(std::forward<E>(err)));
    }

    template<typename Ret>
    void op_completed_with_error(std::function<void(std::exception_ptr, std::optional<Ret>)>&& cb,
                                 std::exception_ptr&& err)
    {
        try {
            std::rethrow_exception(std::move(err));
        } catch (const transaction_operation_failed& e) {
            // if this is a transaction_operation_failed, we need to cache it before moving on...
            errors_.push_back(e);
            try {
                op_list_.decrement_in_flight();
                cb(std::current_exception(), std::optional<Ret>()); // RECALL: bug
                op_list_.decrement_ops();
            } catch (...) {
                handle_err_from_callback(std::current_exception());
            }
        } catch (...) {
            try {
                op_list_.decrement_in_flight();
                cb(std::current_exception(), std::optional<Ret>()); // RECALL: bug
                op_list_.decrement_ops();
            } catch (...) {
                handle_err_from_callback(std::current_exception());
            }
        }
    }

    template<typename Handler>
    void cache_error_async(Handler cb, std::function<void()> func)
    {
        try {
            op_list_.increment_ops();
            existing_error();
            return func();
        } catch (const transaction_operation_failed& e) {
            // thrown only from call_func when previous error exists, so eat it,
            // unless it has PREVIOUS_OP_FAILED or FEATURE_NOT_AVAILABLE_EXCEPTION cause
            if (e.cause() == PREVIOUS_OPERATION_FAILED || e.cause() == FEATURE_NOT_AVAILABLE_EXCEPTION) {
                op_completed_with_error(std::move(cb), e);
            }
        } catch (const op_exception& e) {
            op_completed_with_error(std::move(cb), e);
        } catch (const std::exception& e) {
            op_completed_with_error(std::move(cb), transaction_operation_failed(FAIL_OTHER, e.what()));
        }
    }
};

void
attempt_context_impl::get_with_query(const document_id& id, bool optional, Callback&& cb)
{
    cache_error_async(cb, [self = shared_from_this(), id, optional, cb = std::move(cb)]() mutable {
        return self->wrap_query(
            "EXECUTE __get",
            [self, id, optional, cb = std::move(cb)](std::exception_ptr err, query_response resp) mutable {
                if (resp.not_found) {
                    return self->op_completed_with_callback(std::move(cb), std::optional<transaction_get_result>());
                }
                if (!err) {
                    if (resp.rows.empty()) {
                        if (optional) {
                            return self->op_completed_with_callback(std::move(cb),
                                                                    std::optional<transaction_get_result>());
                        }
                        return self->op_completed_with_error(
                            std::move(cb), transaction_operation_failed(FAIL_DOC_NOT_FOUND, "document not found"));
                    }
                    transaction_get_result doc{ id, resp.rows.front() };
                    return self->op_completed_with_callback(std::move(cb),
                                                            std::optional<transaction_get_result>(doc));
                }
                return self->op_completed_with_error(std::move(cb), std::move(err));
            });
    });
}

} // namespace couchbase::core::transactions
