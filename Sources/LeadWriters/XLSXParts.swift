import LeadCore

/// The small fixed parts of a workbook that `XLSXWriter` writes (ECMA-376 Part 1, SpreadsheetML).
enum XLSXParts {
    static let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let officeRelationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let packageRelationships = "http://schemas.openxmlformats.org/package/2006/relationships"

    static func contentTypes(sheets: Int) -> String {
        var xml = header + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
        xml += #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
        xml += #"<Default Extension="xml" ContentType="application/xml"/>"#
        xml += #"<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#
        for k in 1...max(1, sheets) {
            xml += #"<Override PartName="/xl/worksheets/sheet\#(k).xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#
        }
        xml += #"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
        xml += #"<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>"#
        return xml + "</Types>"
    }

    static let rootRelationships = header + #"<Relationships xmlns="\#(packageRelationships)">"#
        + #"<Relationship Id="rId1" Type="\#(officeRelationships)/officeDocument" Target="xl/workbook.xml"/>"#
        + #"<Relationship Id="rId2" Type="\#(officeRelationships)/extended-properties" Target="docProps/app.xml"/>"#
        + "</Relationships>"

    static let app = header + #"<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>LeadPort</Application></Properties>"#

    /// `sheets`: name, rows written (header included) and columns of each sheet. A sheet with a
    /// filter on its header gets the hidden defined name Excel keeps for it.
    static func workbook(sheets: [(name: String, rows: Int, columns: Int)]) -> String {
        var xml = header + #"<workbook xmlns="\#(main)" xmlns:r="\#(officeRelationships)"><bookViews><workbookView/></bookViews><sheets>"#
        for (k, sheet) in sheets.enumerated() {
            xml += #"<sheet name="\#(attribute(sheet.name))" sheetId="\#(k + 1)" r:id="rId\#(k + 1)"/>"#
        }
        xml += "</sheets>"
        let filtered = sheets.enumerated().filter { $0.element.columns > 0 && $0.element.rows > 0 }
        if !filtered.isEmpty {
            xml += "<definedNames>"
            for (k, sheet) in filtered {
                let quoted = "'" + sheet.name.replacingOccurrences(of: "'", with: "''") + "'"
                let range = "\(quoted)!$A$1:$\(Column.letters(for: sheet.columns - 1))$\(sheet.rows)"
                xml += #"<definedName name="_xlnm._FilterDatabase" localSheetId="\#(k)" hidden="1">\#(text(range))</definedName>"#
            }
            xml += "</definedNames>"
        }
        return xml + "</workbook>"
    }

    static func workbookRelationships(sheets: Int) -> String {
        var xml = header + #"<Relationships xmlns="\#(packageRelationships)">"#
        for k in 1...max(1, sheets) {
            xml += #"<Relationship Id="rId\#(k)" Type="\#(officeRelationships)/worksheet" Target="worksheets/sheet\#(k).xml"/>"#
        }
        xml += #"<Relationship Id="rId\#(max(1, sheets) + 1)" Type="\#(officeRelationships)/styles" Target="styles.xml"/>"#
        return xml + "</Relationships>"
    }

    /// Cell formats by index: 0 general, 1 bold header, 2 date `yyyy-mm-dd`, 3 text (`@`).
    static let styles = header + #"<styleSheet xmlns="\#(main)">"#
        + #"<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\-mm\-dd"/></numFmts>"#
        + #"<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#
        + #"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#
        + #"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#
        + #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
        + #"<cellXfs count="4">"#
        + #"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#
        + #"<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>"#
        + #"<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
        + #"<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
        + "</cellXfs>"
        + #"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#
        + "</styleSheet>"

    static func text(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func attribute(_ s: String) -> String {
        text(s).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
