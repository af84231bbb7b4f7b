/// FLYR users as LeadPort names them.
public enum FlyrUser {
    /// The owner of what LeadPort writes when no user is given and no campaign says whose it
    /// is: the embedded database's local user (the nil UUID).
    public static let local = "00000000-0000-0000-0000-000000000000"
}
