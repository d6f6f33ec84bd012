//! What a JSON reader's error means, in words, for every JSON file the program reads (a
//! workflow, batch data and tasks, a pool, LLM settings, a skill, a session, a drift file):
//! serde's messages are said the same way everywhere, and its place is left to the caller,
//! who says it as its file's messages do (`file:3:7`, `line 3, column 7`).

/// `e`, serde's error reading `src`, without serde's own " at line L column C"; half a
/// UTF-16 surrogate pair escaped alone (`\ud800`, a name cut from JavaScript's UTF-16) is
/// said to be so, with what to write instead.
pub fn json_problem(src: &str, e: &serde_json::Error) -> String {
    match lone_surrogate(src, e) {
        Some(escape) => format!("{}: {LONE_SURROGATE_HELP}", half_pair(&escape)),
        None => without_place(&e.to_string()).to_owned(),
    }
}

/// What to write instead of half a surrogate pair.
pub const LONE_SURROGATE_HELP: &str =
    "write the character itself, or both halves of the pair (`\\ud83d\\ude00` for 😀)";

/// What half a surrogate pair, escaped as `escape`, is.
pub fn half_pair(escape: &str) -> String {
    format!("`{escape}` is half of a UTF-16 surrogate pair, which text cannot hold alone")
}

/// The escape of half a surrogate pair (`\ud800`) that `e` stopped at, if it did: serde
/// says "unexpected end of hex escape" of a high half with no low half after it, which
/// reads as a typo in the digits.
pub fn lone_surrogate(src: &str, e: &serde_json::Error) -> Option<String> {
    let message = e.to_string();
    if !message.starts_with("unexpected end of hex escape") && !message.starts_with("lone leading surrogate") {
        return None;
    }
    // serde's column counts the line's bytes up to the place.
    let line = src.split('\n').nth(e.line().checked_sub(1)?)?;
    let before = line.as_bytes().get(..e.column().min(line.len()))?;
    // The last escape of a half before the place: a high half followed by an escape that is
    // not a low half (`\ud83d\u0041`) is stopped at after the second.
    let mut halves = before.windows(2).enumerate().filter(|(_, w)| *w == b"\\u").filter_map(|(at, _)| {
        let digits = std::str::from_utf8(line.as_bytes().get(at + 2..at + 6)?).ok()?;
        let unit = u16::from_str_radix(digits, 16).ok()?;
        (0xD800..=0xDFFF).contains(&unit).then(|| format!("\\u{digits}"))
    });
    halves.next_back()
}

/// serde's message without the " at line L column C" it ends with.
pub fn without_place(message: &str) -> &str {
    message.rsplit_once(" at line ").map_or(message, |(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(src: &str) -> String {
        json_problem(src, &serde_json::from_str::<serde_json::Value>(src).expect_err("an error"))
    }

    #[test]
    fn half_a_pair_is_said_so_wherever_it_is() {
        for src in [r#""\ud800""#, r#"{"a": "x\ud800"}"#, r#"{"a": "\ud83d\u0041"}"#, "[1,\n \"\\udfff\"]"] {
            let said = problem(src);
            assert!(
                said.contains("half of a UTF-16 surrogate pair") && said.contains(LONE_SURROGATE_HELP),
                "{src}: {said}"
            );
        }
        assert!(problem(r#""\ud800""#).starts_with("`\\ud800` is half"));
        // Any other error is serde's, without its place.
        assert_eq!(problem("{\n  \"a\": }"), "expected value");
    }
}
