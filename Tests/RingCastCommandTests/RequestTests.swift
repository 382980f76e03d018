import Foundation
import Testing

@testable import ringcast

/// The request each client command builds from its arguments — method, path and JSON body —
/// checked without a server; a value out of range is refused before anything would be sent.
@Suite("ringcast commands build their requests")
struct RequestTests {
    /// The message `body` failed with, or nil when it built a request.
    private func refusal(_ body: () throws -> APIRequest) -> String? {
        do {
            _ = try body()
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        } catch {
            return "not a CommandFailure: \(error)"
        }
    }

    // MARK: board

    @Test func boardCreate_putsTheTemplateWithItsCountTitleAndBackground() throws {
        let command = try CreateBoard.parse([
            "ci", "--template", "tasks", "--count", "5", "--title", "CI pipeline", "--background", "#101020",
        ])

        let request = try command.request()
        #expect(request.method == "PUT" && request.path == ["boards", "ci"])
        #expect(request.bodyText == ##"{"background":"#101020","count":5,"template":"tasks","title":"CI pipeline"}"##)
    }

    @Test func boardCreate_createsOnlyIfAbsent_unlessReplace() throws {
        let create = try CreateBoard.parse(["ci", "--template", "single"]).request()
        #expect(create.headers == ["If-None-Match": "*"], "the server refuses (412) over a board made meanwhile")
        let replace = try CreateBoard.parse(["ci", "--template", "single", "--replace"]).request()
        #expect(replace.headers.isEmpty)
    }

    /// Issue 32: a command that prints nothing of the server's answer asks for the minimal one (RFC 7240), so the
    /// server encodes nothing; one that prints the board it made (board create) asks for the board.
    @Test func commandsThatPrintNothingOfTheAnswer_askForTheMinimalAnswer() throws {
        let minimal = ["Prefer": "return=minimal"]
        #expect(try Push.parse(["main", "move", "0.8"]).request().headers == minimal)
        #expect(try Push.parse(["ci", "passed", "12"]).request(counter: true).headers == minimal)
        #expect(try SetBoard.parse(["ci", "--title", "CI"]).request().headers == minimal)
        #expect(try CreateBoard.parse(["ci", "--template", "single", "--replace"]).request().headers["Prefer"] == nil)
    }

    @Test func boardCreate_withStaleAfter_sendsIt() throws {
        let request = try CreateBoard.parse(["nightly", "--template", "single", "--stale-after", "90000"]).request()
        #expect(request.bodyText == #"{"staleAfter":90000,"template":"single"}"#)
    }

    @Test func boardCreate_withTheTemplateAlone_sendsOnlyTheTemplate() throws {
        let request = try CreateBoard.parse(["launch", "--template", "countdown"]).request()
        #expect(request.bodyText == #"{"template":"countdown"}"#)
    }

