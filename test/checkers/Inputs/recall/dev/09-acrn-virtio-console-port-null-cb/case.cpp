// Reduced from projectacrn/acrn-hypervisor at d92c4bd84~1:
// devicemodel/hw/pci/virtio/virtio_console.c, devicemodel/hw/pci/virtio/virtio.c
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct iovec { void* iov_base; size_t iov_len; };

#define VIRTIO_CONSOLE_MAXPORTS 16
#define VIRTIO_CONSOLE_MAXQ (VIRTIO_CONSOLE_MAXPORTS * 2 + 2)

struct virtio_vq_info;
typedef void (*vq_notify_fn)(void*, struct virtio_vq_info*);

struct virtio_vq_info {
    uint16_t qsize;
    uint16_t num;
    vq_notify_fn notify;
};

struct virtio_ops {
    const char* name;
    void (*qnotify)(void*, struct virtio_vq_info*);
};

struct virtio_base {
    struct virtio_ops* vops;
    void* dev_struct;
    struct virtio_vq_info* queues;
    int nvq;
};

int vq_has_descs(struct virtio_vq_info* vq);
int vq_getchain(struct virtio_vq_info* vq, uint16_t* pidx, struct iovec* iov, int n_iov, uint16_t* flags);
void vq_relchain(struct virtio_vq_info* vq, uint16_t idx, uint32_t iolen);
void vq_endchains(struct virtio_vq_info* vq, int used_all_avail);

struct virtio_console_port;
typedef void (virtio_console_cb_t)(struct virtio_console_port*, void*, struct iovec*, int);

struct virtio_console;

struct virtio_console_port {
    struct virtio_console* console;
    int id;
    const char* name;
    bool enabled;
    bool is_console;
    bool rx_ready;
    bool open;
    int rxq;
    int txq;
    void* arg;
    virtio_console_cb_t* cb;
};

struct virtio_console_backend {
    struct virtio_console_port* port;
    int fd;
    bool open;
};

struct virtio_console {
    struct virtio_base base;
    struct virtio_vq_info queues[VIRTIO_CONSOLE_MAXQ];
    struct virtio_console_port control_port;
    struct virtio_console_port ports[VIRTIO_CONSOLE_MAXPORTS];
    int nports;
    bool ready;
};

static inline struct virtio_console_port*
virtio_console_vq_to_port(struct virtio_console* console, struct virtio_vq_info* vq)
{
    uint16_t num = vq->num;

    if (num == 0 || num == 1)
        return &console->ports[0];

    if (num == 2 || num == 3)
        return &console->control_port;

    return &console->ports[(num / 2) - 1];
}

static struct virtio_console_port*
virtio_console_add_port(struct virtio_console* console, const char* name,
                        virtio_console_cb_t* cb, void* arg, bool is_console)
{
    struct virtio_console_port* port;

    if (console->nports == VIRTIO_CONSOLE_MAXPORTS)
        return NULL;

    port = &console->ports[console->nports++];
    port->id = console->nports - 1;
    port->console = console;
    port->name = name;
    port->cb = cb;
    port->arg = arg;
    port->is_console = is_console;

    if (port->id == 0) {
        port->txq = 0;
        port->rxq = 1;
    } else {
        port->txq = console->nports * 2;
        port->rxq = port->txq + 1;
    }
    port->enabled = true;
    return port;
}

static void
virtio_console_control_tx(struct virtio_console_port* port, void* arg, struct iovec* iov, int niov)
{
    (void)arg; (void)iov; (void)niov;
    port->console->ready = true;
}

static void
virtio_console_backend_write(struct virtio_console_port* port, void* arg, struct iovec* iov, int niov)
{
    struct virtio_console_backend* be = (struct virtio_console_backend*)arg;
    (void)port; (void)niov;
    if (be->fd != -1)
        fwrite(iov->iov_base, 1, iov->iov_len, stdout);
}

static void
virtio_console_notify_tx(void* vdev, struct virtio_vq_info* vq)
{
    struct virtio_console* console;
    struct virtio_console_port* port;
    struct iovec iov[1];
    uint16_t idx;
    uint16_t flags[8];

    console = (struct virtio_console*)vdev;
    port = virtio_console_vq_to_port(console, vq);

    while (vq_has_descs(vq)) {
        vq_getchain(vq, &idx, iov, 1, flags);
        if (port != NULL)
            port->cb(port, port->arg, iov, 1); // RECALL: bug

        vq_relchain(vq, idx, 0);
    }
    vq_endchains(vq, 1);
}

static void
virtio_console_notify_rx(void* vdev, struct virtio_vq_info* vq)
{
    struct virtio_console* console = (struct virtio_console*)vdev;
    struct virtio_console_port* port = virtio_console_vq_to_port(console, vq);

    if (!port->rx_ready)
        port->rx_ready = 1;
}

static int
virtio_console_add_backend(struct virtio_console* console, const char* portname, int fd, bool is_console)
{
    struct virtio_console_backend* be = (struct virtio_console_backend*)calloc(1, sizeof(*be));
    if (be == NULL)
        return -1;
    be->fd = fd;
    be->port = virtio_console_add_port(console, portname, virtio_console_backend_write, be, is_console);
    if (be->port == NULL) {
        free(be);
        return -1;
    }
    be->open = true;
    return 0;
}

static struct virtio_ops virtio_console_ops = { "vtcon", NULL };

/* virtio.c: guest wrote the queue-notify register */
static void
virtio_pci_write_queue_notify(struct virtio_base* base, uint64_t value)
{
    struct virtio_ops* vops = base->vops;
    struct virtio_vq_info* vq;

    if (value >= (unsigned int)base->nvq) {
        fprintf(stderr, "%s: queue %d notify out of range\r\n", vops->name, (int)value);
        return;
    }
    vq = &base->queues[value];
    if (vq->notify)
        (*vq->notify)(base->dev_struct, vq); // RECALL: safe
    else if (vops->qnotify)
        (*vops->qnotify)(base->dev_struct, vq); // RECALL: safe
    else
        fprintf(stderr, "%s: qnotify queue %d: missing vq/vops notify\r\n", vops->name, (int)value);
}

static int
virtio_console_init(const char* opts)
{
    struct virtio_console* console;
    int i;

    console = (struct virtio_console*)calloc(1, sizeof(struct virtio_console));
    if (!console)
        return -1;

    console->base.vops = &virtio_console_ops;
    console->base.dev_struct = console;
    console->base.queues = console->queues;
    console->base.nvq = VIRTIO_CONSOLE_MAXQ;

    for (i = 0; i < VIRTIO_CONSOLE_MAXQ; i++) {
        console->queues[i].qsize = 64;
        console->queues[i].num = (uint16_t)i;
        console->queues[i].notify = i % 2 == 0
            ? virtio_console_notify_rx
            : virtio_console_notify_tx;
    }

    /* create control port */
    console->control_port.console = console;
    console->control_port.txq = 2;
    console->control_port.rxq = 3;
    console->control_port.cb = virtio_console_control_tx;
    console->control_port.enabled = true;

    /* one backend from the command line; ports[1..] stay zeroed (cb == NULL) */
    if (virtio_console_add_backend(console, opts, 1, true) < 0)
        return -1;
    return 0;
}
