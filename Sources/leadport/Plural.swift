/// `1 row`, `2 rows`, `0 rows`: a count with its noun, plural unless the count is one.
/// `plural` for nouns whose plural is not the noun and an `s` (`address`, `addresses`).
func numbered(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
}
