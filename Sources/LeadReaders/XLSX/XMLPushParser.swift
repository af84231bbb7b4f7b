import CLeadXML2

/// Receives SAX events; each part's handler subclasses this. Names are local names
/// (namespace prefixes stripped), so Strict and Transitional OOXML look the same. A class
/// rather than a protocol so the C callbacks reach it through one unretained pointer.
class XMLHandler {
    /// Set by a handler to stop the parse with an error of its own.
    final var failure: ReaderError? {
        didSet { isFailed = failure != nil }
    }
    /// True once `failure` is set; read after every event, so it is a stored flag.
    final private(set) var isFailed = false
    /// The parser feeding this handler, so a failure can stop it at once.
    final fileprivate(set) var parser: UnsafeMutableRawPointer?
    final fileprivate(set) var sawDoctype = false

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) {}
    func endElement(_ name: XMLName) {}
    func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {}
}

/// An element's local name as libxml2 hands it over (NUL-terminated UTF-8).
struct XMLName {
    let pointer: UnsafePointer<UInt8>

    @inline(__always)
    func `is`(_ text: StaticString) -> Bool {
        let t = text.utf8Start
        var i = 0
        while i < text.utf8CodeUnitCount {
            if pointer[i] != t[i] { return false }
            i += 1
        }
        return pointer[i] == 0
    }

    var string: String { String(cString: pointer) }
}

/// The attributes of one element: libxml2's array of five pointers per attribute
/// (local name, prefix, URI, value start, value end; the value is not NUL-terminated).
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// The value of the attribute with this local name, whatever its namespace.
    @inline(__always)
    func value(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for k in 0..<count {
            let entry = base + 5 * k
            guard let local = entry[0] else { continue }
            if XMLName(pointer: local).is(name), let start = entry[3], let end = entry[4] {
                return UnsafeBufferPointer(start: start, count: end - start)
            }
        }
        return nil
    }

    func string(_ name: StaticString) -> String? {
        value(name).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// libxml2's SAX2 push parser, fed chunk by chunk. Refuses any document with a DTD (so no
/// entity can be declared, expanded or loaded), never touches the network, and does not
/// print libxml2's own messages.
final class XMLPushParser {
    private let handler: XMLHandler
    private var parser: UnsafeMutableRawPointer?
    private let part: String
    private let file: String

    init(handler: XMLHandler, part: String, file: String) {
        self.part = part
        self.file = file
        self.handler = handler
        let start: lp_xml_start_element = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            Unmanaged<XMLHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { handler in
                handler.startElement(XMLName(pointer: localname!), XMLAttributes(base: attributes, count: Int(nbAttributes)))
                if handler.isFailed { lp_xml_stop(handler.parser) }
            }
        }
        let end: lp_xml_end_element = { ctx, localname, _, _ in
            Unmanaged<XMLHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { handler in
                handler.endElement(XMLName(pointer: localname!))
                if handler.isFailed { lp_xml_stop(handler.parser) }
            }
        }
        let text: lp_xml_characters = { ctx, bytes, count in
            Unmanaged<XMLHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { handler in
                handler.characters(bytes!, Int(count))
                if handler.isFailed { lp_xml_stop(handler.parser) }
            }
        }
        let doctype: lp_xml_internal_subset = { ctx, _, _, _ in
            Unmanaged<XMLHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { handler in
                handler.sawDoctype = true
                lp_xml_stop(handler.parser)
            }
        }
        parser = lp_xml_create(start, end, text, doctype, Unmanaged.passUnretained(handler).toOpaque())
        handler.parser = parser
    }

    deinit {
        handler.parser = nil
        lp_xml_free(parser)
    }

    /// Parses the next piece of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard let parser else {
            if let missing = lp_xml_load_error() { throw ReaderError(file: file, .libraryMissing(String(cString: missing))) }
            throw ReaderError(file: file, .xmlMalformed(part: part, line: 0, message: "parser could not start"))
        }
        let status = lp_xml_feed(parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
        try check(status)
    }

    /// Ends the document.
    func finish() throws {
        guard let parser else { return }
        let status = lp_xml_feed(parser, nil, 0, 1)
        try check(status)
    }

    private func check(_ status: Int32) throws {
        if let failure = handler.failure { throw failure }
        if handler.sawDoctype { throw ReaderError(file: file, .xmlDoctype(part: part)) }
        guard let parser else { return }
        var line: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        if lp_xml_well_formed(parser, status, &line, &message, message.count) == 0 {
            // libxml2's messages may span lines ("…indicate encoding !\nBytes: …"): one line here.
            let text = String(cString: message).split(whereSeparator: \.isNewline).joined(separator: " ").trimmingTrailingWhitespace()
            throw ReaderError(file: file, .xmlMalformed(part: part, line: Int(line), message: text))
        }
    }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}

/// Streams a zip part through a handler. A large part is inflated on a second thread
/// (`inBackground`) while this one parses.
func parsePart(_ archive: ZipArchive, _ part: String, handler: XMLHandler, inBackground: Bool = false) throws {
    let parser = XMLPushParser(handler: handler, part: part, file: archive.file)
    if inBackground {
        let inflater = try PrefetchingInflater(archive: archive, part: part)
        defer { inflater.close() }
        while true {
            let chunk = try inflater.next()
            if chunk.isEmpty { break }
            try parser.feed(chunk)
        }
    } else {
        let reader = try archive.open(part)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try reader.read(into: buffer)
            if n == 0 { break }
            try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
    try parser.finish()
}
