//! Finding secret values in text, as written or as URLs, HTML and JSON encode them.
//!
//! A secret typed into a URL comes back from the browser percent-encoded (`p@ss wörd` is
//! `p@ss%20w%C3%B6rd` in the address bar; `encodeURIComponent` and forms encode more, a
//! form writes a space as `+`), a redirect's `next=` holds an encoded URL encoded again
//! (`p%2540ss`), saved HTML and the attributes a page reports hold character references
//! (`w&amp;rd`, `&#38;`, `&#x26;`), and JSON text escapes (`\"`, `\\`, `\u0026`). Rather
//! than list every encoder's character set, a secret matches wherever each of its
//! characters is written as itself or in any of those encodings, whose own punctuation
//! (`%`, `&`, `#`, `;`, `\`, `+`) may be encoded again, up to [`LAYERS`] deep: every
//! encoder at once, over one another, and mixtures of them.
//!
//! The text is never decoded: the secret is followed through it from each place where its
//! first character could start (most places fail on their first byte), so a search costs
//! at most the text's length times the secret's, and only a whole encoding of a character
//! stands for it (`%C3` alone is not half an `é`, `&#60` without its `;` is no `<`).

use std::ops::Range;

/// How many encodings over one another are seen through: a URL encoded twice inside JSON
/// text, say. Each one more multiplies the ways a character is tried at a `%`, `&`, `\`
/// or `+`, not the places tried.
const LAYERS: u8 = 3;

/// The bytes that start an encoding of a character, whatever the character.
const ENCODING_STARTS: &[u8] = b"%&\\+";

/// Character references by name, as serializers write them (`outerHTML` writes `&amp;`,
/// `&lt;`, `&gt;`, `&quot;`, `&nbsp;`); HTML also reads the upper-case ones.
const NAMED: &[(char, &[&str])] = &[
    ('&', &["amp", "AMP"]),
    ('<', &["lt", "LT"]),
    ('>', &["gt", "GT"]),
    ('"', &["quot", "QUOT"]),
    ('\'', &["apos"]),
    ('\u{a0}', &["nbsp"]),
];

/// JSON's short escapes: `\n` for a line feed, and so on.
const JSON_SHORT: &[(char, u8)] = &[
    ('"', b'"'),
    ('\\', b'\\'),
    ('/', b'/'),
    ('\u{8}', b'b'),
    ('\u{c}', b'f'),
    ('\n', b'n'),
    ('\r', b'r'),
    ('\t', b't'),
];

/// Where `secret` shows in `text` (overlapping occurrences included), as byte ranges on
/// character boundaries.
pub(crate) fn occurrences(text: &str, secret: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let Some(&first) = secret.as_bytes().first() else { return Vec::new() };
    let mut found = Vec::new();
    for start in 0..bytes.len() {
        let b = bytes[start];
        // Most positions fail on their first byte: only then is the match followed.
        if !(b == first || ENCODING_STARTS.contains(&b)) || !text.is_char_boundary(start) {
            continue;
        }
        if let Some(end) = match_end(bytes, start, secret) {
            debug_assert!(text.is_char_boundary(end), "encodings are ASCII, characters are whole");
            found.push(start..end);
        }
    }
    found
}

/// The end of the longest match of `secret` starting at `start`. A character may be
/// written in more than one way (a `%` in the secret by `%` or by `%25`), so every way is
/// followed.
fn match_end(text: &[u8], start: usize, secret: &str) -> Option<usize> {
    let mut ends = vec![start];
    for c in secret.chars() {
        ends = then(&ends, |at, next| written(text, at, c, LAYERS, next));
        if ends.is_empty() {
            return None;
        }
    }
    ends.last().copied()
}

/// Where each way to go on from each of `places` ends, in order, once each.
fn then(places: &[usize], mut step: impl FnMut(usize, &mut Vec<usize>)) -> Vec<usize> {
    let mut next = Vec::new();
    for &at in places {
        step(at, &mut next);
    }
    next.sort_unstable();
    next.dedup();
    next
}

