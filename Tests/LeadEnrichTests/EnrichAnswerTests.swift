import Foundation
import LeadEnrich
import Testing

/// Taking a model's answer apart (issue 14 item 3): every row sent ends with values or a reason
/// to ask again; nothing lands in the wrong row.
@Suite struct EnrichAnswerTests {
    static func sent(_ ids: String...) -> [(id: String, check: String)] { ids.map { ($0, "c" + $0) } }

    let spec = try! EnrichSpec.parse("""
        instructions: x
        fields:
          status: {enum: [hot, warm, cold, new]}
          score: integer
          owner: boolean
        """, path: "s.yaml")

    @Test func aGoodAnswerFillsEveryRow() {
        let answer = EnrichAnswer(content: #"{"rows":[{"id":"r1","check":"cr1","status":"hot","score":90,"owner":true},{"id":"r2","check":"cr2","status":"cold","score":null,"owner":false}]}"#,
                                  sent: Self.sent("r1", "r2"), spec: spec)
        #expect(answer.retry.isEmpty && answer.repairs.isEmpty)
        #expect(answer.values["r1"] == ["status": .text("hot"), "score": .integer(90), "owner": .boolean(true)])
        #expect(answer.values["r2"]?["score"] == .null)
    }

    @Test func fencesProseAndLooseTypesAreRepaired() {
        let fenced = EnrichAnswer(content: "```json\n{\"rows\":[{\"id\":\"r1\",\"check\":\"cr1\",\"status\":\"Hot\",\"score\":\"42\",\"owner\":\"false\",\"extra\":1}]}\n```", sent: Self.sent("r1"), spec: spec)
        #expect(fenced.values["r1"] == ["status": .text("hot"), "score": .integer(42), "owner": .boolean(false)])
        #expect(fenced.repairs == ["the JSON was taken out of a Markdown fence"])
        let prose = EnrichAnswer(content: "Here you go: {\"rows\":[{\"id\":\"r1\",\"check\":\"cr1\",\"status\":\"new\",\"score\":3.0,\"owner\":null}]} Hope this helps!", sent: Self.sent("r1"), spec: spec)
        #expect(prose.values["r1"]?["score"] == .integer(3))
        #expect(prose.repairs == ["the JSON was taken from between prose"])
    }

    /// Cut short: the complete rows are kept, the rest asked for again.
    @Test func aTruncatedAnswerKeepsItsCompleteRows() {
        let answer = EnrichAnswer(content: #"{"rows":[{"id":"r1","check":"cr1","status":"hot","score":1,"owner":true},{"id":"r2","check":"cr2","status":"wa"#, sent: Self.sent("r1", "r2", "r3"), spec: spec)
        #expect(answer.values.keys.sorted() == ["r1"])
        #expect(answer.retry.keys.sorted() == ["r2", "r3"])
        #expect(answer.repairs.first?.contains("cut short") == true)
    }

    /// Missing, doubled, foreign and mistyped rows: none is guessed at.
    @Test func rowsThatCannotBeTrustedAreAskedForAgain() {
        let answer = EnrichAnswer(content: """
            {"rows":[{"id":"r1","check":"cr1","status":"lukewarm","score":1,"owner":true},
                     {"id":"r2","check":"cr2","status":"hot","score":"many","owner":true},
                     {"id":"r3","check":"cr3","status":"hot","score":1,"owner":true},{"id":"r3","check":"cr3","status":"cold","score":2,"owner":false},
                     {"id":"r9","check":"cr9","status":"hot","score":1,"owner":true},
                     {"status":"hot","score":1,"owner":true}]}
            """, sent: Self.sent("r1", "r2", "r3", "r4"), spec: spec)
        #expect(answer.values.isEmpty)
        #expect(answer.retry["r1"] == "status: \"lukewarm\" is not one of hot, warm, cold, new")
        #expect(answer.retry["r2"] == "score: expected a whole number, got \"many\"")
        #expect(answer.retry["r3"] == "the model answered this row twice")
        #expect(answer.retry["r4"] == "the model's answer left this row out")
        #expect(answer.repairs.contains("row r9, never sent, was dropped") && answer.repairs.contains("a row without an id was dropped"))
        // Ids given to the wrong rows: their checks say so.
        let swapped = EnrichAnswer(content: #"{"rows":[{"id":"r2","check":"cr1","status":"hot","score":1,"owner":true},{"id":"r1","check":"cr2","status":"cold","score":2,"owner":false}]}"#,
                                   sent: Self.sent("r1", "r2"), spec: spec)
        #expect(swapped.values.isEmpty && swapped.retry.count == 2, "\(swapped)")
        let none = EnrichAnswer(content: "I cannot help with that.", sent: Self.sent("r1"), spec: spec)
        #expect(none.retry == ["r1": "the model's answer held no JSON"])
    }
}
