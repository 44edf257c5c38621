import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a file of its own, held until released or the process
/// ends (also by kill -9: the kernel drops it with the process).
final class FileLock {
    private var descriptor: Int32
    let path: String

    /// How long a lock held by someone else is waited for before the store is refused: a process
    /// that is stopping (a restart) still holds it for a moment, and so does, until it runs its
    /// program, a child that a process (a test runner) starts while its store closes, since the
    /// child shares the lock file's descriptor until then.
    static let patience = Duration.seconds(1)

    /// Takes the lock on `path` (creating the file), or throws why not: held by another process
    /// for longer than ``patience``, or the file cannot be opened.
    init(path: String) throws(StoreOpenError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreOpenError(.unusable, "cannot open the lock file \(path): \(FileLock.lastError())")
        }
        let deadline = ContinuousClock.now + Self.patience
        var taken = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        while !taken, errno == EWOULDBLOCK, ContinuousClock.now < deadline {
            usleep(10_000)
            taken = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        }
        guard taken else {
            let busy = errno == EWOULDBLOCK
            let reason = FileLock.lastError()
            close(descriptor)
            descriptor = -1
            throw busy
                ? StoreOpenError(.inUse, "another process holds the lock \(path)")
                : StoreOpenError(.unusable, "cannot lock \(path): \(reason)")
        }
    }

    /// `path` with every symbolic link resolved, so that two names of one database (a link and
    /// its target, or a path through a linked folder) lock one file; a file not made yet keeps
    /// its name in its folder's resolved path. (A second hard link to the file is a name of its
    /// own, as it is for SQLite's journal files: do not make one.)
    static func resolved(_ path: String) -> String {
        if let full = realpath(path, nil) {
            defer { free(full) }
            return String(cString: full)
        }
        let name = (path as NSString).lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        guard let full = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
        defer { free(full) }
        return (String(cString: full) as NSString).appendingPathComponent(name)
    }

    deinit { release() }

    /// Releases the lock.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    static func lastError() -> String {
        guard let text = strerror(errno) else { return "errno \(errno)" }
        return String(cString: text)
    }
}
