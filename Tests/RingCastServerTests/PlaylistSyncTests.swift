import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `PlaylistSync`, a node's playlists kept in step with Redis's hash: event by event, then a seeded random model of a
/// Redis written by other nodes, with notifications and readings delivered late and interleaved, checked against
/// the invariants after every step.
@Suite("Playlist sync state machine")
struct PlaylistSyncTests {
    static let address = "sim:6379"

    /// A playlist's stored bytes; a playlist the test made that cannot be encoded is recorded as an issue.
    static func stored(_ playlist: Playlist) -> [UInt8] {
        do {
            return try playlist.stored()
        } catch {
            Issue.record("cannot encode playlist \(playlist.name): \(error)")
            return []
        }
    }

    static func playlist(_ name: String, _ boards: [String] = ["main"], seconds: Int = 30) -> Playlist {
        Playlist(name: name, boards: boards, seconds: seconds, transition: .circle, anchor: 1_763_683_200)
    }

    static func served(_ actions: [PlaylistSync.Action]) -> [String] {
        actions.compactMap { if case .serve(let playlist) = $0 { playlist.name } else { nil } }
    }

    @Test func aSubscription_readsEverything_andServesWhatRedisHolds() throws {
        var sync = PlaylistSync(address: Self.address, held: [:])
        #expect(sync.subscribed() == [.readAll])
        let wall = Self.playlist("wall")
        #expect(sync.allRead(["wall": Self.stored(wall)]) == [.serve(wall)])
        #expect(sync.reading == .idle && sync.held == ["wall": Self.stored(wall)])
        // Read again, nothing changed: nothing to do.
        #expect(sync.notified() == [.readAll])
        #expect(sync.allRead(["wall": Self.stored(wall)]) == [])
    }

    @Test func aReadingNotAsked_isReportedUnexpected_andChangesNothing() throws {
        var sync = PlaylistSync(address: Self.address, held: [:])
        let wall = Self.playlist("wall")
        guard case .unexpected = sync.allRead(["wall": Self.stored(wall)]).first else {
            Issue.record("a reading not asked for was taken")
            return
        }
        guard case .unexpected = sync.allReadFailed("gone").first else {
            Issue.record("a failed reading not asked for was taken")
            return
        }
        #expect(sync.held.isEmpty && sync.reading == .idle)
    }

        @Test func aNotificationDuringAReading_readsOnceMore_afterIt() throws {
        var sync = PlaylistSync(address: Self.address, held: [:])
        _ = sync.subscribed()
        #expect(sync.notified() == [], "one reading at a time")
        #expect(sync.notified() == [])
        let wall = Self.playlist("wall")
        #expect(sync.allRead([:]) == [.readAll])
        #expect(sync.allRead(["wall": Self.stored(wall)]) == [.serve(wall)])
        #expect(sync.reading == .idle)
    }

    @Test func aPlaylistGoneFromRedis_isRemoved_andAReplacedOneServedAgain() throws {
        let wall = Self.playlist("wall")
        let lobby = Self.playlist("lobby")
        var sync = PlaylistSync(address: Self.address, held: ["wall": Self.stored(wall), "lobby": Self.stored(lobby)])
        _ = sync.notified()
        let replaced = Self.playlist("wall", ["main", "ci"])
        #expect(sync.allRead(["wall": Self.stored(replaced)]) == [.serve(replaced), .remove("lobby")])
    }

