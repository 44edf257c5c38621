/* An audience for one pagerd session: WATCHERS event-stream clients on one thread (epoll), then
 * CHANGES moves of the session, each timed from the command's answer to every watcher's receipt
 * of that version. Started by `make fanout` (bench/fanout.py), which starts pagerd, reads its
 * memory and runs the load beside it; this program only connects, moves and measures.
 *
 *   usage: fanout PORT SESSION WATCHERS CHANGES [TOKEN]
 *
 * Prints, on stdout, one line per phase and per change:
 *   connected <watchers> <seconds>
 *   change <k> version <v> reached <n>/<watchers> p50_ms <x> p99_ms <y> max_ms <z>
 * A watcher's latency is its receipt time (CLOCK_MONOTONIC, read as its bytes are read) minus the
 * time the command's answer was read; an event read before the answer counts as 0 ms. With TOKEN
 * the streams send `Authorization: Bearer TOKEN` and the command uses it too.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* One watcher: its socket, how far its answer has been read, and the last version it saw. */
struct watcher {
    int fd;
    int sent;          /* the request was written */
    int headed;        /* the response head was read (status 200) */
    int chunk_left;    /* bytes left in the current chunk; -1 while reading a size line */
    int crlf_left;     /* bytes of the CRLF after a chunk still to skip */
    long version;      /* the newest `id:` seen */
    char head[512];    /* the response head, until its blank line */
    int head_len;
    char line[64];     /* the start of the current event-stream line */
    int line_len;
    char size[24];     /* the current chunk-size line */
    int size_len;
};

static struct watcher *watchers;
static int count;
static int epoll_fd;
static struct sockaddr_in server;
static char request[1024];
static int request_len;

/* Receipt times by change and watcher, in ns; 0 until received. */
static int64_t *receipts;
static long base_version;
static int changes;

static int no_wait(void);

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

/* One complete event-stream line of watcher `w`, read at `at`. */
static void stream_line(struct watcher *w, int64_t at) {
    if (w->line_len >= 4 && memcmp(w->line, "id: ", 4) == 0) {
        w->line[w->line_len < (int)sizeof(w->line) ? w->line_len : (int)sizeof(w->line) - 1] = 0;
        long version = strtol(w->line + 4, NULL, 10);
        if (version > w->version) {
            w->version = version;
            long k = version - base_version;
            if (base_version > 0 && k >= 1 && k <= changes) {
                int64_t *slot = &receipts[(k - 1) * (int64_t)count + (w - watchers)];
                if (*slot == 0) *slot = at;
            }
        }
    }
    w->line_len = 0;
}

/* Body bytes (after chunk framing) of watcher `w`. */
static void stream_bytes(struct watcher *w, const char *data, int length, int64_t at) {
    for (int i = 0; i < length; i++) {
        char c = data[i];
        if (c == '\n') {
            stream_line(w, at);
        } else if (w->line_len < (int)sizeof(w->line) - 1) {
            w->line[w->line_len++] = c;
        } else {
            w->line_len++; /* a long line (the state document): only its start matters */
        }
    }
}

/* Raw bytes from watcher `w`'s socket: the head, then the chunked body. */
static void received(struct watcher *w, const char *data, int length, int64_t at) {
    int i = 0;
    while (!w->headed && i < length) {
        if (w->head_len < (int)sizeof(w->head) - 1) w->head[w->head_len++] = data[i];
        i++;
        if (w->head_len >= 4 && memcmp(w->head + w->head_len - 4, "\r\n\r\n", 4) == 0) {
            w->head[w->head_len] = 0;
            if (strncmp(w->head, "HTTP/1.1 200", 12) != 0) {
                fprintf(stderr, "fanout: a stream was refused: %.60s\n", w->head);
                exit(1);
            }
            w->headed = 1;
            w->chunk_left = -1;
        }
    }
    while (i < length) {
        if (w->crlf_left > 0) {
            w->crlf_left--;
            i++;
        } else if (w->chunk_left < 0) {
            char c = data[i++];
            if (c == '\n') {
                w->size[w->size_len] = 0;
                w->chunk_left = (int)strtol(w->size, NULL, 16);
                w->size_len = 0;
                if (w->chunk_left == 0) w->chunk_left = -1; /* the last chunk: the stream ended */
            } else if (c != '\r' && w->size_len < (int)sizeof(w->size) - 1) {
                w->size[w->size_len++] = c;
            }
        } else {
            int take = length - i < w->chunk_left ? length - i : w->chunk_left;
            stream_bytes(w, data + i, take, at);
            i += take;
            w->chunk_left -= take;
            if (w->chunk_left == 0) {
                w->chunk_left = -1;
                w->crlf_left = 2;
            }
        }
    }
}

