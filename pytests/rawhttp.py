"""A raw HTTP/1.1 client over one socket, for tests and load scripts that need what http.client
hides: a chosen source address, kept-alive connections, partial requests, chunked streams."""
import json
import socket


class Closed(EOFError):
    """The server closed the connection."""


class Connection:
    """One HTTP/1.1 connection (kept alive), optionally from another loopback address, optionally
    with a small receive buffer (`receive_buffer` bytes), so that an answer it does not read stays
    in the server."""

    def __init__(self, port, source=None, timeout=10, host="127.0.0.1", receive_buffer=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.sock.settimeout(timeout)
            if receive_buffer:  # before connecting, so the window offered is small from the start
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            if source:
                self.sock.bind((source, 0))
            self.sock.connect((host, port))
        except BaseException:
            self.sock.close()
            raise
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        # Set when a chunked body ended because the server closed the connection.
        self.closed_by_server = False

    def settimeout(self, timeout):
        self.sock.settimeout(timeout)

    def send(self, data):
        self.sock.sendall(data)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def _fill(self):
        chunk = self.sock.recv(262144)
        if not chunk:
            raise Closed("the server closed the connection")
        self.buffer += chunk

    def _line(self):
        while b"\r\n" not in self.buffer:
            self._fill()
        line, _, self.buffer = self.buffer.partition(b"\r\n")
        return line

    def _exactly(self, size):
        while len(self.buffer) < size:
            self._fill()
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def read_head(self):
        """(status, headers): names lower-cased, repeated headers joined with ', '."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        return status, headers

    def read_chunk(self):
        """The next chunk of a chunked body; None at its end, or when the connection ends
        (`closed_by_server` then says so)."""
        try:
            size = int(self._line().split(b";")[0], 16)
            if size == 0:
                self._line()
                return None
            return self._exactly(size + 2)[:-2]
        except (Closed, ConnectionResetError):
            self.closed_by_server = True
            return None

    def read_body(self, headers):
        if "content-length" in headers:
            return self._exactly(int(headers["content-length"]))
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = b""
            while (chunk := self.read_chunk()) is not None:
                body += chunk
            return body
        try:  # delimited by the end of the connection
            while True:
                self._fill()
        except (Closed, ConnectionResetError):
            body, self.buffer = self.buffer, b""
            return body

    def read_response(self, head_only=False):
        status, headers = self.read_head()
        bodiless = head_only or status in (204, 304) or 100 <= status < 200
        return status, headers, b"" if bodiless else self.read_body(headers)

    def request(self, method, path, body=None, headers=None):
        self.send(request_bytes(method, path, body, headers))
        return self.read_response(head_only=method == "HEAD")


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def request_bytes(method, path, body=None, headers=None):
    """A whole request: a dict or list body is sent as compact JSON with its Content-Type."""
    headers = {"Host": "t", **(headers or {})}
    if isinstance(body, (dict, list)):
        body = compact(body).encode()
        headers.setdefault("Content-Type", "application/json")
    elif isinstance(body, str):
        body = body.encode()
    if body is not None:
        headers["Content-Length"] = str(len(body))
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return head.encode() + (body or b"")


def call(port, method, path, body=None, headers=None, source=None, timeout=10):
    """One request on a new connection: (status, headers, body bytes)."""
    conn = Connection(port, source, timeout)
    try:
        return conn.request(method, path, body, headers)
    finally:
        conn.close()


class EventStream(Connection):
    """An event stream (`GET /v1/sessions/{id}/events`, optionally with Last-Event-ID) read block
    by block. When the server refuses it, `status`, `headers` and `body` hold the answer."""

    def __init__(self, port, sid, source=None, timeout=10, last_event_id=None, query=""):
        super().__init__(port, source, timeout)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.send(request_bytes("GET", f"/v1/sessions/{sid}/events{query}", headers=headers))
        self.status, self.headers = self.read_head()
        self.body = b"" if self.status == 200 else self.read_body(self.headers)
        self.text = ""
        self.ended = False

    def next_block(self):
        """The next event, `retry:` or comment block; None when the stream ended."""
        while "\n\n" not in self.text:
            if self.ended:
                return None
            chunk = self.read_chunk()
            if chunk is None:
                self.ended = True
            else:
                self.text += chunk.decode()
        block, _, self.text = self.text.partition("\n\n")
        return block

    def next_event(self):
        """(id, kind, state) of the next event, skipping comments and `retry:`; None at the end."""
        while (block := self.next_block()) is not None:
            fields = dict(line.partition(": ")[::2] for line in block.split("\n") if line and not line.startswith(":"))
            if "event" in fields:
                return int(fields.get("id", 0)), fields["event"], json.loads(fields["data"])
        return None
