// Reduced from transmission/transmission at f03fc9270~1:
// libtransmission/announcer.cc, libtransmission/announcer-http.cc
#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

struct tr_sha1_digest_t { unsigned char bytes[20]; };

enum tr_announce_event { TR_ANNOUNCE_EVENT_NONE, TR_ANNOUNCE_EVENT_STARTED, TR_ANNOUNCE_EVENT_STOPPED };

struct tr_announce_request {
    tr_announce_event event;
    std::string announce_url;
    tr_sha1_digest_t info_hash;
    std::string log_name;
    bool operator<(tr_announce_request const& that) const { return announce_url < that.announce_url; }
};

struct tr_announce_response {
    tr_sha1_digest_t info_hash;
    bool did_connect = false;
    bool did_timeout = false;
};

using tr_announce_response_func = std::function<void(tr_announce_response const&)>;

struct tr_session;

/* ---- announcer-http.cc ---- */

namespace tr_web {
struct FetchResponse {
    long status;
    std::string body;
    bool did_connect;
    bool did_timeout;
    void* user_data;
};
struct FetchOptions {
    std::string url;
    void (*done_func)(FetchResponse const&);
    void* done_func_user_data;
};
void fetch(tr_session const* session, FetchOptions&& options);
} // namespace tr_web

struct http_announce_data {
    http_announce_data(tr_sha1_digest_t info_hash_in, tr_announce_response_func on_response_in, std::string_view log_name_in)
        : info_hash{ info_hash_in }
        , on_response{ std::move(on_response_in) }
        , log_name{ log_name_in }
    {
    }
    tr_sha1_digest_t info_hash = {};
    std::optional<tr_announce_response> previous_response;
    tr_announce_response_func on_response;
    bool http_success = false;
    int requests_sent_count = 1;
    int requests_answered_count = 0;
    std::string log_name;
};

bool handleAnnounceResponse(tr_web::FetchResponse const& web_response, tr_announce_response* response);

static void onAnnounceDone(tr_web::FetchResponse const& web_response)
{
    auto* data = static_cast<http_announce_data*>(web_response.user_data);
    ++data->requests_answered_count;

    // If another request already succeeded (or we don't have a registered callback),
    // skip processing this response:
    if (!data->http_success && data->on_response)
    {
        tr_announce_response response;
        response.info_hash = data->info_hash;
        data->http_success = handleAnnounceResponse(web_response, &response);

        if (data->http_success)
        {
            data->on_response(response); // RECALL: safe
        }
        else if (data->requests_answered_count == data->requests_sent_count)
        {
            auto const* response_used = &response;
            if (data->previous_response && !response.did_connect && !response.did_timeout)
            {
                response_used = &*data->previous_response;
            }
            data->on_response(*response_used); // RECALL: safe
        }
        else
        {
            data->previous_response = std::move(response);
        }
    }

    if (data->requests_answered_count == data->requests_sent_count)
    {
        delete data;
    }
}

void tr_tracker_http_announce(tr_session const* session, tr_announce_request const& request, tr_announce_response_func on_response)
{
    auto* const d = new http_announce_data{ request.info_hash, std::move(on_response), request.log_name };
    auto options = tr_web::FetchOptions{ request.announce_url, onAnnounceDone, d };
    tr_web::fetch(session, std::move(options));
}

class tr_announcer_udp {
public:
    virtual ~tr_announcer_udp() = default;
    virtual void announce(tr_announce_request const& request, tr_announce_response_func on_response) = 0;
};

/* ---- announcer.cc ---- */

class tr_announcer_impl {
public:
    tr_announcer_impl(tr_session* session_in, tr_announcer_udp& announcer_udp)
        : session{ session_in }
        , announcer_udp_{ announcer_udp }
    {
    }

    void startShutdown()
    {
        is_shutting_down_ = true;
        flushCloseMessages();
    }

    void onAnnounceDone(int tier_id, tr_announce_event event, bool is_running_on_success, tr_announce_response const& response);

    void announce(tr_announce_request const& request, tr_announce_response_func on_response)
    {
        auto callback = [this, on_response = std::move(on_response)](tr_announce_response const& response)
        {
            --pending_announces_;
            on_response(response); // RECALL: bug
        };

        std::string_view const announce_sv = request.announce_url;
        if (announce_sv.substr(0, 7) == "http://" || announce_sv.substr(0, 8) == "https://")
        {
            ++pending_announces_;
            tr_tracker_http_announce(session, request, std::move(callback));
        }
        else if (announce_sv.substr(0, 6) == "udp://")
        {
            ++pending_announces_;
            announcer_udp_.announce(request, std::move(callback));
        }
    }

    tr_session* const session;

private:
    void flushCloseMessages()
    {
        for (auto& stop : stops_)
        {
            announce(stop, {});
        }
        stops_.clear();
    }

    tr_announcer_udp& announcer_udp_;
    std::set<tr_announce_request> stops_;
    size_t pending_announces_ = {};
    bool is_shutting_down_ = false;
};

struct tr_tier {
    int id;
    bool isAnnouncing;
    bool torIsRunning;
    tr_announce_request pending;
};

static void tierAnnounce(tr_announcer_impl* announcer, tr_tier* tier)
{
    auto const req = tier->pending;
    tier->isAnnouncing = true;
    auto tier_id = tier->id;
    auto event = req.event;
    auto is_running_on_success = tier->torIsRunning;

    announcer->announce(
        req,
        [announcer, tier_id, event, is_running_on_success](tr_announce_response const& response)
        {
            announcer->onAnnounceDone(tier_id, event, is_running_on_success, response);
        });
}