    @Test func anUnreadableEntry_isLoggedOnce_andNotServed() throws {
        let wall = Self.playlist("wall")
        var sync = PlaylistSync(address: Self.address, held: ["wall": Self.stored(wall)])
        let damaged = Array(#"{"name":"wall","boards":[]}"#.utf8)
        _ = sync.notified()
        let actions = sync.allRead(["wall": damaged])
        #expect(actions.count == 2)
        #expect(actions.last == .remove("wall"))
        guard case .log(.error, let text) = actions.first else {
            Issue.record("no error logged: \(actions)")
            return
        }
        #expect(text.contains("playlist wall cannot be read"))
        _ = sync.notified()
        #expect(sync.allRead(["wall": damaged]) == [], "logged once")
        // Misnamed: stored under another name than its own.
        _ = sync.notified()
        #expect(Self.served(sync.allRead(["lobby": Self.stored(wall)])).isEmpty)
    }

    @Test func aFailedReading_isMadeAgainOnceACommandWorks() throws {
        var sync = PlaylistSync(address: Self.address, held: [:])
        _ = sync.subscribed()
        #expect(sync.allReadFailed("connection refused").count == 1)
        #expect(sync.reading == .failed)
        #expect(sync.commandSucceeded() == [.readAll])
        #expect(sync.commandSucceeded() == [])
    }

    @Test func thisNodesOwnWrite_isHeld_soItsNotificationChangesNothing() throws {
        var sync = PlaylistSync(address: Self.address, held: [:])
        let wall = Self.playlist("wall")
        sync.wrote("wall", stored: Self.stored(wall))
        #expect(sync.notified() == [.readAll])
        #expect(sync.allRead(["wall": Self.stored(wall)]) == [])
        sync.wrote("wall", stored: nil)
        _ = sync.notified()
        #expect(sync.allRead([:]) == [])
    }

    // MARK: - Seeded random model

    /// Redis written by other nodes (and this one), notifications and readings delivered late, readings failing: after
    /// every step at most one reading is out, and once everything is delivered the node serves exactly what Redis
    /// holds.
    @Test(arguments: [1, 2, 3, 5, 8, 13, 21, 34] as [UInt64])
    func randomInterleavings_endWithTheNodeServingWhatRedisHolds(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let names = ["wall", "lobby", "ops"]
        var redis: [String: [UInt8]] = [:]
        var sync = PlaylistSync(address: Self.address, held: [:])
        var served: [String: Playlist] = [:]
        var notifications = 0
        /// The readings asked for and not answered: each `nil` until it ran, then what Redis held then.
        var readings: [[String: [UInt8]]?] = []

        func perform(_ actions: [PlaylistSync.Action]) {
            for action in actions {
                switch action {
                case .readAll: readings.append(nil)
                case .serve(let playlist): served[playlist.name] = playlist
                case .remove(let name): served[name] = nil
                case .log: break
                case .unexpected(let text): Issue.record("unexpected: \(text)")
                }
            }
            #expect(readings.count <= 1, "one reading at a time")
        }

        func readable(_ redis: [String: [UInt8]]) -> [String: Playlist] {
            redis.compactMapValues { try? Playlist.loading($0) }.filter { $0.key == $0.value.name }
        }

        func randomDefinition(_ name: String) throws -> [UInt8] {
            if Int.random(in: 0..<10, using: &generator) == 0 { return Array(#"{"damaged":true}"#.utf8) }
            return try Self.playlist(
                name, ["main", "ci"].shuffled(using: &generator), seconds: Int.random(in: 1...60, using: &generator)
            )
            .stored()
        }

        perform(sync.subscribed())
        for _ in 0..<300 {
            switch Int.random(in: 0..<11, using: &generator) {
            case 0:
                // Another node writes or deletes.
                let name = names.randomElement(using: &generator)!
                redis[name] = Bool.random(using: &generator) ? try randomDefinition(name) : nil
                notifications += 1
            case 1:
                // This node writes: served at once, held, announced.
                let name = names.randomElement(using: &generator)!
                let playlist = Self.playlist(name, ["ci"], seconds: Int.random(in: 1...60, using: &generator))
                redis[name] = try playlist.stored()
                sync.wrote(name, stored: try playlist.stored())
                served[name] = playlist
                notifications += 1
            case 2...4 where notifications > 0:
                notifications -= 1
                perform(sync.notified())
            case 5...6 where readings.first == .some(nil):
                readings[0] = redis
            case 7...8 where readings.first != nil && readings.first! != nil:
                let found = readings.removeFirst()!
                perform(sync.allRead(found))
            case 9 where !readings.isEmpty:
                readings.removeFirst()
                perform(sync.allReadFailed("io"))
            case 10:
                perform(sync.commandSucceeded())
            default:
                break
            }
            // Nothing announced is undelivered and nothing is being read: the node holds what Redis holds.
            if notifications == 0, readings.isEmpty, sync.reading == .idle {
                #expect(served == readable(redis), "in step with Redis")
            }
        }
        // Deliver everything: every notification, every reading, a working command after a failure.
        var steps = 0
        while notifications > 0 || !readings.isEmpty || sync.reading != .idle, steps < 100 {
            steps += 1
            if notifications > 0 {
                notifications -= 1
                perform(sync.notified())
            } else if !readings.isEmpty {
                // A reading that already ran brings what Redis held then.
                let found = readings.removeFirst() ?? redis
                perform(sync.allRead(found))
            } else {
                perform(sync.commandSucceeded())
            }
        }
        #expect(served == readable(redis), "the node serves what Redis holds")
        #expect(sync.held == readable(redis).mapValues(Self.stored))
    }
}

/// The simulated cluster's generator, for the standard library's random functions.
extension SplitMix64: RandomNumberGenerator {}