    @Test(arguments: [
        (["ci", "--template", "kanban"], #"unknown template "kanban"; use activity, tasks, countdown, single, main"#),
        (["ci", "--template", "activity", "--count", "3"], #"--count: only the "tasks" template takes a count"#),
        (
            ["ci", "--template", "tasks", "--count", "255"],
            "--count: count must be a whole number of task rings from 1 to 254 (with their Overall at most 255 rings, "
                + "limits.maxRingsPerBoard), got 255"
        ),
        (
            ["ci", "--template", "tasks", "--count", "0"],
            "--count: count must be a whole number of task rings from 1 to 254 (with their Overall at most 255 rings, "
                + "limits.maxRingsPerBoard), got 0"
        ),
        (
            ["ci", "--template", "single", "--title", ""],
            "--title: a title must have 1 to 64 characters, got 0"
        ),
        (
            ["ci", "--template", "single", "--stale-after", "0"],
            "--stale-after: staleAfter must be a whole number of seconds from 1 to 604800 (a week), got 0"
        ),
        (
            ["ci", "--template", "single", "--background", "navy"],
            #"--background: "navy" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71"#
        ),
    ])
    func boardCreate_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try CreateBoard.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    @Test func boardDelete_andList_haveNoBody() throws {
        #expect(try DeleteBoard.parse(["ci"]).request() == APIRequest("DELETE", ["boards", "ci"]))
        #expect(try ListBoards.parse([]).request() == APIRequest("GET", ["boards"]))
    }

    @Test func boardList_printsALinePerBoard_withItsRingCountViewersAndIds() throws {
        let json = #"""
            {"boards":[
              {"name":"main","title":"Main","width":1200,"height":800,"viewers":2,
               "rings":[{"id":"move","title":"Move","kind":"plain"},{"id":"overall","title":"Overall","kind":"derived"}]},
              {"name":"ci","title":"CI pipeline","width":800,"height":400,"viewers":0,
               "rings":[{"id":"deploy","title":"Deploy","kind":"plain"}]}
            ]}
            """#
        let listing = try JSONDecoder().decode(BoardListing.self, from: Data(json.utf8))

        #expect(
            listing.table == """
                board  title        rings  viewers  ids
                main   Main         2      2        move,overall
                ci     CI pipeline  1      0        deploy

                """)
    }

    @Test func boardSet_patchesOnlyTheKeysGiven() throws {
        let all = try SetBoard.parse(["ci", "--title", "CI", "--background", "#101020", "--stale-after", "600"]).request()
        #expect(all.method == "PATCH" && all.path == ["boards", "ci"])
        #expect(all.bodyText == ##"{"background":"#101020","staleAfter":600,"title":"CI"}"##)

        #expect(try SetBoard.parse(["ci", "--title", "CI"]).request().bodyText == #"{"title":"CI"}"#)
        #expect(try SetBoard.parse(["ci", "--stale-after", "none"]).request().bodyText == #"{"staleAfter":null}"#)
    }

    @Test(arguments: [
        (["ci"], "nothing to change: give --title, --background or --stale-after"),
        (["ci", "--title", ""], "--title: a title must have 1 to 64 characters, got 0"),
        (
            ["ci", "--background", "navy"],
            #"--background: "navy" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71"#
        ),
        (
            ["ci", "--stale-after", "0"],
            "--stale-after: staleAfter must be a whole number of seconds from 1 to 604800 (a week), got 0"
        ),
        (
            ["ci", "--stale-after", "soon"],
            #"--stale-after takes whole seconds from 1 to 604800 (a week), or none to remove it, got "soon""#
        ),
    ])
    func boardSet_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try SetBoard.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    // MARK: ring

    @Test func ringAdd_postsTheDefinition_withTheGroupItJoins() throws {
        let command = try AddRing.parse([
            "ci", "deploy", "--title", "Deploy", "--colors", "#2ecc71, #27ae60", "--group", "build", "--label", "fraction",
            "--max", "20",
        ])

        let request = try command.request()
        #expect(request.method == "POST" && request.path == ["boards", "ci", "rings"])
        #expect(
            request.bodyText
                == ##"{"colors":["#2ecc71","#27ae60"],"group":"build","id":"deploy","label":"fraction","max":20,"title":"Deploy"}"##
        )
    }

    @Test func ringAdd_derived_sendsItsSources_andTextLabelsAsAnObject() throws {
        let derived = try AddRing.parse(["ci", "overall", "--kind", "derived", "--sources", "build,tests"]).request()
        #expect(derived.bodyText == #"{"id":"overall","kind":"derived","sources":["build","tests"]}"#)

        let text = try AddRing.parse(["ci", "gate", "--label", "text:waiting: QA"]).request()
        #expect(text.bodyText == #"{"id":"gate","label":{"text":"waiting: QA"}}"#)
    }

    @Test(arguments: [
        (["ci", "r", "--kind", "pie"], #"unknown --kind "pie"; use plain, derived, countdown"#),
        (
            ["ci", "r", "--kind", "derived"],
            "a derived ring needs --sources, the ring ids it averages, e.g. --sources build,tests"
        ),
        (["ci", "r", "--kind", "derived", "--sources", "a,,b"], #"--sources takes ring ids separated by commas, got "a,,b""#),
        (
            ["ci", "r", "--kind", "counter"],
            #"unknown --kind "counter"; use plain, derived, countdown (widgets are added with ringcast widget add)"#
        ),
        (["ci", "r", "--sources", "a,b"], #"--sources: sources goes with kind "derived", not "plain""#),
        (["ci", "r", "--kind", "countdown", "--sources", "a"], #"--sources: sources goes with kind "derived", not "countdown""#),
        (["ci", "r", "--max", "0"], "--max must be a number from 1e-06 to 1000000000, got 0"),
        (["ci", "r", "--max", "2e9"], "--max must be a number from 1e-06 to 1000000000, got 2000000000"),
        (["ci", "r", "--label", "percentage"], #"unknown --label "percentage"; use percent, fraction, value, rate, eta or text:TEXT"#),
        (
            ["ci", "r", "--label", "text:" + String(repeating: "x", count: 33)],
            #"--label text: at most 32 characters, got 33 in ""# + String(repeating: "x", count: 33) + #"""#
        ),
        (
            ["ci", "r", "--colors", "#2ecc71"],
            ##"--colors takes two colours, start and end, such as '#9b59b6,#8e44ad'; got 1 in "#2ecc71""##
        ),
        (
            ["ci", "r", "--title", String(repeating: "t", count: 65)],
            "--title: a title must have 1 to 64 characters, got 65"
        ),
    ])
    func ringAdd_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try AddRing.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    @Test func ringDelete_deletesTheRing() throws {
        #expect(try DeleteRing.parse(["ci", "deploy"]).request() == APIRequest("DELETE", ["boards", "ci", "rings", "deploy"]))
    }

