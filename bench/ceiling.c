/* The ceiling pagerd is measured against: libmicrohttpd answering every request with a fixed
 * JSON body the size of a four-page state document (about 1 KB), in the threading mode pagerd
 * uses (by default two internal threads with poll). Built and started by `make load`.
 *
 *   usage: ceiling PORT [poll|epoll-pool] [THREADS]
 */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char BODY[] =
    "{\"id\":\"ceilingceilingceiling0\",\"version\":7,\"mode\":\"bounded\",\"pageCount\":4,\"index\":1,"
    "\"empty\":false,\"page\":{\"id\":\"p1\",\"title\":\"Page 1\",\"content\":{},\"stack\":[]},"
    "\"canGoPrevious\":true,\"canGoNext\":true,\"previous\":{\"index\":0,\"id\":\"p0\",\"title\":\"Page 0\"},"
    "\"next\":{\"index\":2,\"id\":\"p2\",\"title\":\"Page 2\"},\"preload\":[{\"index\":0,\"id\":\"p0\","
    "\"title\":\"Page 0\",\"content\":{}},{\"index\":2,\"id\":\"p2\",\"title\":\"Page 2\",\"content\":{}}],"
    "\"trailingAction\":null,\"emptyState\":null,\"viewport\":{\"width\":390},\"pageOffset\":390,"
    "\"tabs\":[{\"index\":0,\"id\":\"p0\",\"title\":\"Page 0\",\"x\":0,\"width\":97.5},{\"index\":1,\"id\":\"p1\","
    "\"title\":\"Page 1\",\"x\":97.5,\"width\":97.5},{\"index\":2,\"id\":\"p2\",\"title\":\"Page 2\",\"x\":195,"
    "\"width\":97.5},{\"index\":3,\"id\":\"p3\",\"title\":\"Page 3\",\"x\":292.5,\"width\":97.5}],"
    "\"indicator\":{\"x\":97.5,\"width\":97.5,\"height\":2,\"segments\":[{\"x\":97.5,\"width\":97.5}]},"
    "\"tabBar\":{\"layout\":\"fixed\",\"contentWidth\":390,\"offset\":0},\"transition\":null,\"moved\":true}";

static volatile sig_atomic_t stopping = 0;

static void on_signal(int sig) { (void)sig; stopping = 1; }

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    if (*con_cls == NULL) { /* headers only: come back for the body, as pagerd does */
        *con_cls = (void *)1;
        return MHD_YES;
    }
    if (*upload_data_size != 0) { /* discard the body */
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof(BODY) - 1, (void *)BODY, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
    MHD_add_response_header(response, "ETag", "\"7\"");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PORT [poll|epoll-pool] [THREADS]\n", argv[0]);
        return 2;
    }
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD;
    unsigned int pool = argc > 3 ? (unsigned int)atoi(argv[3]) : 2;
    if (argc > 2 && strcmp(argv[2], "epoll-pool") == 0) {
        flags = MHD_USE_EPOLL_INTERNAL_THREAD;
        if (pool < 2) pool = 2;
    }
    if (pool < 2) pool = 0; /* one internal thread, no pool */
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1024, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        MHD_OPTION_STRICT_FOR_CLIENT, (int)1, MHD_OPTION_THREAD_POOL_SIZE, pool, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "ceiling: cannot listen on port %s\n", argv[1]);
        return 1;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    fprintf(stderr, "ceiling listening port=%s\n", argv[1]);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    return 0;
}