/// Adds to `ends` where each writing of `c` that starts at `at` ends: `c` itself, or, with
/// `layers` left, one of its encodings, whose punctuation is written with one layer fewer.
fn written(text: &[u8], at: usize, c: char, layers: u8, ends: &mut Vec<usize>) {
    let Some(&here) = text.get(at) else { return };
    let mut utf8 = [0; 4];
    let raw = c.encode_utf8(&mut utf8).as_bytes();
    if text[at..].starts_with(raw) {
        ends.push(at + raw.len());
    }
    if layers == 0 || !ENCODING_STARTS.contains(&here) {
        return;
    }
    let inner = layers - 1;
    let punctuation = |p: char| move |at: usize, out: &mut Vec<usize>| written(text, at, p, inner, out);
    // A form's space.
    if c == ' ' {
        written(text, at, '+', inner, ends);
    }
    if here == b'+' {
        return; // no other encoding starts with one
    }
    // A URL's `%XX` for each byte.
    let mut url = vec![at];
    for &b in raw.iter() {
        url = then(&then(&url, punctuation('%')), |at, out| hex(text, at, u32::from(b), 2, out));
    }
    ends.extend(url);
    // HTML's `&#N;`, `&#xH;` and `&name;`.
    let amp = then(&[at], punctuation('&'));
    if !amp.is_empty() {
        let hash = then(&amp, punctuation('#'));
        let mut number = then(&hash, |at, out| decimal(text, at, u32::from(c), out));
        let x = then(&hash, |at, out| {
            if matches!(text.get(at), Some(b'x' | b'X')) {
                out.push(at + 1);
            }
        });
        number.extend(then(&x, |at, out| hex(text, at, u32::from(c), 0, out)));
        for (_, names) in NAMED.iter().filter(|(named, _)| *named == c) {
            for name in names.iter() {
                number.extend(
                    amp.iter().filter(|&&at| text[at..].starts_with(name.as_bytes())).map(|at| at + name.len()),
                );
            }
        }
        ends.extend(then(&number, punctuation(';')));
    }
    // JSON's `\"`, `\n`… and `\uXXXX` for each UTF-16 unit.
    let backslash = then(&[at], punctuation('\\'));
    if !backslash.is_empty() {
        for &(_, letter) in JSON_SHORT.iter().filter(|(escaped, _)| *escaped == c) {
            ends.extend(then(&backslash, punctuation(char::from(letter))));
        }
        let mut json = vec![at];
        for unit in c.encode_utf16(&mut [0; 2]).iter() {
            json = then(&json, punctuation('\\'));
            json = then(&json, |at, out| {
                if text.get(at) == Some(&b'u') {
                    hex(text, at + 1, u32::from(*unit), 4, out);
                }
            });
        }
        ends.extend(json);
    }
}

/// Adds the end of `value` written in hexadecimal digits of either case at `at`: exactly
/// `width` of them, or with `width` 0 any number (leading zeros as a reference may have).
fn hex(text: &[u8], at: usize, value: u32, width: usize, ends: &mut Vec<usize>) {
    number(text, at, value, 16, width, ends);
}

/// Adds the end of `value` written in decimal digits, leading zeros allowed, at `at`.
fn decimal(text: &[u8], at: usize, value: u32, ends: &mut Vec<usize>) {
    number(text, at, value, 10, 0, ends);
}

fn number(text: &[u8], at: usize, value: u32, radix: u32, width: usize, ends: &mut Vec<usize>) {
    let mut read: u32 = 0;
    let mut end = at;
    while let Some(digit) = text.get(end).and_then(|&d| (d as char).to_digit(radix)) {
        match read.checked_mul(radix).and_then(|r| r.checked_add(digit)) {
            Some(more) if more <= value => read = more,
            _ => return, // already more than `value`: no more digits can make it
        }
        end += 1;
        if end - at == width {
            break;
        }
    }
    if read == value && end > at && (width == 0 || end - at == width) {
        ends.push(end);
    }
}