static void open_watcher(struct watcher *w) {
    w->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (w->fd < 0) fail("socket");
    if (connect(w->fd, (struct sockaddr *)&server, sizeof(server)) < 0 && errno != EINPROGRESS) fail("connect");
    struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.ptr = w};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, w->fd, &event) < 0) fail("epoll_ctl");
}

/* Runs the event loop for at most `timeout_ms`, or until `done()` holds. */
static void run(int timeout_ms, int (*done)(void)) {
    static struct epoll_event events[1024];
    static char buffer[65536];
    int64_t deadline = now_ns() + (int64_t)timeout_ms * 1000000;
    while (!done() && now_ns() < deadline) {
        int ready = epoll_wait(epoll_fd, events, 1024, 10);
        if (ready < 0 && errno != EINTR) fail("epoll_wait");
        for (int e = 0; e < ready; e++) {
            struct watcher *w = events[e].data.ptr;
            if (!w->sent && (events[e].events & EPOLLOUT)) {
                if (write(w->fd, request, request_len) != request_len) fail("write");
                w->sent = 1;
                struct epoll_event event = {.events = EPOLLIN, .data.ptr = w};
                epoll_ctl(epoll_fd, EPOLL_CTL_MOD, w->fd, &event);
            }
            if (events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                for (;;) {
                    ssize_t got = read(w->fd, buffer, sizeof(buffer));
                    if (got > 0) {
                        received(w, buffer, (int)got, now_ns());
                        if (got < (ssize_t)sizeof(buffer)) break;
                    } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                        fprintf(stderr, "fanout: a stream closed (watcher %ld)\n", (long)(w - watchers));
                        exit(1);
                    } else {
                        break;
                    }
                }
            }
        }
    }
}

static int all_at_base(void) {
    for (int i = 0; i < count; i++)
        if (watchers[i].version < base_version) return 0;
    return 1;
}

static long awaited;
static int all_at_awaited(void) {
    for (int i = 0; i < count; i++)
        if (watchers[i].version < awaited) return 0;
    return 1;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sends POST …/next on a blocking connection and reads the answer; returns the new version and
 * sets `*answered` to the time the whole answer had been read. The watchers are served while
 * the command waits, so none of their bytes wait behind it. */
static long move_session(const char *session, const char *token, int64_t *answered) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0 || (connect(fd, (struct sockaddr *)&server, sizeof(server)) < 0 && errno != EINPROGRESS)) fail("command");
    char command[1024];
    int length = snprintf(command, sizeof(command),
                          "POST /v1/sessions/%s/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n%s%s%s"
                          "Connection: close\r\n\r\n",
                          session, token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "");
    char answer[1 << 16];
    int have = 0, written = 0;
    while (1) {
        if (written < length) {
            ssize_t n = write(fd, command + written, length - written);
            if (n > 0) written += (int)n;
        }
        ssize_t n = read(fd, answer + have, sizeof(answer) - 1 - have);
        if (n > 0) {
            have += (int)n;
            continue;
        }
        if (n == 0) break;
        if (errno != EAGAIN && errno != EINPROGRESS && errno != ENOTCONN) fail("command read");
        run(1, no_wait);
    }
    *answered = now_ns();
    close(fd);
    answer[have] = 0;
    if (strncmp(answer, "HTTP/1.1 200", 12) != 0) {
        fprintf(stderr, "fanout: the command failed: %.80s\n", answer);
        exit(1);
    }
    const char *version = strstr(answer, "\"version\":");
    return version ? strtol(version + 10, NULL, 10) : -1;
}

