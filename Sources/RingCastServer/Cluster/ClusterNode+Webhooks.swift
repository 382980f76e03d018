import Logging
import RingCastCluster
import RingCastCore

extension ClusterNode {
    /// How long a webhook claim stays in Redis: the nodes find the same end within a tick or two of each other.
    static let webhookClaimMilliseconds = 600_000

    /// Every node finds each countdown end on the same tick; the first to `SET rc:{BOARD}:webhook:RING:TICK NX`
    /// delivers it. Without an answer from Redis the node delivers anyway: at least once, rather than never.
    static func webhookClaim(worker: RedisWorker, node: String, logger: Logger) -> WebhookSender.Claim {
        { end, decide in
            let key = BoardKeys(board: end.board).webhook(ring: end.ring, tick: end.tick)
            worker.submit { session in
                do {
                    let reply = try session.connection.command(
                        ["SET", key, node.isEmpty ? "1" : node, "NX", "PX", String(webhookClaimMilliseconds)])
                    decide(reply == .status("OK"))
                } catch {
                    logger.warning("webhook claim \(key): Redis did not answer (\(error)); delivering from this node")
                    decide(true)
                }
            }
        }
    }
}