/// `text` with every place any of `secrets` shows replaced by `mask`. Overlapping places
/// become one mask, so neither a secret inside a longer one (`hunter` in
/// `hunter2TAILSECRET`) nor two that overlap leave a piece of either visible, whatever
/// order they were declared in.
pub(crate) fn mask_all<'s>(text: &str, secrets: impl Iterator<Item = &'s str>, mask: &str) -> String {
    let mut places: Vec<Range<usize>> = secrets.flat_map(|secret| occurrences(text, secret)).collect();
    if places.is_empty() {
        return text.to_owned();
    }
    places.sort_unstable_by_key(|place| place.start);
    let mut out = String::with_capacity(text.len());
    let mut written = 0; // bytes of `text` already copied or masked
    for place in places {
        if place.start >= written {
            out.push_str(&text[written..place.start]);
            out.push_str(mask);
            written = place.end;
        } else if place.end > written {
            written = place.end; // overlaps the mask just written: extend it
        }
    }
    out.push_str(&text[written..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASK: &str = "••••••";

    fn masked(text: &str, secrets: &[&str]) -> String {
        mask_all(text, secrets.iter().copied(), MASK)
    }

    #[test]
    fn every_percent_encoding_of_a_secret_is_found() {
        let secret = "p@ss wörd/+&";
        for shown in [
            "p@ss wörd/+&",                // as typed
            "p@ss%20w%C3%B6rd/+&",         // the browser's address bar, encodeURI
            "p%40ss%20w%C3%B6rd%2F%2B%26", // encodeURIComponent
            "p%40ss+w%C3%B6rd%2F%2B%26",   // a form
            "p%40ss%20w%c3%b6rd%2f%2b%26", // lower-case hex
            "%70%40%73s w%C3%B6rd/+&",     // needlessly encoded letters
        ] {
            let text = format!("http://x/login?pw={shown}&t=1");
            assert_eq!(masked(&text, &[secret]), format!("http://x/login?pw={MASK}&t=1"), "{shown}");
        }
        assert_eq!(masked("p%40ss%20w%C3%B6rd%2F%2B", &[secret]), "p%40ss%20w%C3%B6rd%2F%2B", "not all of it");
    }

    #[test]
    fn a_percent_sign_in_a_secret_matches_as_itself_or_encoded() {
        for shown in ["50%25x", "50%2525x", "50%x"] {
            let secret = if shown == "50%x" { "50%x" } else { "50%25x" };
            assert_eq!(masked(&format!("a {shown} b"), &[secret]), format!("a {MASK} b"), "{shown}");
        }
        assert_eq!(masked("a 50%x b", &["50%25x"]), "a 50%x b");
    }

    #[test]
    fn nested_and_overlapping_secrets_leave_nothing_visible_in_any_order() {
        let text = "key hunter2TAILSECRET end";
        for secrets in [["hunter", "hunter2TAILSECRET"], ["hunter2TAILSECRET", "hunter"]] {
            assert_eq!(masked(text, &secrets), format!("key {MASK} end"));
        }
        assert_eq!(masked("abcXdef", &["Xdef", "abcX"]), MASK);
        assert_eq!(masked("aaa", &["aa"]), MASK, "overlapping occurrences of one secret");
        assert_eq!(masked("a-b a", &["a"]), format!("{MASK}-b {MASK}"));
    }

    #[test]
    fn text_without_the_secret_is_left_alone() {
        assert_eq!(masked("100% sure, a+b", &["secret"]), "100% sure, a+b");
        assert_eq!(masked("é%C3", &["é"]), format!("{MASK}%C3"), "half an encoded character is no match");
        assert!(occurrences("anything", "").is_empty());
    }

    #[test]
    fn a_url_encoded_twice_or_more_shows_the_secret_too() {
        let secret = "p@ss w&rd\"<>";
        for shown in [
            "p%2540ss%2520w%2526rd%2522%253C%253E",             // encodeURIComponent twice
            "p%2540ss%252Bw%2526rd%2522%253c%253e",             // a form's value, encoded again
            "p%252540ss%252520w%252526rd%252522%25253C%25253E", // three times
            "p%40ss%2520w%26rd%2522<>",                         // mixtures
        ] {
            let text = format!("http://x/login?next=%2Fhome%3Fpw%3D{shown}&t=1");
            assert_eq!(masked(&text, &[secret]), format!("http://x/login?next=%2Fhome%3Fpw%3D{MASK}&t=1"), "{shown}");
        }
        assert_eq!(masked("a%2525b", &["a%b"]), MASK, "a `%` in the secret, encoded twice");
    }

    #[test]
    fn html_character_references_show_the_secret_too() {
        let secret = "p@ss w&rd\"<>ö\u{a0}";
        for shown in [
            "p@ss w&amp;rd&quot;&lt;&gt;ö&nbsp;",                  // outerHTML
            "p&#64;ss&#32;w&#38;rd&#34;&#60;&#62;&#246;&#160;",    // decimal
            "p&#x40;ss w&#X26;rd&#x0022;&#x3c;&#x3E;&#xF6;&#xa0;", // hexadecimal, either case
            "&#0000112;@ss w&AMP;rd&QUOT;&LT;&GT;&#x00f6;&nbsp;",  // leading zeros, upper-case names
            "p@ss w%26amp%3Brd\"<>ö\u{a0}",                        // a reference inside a URL
        ] {
            let text = format!("<p title=\"{shown}\">x</p>");
            assert_eq!(masked(&text, &[secret]), format!("<p title=\"{MASK}\">x</p>"), "{shown}");
        }
    }

    #[test]
    fn json_escapes_show_the_secret_too() {
        let secret = "say \"hi\" C:\\dir/\u{1}\tö🔑";
        let once = serde_json::to_string(secret).unwrap();
        let twice = serde_json::to_string(&once).unwrap();
        for shown in [
            once.trim_matches('"').to_owned(),
            twice[3..twice.len() - 3].to_owned(), // JSON text of JSON text: `\\\"` for `"`
            r"say \u0022hi\u0022 C:\u005cdir\/\u0001\tö\ud83d\uDD11".to_owned(),
            r"\u0073ay &quot;hi&quot; C:\\dir/\u0001\t\u00F6🔑".to_owned(),
        ] {
            let text = format!(r#"{{"answer": "{shown}", "n": 1}}"#);
            assert_eq!(masked(&text, &[secret]), format!(r#"{{"answer": "{MASK}", "n": 1}}"#), "{shown}");
        }
    }

    #[test]
    fn only_a_whole_encoding_of_a_short_secret_is_masked() {
        // A one-character secret is masked wherever it shows, as the other secrets are, but an
        // encoding of another character, or one cut short, is not it.
        for shown in ["<", "&lt;", "&LT;", "&#60;", "&#x3c;", "%3C", "%253C", "\\u003c", "\\u003C"] {
            assert_eq!(masked(&format!("a {shown} b"), &["<"]), format!("a {MASK} b"), "{shown}");
        }
        for innocent in
            ["a &gt; b", "a &#600; b", "a &#60 b", "a &lt b", "a %3 b", "a %25 b", "a \\u003 b", "a &#x3c0; b"]
        {
            assert_eq!(masked(innocent, &["<"]), innocent);
        }
        assert_eq!(masked("Tom &amp; Jerry", &["&"]), format!("Tom {MASK} Jerry"), "no `amp;` is left");
        assert_eq!(masked("a+b %2B", &["+"]), format!("a{MASK}b {MASK}"));
        assert_eq!(masked("x=%2520", &[" "]), format!("x={MASK}"));
    }

    #[test]
    fn the_search_grows_with_the_text_not_its_square() {
        // Text made of nothing but the starts of encodings, every one followed.
        let text = ["%25", "&amp;", "\\\\", "%2526amp%3B", "+"].concat().repeat(5_000);
        let began = std::time::Instant::now();
        assert!(occurrences(&text, "%&\\x").is_empty());
        assert_eq!(occurrences(&text, "&").len(), 2 * 5_000);
        assert!(began.elapsed() < std::time::Duration::from_secs(20), "{:?}", began.elapsed());
    }
}
