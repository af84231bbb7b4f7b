/// A configuration file that cannot be used (an enrichment spec, a sync configuration): names
/// the file and, where it can, the line, as `path:line: message`. Always a usage problem.
public struct ConfigFileError: Error, CustomStringConvertible, Classified, Equatable {
    public var path: String
    public var line: Int?
    public var message: String
    public var disposition: FailureDisposition { .usage }

    public init(path: String, line: Int?, message: String) { (self.path, self.line, self.message) = (path, line, message) }

    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
