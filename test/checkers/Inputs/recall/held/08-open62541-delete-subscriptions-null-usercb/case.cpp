// Reduced from open62541/open62541 at bbd04f6f3~1: src/client/ua_client.c,
// src/client/ua_client_internal.h, src/client/ua_client_subscriptions.c
#include <cstdint>
#include <cstdlib>
#include <cstring>

typedef uint32_t UA_UInt32;
typedef uint32_t UA_StatusCode;
#define UA_STATUSCODE_GOOD 0u
#define UA_STATUSCODE_BADOUTOFMEMORY 0x80030000u

struct UA_Client;
struct UA_ResponseHeader { UA_StatusCode serviceResult; };
struct UA_Response { UA_ResponseHeader responseHeader; };
struct UA_CreateSubscriptionRequest { double requestedPublishingInterval; };
struct UA_CreateSubscriptionResponse { UA_ResponseHeader responseHeader; UA_UInt32 subscriptionId; };
struct UA_DeleteSubscriptionsRequest { size_t subscriptionIdsSize; UA_UInt32* subscriptionIds; };
struct UA_DeleteSubscriptionsResponse { UA_ResponseHeader responseHeader; };

typedef void (*UA_ClientAsyncServiceCallback)(UA_Client* client, void* userdata, UA_UInt32 requestId, void* response);
typedef void (*UA_ClientAsyncCreateSubscriptionCallback)(UA_Client* client, void* userdata, UA_UInt32 requestId,
                                                          UA_CreateSubscriptionResponse* response);
typedef void (*UA_ClientAsyncDeleteSubscriptionsCallback)(UA_Client* client, void* userdata, UA_UInt32 requestId,
                                                           UA_DeleteSubscriptionsResponse* response);

/* ---- ua_client_internal.h ---- */
struct AsyncServiceCall {
    AsyncServiceCall* next;
    UA_UInt32 requestId;
    UA_ClientAsyncServiceCallback callback;
    void* userdata;
};

struct CustomCallback {
    UA_ClientAsyncServiceCallback userCallback;
    void* userData;
    void* clientData;
};

struct UA_Client {
    AsyncServiceCall* asyncServiceCalls;
    UA_UInt32 requestId;
};

/* ---- ua_client.c ---- */
UA_StatusCode
__UA_Client_AsyncService(UA_Client* client, const void* request, UA_ClientAsyncServiceCallback callback,
                         void* userdata, UA_UInt32* requestId) {
    (void)request;
    AsyncServiceCall* ac = (AsyncServiceCall*)malloc(sizeof(AsyncServiceCall));
    if(!ac)
        return UA_STATUSCODE_BADOUTOFMEMORY;
    ac->callback = callback;
    ac->userdata = userdata;
    ac->requestId = ++client->requestId;
    ac->next = client->asyncServiceCalls;
    client->asyncServiceCalls = ac;
    if(requestId)
        *requestId = ac->requestId;
    return UA_STATUSCODE_GOOD;
}

static void
processMSGResponse(UA_Client* client, AsyncServiceCall* ac, UA_UInt32 requestId, void* response) {
    if(ac->callback) {
        /* Call the async callback */
        ac->callback(client, ac->userdata, requestId, response); // RECALL: safe
    }
    free(ac);
}

static void
__Client_AsyncService_cancel(UA_Client* client, AsyncServiceCall* ac, UA_StatusCode statusCode) {
    if(ac->callback) {
        UA_Response response;
        memset(&response, 0, sizeof(response));
        response.responseHeader.serviceResult = statusCode;
        ac->callback(client, ac->userdata, ac->requestId, &response); // RECALL: safe
    }
    free(ac);
}

/* ---- ua_client_subscriptions.c ---- */
struct UA_Client_Subscription { void* context; UA_UInt32 subscriptionId; };

static void Subscription_create(UA_Client* client, UA_Client_Subscription* newSub,
                                UA_CreateSubscriptionResponse* response) {
    (void)client;
    newSub->subscriptionId = response->subscriptionId;
}

static void
Subscriptions_create_handler(UA_Client* client, void* data, UA_UInt32 requestId, void* r) {
    UA_CreateSubscriptionResponse* response = (UA_CreateSubscriptionResponse*)r;
    CustomCallback* cc = (CustomCallback*)data;
    UA_Client_Subscription* newSub = (UA_Client_Subscription*)cc->clientData;
    if(response->responseHeader.serviceResult != UA_STATUSCODE_GOOD) {
        free(newSub);
        goto cleanup;
    }
    Subscription_create(client, newSub, response);

cleanup:
    if(cc->userCallback)
        cc->userCallback(client, cc->userData, requestId, response); // RECALL: safe
    free(cc);
}

