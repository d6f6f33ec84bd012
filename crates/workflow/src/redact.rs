//! Finding secret values in text, as written or as URLs and forms encode them.
//!
//! A secret typed into a URL comes back from the browser percent-encoded (`p@ss wörd` is
//! `p@ss%20w%C3%B6rd` in the address bar; `encodeURIComponent` and forms encode more, a
//! form writes a space as `+`). Rather than list every encoder's character set, a secret
//! matches wherever each of its bytes is written as itself or as `%XX` (either case), and
//! each space also as `+`: every encoding of those at once, and mixtures of them.

use std::ops::Range;

/// Where `secret` shows in `text` (overlapping occurrences included), as byte ranges on
/// character boundaries.
pub(crate) fn occurrences(text: &str, secret: &str) -> Vec<Range<usize>> {
    let (bytes, wanted) = (text.as_bytes(), secret.as_bytes());
    let Some(&first) = wanted.first() else { return Vec::new() };
    let mut found = Vec::new();
    for start in 0..bytes.len() {
        let b = bytes[start];
        // Most positions fail on their first byte: only then is the match followed.
        let may_start = b == first || b == b'%' || (b == b'+' && first == b' ');
        if !may_start || !text.is_char_boundary(start) {
            continue;
        }
        if let Some(end) = match_end(bytes, start, wanted).filter(|&end| text.is_char_boundary(end)) {
            found.push(start..end);
        }
    }
    found
}

/// The end of the longest match of `wanted` starting at `start`. A byte may be matched in
/// more than one way (a `%` in the secret by `%` or by `%25`), so every way is followed.
fn match_end(text: &[u8], start: usize, wanted: &[u8]) -> Option<usize> {
    let mut ends = vec![start];
    for &b in wanted {
        let mut next = Vec::with_capacity(ends.len());
        for &at in &ends {
            let here = text.get(at).copied();
            if here == Some(b) || (b == b' ' && here == Some(b'+')) {
                next.push(at + 1);
            }
            if here == Some(b'%') && text.get(at + 1..at + 3).and_then(decode_hex) == Some(b) {
                next.push(at + 3);
            }
        }
        next.sort_unstable();
        next.dedup();
        if next.is_empty() {
            return None;
        }
        ends = next;
    }
    ends.last().copied()
}

fn decode_hex(pair: &[u8]) -> Option<u8> {
    let digit = |d: u8| (d as char).to_digit(16);
    Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
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
}
