// The only file that talks to libmicrohttpd. C pointers stay in this file: a callback copies what
// it needs out of C memory before it returns, and the connection's handle (``ConnectionHandle``)
// and a streamed response's binding (``StreamBinding``) carry a connection pointer beyond a
// callback only so that other threads can suspend or resume that connection, which
// libmicrohttpd allows from any thread.
private import CMicroHTTPD
import HTTPTypes
import Locking
import Synchronization

#if canImport(Glibc)
    private import Glibc
#endif

/// The running daemon, guarded by the server's lock.
struct DaemonState: @unchecked Sendable {
    // @unchecked: the handle is only used under the server's lock or by libmicrohttpd itself.
    var handle: OpaquePointer?
    var listenSocket: Int32 = -1
    var port = 0
    /// The `CMicroHTTPD_logger` the daemon logs through; freed after the daemon stops.
    var logger: UnsafeMutableRawPointer?
}

/// One connection of libmicrohttpd's, as a request's context carries it: only to suspend it
/// while the request waits and to resume it, which libmicrohttpd allows from any thread.
struct ConnectionHandle: @unchecked Sendable {
    // @unchecked: the pointer is used only for the two calls below.
    fileprivate let pointer: OpaquePointer

    /// Stops libmicrohttpd from serving the connection until ``resume()``.
    func suspend() { MHD_suspend_connection(pointer) }

    /// Lets libmicrohttpd serve the connection again; it calls the access handler soon after.
    func resume() { MHD_resume_connection(pointer) }
}

/// What a streamed response's callbacks need: the stream, the connection to resume, and its
/// socket, which the peer watcher watches from the stream's first wait until the response is
/// freed.
private final class StreamBinding: Sendable {
    let stream: HTTPResponseStream
    let connection: ConnectionHandle
    let socket: Int32
    let watcher: PeerWatcher
    /// Whether the socket is in the peer watcher's set. Read and set under the stream's lock.
    private let watched = Atomic<Bool>(false)

    init(stream: HTTPResponseStream, connection: ConnectionHandle, socket: Int32, watcher: PeerWatcher) {
        self.stream = stream
        self.connection = connection
        self.socket = socket
        self.watcher = watcher
    }

    /// Suspends the connection until the stream has more to send; the first time, the socket
    /// joins the peer watcher's set, where it stays while the stream lives (a stream waits again
    /// after every event: two `epoll_ctl` calls per event and watcher were an eighth of the CPU
    /// that one change cost with 10,000 watchers). Called under the stream's lock.
    func suspend() {
        connection.suspend()
        guard !watched.exchange(true, ordering: .relaxed) else { return }
        let stream = self.stream
        watcher.watch(socket, owner: ObjectIdentifier(self)) { stream.peerDidLeave() }
    }

    /// Resumes the connection. The socket stays watched: a hang-up seen while the connection is
    /// served ends the stream just the same, and the watch is removed when the response is freed
    /// (``forget()``). Should the connection complete first and its descriptor be reused, the
    /// watcher tells the two apart (see ``PeerWatcher``).
    func resume() {
        connection.resume()
    }

    /// Takes the socket out of the peer watcher's set; called when the response is freed.
    func forget() {
        watcher.unwatch(socket, owner: ObjectIdentifier(self))
    }
}

extension HTTPServer {
    /// The block size of a streamed response (see where it is created).
    static let streamBlockSize = 1024

    // MARK: - Life cycle

