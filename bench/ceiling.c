/* The ceiling pagerd is measured against: libmicrohttpd answering every request with a fixed
 * body, byte for byte the state document pagerd answers a GET of a four-page session with
 * (2,169 bytes; a command's answer adds about 50), in the threading mode pagerd uses (poll by
 * default), with one or more internal threads. Built and started by `make load`.
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
    "{\"id\":\"ceilingceilingceiling0\",\"version\":1,\"settingsVersion\":1,\"mode\":\"loop\",\"layoutDirection\":\"ltr\",\"orientation\""
    ":\"horizontal\",\"swipe\":\"both\",\"pageCount\":4,\"index\":1,\"empty\":false,\"page\":{\"id\":\"p1\",\"title"
    "\":\"Page 1\",\"content\":{},\"stack\":[]},\"canGoPrevious\":true,\"canGoNext\":true,\"previous\":{\"index\":0"
    ",\"id\":\"p0\",\"title\":\"Page 0\"},\"next\":{\"index\":2,\"id\":\"p2\",\"title\":\"Page 2\"},\"preload\":[{"
    "\"index\":0,\"id\":\"p0\",\"title\":\"Page 0\",\"content\":{}},{\"index\":2,\"id\":\"p2\",\"title\":\"Page 2\""
    ",\"content\":{}}],\"trailingAction\":null,\"emptyState\":null,\"viewport\":{\"width\":390,\"height\":844},\"pa"
    "geOffset\":390,\"visible\":[{\"index\":1,\"id\":\"p1\",\"fraction\":1}],\"tabs\":[{\"index\":0,\"id\":\"p0\","
    "\"title\":\"Page 0\",\"x\":0,\"width\":97.5,\"selection\":0,\"selected\":false,\"icon\":null,\"badge\":null,\""
    "accessibility\":{\"label\":\"Page 0\",\"hint\":null,\"value\":\"Tab 1 of 4\",\"selected\":false,\"traits\":[\""
    "button\"],\"actions\":[\"activate\"]}},{\"index\":1,\"id\":\"p1\",\"title\":\"Page 1\",\"x\":97.5,\"width\":97"
    ".5,\"selection\":1,\"selected\":true,\"icon\":null,\"badge\":null,\"accessibility\":{\"label\":\"Page 1\",\"hi"
    "nt\":null,\"value\":\"Tab 2 of 4\",\"selected\":true,\"traits\":[\"button\",\"selected\"],\"actions\":[]}},{\""
    "index\":2,\"id\":\"p2\",\"title\":\"Page 2\",\"x\":195,\"width\":97.5,\"selection\":0,\"selected\":false,\"ico"
    "n\":null,\"badge\":null,\"accessibility\":{\"label\":\"Page 2\",\"hint\":null,\"value\":\"Tab 3 of 4\",\"selec"
    "ted\":false,\"traits\":[\"button\"],\"actions\":[\"activate\"]}},{\"index\":3,\"id\":\"p3\",\"title\":\"Page 3"
    "\",\"x\":292.5,\"width\":97.5,\"selection\":0,\"selected\":false,\"icon\":null,\"badge\":null,\"accessibility"
    "\":{\"label\":\"Page 3\",\"hint\":null,\"value\":\"Tab 4 of 4\",\"selected\":false,\"traits\":[\"button\"],\"a"
    "ctions\":[\"activate\"]}}],\"accessibility\":{\"pager\":{\"value\":\"Page 2 of 4\",\"traits\":[\"adjustable\"]"
    ",\"actions\":[\"increment\",\"decrement\"],\"platformActions\":[\"pageRight\",\"pageLeft\"]},\"liveRegion\":\""
    "polite\"},\"autoAdvance\":{\"enabled\":false,\"interval\":5000,\"direction\":\"forward\",\"atEnd\":\"rewind\","
    "\"onInteraction\":\"pause\",\"running\":false,\"paused\":false,\"pausedBy\":null,\"dueAt\":null,\"remaining\":"
    "null},\"indicator\":{\"x\":97.5,\"width\":97.5,\"height\":2,\"alpha\":1,\"segments\":[{\"x\":97.5,\"width\":97"
    ".5}]},\"tabBar\":{\"layout\":\"fixed\",\"contentWidth\":390,\"offset\":0},\"overscroll\":null,\"transition\":n"
    "ull}";

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
    MHD_add_response_header(response, "Cache-Control", "no-store");
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
