import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// One set of limits (issue 20): whatever a write is accepted with is stored, and loads again after a restart;
/// the first value beyond each limit is refused with 422 naming the field, and changes nothing.
@Suite("Limits")
struct LimitsTests {
    /// Issue 20, defect 2: `{"template":"tasks","count":30}` trapped the server with `limits.maxRingsPerBoard`
    /// 255. Every count from 0 to 300 makes the board or is refused as JSON naming `count`.
    @Test func everyTemplateCount_makesTheBoard_orIsRefusedNamingCount() throws {
        let api = try TestAPI { configuration in
            configuration.maxRingsPerBoard = 255
            configuration.writesPerMinute = 0
        }
        for count in 0...300 {
            let response = try api.send("PUT", "/api/v1/boards/wall", body: #"{"template":"tasks","count":\#(count)}"#)
            if (1...254).contains(count) {
                #expect(response.status == 200 || response.status == 201, "count \(count): \(response.text)")
            } else {
                #expect(response.status == 422, "count \(count): \(response.text)")
                #expect(response.error?.field == "count", "count \(count): \(response.text)")
            }
        }
        for count in [-1, 1.5, 1e300] {
            let response = try api.send("PUT", "/api/v1/boards/odd", body: #"{"template":"tasks","count":\#(count)}"#)
            #expect(response.status == 422 && response.error?.field == "count", "count \(count): \(response.text)")
        }
    }
}
