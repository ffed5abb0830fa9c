// Reduced from libcpr/cpr at 3b3152e~1: include/cpr/callback.h, cpr/callback.cpp,
// include/cpr/util.h, cpr/util.cpp, cpr/session.cpp
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

typedef void CURL;
enum CURLoption { CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA, CURLOPT_XFERINFOFUNCTION, CURLOPT_XFERINFODATA };
extern "C" int curl_easy_setopt(CURL* handle, CURLoption option, ...);

namespace cpr {

using cpr_pf_arg_t = long long;

class WriteCallback {
  public:
    WriteCallback() = default;
    WriteCallback(std::function<bool(const std::string_view& data, intptr_t userdata)> p_callback, intptr_t p_userdata = 0)
        : userdata(p_userdata), callback(std::move(p_callback)) {}
    bool operator()(const std::string_view& data) const {
        return callback(data, userdata); // RECALL: bug
    }

    intptr_t userdata{};
    std::function<bool(const std::string_view& data, intptr_t userdata)> callback;
};

class ProgressCallback {
  public:
    ProgressCallback() = default;
    ProgressCallback(std::function<bool(cpr_pf_arg_t downloadTotal, cpr_pf_arg_t downloadNow, cpr_pf_arg_t uploadTotal, cpr_pf_arg_t uploadNow, intptr_t userdata)> p_callback, intptr_t p_userdata = 0)
        : userdata(p_userdata), callback(std::move(p_callback)) {}
    bool operator()(cpr_pf_arg_t downloadTotal, cpr_pf_arg_t downloadNow, cpr_pf_arg_t uploadTotal, cpr_pf_arg_t uploadNow) const {
        return callback(downloadTotal, downloadNow, uploadTotal, uploadNow, userdata); // RECALL: bug
    }

    intptr_t userdata{};
    std::function<bool(cpr_pf_arg_t downloadTotal, cpr_pf_arg_t downloadNow, cpr_pf_arg_t uploadTotal, cpr_pf_arg_t uploadNow, intptr_t userdata)> callback;
};

/** Functor class for progress functions that will be used in cancellable requests. */
class CancellationCallback {
  public:
    CancellationCallback() = default;
    explicit CancellationCallback(std::shared_ptr<std::atomic_bool>&& cs) : cancellation_state{std::move(cs)} {}

    bool operator()(cpr_pf_arg_t dltotal, cpr_pf_arg_t dlnow, cpr_pf_arg_t ultotal, cpr_pf_arg_t ulnow) const;
    void SetProgressCallback(ProgressCallback& u_cb);

  private:
    std::shared_ptr<std::atomic_bool> cancellation_state;
    std::optional<std::reference_wrapper<ProgressCallback>> user_cb;
};

void CancellationCallback::SetProgressCallback(ProgressCallback& u_cb) {
    user_cb.emplace(std::reference_wrapper{u_cb});
}
bool CancellationCallback::operator()(cpr_pf_arg_t dltotal, cpr_pf_arg_t dlnow, cpr_pf_arg_t ultotal, cpr_pf_arg_t ulnow) const {
    const bool cont_operation{!cancellation_state->load()};
    return user_cb ? (cont_operation && (*user_cb)(dltotal, dlnow, ultotal, ulnow)) : cont_operation; // RECALL: safe
}

namespace util {
size_t writeUserFunction(char* ptr, size_t size, size_t nmemb, const WriteCallback* write) {
    size *= nmemb;
    return (*write)({ptr, size}) ? size : 0;
}

template <typename T = ProgressCallback>
int progressUserFunction(const T* progress, cpr_pf_arg_t dltotal, cpr_pf_arg_t dlnow, cpr_pf_arg_t ultotal, cpr_pf_arg_t ulnow) {
    const int cancel_retval{1};
    return (*progress)(dltotal, dlnow, ultotal, ulnow) ? 0 : cancel_retval;
}
} // namespace util

class Session {
  public:
    void SetWriteCallback(const WriteCallback& write);
    void SetProgressCallback(const ProgressCallback& progress);

  private:
    struct Callbacks {
        WriteCallback writecb_;
        ProgressCallback progresscb_;
        CancellationCallback cancellationcb_;
    };
    struct CurlHolder { CURL* handle; };
    std::shared_ptr<CurlHolder> curl_;
    std::unique_ptr<Callbacks> cbs_{std::make_unique<Callbacks>()};
    bool isCancellable{false};
};

void Session::SetWriteCallback(const WriteCallback& write) {
    curl_easy_setopt(curl_->handle, CURLOPT_WRITEFUNCTION, cpr::util::writeUserFunction);
    cbs_->writecb_ = write;
    curl_easy_setopt(curl_->handle, CURLOPT_WRITEDATA, &cbs_->writecb_);
}

void Session::SetProgressCallback(const ProgressCallback& progress) {
    cbs_->progresscb_ = progress;
    if (isCancellable) {
        cbs_->cancellationcb_.SetProgressCallback(cbs_->progresscb_);
        return;
    }
    curl_easy_setopt(curl_->handle, CURLOPT_XFERINFOFUNCTION, cpr::util::progressUserFunction<ProgressCallback>);
    curl_easy_setopt(curl_->handle, CURLOPT_XFERINFODATA, &cbs_->progresscb_);
}

} // namespace cpr

// Client code as in the PR description: clearing callbacks with `{}`.
void resetCallbacks(cpr::Session& session) {
    session.SetProgressCallback({});
    session.SetWriteCallback({});
}