    func startDaemon() throws(HTTPServerError) {
        let config = configuration
        var flags = MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        switch config.threading {
        case .poll: flags |= MHD_USE_POLL_INTERNAL_THREAD.rawValue
        case .epollPool: flags |= MHD_USE_EPOLL_INTERNAL_THREAD.rawValue
        }
        guard var address = SocketAddress(host: config.host, port: config.port) else {
            throw .invalidHost(config.host)
        }
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

        let threads = config.serverThreads
        // libmicrohttpd splits its connection limit evenly between its threads, and a thread at
        // its share accepts no more: long-lived streams that filled one thread's share left every
        // new request to the other threads (an audience of 10,000 at a limit of 10,256 put all
        // of `make fanout`'s requests on one of two threads). So each thread may take the whole
        // limit, and the limit over all of them is held by the accept policy, which counts open
        // connections (see `acceptPolicy`).
        var options: [MHD_OptionItem] = [
            Self.option(.CONNECTION_LIMIT, config.connectionLimit * threads),
            Self.option(.PER_IP_CONNECTION_LIMIT, config.perIPConnectionLimit),
            Self.option(.CONNECTION_TIMEOUT, config.connectionTimeout),
            Self.option(.CONNECTION_MEMORY_LIMIT, config.connectionMemoryLimit),
            Self.option(.STRICT_FOR_CLIENT, config.strictForClient ? 1 : 0),
        ]
        if threads > 1 {
            options.append(Self.option(.THREAD_POOL_SIZE, threads))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let logger = UnsafeMutablePointer<CMicroHTTPD_logger>.allocate(capacity: 1)
        logger.initialize(to: CMicroHTTPD_logger(sink: Self.logSink, context: me))
        // The logger goes first: libmicrohttpd reports the options before it on its own stderr logger.
        options.insert(CMicroHTTPD_logger_option(logger), at: 0)
        options.append(CMicroHTTPD_completed_option(Self.completedHandler, me))
        options.append(CMicroHTTPD_connection_option(Self.connectionHandler, me))
        // Percent-decoding that keeps `%00` as it is: a NUL would cut the path short.
        options.append(CMicroHTTPD_unescape_option())
        let handle: OpaquePointer? = address.withSockaddr { sockaddr in
            options.append(MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: sockaddr))
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { items in
                CMicroHTTPD_start(flags, 0, Self.acceptPolicy, me, Self.accessHandler, me, items.baseAddress)
            }
        }
        try daemon.withLock { state throws(HTTPServerError) in
            guard state.handle == nil else {
                if let handle { MHD_stop_daemon(handle) }
                logger.deallocate()
                throw .alreadyStarted
            }
            guard let handle else {
                logger.deallocate()
                throw .startFailed(host: config.host, port: config.port)
            }
            state.handle = handle
            state.port = Int(CMicroHTTPD_bound_port(handle))
            state.logger = UnsafeMutableRawPointer(logger)
        }
        watcher.start()
    }

    /// Stops accepting connections; false when the server was not running.
    func quiesce() -> Bool {
        daemon.withLock { state in
            guard let handle = state.handle, !stopping.exchange(true, ordering: .acquiringAndReleasing) else {
                return false
            }
            state.listenSocket = MHD_quiesce_daemon(handle)
            return true
        }
    }

    func stopDaemon() {
        daemon.withLock { state in
            guard let handle = state.handle else { return }
            MHD_stop_daemon(handle)
            if state.listenSocket >= 0 { close(state.listenSocket) }
            state.logger?.deallocate()
            state = DaemonState()
        }
        watcher.stop()
        stopping.store(false, ordering: .releasing)
        refusing.store(false, ordering: .releasing)
    }

    /// Receives libmicrohttpd's error messages, formatted by the shim, on a server thread.
    private static let logSink: CMicroHTTPD_log_sink = { context, message in
        guard let context, let message else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        server.errorLog(text)
    }

    private static func option(_ option: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }

    // MARK: - Callbacks

