import Foundation
import RingCastTransport

extension DrainReport {
    /// The line a stopped server logs: how long the drain took (`seconds`, the store's flush
    /// included), what was open when it began, what was answered and closed, and what was cut.
    func logLine(seconds: Double) -> String {
        let took = String(format: "%.3f", seconds)
        let start = "\(Self.count(requestsInFlight, "request")) in flight and \(Self.count(viewers, "viewer")) when it began"
        var parts = [
            "\(Self.count(answered, "request")) answered (\(answeredSuccessfully) 2xx, \(refused) 503 shutting_down, "
                + "\(answered - answeredSuccessfully - refused) other)",
            "\(viewersClosed) of \(Self.count(viewers, "viewer")) closed with 1001",
            "\(Self.count(idleConnectionsClosed, "idle connection")) closed",
        ]
        if viewersDropped > 0 {
            parts.append("\(Self.count(viewersDropped, "viewer")) dropped before answering the close")
        }
        guard timedOut else {
            return "drain finished in \(took) s: \(start); " + parts.joined(separator: ", ")
        }
        let cut =
            cutRequests.isEmpty
            ? "no request" : "\(Self.count(cutRequests.count, "request")) (\(cutRequests.joined(separator: ", ")))"
        return "drain cut short by shutdownTimeout \(Int(timeout)) s after \(took) s: \(start); " + parts.joined(separator: ", ")
            + "; cut \(cut) without an answer"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
