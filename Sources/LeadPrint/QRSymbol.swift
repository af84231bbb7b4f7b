import CLeadQR

/// How the QR codes are drawn for print, and a PNG of one.
///
/// | setting | value | why |
/// | --- | --- | --- |
/// | error correction | Q (25% of the symbol can be lost) | a flyer is folded, scuffed and printed on coated stock; Q still fits `https://flyrpro.app/q/` and a slug in a version 3 symbol (29 modules) |
/// | module | 10 px | at 300 dpi, 0.85 mm a module: a 37-module code with its margin prints 31 mm (1.23 in) wide, above the ~0.5 mm a phone camera needs at arm's length |
/// | quiet zone | 4 modules | what ISO/IEC 18004 requires around the symbol, white |
/// | resolution | 300 dpi in the PNG's pHYs | layout programs place the image at its print size without scaling |
///
/// The PNG is 1-bit greyscale: black modules on white, nothing to dither or resample.
public struct QRSymbol: Sendable {
    public enum Level: Int32, Sendable { case low = 0, medium = 1, quartile = 2, high = 3 }

    public var level: Level = .quartile
    public var modulePixels: Int32 = 10
    public var quietZone: Int32 = 4
    public var dpi: Int32 = 300

    public init() {}

    /// Throws when the QR and PNG libraries, opened on first use, are missing: checked before a
    /// print run makes its output or writes any slug, so that it stops at once and names them.
    public static func checkLibraries() throws {
        if let missing = lq_load_error() { throw VDPError.missingLibrary(String(cString: missing)) }
    }

    /// The PNG of `text`, and the symbol's width in modules (without the quiet zone).
    public func png(_ text: String) throws -> (bytes: [UInt8], modules: Int) {
        var pointer: UnsafeMutablePointer<UInt8>?
        var size = 0
        var modules: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard lq_qr_png(text, level.rawValue, modulePixels, quietZone, dpi, &pointer, &size, &modules, &message, message.count) == 0, let pointer else {
            throw QRSymbolError(message: String(cString: message))
        }
        defer { lq_free(pointer) }
        return (Array(UnsafeBufferPointer(start: pointer, count: size)), Int(modules))
    }
}

public struct QRSymbolError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