    /// Whether to take a connection just accepted: not when `connectionLimit` connections are
    /// open (libmicrohttpd then closes it at once). Threads accepting at the same instant may each
    /// take one more, so the count passes the limit by at most one connection per server thread.
    private static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return .NO }
        return Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            server.statistics.connections.load(ordering: .relaxed) < server.configuration.connectionLimit ? .YES : .NO
        }
    }

    /// Counts the connections open, for the accept policy.
    private static let connectionHandler: MHD_NotifyConnectionCallback = { cls, _, _, code in
        guard let cls else { return }
        Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            switch code {
            case .CONNECTION_NOTIFY_STARTED: server.statistics.connections.add(1, ordering: .relaxed)
            case .CONNECTION_NOTIFY_CLOSED: server.statistics.connections.subtract(1, ordering: .relaxed)
            default: break
            }
        }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, _, uploadData, uploadDataSize, requestState in
        guard let cls, let connection, let uploadDataSize, let requestState else { return .NO }
        // The server outlives its daemon, so it is used without a retain: every server thread
        // shares it, and retaining it on each callback made its reference count a contended line.
        return Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            server.handle(
                connection, url: url, method: method, upload: uploadData, uploadSize: uploadDataSize,
                requestState: requestState)
        }
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, requestState, _ in
        guard let cls, let requestState, let raw = requestState.pointee else { return }
        requestState.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            if context.isTracked { server.active.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) } }
            server.statistics.answers.subtract(context.answerBytes, ordering: .relaxed)
            if context.networkAnswerBytes > 0 {
                server.answersByNetwork.add(-context.networkAnswerBytes, for: context.peer.network)
            }
            server.statistics.live.subtract(1, ordering: .releasing)
        }
    }

    private func handle(
        _ connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = requestState.pointee else {
            // First call: headers only. Copy everything out of C memory now.
            let methodText = method.map { String(cString: $0) } ?? ""
            let parsedMethod = HTTPRequest.Method(methodText)
            let context = RequestContext(
                method: parsedMethod ?? .get,
                path: url.map { RequestFraming.path(ofTarget: String(cString: $0)) } ?? "/",
                connection: ConnectionHandle(pointer: connection))
            var malformed = parsedMethod == nil ? "the method '\(methodText)' is not a token" : nil
            if let reason = Self.copyHeaderFields(of: connection, into: &context.headers) { malformed = reason }
            context.query = Self.values(of: connection, kind: .GET_ARGUMENT_KIND)
            context.peer = Self.clientAddress(of: connection)
            requestState.pointee = Unmanaged.passRetained(context).toOpaque()
            statistics.live.add(1, ordering: .relaxed)
            // A request with a body is in flight until the body is in: `stop()` gives it the grace
            // period. One without is answered in this same pass, or tracked when it may wait.
            if let length = context.headers[.contentLength], length.trimmingASCIISpaces() != "0" { track(context) }
            // Once stopping, a request that arrives on a kept-alive connection is refused at once
            // and never suspended: libmicrohttpd must not be stopped with a suspended connection.
            if stopping.load(ordering: .acquiring) {
                return refuse(.shuttingDown, on: connection, context: context)
            }
            if let reason = malformed {
                return refuse(.malformed(reason: reason), on: connection, context: context)
            }
            if let refusal = RequestFraming.refusal(for: context.headers, maxBodyBytes: configuration.maxBodyBytes) {
                return refuse(refusal, on: connection, context: context)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        guard context.isReceiving else {
            // Called again after a resume (or spuriously): queue the answer if it is there.
            guard let response = context.takeResponse() else { return .YES }
            return queue(response, on: connection, context: context)
        }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            if context.body.count + count > configuration.maxBodyBytes {
                context.bodyOverflow = true
            } else if let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                    context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if context.bodyOverflow {
            return refuse(.bodyTooLarge(limit: configuration.maxBodyBytes), on: connection, context: context)
        }
        if refusing.load(ordering: .acquiring) {
            // The grace period is over: nothing may wait any longer.
            return refuse(.shuttingDown, on: connection, context: context)
        }
        // Answers their clients have not read hold too much memory: refused before any work, so
        // the budget is passed by at most the answers of requests admitted meanwhile.
        if statistics.answers.load(ordering: .relaxed) >= configuration.answerBudgetBytes,
            !configuration.alwaysServedPaths.contains(context.path)
        {
            return refuse(
                .answerBudgetExceeded(limit: configuration.answerBudgetBytes), on: connection, context: context)
        }
        // Nor may one client's network hold more than its share of that budget, so that a client
        // that does not read what it asked for cannot lock the others out. Looked up only once
        // networks hold a share in all.
        if let share = networkShare, answersByNetwork.held(by: context.peer.network, atLeast: share) >= share,
            !configuration.alwaysServedPaths.contains(context.path)
        {
            return refuse(.addressAnswerShareExceeded(limit: share), on: connection, context: context)
        }
        // (The responder is used where it is stored: a copy would retain it, an object every
        // server thread shares, on every request.)
        switch responder.respond(to: context.makeRequest()) {
        case .now(let response):
            context.markAnswered()
            return queue(response, on: connection, context: context)
        case .later(let work):
            // It may wait from here on: tracked first, then the flag read again (see `track`).
            track(context)
            if refusing.load(ordering: .acquiring) {
                return refuse(.shuttingDown, on: connection, context: context)
            }
            context.startResponding()
            // The task starts on this thread and runs until it first suspends; when nothing makes
            // it wait that is the whole request, and the answer is queued below without
            // suspending the connection or waking another thread.
            Task.immediate {
                let response = await work()
                // A response that is never queued (the server refused the request meanwhile) must
                // still close its stream, or the stream's writer would wait forever.
                if !context.offer(response) { response.discard() }
            }
            guard let response = context.takeResponse() else { return .YES }
            return queue(response, on: connection, context: context)
        }
    }

    /// Answers the request with the responder's refusal, without its work.
    private func refuse(_ refusal: HTTPRefusal, on connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        context.markAnswered()
        return queue(responder.response(for: refusal), on: connection, context: context)
    }

    private func queue(_ response: Response, on connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        let response = withinNetworkShare(response, context: context)
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
            // libmicrohttpd holds its copy until the request completes (see `completedHandler`).
            if created != nil {
                context.answerBytes += bytes.count
                statistics.answers.add(bytes.count, ordering: .relaxed)
            }
        case .stream(let stream) where context.method == .head:
            // The headers only. libmicrohttpd sends a body of unknown length chunked, and then
            // writes the last chunk even for HEAD; in HTTP/1.0-compatible mode it uses no
            // chunking and closes the connection after the answer, so nothing follows the headers.
            stream.close()
            created = MHD_create_response_from_callback(UInt64.max, 4096, Self.endReader, nil, nil)
            if let created {
                // MHD_RF_HTTP_1_0_COMPATIBLE_STRICT (the enum's members are not imported by name).
                _ = CMicroHTTPD_set_response_flags(created, MHD_ResponseFlags(rawValue: 1))
            }
        case .stream(let stream):
            let binding = StreamBinding(
                stream: stream, connection: context.connection,
                socket: CMicroHTTPD_connection_fd(connection), watcher: watcher)
            let account = StreamAccount(
                statistics: statistics, budget: configuration.answerBudgetBytes, network: context.peer.network,
                networks: networkShare == nil ? nil : answersByNetwork)
            stream.attach(wake: { binding.resume() }, account: account)
            context.stream = stream
            track(context)
            // A stream queued while stopping ends after what it has: `stop()` may already have
            // finished the streams it knew of, and this one must not wait suspended.
            if stopping.load(ordering: .acquiring) { stream.finish() }
            let retained = Unmanaged.passRetained(binding)
            // The block size is the buffer libmicrohttpd allocates (zeroed) with the response; it
            // reads a chunked body into the connection's own buffer instead, so the block serves
            // only HTTP/1.0 clients. Kept small: an audience holds one per watcher.
            created = MHD_create_response_from_callback(
                UInt64.max, Self.streamBlockSize, Self.streamReader, retained.toOpaque(), Self.streamFree)
            if created == nil {
                retained.release()
                stream.close()
            }
        }
        guard let created else { return .NO }
        for field in response.headers {
            // withCString puts a short string on the stack; passing a String where C wants a
            // pointer would copy a short one into a new array, two allocations per field.
            field.name.rawName.withCString { name in
                field.value.withCString { value in _ = MHD_add_response_header(created, name, value) }
            }
        }
        if stopping.load(ordering: .relaxed), !response.headers.contains(.connection) {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        let result = MHD_queue_response(connection, UInt32(response.status.code), created)
        MHD_destroy_response(created)
        return result
    }

    private static let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer else { return -2 }
        let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeUnretainedValue()
        let destination = UnsafeMutableRawBufferPointer(start: buffer, count: max)
        switch binding.stream.read(into: destination, suspend: { binding.suspend() }) {
        case .bytes(let count): return count
        case .wait: return 0
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        // The client left: end the response as usual. (MHD_CONTENT_READER_END_WITH_ERROR would
        // close at once too, but libmicrohttpd logs every such close as an application error.)
        case .abort: return -1
        }
    }

    /// A body that ends at once.
    private static let endReader: MHD_ContentReaderCallback = { _, _, _, _ in -1 }  // END_OF_STREAM

    private static let streamFree: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeRetainedValue()
        binding.forget()
        binding.stream.close()
    }

    /// The client's IP address, copied out of C memory.
    private static func clientAddress(of connection: OpaquePointer) -> PeerAddress {
        guard let address = CMicroHTTPD_client_address(connection) else { return PeerAddress() }
        return PeerAddress(UnsafeRawPointer(address))
    }

    /// Appends the request's header fields to `fields`; returns why one is malformed (a name that
    /// is not a token, or a name or value holding a NUL byte: that field is left out), or nil.
    private static func copyHeaderFields(of connection: OpaquePointer, into fields: inout HTTPFields) -> String? {
        struct Copy {
            var fields: HTTPFields
            var malformed: String?
        }
        // Counted first (a walk of a short list, with no callback), so the fields grow once.
        let count = Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil))
        guard count > 0 else { return nil }
        var copy = Copy(fields: fields, malformed: nil)
        fields = HTTPFields()
        copy.fields.reserveCapacity(copy.fields.count + count)
        withUnsafeMutablePointer(to: &copy) { pointer in
            // The lengths libmicrohttpd reports include what follows a NUL byte, which a C string
            // would cut off.
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    let copy = cls.assumingMemoryBound(to: Copy.self)
                    let name = String(cString: key)
                    guard strlen(key) == keySize, value.map({ strlen($0) == valueSize }) ?? true else {
                        copy.pointee.malformed = "the header '\(name)' holds a NUL byte"
                        return .YES
                    }
                    if let fieldName = HTTPField.Name(name) {
                        copy.pointee.fields.append(
                            HTTPField(name: fieldName, value: value.map { String(cString: $0) } ?? ""))
                    } else {
                        copy.pointee.malformed = "the header name '\(name)' is not a token"
                    }
                    return .YES
                }, pointer)
        }
        fields = copy.fields
        return copy.malformed
    }

    /// Copies the header or query values of a connection into Swift strings.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
        var collected: [(name: String, value: String)] = []
        // Counted first (a walk of a short list, with no callback), so the array grows once.
        let count = Int(MHD_get_connection_values(connection, kind, nil, nil))
        guard count > 0 else { return collected }
        collected.reserveCapacity(count)
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values(
                connection, kind,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let list = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
                    list.pointee.append((name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
                    return .YES
                }, pointer)
        }
        return collected
    }
}
