import Foundation
import RingCastCore

/// The animation `ringcast push` asks for, read from `--animation` and its parameters and checked
/// against the API's ranges (Limits), encoded as the API's JSON (README, "The API in brief"):
///
/// | flags | JSON |
/// | --- | --- |
/// | `--animation none` | `"none"` |
/// | `--animation easeOut` | `"easeOut"` (1 s) |
/// | `--animation easeOut --duration 0.6`, or `--duration 0.6` alone (easeInOut) | `{"curve":"easeOut","duration":0.6}` |
/// | `--animation bouncy` | `"bouncy"` |
/// | `--animation spring` | `{"spring":{}}` (response 0.5, dampingFraction 0.825) |
/// | `--response 0.5 --damping 0.7` | `{"spring":{"response":0.5,"dampingFraction":0.7}}` |
/// | `--animation spring --duration 0.5 --bounce 0.3` | `{"spring":{"duration":0.5,"bounce":0.3}}` |
enum PushAnimation: Equatable, Encodable {
    case none
    /// A curve by name; without a duration the API's 1 s.
    case curve(String, duration: Double?)
    case preset(String)
    /// SwiftUI's `.spring(response:dampingFraction:)`; what is nil takes the API's default.
    case spring(response: Double?, dampingFraction: Double?)
    /// iOS 17's `.spring(duration:bounce:)`; what is nil takes the API's default.
    case springDuration(Double?, bounce: Double?)

    static let presets = ["smooth", "snappy", "bouncy"]

    /// The names `--animation` takes, as its help and its error list them.
    static let choices =
        "none, a curve (\(TimingCurve.names.joined(separator: ", "))), a spring preset (\(presets.joined(separator: ", "))) "
        + "or spring"

    /// The animation the flags ask for; nil when they ask for none (the server's default,
    /// easeInOut over 1 s). A name the API does not know, a value out of range, or a parameter
    /// that does not apply to the animation throws, naming the flag.
    init?(name: String?, duration: Double?, response: Double?, damping: Double?, bounce: Double?) throws(CommandFailure) {
        try Self.check("--duration", duration, in: Limits.durations, unit: "seconds")
        try Self.check("--response", response, in: Limits.durations, unit: "seconds")
        try Self.check("--damping", damping, in: Limits.dampingFractions, unit: "(1 = no overshoot)")
        try Self.check("--bounce", bounce, in: Limits.bounces, unit: "(0 = no bounce)")
        let springFlags = [("--response", response), ("--damping", damping), ("--bounce", bounce)]
            .compactMap { flag, value in value.map { _ in flag } }
        switch name {
        case nil where springFlags.isEmpty:
            guard let duration else { return nil }
            self = .curve("easeInOut", duration: duration)
        case nil, "spring":
            if let mixed = springFlags.first(where: { $0 != "--bounce" }), duration != nil || bounce != nil {
                throw CommandFailure(
                    "\(mixed) does not go with \(bounce != nil ? "--bounce" : "--duration"): a spring takes --response and "
                        + "--damping, or --duration and --bounce")
            }
            if response != nil || damping != nil {
                self = .spring(response: response, dampingFraction: damping)
            } else if duration != nil || bounce != nil {
                self = .springDuration(duration, bounce: bounce)
            } else {
                self = .spring(response: nil, dampingFraction: nil)
            }
        case let name?:
            if let flag = springFlags.first {
                throw CommandFailure("\(flag) applies to --animation spring, not \(name)")
            }
            if name == "none" || Self.presets.contains(name) {
                if duration != nil {
                    throw CommandFailure(
                        "--duration has no meaning with --animation \(name)"
                            + (name == "none" ? "" : "; for a spring of your own use --animation spring --duration S --bounce B"))
                }
                self = name == "none" ? .none : .preset(name)
            } else if TimingCurve(name: name) != nil {
                self = .curve(name, duration: duration)
            } else {
                throw CommandFailure("unknown animation \"\(name)\"; use \(Self.choices)")
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .none:
            var container = encoder.singleValueContainer()
            try container.encode("none")
        case .curve(let name, nil), .preset(let name):
            var container = encoder.singleValueContainer()
            try container.encode(name)
        case .curve(let name, let duration?):
            try Timing(curve: name, duration: duration).encode(to: encoder)
        case .spring(let response, let dampingFraction):
            try SpringBody(spring: .init(response: response, dampingFraction: dampingFraction)).encode(to: encoder)
        case .springDuration(let duration, let bounce):
            try SpringBody(spring: .init(duration: duration, bounce: bounce)).encode(to: encoder)
        }
    }

    private struct Timing: Encodable {
        var curve: String
        var duration: Double
    }

    /// `{"spring":{…}}`; the keys that are nil are left out.
    private struct SpringBody: Encodable {
        struct Parameters: Encodable {
            var response: Double?
            var dampingFraction: Double?
            var duration: Double?
            var bounce: Double?
        }

        var spring: Parameters
    }

    /// Throws unless `value` is nil or a finite number in (`low`, `high`].
    /// The API's check of the value a flag sets (`Limits`), worded for the flag.
    static func check(_ flag: String, _ value: Double?, in range: ClosedRange<Double>, unit: String) throws(CommandFailure) {
        guard let value else { return }
        do {
            try Limits.check(value, in: range, named: flag, unit: unit, field: nil)
        } catch {
            throw CommandFailure(error.message)
        }
    }

    /// `0.5`, `60`: a number as a person writes it. `short`: a power of ten from a million up, or below a
    /// thousandth, as `1e9` or `1e-6`, as help texts write the limits.
    static func describe(_ value: Double, short: Bool = false) -> String {
        if short, value != 0, value.isFinite, value.magnitude >= 1e6 || value.magnitude < 1e-3 {
            let exponent = Int(log10(value.magnitude).rounded())
            let mantissa = value / pow(10, Double(exponent))
            if (mantissa.magnitude - 1).magnitude < 1e-9 { return "\(mantissa < 0 ? "-" : "")1e\(exponent)" }
        }
        return value.isFinite && value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