UA_StatusCode
UA_Client_Subscriptions_create_async(UA_Client* client, const UA_CreateSubscriptionRequest request,
                                     void* subscriptionContext,
                                     UA_ClientAsyncCreateSubscriptionCallback createCallback,
                                     void* userdata, UA_UInt32* requestId) {
    CustomCallback* cc = (CustomCallback*)calloc(1, sizeof(CustomCallback));
    if(!cc)
        return UA_STATUSCODE_BADOUTOFMEMORY;
    UA_Client_Subscription* sub = (UA_Client_Subscription*)malloc(sizeof(UA_Client_Subscription));
    if(!sub) {
        free(cc);
        return UA_STATUSCODE_BADOUTOFMEMORY;
    }
    sub->context = subscriptionContext;
    cc->userCallback = (UA_ClientAsyncServiceCallback)createCallback;
    cc->userData = userdata;
    cc->clientData = sub;

    UA_StatusCode res = __UA_Client_AsyncService(client, &request, Subscriptions_create_handler, cc, requestId);
    if(res != UA_STATUSCODE_GOOD) {
        free(cc);
        free(sub);
    }
    return res;
}

static void
__Client_Subscription_processDelete(UA_Client* client, const UA_DeleteSubscriptionsRequest* request,
                                    const UA_DeleteSubscriptionsResponse* response) {
    (void)client; (void)request; (void)response;
}

struct DeleteSubscriptionCallback {
    UA_DeleteSubscriptionsRequest request;
    UA_ClientAsyncServiceCallback userCallback;
    void* userData;
};

static void
Subscriptions_delete_handler(UA_Client* client, void* data, UA_UInt32 requestId, void* r) {
    UA_DeleteSubscriptionsResponse* response = (UA_DeleteSubscriptionsResponse*)r;
    DeleteSubscriptionCallback* dsc = (DeleteSubscriptionCallback*)data;

    /* Delete */
    __Client_Subscription_processDelete(client, &dsc->request, response);

    /* Userland Callback */
    dsc->userCallback(client, dsc->userData, requestId, response); // RECALL: bug

    /* Cleanup */
    free(dsc->request.subscriptionIds);
    free(dsc);
}

UA_StatusCode
UA_Client_Subscriptions_delete_async(UA_Client* client, const UA_DeleteSubscriptionsRequest request,
                                     UA_ClientAsyncDeleteSubscriptionsCallback callback,
                                     void* userdata, UA_UInt32* requestId) {
    DeleteSubscriptionCallback* dsc = (DeleteSubscriptionCallback*)malloc(sizeof(DeleteSubscriptionCallback));
    if(!dsc)
        return UA_STATUSCODE_BADOUTOFMEMORY;
    dsc->userCallback = (UA_ClientAsyncServiceCallback)callback;
    dsc->userData = userdata;
    dsc->request.subscriptionIdsSize = request.subscriptionIdsSize;
    dsc->request.subscriptionIds = (UA_UInt32*)malloc(request.subscriptionIdsSize * sizeof(UA_UInt32));
    if(!dsc->request.subscriptionIds) {
        free(dsc);
        return UA_STATUSCODE_BADOUTOFMEMORY;
    }
    memcpy(dsc->request.subscriptionIds, request.subscriptionIds, request.subscriptionIdsSize * sizeof(UA_UInt32));

    UA_StatusCode res = __UA_Client_AsyncService(client, &request, Subscriptions_delete_handler, dsc, requestId);
    if(res != UA_STATUSCODE_GOOD) {
        free(dsc->request.subscriptionIds);
        free(dsc);
    }
    return res;
}

/* Client application as in the report: no completion callback wanted. */
UA_StatusCode deleteSubscription(UA_Client* client, UA_UInt32 subId) {
    UA_DeleteSubscriptionsRequest req;
    req.subscriptionIds = &subId;
    req.subscriptionIdsSize = 1;
    UA_UInt32 requestId = 0;
    return UA_Client_Subscriptions_delete_async(client, req, NULL, NULL, &requestId);
}
