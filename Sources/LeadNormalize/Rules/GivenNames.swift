/// Given names common enough in US owner rolls that a word among them, second in a column of
/// capitalised names, says the column is written surname first (`SMITH JOHN`). The names are
/// the most frequent given names of people born in the US from the 1930s to the 1990s, as the
/// Social Security Administration publishes them (https://www.ssa.gov/oact/babynames/decades/),
/// lower case. A name missing here is only a weaker hint, never a wrong reading.
enum GivenNames {
    static func contains(_ word: String) -> Bool {
        guard let k = NameRule.key(word) else { return false }
        return all.contains(k)
    }

    static let all: Set<String> = Set((men + " " + women).split(whereSeparator: \.isWhitespace).map(String.init))

    private static let men = """
        james john robert michael william david richard joseph thomas charles christopher daniel matthew \
        anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason \
        jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin scott brandon benjamin samuel \
        gregory alexander frank patrick raymond jack dennis jerry tyler aaron jose adam nathan henry douglas \
        zachary peter kyle ethan walter noah jeremy christian keith roger terry gerald harold sean austin carl \
        arthur lawrence dylan jesse jordan bryan billy joe bruce gabriel logan albert willie alan juan wayne \
        elijah randy roy vincent ralph eugene russell bobby mason philip louis harry howard fred earl clarence \
        ernest leonard stanley dale allen norman glenn melvin leroy lee victor martin curtis jimmy johnny \
        travis chad derek shawn todd troy luis carlos jesus manuel antonio miguel francisco jorge ricardo \
        pedro mario marcus tony dustin shane corey cody brett bradley craig darrell herbert bernard eddie \
        floyd lloyd gene marvin jim tom bill bob mike dave steve rick dan don ron ken ted
        """
    private static let women = """
        mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret \
        sandra ashley kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca \
        sharon laura cynthia kathleen amy angela shirley anna brenda pamela emma nicole helen samantha \
        katherine christine debra rachel carolyn janet catherine maria heather diane ruth julie olivia joyce \
        virginia victoria kelly lauren christina joan evelyn judith megan andrea cheryl hannah jacqueline \
        martha gloria teresa ann sara madison frances kathryn janice jean abigail alice judy sophia grace \
        denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte marie \
        kayla alexis lori tammy tina wanda peggy dawn connie rita joanne jane june lois phyllis norma \
        irene louise annie vera wilma edna gladys florence rose hazel ethel lillian mildred josephine \
        thelma elsie marjorie bonnie sherry sheila kathy debbie cindy sue carmen rosa ana yolanda \
        jill tracy stacy wendy rhonda leslie beth erin kristen crystal holly april kristin monica renee
        """
}
