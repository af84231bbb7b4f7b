import Foundation

/// The README.txt a printer finds beside the manifest.
enum VDPReadme {
    static func text(campaign: String, baseURL: String, symbol: QRSymbol) -> String {
        let inches = Double((29 + 2 * Int(symbol.quietZone)) * Int(symbol.modulePixels)) / Double(symbol.dpi)
        return """
            Variable-data print files for the FLYR campaign "\(campaign)", made by leadport export vdp.

            vdp-manifest.csv (UTF-8, comma-separated, one row per campaign address, in the campaign's order):
              sequence       1, 2, 3 ... the order to print and mail in
              salutation     the name to address the piece to; empty when the address has no named contact
                             (print "Current Resident" there if the design needs a name)
              delivery_line  first address line, USPS style: 12 N MAIN ST APT 4
              last_line      city, state and ZIP, USPS style: BOSTON MA 02134
              slug           the QR code's 8-character code
              qr_url         what the QR code opens: \(baseURL)SLUG
              image          the QR code's PNG in this folder, qr/SEQUENCE-SLUG.png
              outcome        created (a new code) or unchanged (the code made before): print these;
                             skipped: the address cannot be mailed (see reason) and has no code: do not print it
              reason         why a row was skipped
              address_id     FLYR's campaign address id (for support; not printed)

            Images: qr/SEQUENCE-SLUG.png, SEQUENCE zero-padded so the files sort in print order. Each is a
            black-on-white 1-bit PNG at \(symbol.dpi) dpi, \(symbol.modulePixels) pixels per module, with the
            \(symbol.quietZone)-module white quiet zone included, error correction \(symbol.level == .quartile ? "Q" : "\(symbol.level)").
            Place it at 100% (about \(String(format: "%.2f", inches)) inches wide for a short URL) or larger; do not
            shrink it, crop the white border, or print it on a dark or patterned background.

            In InDesign's Data Merge, rename the image column's header to @image to place the images.

            """
    }
}