/* Never done: run() serves the streams for its whole timeout. */
static int no_wait(void) { return 0; }

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s PORT SESSION WATCHERS CHANGES [TOKEN]\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    const char *session = argv[2];
    count = atoi(argv[3]);
    changes = atoi(argv[4]);
    const char *token = argc > 5 ? argv[5] : NULL;

    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if ((rlim_t)count + 64 > limit.rlim_cur) {
        fprintf(stderr, "fanout: %d watchers need %d open files; the limit is %ld\n", count, count + 64,
                (long)limit.rlim_cur);
        return 1;
    }
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)port);
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    request_len = snprintf(request, sizeof(request),
                           "GET /v1/sessions/%s/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n%s%s%s\r\n",
                           session, token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "");
    watchers = calloc((size_t)count, sizeof(struct watcher));
    receipts = calloc((size_t)count * (size_t)(changes > 0 ? changes : 1), sizeof(int64_t));
    epoll_fd = epoll_create1(0);
    if (!watchers || !receipts || epoll_fd < 0) fail("setup");

    /* Connect in steps of 256, so the listen queue never overflows. */
    int64_t started = now_ns();
    base_version = 1;
    for (int i = 0; i < count; i += 256) {
        int last = i + 256 < count ? i + 256 : count;
        for (int j = i; j < last; j++) open_watcher(&watchers[j]);
        awaited = 1;
        int opened = last;
        int saved = count;
        count = opened;
        run(30000, all_at_awaited);
        count = saved;
    }
    /* Every watcher has the first state; the version it names is where the changes start. */
    run(60000, all_at_base);
    long first = watchers[0].version;
    for (int i = 0; i < count; i++)
        if (watchers[i].version != first) {
            fprintf(stderr, "fanout: watchers started at different versions\n");
            return 1;
        }
    printf("connected %d %.2f\n", count, (double)(now_ns() - started) / 1e9);
    fflush(stdout);
    /* Wait for the driver to read the server's memory: one line on stdin. */
    char go[16];
    if (!fgets(go, sizeof(go), stdin)) return 1;

    base_version = first;
    for (int k = 1; k <= changes; k++) {
        int64_t answered;
        long version = move_session(session, token, &answered);
        if (version != first + k) {
            fprintf(stderr, "fanout: the session moved to version %ld, expected %ld\n", version, first + k);
            return 1;
        }
        awaited = version;
        run(10000, all_at_awaited);
        int64_t *row = &receipts[(int64_t)(k - 1) * count];
        int reached = 0;
        int64_t *latencies = malloc(sizeof(int64_t) * (size_t)count);
        for (int i = 0; i < count; i++) {
            if (row[i] == 0) continue;
            int64_t latency = row[i] - answered;
            latencies[reached++] = latency > 0 ? latency : 0;
        }
        qsort(latencies, (size_t)reached, sizeof(int64_t), compare);
        double p50 = reached ? latencies[reached / 2] / 1e6 : -1;
        double p99 = reached ? latencies[(reached * 99) / 100 < reached ? (reached * 99) / 100 : reached - 1] / 1e6 : -1;
        double max = reached ? latencies[reached - 1] / 1e6 : -1;
        printf("change %d version %ld reached %d/%d p50_ms %.1f p99_ms %.1f max_ms %.1f\n", k, version, reached, count,
               p50, p99, max);
        fflush(stdout);
        free(latencies);
        /* A pause between changes, serving the streams (heartbeats) meanwhile. */
        run(200, no_wait);
    }
    return 0;
}
