import ArgumentParser

@main
struct RingCastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ringcast",
        abstract: "Live progress rings: push over REST, animate on the server, draw in every browser.",
        subcommands: [Serve.self, Push.self]
    )
}
