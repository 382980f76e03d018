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
            Serve.self, Push.self, Get.self, CountdownCommand.self, BoardCommand.self, RingCommand.self,
            WidgetCommand.self, PlaylistCommand.self,
        ]
    )

    /// ArgumentParser's own `main()`, except that a `CommandFailure` is printed as one line,
    /// `ringcast: MESSAGE`, instead of `Error: MESSAGE` and the usage text that ArgumentParser adds
    /// to an error thrown from `run()`; the exit status is 1.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("ringcast: \(failure)\n".utf8))
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
