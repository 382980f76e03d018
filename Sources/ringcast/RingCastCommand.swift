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
    /// push --help)`), and a word where a command was expected names the nearest command
    /// (`ringcast: unknown command 'psuh'; did you mean 'push'? (see ringcast --help)`) or lists them;
    /// nil for what ArgumentParser prints itself (help, `--version`, an error with no message such as
    /// `ringcast` alone, which prints the usage).
    static func oneLine(for error: any Error, arguments: [String]) -> (text: String, status: ExitCode)? {
        let status = exitCode(for: error)
        let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        guard status != .success, !message.isEmpty else { return nil }
        guard status == .validationFailure else { return ("ringcast: \(message)", status) }
        let help = (["ringcast"] + subcommandPath(arguments) + ["--help"]).joined(separator: " ")
        if let unknown = unknownCommand(in: arguments) {
            let advice = CommandSuggestion.advice(for: unknown.word, among: unknown.names)
            return ("ringcast: unknown command '\(unknown.word)'; \(advice) (see \(help))", status)
        }
        // ArgumentParser starts its messages with a capital (`Missing expected argument`); the line reads on
        // from `ringcast:` as the others do.
        let sentence = message.prefix(1).lowercased() + message.dropFirst()
        return ("ringcast: \(sentence) (see \(help))", status)
    }

    /// The word where `arguments` name a command of a group that has none of that name, and the names the group
    /// has: `psuh` among `serve`, `push`, … for `psuh main move 0.5`; `craete` among `create`, `set`, … for
    /// `board craete x`. Nil when the word names one, when it is an option (`--help`), or when the command
    /// reached takes no subcommands.
    static func unknownCommand(in arguments: [String]) -> (word: String, names: [String])? {
        let path = subcommandPath(arguments)
        var commands = configuration.subcommands
        for name in path {
            commands = commands.first { $0._commandName == name }?.configuration.subcommands ?? []
        }
        // ArgumentParser's own `ringcast help COMMAND` is no entry of the table.
        guard !commands.isEmpty, path.count < arguments.count, !(path.isEmpty && arguments[0] == "help") else { return nil }
        let word = arguments[path.count]
        guard !word.hasPrefix("-") else { return nil }
        return (word, commands.map { $0._commandName })
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
