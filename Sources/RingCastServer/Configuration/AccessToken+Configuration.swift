import RingCastCore

extension AccessToken {
    /// The token of a `tokens` entry; an error names the entry's key and what was expected.
    init(entry: ConfigurationFile.TokenEntry, key: String, file: String) throws(ConfigurationError) {
        func fail(_ field: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, key: "\(key).\(field)", message: message)
        }
        if let problem = Self.problem(withName: entry.name) { throw fail("name", problem) }
        let secret: Secret
        switch (entry.token, entry.sha256) {
        case (let token?, nil):
            if let problem = Self.problem(withSecret: token) { throw fail("token", problem) }
            secret = .plain(token)
        case (nil, let hex?):
            let hex = hex.lowercased()
            if let problem = Self.problem(withDigest: hex) { throw fail("sha256", problem) }
            secret = .sha256(hex)
        case (.some, .some): throw fail("sha256", "give \"token\" or \"sha256\", not both")
        case (nil, nil):
            throw fail("token", "give the token as \"token\", or its SHA-256 as \"sha256\" to keep it out of the file")
        }
        if entry.boards.isEmpty {
            throw fail("boards", "name the boards the token covers: board names, \"team-a-*\" or \"*\" for every board")
        }
        for (index, pattern) in entry.boards.enumerated() {
            if let problem = Self.problem(withBoardPattern: pattern) { throw fail("boards[\(index)]", problem) }
        }
        guard let access = Access(name: entry.access) else {
            throw fail("access", "expected read, write or admin, got \"\(entry.access)\"")
        }
        self.init(name: entry.name, secret: secret, boards: entry.boards, access: access)
    }
}

extension RingCastConfiguration {
    /// Checks the tokens together: unique names (the shorthands are `write` and `read`) and unique secrets, so that
    /// a presented token is always one token.
    func validateTokens() throws(ConfigurationError) {
        var names: [String: String] = [:]
        var secrets: [String: String] = [:]
        if writeToken != nil { names["write"] = "token" }
        if readToken != nil { names["read"] = "readToken" }
        for token in accessTokens.prefix(accessTokens.count - tokens.count) {
            secrets[token.secretDigest] = names[token.name]
        }
        for (index, token) in tokens.enumerated() {
            let key = "tokens[\(index)]"
            if let other = names[token.name] {
                throw error(key: "\(key).name", "duplicate token name \"\(token.name)\" (also \(other))")
            }
            names[token.name] = key
            if let other = secrets[token.secretDigest] {
                throw error(key: key, "token \"\(token.name)\" has the same secret as \(other); every token needs its own")
            }
            secrets[token.secretDigest] = key
        }
    }
}
