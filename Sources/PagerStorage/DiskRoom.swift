import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many bytes a database file and its WAL can still grow by.
enum DiskRoom {
    /// The smaller of the space free on the file system of `path` (for an unprivileged user)
    /// and what the process's file-size limit (`RLIMIT_FSIZE`) leaves to the larger of `path`
    /// and `path-wal`; nil when the file system cannot be asked. The corresponding C functions
    /// are `statvfs`, `getrlimit` and `stat`.
    static func measure(_ path: String) -> Int? {
        let folder = (path as NSString).deletingLastPathComponent
        var system = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &system) == 0 else { return nil }
        var room = Int(clamping: UInt64(system.f_bavail) &* UInt64(system.f_frsize))
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            let largest = max(size(of: path), size(of: path + "-wal"))
            room = min(room, Int(clamping: limit.rlim_cur) - largest)
        }
        return room
    }

    /// The size of the file at `path`; 0 when there is none.
    static func size(of path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }
}
