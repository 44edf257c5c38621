#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H

/* Linux's epoll, which Glibc's Swift module does not export. The peer watcher
 * (MicroHTTP/PeerWatcher.swift) is its one user. */
#include <sys/epoll.h>

#endif
