import ArgumentParser
import Foundation

@main
struct RingCastCommand: AsyncParsableCommand {
    /// The release, as `ringcast --version` prints it.
    static let version = "0.4.0"

    static let configuration = CommandConfiguration(
        commandName: "ringcast",
        abstract: "Live progress rings: push over REST, animate on the server, draw in every browser.",
        version: version,
        subcommands: [
            Serve.self, Push.self, Get.self, HistoryCommand.self, CountdownCommand.self, BoardCommand.self,
            RingCommand.self, WidgetCommand.self, PlaylistCommand.self,
        ]
    )

    /// ArgumentParser's own `main()`, except that every failure is one line on standard error:
    /// a `CommandFailure` (a bad value, a config error, the server's answer) as `ringcast: MESSAGE`
    /// with exit status 1, and a usage error as `ringcast: MESSAGE (see ringcast push --help)` with
    /// ArgumentParser's status 64 (EX_USAGE), instead of `Error: MESSAGE` followed by the usage text.
    /// Help and `--version` print as ArgumentParser prints them.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("ringcast: \(failure)\n".utf8))
            exit(withError: ExitCode.failure)
        } catch {
            guard let line = oneLine(for: error, arguments: arguments) else { exit(withError: error) }
            FileHandle.standardError.write(Data("\(line.text)\n".utf8))
            exit(withError: line.status)
        }
    }

    /// The one line and exit status for an error that is not a `CommandFailure`: a usage error
    /// names the subcommand's help (`ringcast: missing expected argument '<board>' (see ringcast
    /// push --help)`); nil for what ArgumentParser prints itself (help, `--version`, an error with
    /// no message such as `ringcast` alone, which prints the usage).
    static func oneLine(for error: any Error, arguments: [String]) -> (text: String, status: ExitCode)? {
        let status = exitCode(for: error)
        let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        guard status != .success, !message.isEmpty else { return nil }
        guard status == .validationFailure else { return ("ringcast: \(message)", status) }
        // ArgumentParser starts its messages with a capital (`Missing expected argument`); the line reads on
        // from `ringcast:` as the others do.
        let sentence = message.prefix(1).lowercased() + message.dropFirst()
        let help = (["ringcast"] + subcommandPath(arguments) + ["--help"]).joined(separator: " ")
        return ("ringcast: \(sentence) (see \(help))", status)
    }

    /// The subcommand names that `arguments` start with: `["board", "delete"]` for
    /// `board delete main --force`.
    static func subcommandPath(_ arguments: [String]) -> [String] {
        var path: [String] = []
        var commands = configuration.subcommands
        for argument in arguments {
            guard let next = commands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            commands = next.configuration.subcommands
        }
        return path
    }
}
