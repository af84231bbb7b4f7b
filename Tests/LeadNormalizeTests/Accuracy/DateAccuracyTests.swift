@testable import LeadNormalize
import Testing

/// Labelled dates written from ISO 8601 (calendar, basic, week and ordinal dates, with a time),
/// RFC 3339 and RFC 5322's date-time examples, US and day-first numeric dates, English month
/// names and abbreviations, ordinals, full-width digits, and Excel's documented behaviour
/// (serial numbers in the 1900 and 1904 systems, its fictitious 1900-02-29, two-digit years
/// 00–29 → 2000s and 30–99 → 1900s). `ambiguous`: a real date both month first and day first.
@Suite struct DateAccuracyTests {
    struct Case {
        var input: String
        var iso: String?
        var time: String?
        var ambiguous: Bool
        var order: DateOrder?
        var date1904: Bool
    }

    static func d(_ input: String, _ iso: String?, time: String? = nil, ambiguous: Bool = false, order: DateOrder? = nil, date1904: Bool = false) -> Case {
        Case(input: input, iso: iso, time: time, ambiguous: ambiguous, order: order, date1904: date1904)
    }

    static let cases: [Case] = [
        // ISO 8601 calendar dates, extended and basic.
        d("2014-09-19", "2014-09-19"),
        d("1988-07-11", "1988-07-11"),
        d("2024-02-29", "2024-02-29"),
        d("2000-02-29", "2000-02-29"),
        d("2023-02-29", nil),
        d("1900-02-29", nil),
        d("2014-13-01", nil),
        d("2014-00-10", nil),
        d("2014-04-31", nil),
        d("2014/09/19", "2014-09-19"),
        d("2014-9-19", "2014-09-19"),
        d("2014-09", nil),
        d("20140919", "2014-09-19"),
        d("19880711", "1988-07-11"),
        d("20240229", "2024-02-29"),
        d("20230229", nil),
        // ISO 8601 with a time; RFC 3339 examples.
        d("2014-09-19T14:35:00", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35:00Z", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35:00+02:00", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35:00.123-05:00", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35", "2014-09-19", time: "14:35:00"),
        d("2014-09-19 14:35:07", "2014-09-19", time: "14:35:07"),
        d("2014-09-19T00:00:00", "2014-09-19", time: "00:00:00"),
        d("2014-09-19 00:00", "2014-09-19", time: "00:00:00"),
        d("20140919T143500", "2014-09-19", time: "14:35:00"),
        d("1985-04-12T23:20:50.52Z", "1985-04-12", time: "23:20:50"),
        d("1996-12-19T16:39:57-08:00", "1996-12-19", time: "16:39:57"),
        d("1937-01-01T12:00:27.87+00:20", "1937-01-01", time: "12:00:27"),
        d("2014-09-19T25:00", nil),
        d("2014-09-19T14:61", nil),
        // ISO 8601 week and ordinal dates.
        d("2014-W38-5", "2014-09-19"),
        d("2014W385", "2014-09-19"),
        d("2009-W01-1", "2008-12-29"),
        d("2009-W53-7", "2010-01-03"),
        d("2014-W53-1", nil),
        d("2014-262", "2014-09-19"),
        d("2024-366", "2024-12-31"),
        d("2023-366", nil),
        // RFC 5322 date-time examples (a zone is dropped; the date and time are as written).
        d("Fri, 21 Nov 1997 09:55:06 -0600", "1997-11-21", time: "09:55:06"),
        d("Tue, 1 Jul 2003 10:52:37 +0200", "2003-07-01", time: "10:52:37"),
        d("Thu, 13 Feb 1969 23:32:54 -0330", "1969-02-13", time: "23:32:54"),
        d("Fri, 19 Sep 2014 14:35:00 GMT", "2014-09-19", time: "14:35:00"),
        // Numeric, month first or day first: decided when only one reading is a real date.
        d("9/19/2014", "2014-09-19"),
        d("09/19/2014", "2014-09-19"),
        d("12/25/2023", "2023-12-25"),
        d("1/13/2024", "2024-01-13"),
        d("13/1/2024", "2024-01-13"),
        d("19/09/2014", "2014-09-19"),
        d("19.09.2014", "2014-09-19"),
        d("19-09-2014", "2014-09-19"),
        d("9/19/14", "2014-09-19"),
        d("9/19/88", "1988-09-19"),
        d("1/13/30", "1930-01-13"),
        d("1/13/29", "2029-01-13"),
        d("2/29/2024", "2024-02-29"),
        d("2/30/2024", nil),
        d("2/29/2023", nil),
        d("31/04/2024", nil),
        d("00/10/2024", nil),
        d("13/13/2013", nil),
        // Both readings real: ambiguous, decided only by an order.
        d("3/1/2024", nil, ambiguous: true),
        d("03/04/2024", nil, ambiguous: true),
        d("01.03.24", nil, ambiguous: true),
        d("03/04/2024", "2024-03-04", ambiguous: true, order: .mdy),
        d("03/04/2024", "2024-04-03", ambiguous: true, order: .dmy),
        d("01.03.24", "2024-03-01", ambiguous: true, order: .dmy),
        d("3/4/2024 10:00", "2024-03-04", time: "10:00:00", ambiguous: true, order: .mdy),
        d("13/04/2024", "2024-04-13", order: .mdy),
        d("7/7/24", "2024-07-07"),
        d("12/12/2012", "2012-12-12"),
        // Numeric dates with a time.
        d("9/19/2014 14:35", "2014-09-19", time: "14:35:00"),
        d("9/19/2014 2:35 PM", "2014-09-19", time: "14:35:00"),
        d("9/19/2014 2:35 pm", "2014-09-19", time: "14:35:00"),
        d("9/19/2014 2:35PM", "2014-09-19", time: "14:35:00"),
        d("9/19/2014 2:35:10 AM", "2014-09-19", time: "02:35:10"),
        d("9/19/2014 12:00 AM", "2014-09-19", time: "00:00:00"),
        d("9/19/2014 12:00 PM", "2014-09-19", time: "12:00:00"),
        d("9/19/2014 12:30 a.m.", "2014-09-19", time: "00:30:00"),
        d("9/19/2014 0:00", "2014-09-19", time: "00:00:00"),
        d("19/09/2014 23:59:59", "2014-09-19", time: "23:59:59"),
        d("9/19/2014 13:00 PM", nil),
        // Month names and abbreviations, every month.
        d("July 11, 1988", "1988-07-11"),
        d("Jul 11, 1988", "1988-07-11"),
        d("11 July 1988", "1988-07-11"),
        d("11 Jul 1988", "1988-07-11"),
        d("11-Jul-1988", "1988-07-11"),
        d("11-Jul-88", "1988-07-11"),
        d("JULY 11, 1988", "1988-07-11"),
        d("july 11 1988", "1988-07-11"),
        d("January 5, 2020", "2020-01-05"),
        d("February 29, 2024", "2024-02-29"),
        d("March 1, 2024", "2024-03-01"),
        d("April 30, 2021", "2021-04-30"),
        d("May 5, 2015", "2015-05-05"),
        d("June 6, 1944", "1944-06-06"),
        d("August 8, 2008", "2008-08-08"),
        d("September 9, 1999", "1999-09-09"),
        d("October 31, 2020", "2020-10-31"),
        d("November 11, 1918", "1918-11-11"),
        d("December 25, 2023", "2023-12-25"),
        d("Jan. 5, 2020", "2020-01-05"),
        d("Feb 3, 2021", "2021-02-03"),
        d("Mar 15 2022", "2022-03-15"),
        d("Apr 1 2022", "2022-04-01"),
        d("Jun 30 2010", "2010-06-30"),
        d("Aug 15 1947", "1947-08-15"),
        d("Sep 9 1999", "1999-09-09"),
        d("Sept 9, 1999", "1999-09-09"),
        d("Sept. 9, 1999", "1999-09-09"),
        d("Oct 10 2010", "2010-10-10"),
        d("Nov 1 2001", "2001-11-01"),
        d("Dec 31 1999", "1999-12-31"),
        d("2014-Sep-19", "2014-09-19"),
        d("2014 September 19", "2014-09-19"),
        d("19 September, 2014", "2014-09-19"),
        d("September 31, 2014", nil),
        d("February 30, 2024", nil),
        // Leading weekdays and ordinals.
        d("Fri, 19 Sep 2014", "2014-09-19"),
        d("Friday, September 19, 2014", "2014-09-19"),
        d("Fri Sep 19 2014", "2014-09-19"),
        d("Friday 19th September 2014", "2014-09-19"),
        d("11th July 1988", "1988-07-11"),
        d("July 11th, 1988", "1988-07-11"),
        d("1st January 2000", "2000-01-01"),
        d("2nd Feb 2002", "2002-02-02"),
        d("3rd March 2003", "2003-03-03"),
        d("22nd April 2022", "2022-04-22"),
        d("23rd May 2023", "2023-05-23"),
        d("the 4th of July, 1776", "1776-07-04"),
        // Full-width digits and CJK date marks.
        d("２０１４-０９-１９", "2014-09-19"),
        d("９/１９/２０１４", "2014-09-19"),
        d("２０１４年９月１９日", "2014-09-19"),
        d("2014年9月19日", "2014-09-19"),
        // Excel serial numbers.
        d("45352", "2024-03-01"),
        d("43831", "2020-01-01"),
        d("32874", "1990-01-01"),
        d("1", "1900-01-01"),
        // Serial 60 is the 1900-02-29 Excel invents (its 1900 leap-year bug, kept from Lotus 1-2-3:
        // Microsoft's "Excel incorrectly assumes that the year 1900 is a leap year"): flagged (issue 23).
        d("60", nil),
        d("60", "1904-03-01", date1904: true),
        d("61", "1900-03-01"),
        d("45352.5", "2024-03-01", time: "12:00:00"),
        d("43831", "2024-01-02", date1904: true),
        d("Fri Sep 19 14:35:00 2014", "2014-09-19", time: "14:35:00"),
        d("Friday, 19-Sep-14 14:35:00 UTC", "2014-09-19", time: "14:35:00"),
        d("Sep 19, 2014 at 2:35 PM", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35:00+02", "2014-09-19", time: "14:35:00"),
        // Not dates.
        // More shapes from real lists.
        d("2014-09-19T14:35:00.000Z", "2014-09-19", time: "14:35:00"),
        d("2014-09-19T14:35:00+0530", "2014-09-19", time: "14:35:00"),
        d("Sep 19, 2014 2:35 PM", "2014-09-19", time: "14:35:00"),
        d("19 Sep 2014 14:35", "2014-09-19", time: "14:35:00"),
        d("09/19/2014 02:35:00 PM", "2014-09-19", time: "14:35:00"),
        d("12/31/1999 11:59 PM", "1999-12-31", time: "23:59:00"),
        d("２０１４/０９/１９ １４:３５", "2014-09-19", time: "14:35:00"),
        d("2014.09.19", "2014-09-19"),
        d("2014-9-5", "2014-09-05"),
        d("Thursday, July 4, 1776", "1776-07-04"),
        d("4 July 1776", "1776-07-04"),
        d("Jul-04-1776", "1776-07-04"),
        d("1/1/00", "2000-01-01"),
        d("6/15/99", "1999-06-15"),
        d("15/6/99", "1999-06-15"),
        d("29 Feb 2100", nil),
        d("29 Feb 2000", "2000-02-29"),
        d("0/12/2020", nil),
        d("12/0/2020", nil),
        d("12/13/2014 25:00", nil),
        d("5/6/7", nil),
        d("0", nil),
        d("", nil),
        d("soon", nil),
        d("N/A", nil),
        d("Sep 2014", nil),
        d("9/19", nil),
        d("14:35", nil),
        d("tomorrow", nil),
        d("Julember 11, 1988", nil),
    ]

    @Test func accuracy() {
        var tally = AccuracyTally(rule: "date")
        for c in Self.cases {
            let r = DateRule.normalize(c.input, order: c.order, date1904: c.date1904)
            let label = c.order.map { "\(c.input) [--order \($0.rawValue)]" } ?? c.input
            tally.score(
                input: label,
                expected: ["iso": c.iso, "time": c.time, "valid": String(c.iso != nil), "ambiguous": String(c.ambiguous)],
                actual: ["iso": r.iso, "time": r.time, "valid": String(r.valid), "ambiguous": String(r.ambiguous)])
        }
        #expect(tally.cases >= 100)
        let below = tally.publish(defaultFloor: 0.98)
        #expect(below.isEmpty, "\(below)")
    }
}
