import RingCastCore

/// How a cluster node keeps its playlists in step with Redis's `rc:playlists` hash (docs/CLUSTER.md), as a small
/// state machine beside `ClusterSync`. Playlists are few and small, so the whole hash is read at each subscription,
/// at each notification (a playlist written or deleted through any node) and, after a reading failed, once a command
/// works again; what it holds replaces what the node serves. Every node then holds the same definitions — the same
/// anchors — and switches its viewers on the same ticks. Pure: no clock, no threads, no I/O; the shell
/// (`ClusterNode+Playlists`) carries out the actions and reports their results as further events.
struct PlaylistSync {
    /// The reading of the hash.
    enum Reading: Equatable {
        case idle
        /// A reading is under way; `again`: read once more when it is back (a notification came meanwhile, so what
        /// it brings may predate the change).
        case reading(again: Bool)
        /// The last reading failed: read again once a command works.
        case failed
    }

    enum Action: Equatable {
        /// Read the whole hash, then report `allRead` or `allReadFailed`.
        case readAll
        /// Serve `playlist` from now on (new, or replaced from its anchor).
        case serve(Playlist)
        /// Stop serving the playlist of this name (its viewers are closed with 4404).
        case remove(String)
        case log(ClusterSync.LogLevel, String)
        /// An answer to no reading under way: a bug in the node. Nothing changed; logged as an error (the cluster
        /// model test fails on it).
        case unexpected(String)
    }

    /// Redis's address, for the logs.
    let address: String
    private(set) var reading: Reading = .idle
    /// The stored bytes of every playlist served, by name: what Redis held at the last reading, or what this node
    /// wrote since.
    private(set) var held: [String: [UInt8]]
    /// Entries Redis holds that cannot be read, as last seen: logged once, not at every reading.
    private(set) var unreadable: [String: [UInt8]] = [:]

    init(address: String, held: [String: [UInt8]]) {
        self.address = address
        self.held = held
    }

    // MARK: - Events

    mutating func subscribed() -> [Action] { read() }

    /// A playlist was written or deleted (through any node): the name the channel carried does not matter, as the
    /// whole hash is read.
    mutating func notified() -> [Action] { read() }

    /// A command worked: a reading that failed is made again.
    mutating func commandSucceeded() -> [Action] {
        reading == .failed ? read() : []
    }

    private mutating func read() -> [Action] {
        switch reading {
        case .reading:
            reading = .reading(again: true)
            return []
        case .idle, .failed:
            reading = .reading(again: false)
            return [.readAll]
        }
    }

    /// What a `.readAll` found: every stored definition, by name.
    mutating func allRead(_ found: [String: [UInt8]]) -> [Action] {
        guard case .reading(let again) = reading else {
            return [.unexpected("a reading of the playlists that was not asked for")]
        }
        var actions: [Action] = []
        for (name, bytes) in found.sorted(by: { $0.key < $1.key }) where held[name] != bytes {
            do {
                let playlist = try Playlist.loading(bytes)
                guard playlist.name == name else {
                    throw APIError.invalidValue("it names itself \"\(playlist.name)\"", field: "name")
                }
                held[name] = bytes
                unreadable[name] = nil
                actions.append(.serve(playlist))
            } catch {
                if unreadable[name] != bytes {
                    unreadable[name] = bytes
                    actions.append(
                        .log(.error, "Redis at \(address): playlist \(name) cannot be read (\(error)); not serving it"))
                }
                if held.removeValue(forKey: name) != nil { actions.append(.remove(name)) }
            }
        }
        for name in held.keys.sorted() where found[name] == nil {
            held[name] = nil
            actions.append(.remove(name))
        }
        unreadable = unreadable.filter { found[$0.key] != nil }
        if again {
            reading = .reading(again: false)
            actions.append(.readAll)
        } else {
            reading = .idle
        }
        return actions
    }

    mutating func allReadFailed(_ reason: String) -> [Action] {
        guard case .reading = reading else {
            return [.unexpected("a failed reading of the playlists that was not asked for (\(reason))")]
        }
        reading = .failed
        return [
            .log(
                .warning, "cannot read the playlists from Redis at \(address) (\(reason)); reading them again once Redis answers")
        ]
    }

    /// This node's own write went through: `stored` (nil: deleted) is what Redis holds now, and the node serves it
    /// already; the notification that follows finds nothing to change.
    mutating func wrote(_ name: String, stored: [UInt8]?) {
        held[name] = stored
        unreadable[name] = nil
    }
}