    // MARK: push

    @Test func push_withoutMax_sendsAProgress() throws {
        let request = try Push.parse(["main", "move", "0.8", "--animation", "easeOut"]).request()
        #expect(request.method == "PUT" && request.path == ["boards", "main", "rings", "move"])
        #expect(request.bodyText == #"{"animation":"easeOut","progress":0.8}"#)
    }

    @Test func push_withMax_sendsAValue_withTheLabelAndTitle() throws {
        let fraction = try Push.parse(["ci", "tests", "12", "--max", "20", "--label", "fraction", "--title", "Tests"]).request()
        #expect(fraction.bodyText == #"{"label":"fraction","max":20,"title":"Tests","value":12}"#)

        let text = try Push.parse(["ci", "deploy", "1", "--label", "text:live"]).request()
        #expect(text.bodyText == #"{"label":{"text":"live"},"progress":1}"#)
    }

    @Test func push_none_setsTheRingBackToNoData() throws {
        let request = try Push.parse(["ci", "tests", "none"]).request()
        #expect(request.bodyText == #"{"progress":null}"#)
        let renamed = try Push.parse(["ci", "tests", "none", "--title", "Tests"]).request()
        #expect(renamed.bodyText == #"{"progress":null,"title":"Tests"}"#)
    }

    @Test(arguments: [
        (["ci", "tests", "12", "--max=-1"], "--max must be a number from 1e-06 to 1000000000, got -1"),
        (["ci", "tests", "--max", "20", "--", "-2"], "value must be a number from 0 with --max, got -2"),
        (["ci", "tests", "12"], "value must be a number from 0 to 10 (1 = 100 %), got 12"),
        (["ci", "tests", "0.5", "--label", "text"], #"unknown --label "text"; use percent, fraction, value, rate, eta or text:TEXT"#),
        (["ci", "tests", "lots"], #"VALUE must be a number, or none for no data, got "lots""#),
        // The server's words for what a 64-bit float cannot hold, rather than sending 0 or inf.
        (
            ["ci", "tests", "0.1e-400"],
            "VALUE: the number 0.1e-400 is too close to zero for a 64-bit float (the smallest is ±5e-324), "
                + "so it would read as 0; write 0 if you mean 0"
        ),
        (["ci", "tests", "1e400"], "VALUE: the number 1e400 is too large for a 64-bit float (at most ±1.8e308)"),
        // No check of its own: the server's decoder of the body refuses it before it is sent.
        (
            ["ci", "tests", "0.5", "--label", "text:a\tb"],
            "label.text: a label text must not contain U+0009 (character 2): control, bidirectional "
                + "and invisible characters hide or reorder what viewers read"
        ),
        (
            ["ci", "tests", "0.5", "--label", "text:"],
            "label.text: a label text must have 1 to 32 characters, got 0"
        ),
    ])
    func push_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try Push.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    @Test func push_statusAndThresholds_colourTheRing() throws {
        #expect(try Push.parse(["ci", "build", "--status", "running"]).request().bodyText == #"{"status":"running"}"#)
        #expect(try Push.parse(["ci", "build", "--status", "none"]).request().bodyText == #"{"status":null}"#)
        #expect(
            try Push.parse(["ci", "coverage", "0.72", "--thresholds", "0:#e74c3c,0.5:#f1c40f,0.9:#2ecc71"]).request().bodyText
                == ##"{"progress":0.72,"thresholds":[[0,"#e74c3c"],[0.5,"#f1c40f"],[0.9,"#2ecc71"]]}"##)
        #expect(
            try Push.parse(["ci", "coverage", "--thresholds", "0:#e74c3c:#c0392b, 0.8:#2ecc71"]).request().bodyText
                == ##"{"thresholds":[[0,["#e74c3c","#c0392b"]],[0.8,"#2ecc71"]]}"##)
        #expect(try Push.parse(["ci", "coverage", "--thresholds", "none"]).request().bodyText == #"{"thresholds":null}"#)
        #expect(
            try Push.parse(["ci", "build", "none", "--status", "failure"]).request().bodyText
                == #"{"progress":null,"status":"failure"}"#)
        #expect(try Push.parse(["ci", "build", "--status", "failure"]).shown(counter: false) == "status failure")
    }

    @Test func ringAdd_status_definesTheRingsColours() throws {
        let request = try AddRing.parse(["ci", "build", "--status", "running"]).request()
        #expect(request.bodyText == #"{"id":"build","status":"running"}"#)
        #expect(
            refusal { try AddRing.parse(["ci", "build", "--status", "running", "--colors", "#ffffff,#000000"]).request() }
                == #"status: give one of "colors", "status" and "thresholds": each sets the ring's colours, so they exclude each other"#
        )
    }

    @Test(arguments: [
        (
            ["ci", "build", "--status", "green"],
            #"status: status must be one of "success", "failure", "running", "warning", "unknown" or null (back to the ring's own colours), got "green""#
        ),
        (
            ["ci", "build", "--status", "success", "--thresholds", "0:#ffffff"],
            "--status and --thresholds both given; a ring is coloured by one of them"
        ),
        (
            ["ci", "build", "--status", "success", "--colors", "#ffffff,#000000"],
            #"status: give one of "colors", "status" and "thresholds": each sets the ring's colours, so they exclude each other"#
        ),
        (
            ["ci", "build", "--thresholds", "0.5"],
            "--thresholds takes 'V:#colour,…' (V:#start:#end for a gradient), such as '0:#e74c3c,0.5:#f1c40f,0.9:#2ecc71'; got \"0.5\""
        ),
        (["ci", "build", "--thresholds", "12:#ffffff"], "a threshold's value must be a number from 0 to 10 (1 = 100 %), got 12"),
        (
            ["ci", "build", "--thresholds", "0:red"],
            #"--thresholds: "red" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71"#
        ),
        (
            ["ci", "build", "--thresholds", "0.5:#ffffff,0.2:#000000"],
            "thresholds.1.0: threshold values must rise strictly: 0.2 follows 0.5"
        ),
    ])
    func push_refusesABadStatusOrThresholds(arguments: [String], message: String) throws {
        let command = try Push.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    // MARK: widgets

    @Test func widgetAdd_postsTheDefinitionWithTheKindsKeys() throws {
        let counter = try AddWidget.parse([
            "ci", "passed", "--kind", "counter", "--title", "Tests passed", "--value", "0", "--digits", "4", "--sign",
            "--grouping", ",", "--unit", "tests",
        ]).request()
        #expect(counter.method == "POST" && counter.path == ["boards", "ci", "rings"])
        #expect(
            counter.bodyText
                == #"{"digits":4,"grouping":",","id":"passed","kind":"counter","sign":true,"title":"Tests passed","unit":"tests","value":0}"#
        )
        let text = try AddWidget.parse(["ci", "status", "--kind", "text", "--text", "Idle", "--wave-width", "4"]).request()
        #expect(text.bodyText == #"{"id":"status","kind":"text","text":"Idle","waveWidth":4}"#)
        let gradient = try AddWidget.parse(["ci", "mood", "--kind", "gradient", "--colors", "#111111,#222222,#333333"]).request()
        #expect(gradient.bodyText == ##"{"colors":["#111111","#222222","#333333"],"id":"mood","kind":"gradient"}"##)
        let indicator = try AddWidget.parse(["ci", "coverage", "--kind", "indicator"]).request()
        #expect(indicator.bodyText == #"{"id":"coverage","kind":"indicator"}"#)
    }

    @Test(arguments: [
        (["ci", "w", "--kind", "dial"], #"unknown --kind "dial"; use counter, text, indicator, gradient"#),
        (
            ["ci", "w", "--kind", "counter", "--value", "2e12"],
            "--value must be a number from -1000000000000 to 1000000000000 (a counter's number), got 2000000000000"
        ),
        (["ci", "w", "--kind", "text", "--wave-width", "0"], "--wave-width must be a number from 1 to 64 characters, got 0"),
        (
            ["ci", "w", "--kind", "gradient", "--colors", "#111111"],
            ##"--colors takes 2 to 8 colours, such as '#9b59b6,#3498db,#2ecc71'; got 1 in "#111111""##
        ),
    ])
    func widgetAdd_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try AddWidget.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    @Test func push_toACounter_sendsItsNumberAsTheValue() throws {
        #expect(try Push.parse(["ci", "passed", "1234"]).request(counter: true).bodyText == #"{"value":1234}"#)
        #expect(try Push.parse(["ci", "passed", "--", "-5"]).request(counter: true).bodyText == #"{"value":-5}"#)
        #expect(
            try Push.parse(["ci", "passed", "2e12"]).refusal(counter: true)
                == "value must be a number from -1000000000000 to 1000000000000 (a counter's number), got 2000000000000")
    }

    @Test func push_toAText_sendsTheTextAndTheWave() throws {
        #expect(try Push.parse(["ci", "status", "--text", "Deployed"]).request().bodyText == #"{"text":"Deployed"}"#)
        #expect(try Push.parse(["ci", "status", "--wave"]).request().bodyText == #"{"wave":true}"#)
        #expect(
            try Push.parse(["ci", "status", "--text", "Deployed", "--wave-width", "4"]).request().bodyText
                == #"{"text":"Deployed","wave":{"width":4}}"#)
        #expect(
            try Push.parse(["ci", "status"]).refusal()
                == "give VALUE (a progress, a counter's number, or none), or --text for a text widget, e.g. ringcast push ci status 0.5"
        )
    }

    // MARK: wiring

    @Test(arguments: [
        (["board", "create", "ci", "--template", "single"], "CreateBoard"),
        (["board", "set", "ci", "--title", "CI"], "SetBoard"),
        (["board", "delete", "ci"], "DeleteBoard"),
        (["board", "list"], "ListBoards"),
        (["ring", "add", "ci", "deploy"], "AddRing"),
        (["ring", "delete", "ci", "deploy"], "DeleteRing"),
        (["widget", "add", "ci", "tests", "--kind", "counter"], "AddWidget"),
        (["widget", "delete", "ci", "tests"], "DeleteWidget"),
    ])
    func rootCommand_routesTheSubcommands(arguments: [String], command: String) throws {
        let parsed = try RingCastCommand.parseAsRoot(arguments)
        #expect(String(describing: type(of: parsed)) == command)
    }
}

extension Push {
    /// The message `request(counter:)` failed with, or nil when it built a request.
    fileprivate func refusal(counter: Bool = false) -> String? {
        do {
            _ = try request(counter: counter)
            return nil
        } catch {
            return error.description
        }
    }
}
