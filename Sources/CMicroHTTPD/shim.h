#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <ctype.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call. The fixed arguments (the accept policy
 * and the access handler) come through here; every option, the completion and connection
 * callbacks included, travels in an MHD_OptionItem array ended by MHD_OPTION_END, so that the
 * caller can put the external logger first (libmicrohttpd writes messages about options before
 * it to its own stderr logger). */
static inline struct MHD_Daemon *CMicroHTTPD_start(
    unsigned int flags, uint16_t port,
    MHD_AcceptPolicyCallback accept, void *accept_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, accept, accept_cls, handler, handler_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/* The MHD_OPTION_NOTIFY_CONNECTION item: a two-argument option, function then context. */
static inline struct MHD_OptionItem CMicroHTTPD_connection_option(MHD_NotifyConnectionCallback notify, void *context)
{
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify, context };
    return item;
}

/* The MHD_OPTION_NOTIFY_COMPLETED item: a two-argument option, function then context. */
static inline struct MHD_OptionItem CMicroHTTPD_completed_option(MHD_RequestCompletedCallback completed, void *context)
{
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, context };
    return item;
}

/* The MHD_OPTION_UNESCAPE_CALLBACK function: decodes the %XX escapes of a path, a query key or a
 * query value in place, as libmicrohttpd's own decoder does (an invalid escape stays as it is),
 * except %00: a NUL byte would end the C string the server reads, so "/v1/sessions/a%00b" would
 * arrive as "/v1/sessions/a". It stays the three characters "%00". Returns the new length. */
static size_t CMicroHTTPD_unescape(void *cls, struct MHD_Connection *connection, char *s)
{
    (void) cls;
    (void) connection;
    char *read = s, *write = s;
    while (*read != '\0') {
        if (read[0] == '%' && isxdigit((unsigned char) read[1]) && isxdigit((unsigned char) read[2])) {
            const char digits[3] = { read[1], read[2], '\0' };
            const unsigned long value = strtoul(digits, NULL, 16);
            if (value != 0) {
                *write++ = (char) value;
                read += 3;
                continue;
            }
        }
        *write++ = *read++;
    }
    *write = '\0';
    return (size_t) (write - s);
}

/* The MHD_OPTION_UNESCAPE_CALLBACK item for CMicroHTTPD_unescape. */
static inline struct MHD_OptionItem CMicroHTTPD_unescape_option(void)
{
    struct MHD_OptionItem item = { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) &CMicroHTTPD_unescape, NULL };
    return item;
}

/* MHD_get_daemon_info is variadic too: the port the daemon is bound to (useful with port 0). */
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* MHD_set_response_options is variadic: flags only, no options. */
static inline enum MHD_Result CMicroHTTPD_set_response_flags(struct MHD_Response *response, enum MHD_ResponseFlags flags)
{
    return MHD_set_response_options(response, flags, MHD_RO_END);
}

/* The connection's client socket. The server only polls it, to notice a client that left while
 * its connection is suspended; libmicrohttpd owns it and closes it. */
static inline int CMicroHTTPD_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The client's socket address, or NULL when unknown; valid while the connection is. */
static inline const struct sockaddr *CMicroHTTPD_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* libmicrohttpd's error log hands over a printf format and a va_list. This formats it and passes
 * the finished line to `sink`, so the Swift side receives plain text. */
typedef void (*CMicroHTTPD_log_sink)(void *context, const char *message);

struct CMicroHTTPD_logger {
    CMicroHTTPD_log_sink sink;
    void *context;
};

static void CMicroHTTPD_format_log(void *cls, const char *format, va_list arguments)
{
    char line[1024];
    vsnprintf(line, sizeof line, format, arguments);
    const struct CMicroHTTPD_logger *logger = cls;
    logger->sink(logger->context, line);
}

/* The MHD_OPTION_EXTERNAL_LOGGER item for `logger`, which must outlive the daemon. */
static inline struct MHD_OptionItem CMicroHTTPD_logger_option(struct CMicroHTTPD_logger *logger)
{
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) &CMicroHTTPD_format_log, logger };
    return item;
}

#endif
