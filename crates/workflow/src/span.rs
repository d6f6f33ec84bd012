//! Source positions for JSON values.
//!
//! serde reports *what* is wrong with a document as a path (`states[2].actions[0]`); users
//! need *where*. `SpanIndex` scans the (already syntax-checked) JSON text once and maps every
//! value's path to its byte offset, so any diagnostic with a path gets a line and column.

use std::collections::HashMap;
use std::fmt;

/// One step into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path from the document root to a value, e.g. `states[2].actions[0].target`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(pub Vec<Seg>);

impl JsonPath {
    pub fn root() -> Self {
        Self(Vec::new())
    }

    pub fn key(&self, key: &str) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key.to_owned()));
        Self(segs)
    }

    pub fn index(&self, index: usize) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(index));
        Self(segs)
    }

    /// The parent path, or the root for the root.
    pub fn parent(&self) -> Self {
        let mut segs = self.0.clone();
        segs.pop();
        Self(segs)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(document)");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Where each value (and each object key) starts in the source text.
#[derive(Debug, Default)]
pub struct SpanIndex<'a> {
    src: &'a str,
    values: HashMap<JsonPath, usize>,
    keys: HashMap<JsonPath, usize>,
    /// Byte offsets where lines start, and the character count at every
    /// `CHECKPOINT` bytes: a position costs a binary search and a short scan, so a
    /// thousand diagnostics on a one-line megabyte file stay linear.
    line_starts: Vec<usize>,
    chars_at: Vec<usize>,
    /// Keys written a second time in the same object, with where each was first written:
    /// JSON parsers keep the last silently, so a repeated `checks` would lose the first.
    repeated: Vec<RepeatedKey>,
}

/// A key an object has twice: the path it names and where each was written (byte offsets).
#[derive(Debug, Clone)]
struct RepeatedKey {
    path: JsonPath,
    first: usize,
    again: usize,
}

/// Bytes between character-count checkpoints.
const CHECKPOINT: usize = 4096;

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl<'a> SpanIndex<'a> {
    /// Indexes `src`. On text that is not valid JSON the index is partial, never a panic.
    pub fn new(src: &'a str) -> Self {
        let bytes = src.as_bytes();
        let line_starts = std::iter::once(0).chain(memchr_newlines(bytes)).collect();
        let mut chars_at = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut chars = 0;
        for chunk in bytes.chunks(CHECKPOINT) {
            chars_at.push(chars);
            chars += chunk.iter().filter(|&&b| !is_continuation(b)).count();
        }
        let mut index = Self { src, line_starts, chars_at, ..Self::default() };
        let mut scanner = Scanner { bytes: src.as_bytes(), pos: 0 };
        scanner.value(&JsonPath::root(), &mut index, 0);
        index
    }

    /// The position of the value at `path`, falling back to its nearest indexed ancestor.
    pub fn value_pos(&self, path: &JsonPath) -> LineCol {
        let mut path = path.clone();
        loop {
            if let Some(&offset) = self.values.get(&path) {
                return self.line_col(offset);
            }
            if path.0.is_empty() {
                return LineCol { line: 1, column: 1 };
            }
            path = path.parent();
        }
    }

    /// Every key written again in the same object: its path, where it is written again and
    /// where it was first, in the order they appear in the file.
    pub fn repeated_keys(&self) -> impl Iterator<Item = (&JsonPath, LineCol, LineCol)> + '_ {
        self.repeated.iter().map(|r| (&r.path, self.line_col(r.again), self.line_col(r.first)))
    }

    /// The position of the key that names the value at `path` (for unknown-field errors).
    pub fn key_pos(&self, path: &JsonPath) -> LineCol {
        match self.keys.get(path) {
            Some(&offset) => self.line_col(offset),
            None => self.value_pos(path),
        }
    }

    /// The position of the `char_index`-th decoded character inside the string at `path`,
    /// accounting for escapes, so errors inside selectors and call strings point exactly.
    pub fn string_char_pos(&self, path: &JsonPath, char_index: usize) -> LineCol {
        let Some(&start) = self.values.get(path) else {
            return self.value_pos(path);
        };
        let raw = &self.src.as_bytes()[start..];
        if raw.first() != Some(&b'"') {
            return self.line_col(start);
        }
        let mut pos = 1;
        let mut decoded = 0;
        while pos < raw.len() && raw[pos] != b'"' && decoded < char_index {
            pos += match raw[pos] {
                b'\\' if raw.get(pos + 1) == Some(&b'u') => {
                    // A surrogate pair is two escapes but one character.
                    let high = raw
                        .get(pos + 2..pos + 6)
                        .and_then(|h| u16::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
                    match high {
                        Some(0xD800..=0xDBFF) if raw.get(pos + 6) == Some(&b'\\') => 12,
                        _ => 6,
                    }
                }
                b'\\' => 2,
                b => utf8_len(b),
            };
            decoded += 1;
        }
        self.line_col((start + pos).min(self.src.len()))
    }

    fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.src.len());
        let line = self.line_starts.partition_point(|&start| start <= offset).max(1);
        let line_start = self.line_starts[line - 1];
        let column = self.chars_before(offset) - self.chars_before(line_start) + 1;
        LineCol { line, column }
    }

    /// Characters (not bytes) before byte `offset`.
    fn chars_before(&self, offset: usize) -> usize {
        let checkpoint = offset / CHECKPOINT;
        let Some(&base) = self.chars_at.get(checkpoint) else { return 0 };
        let from = checkpoint * CHECKPOINT;
        base + self.src.as_bytes()[from..offset].iter().filter(|&&b| !is_continuation(b)).count()
    }
}

/// Whether a byte continues a UTF-8 sequence (rather than starting a character).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Offsets just after each newline.
fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n').map(|(i, _)| i + 1)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// A forgiving scanner: it assumes serde_json already accepted the text and only records
/// offsets; on anything unexpected it stops instead of failing.
struct Scanner<'b> {
    bytes: &'b [u8],
    pos: usize,
}

const MAX_DEPTH: usize = 256;

impl Scanner<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn value(&mut self, path: &JsonPath, index: &mut SpanIndex, depth: usize) -> Option<()> {
        self.skip_ws();
        index.values.insert(path.clone(), self.pos);
        if depth > MAX_DEPTH {
            return None;
        }
        match *self.bytes.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                // Keys are compared within this object: a repeated key's children have the
                // same paths as the first one's, and are no repeats of their own.
                let mut seen: HashMap<String, usize> = HashMap::new();
                loop {
                    self.skip_ws();
                    match *self.bytes.get(self.pos)? {
                        b'}' => {
                            self.pos += 1;
                            return Some(());
                        }
                        b',' => self.pos += 1,
                        b'"' => {
                            let key_start = self.pos;
                            let key = self.string()?;
                            let child = path.key(&key);
                            index.keys.insert(child.clone(), key_start); // the last one is kept
                            if let Some(first) = seen.insert(key, key_start) {
                                index.repeated.push(RepeatedKey { path: child.clone(), first, again: key_start });
                            }
                            self.skip_ws();
                            if self.bytes.get(self.pos) != Some(&b':') {
                                return None;
                            }
                            self.pos += 1;
                            self.value(&child, index, depth + 1)?;
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                let mut i = 0;
                loop {
                    self.skip_ws();
                    match *self.bytes.get(self.pos)? {
                        b']' => {
                            self.pos += 1;
                            return Some(());
                        }
                        b',' => self.pos += 1,
                        _ => {
                            self.value(&path.index(i), index, depth + 1)?;
                            i += 1;
                        }
                    }
                }
            }
            b'"' => self.string().map(drop),
            _ => {
                while self.pos < self.bytes.len()
                    && !matches!(self.bytes[self.pos], b',' | b'}' | b']')
                    && !self.bytes[self.pos].is_ascii_whitespace()
                {
                    self.pos += 1;
                }
                Some(())
            }
        }
    }

    /// Reads a string literal starting at `"` and returns its decoded value.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        self.pos += 1;
        while self.pos < self.bytes.len() {
            match self.bytes[self.pos] {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    let raw = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
                    return serde_json::from_str(raw).ok();
                }
                _ => self.pos += 1,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(segs: &[Seg]) -> JsonPath {
        JsonPath(segs.to_vec())
    }

    #[test]
    fn values_and_keys_get_their_positions() {
        let src = "{\n  \"states\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\"}\n  ]\n}";
        let index = SpanIndex::new(src);
        let name1 = p(&[Seg::Key("states".into()), Seg::Index(1), Seg::Key("name".into())]);
        assert_eq!(index.value_pos(&name1), LineCol { line: 4, column: 14 });
        assert_eq!(index.key_pos(&name1), LineCol { line: 4, column: 6 });
        assert_eq!(name1.to_string(), "states[1].name");
    }

    #[test]
    fn unknown_paths_fall_back_to_the_nearest_ancestor() {
        let index = SpanIndex::new("{\"a\": [1, {\"b\": 2}]}");
        let missing = p(&[Seg::Key("a".into()), Seg::Index(1), Seg::Key("zzz".into())]);
        assert_eq!(index.value_pos(&missing), LineCol { line: 1, column: 11 });
    }

    #[test]
    fn string_positions_account_for_escapes_and_wide_characters() {
        let src = r#"{"s": "a\"é\u00e9\ud83d\ude00x"}"#;
        let index = SpanIndex::new(src);
        let s = p(&[Seg::Key("s".into())]);
        // Decoded: a " é é 😀 x — the 'x' is decoded char 5.
        let x = src.find('x').unwrap();
        let expected_col = src[..x].chars().count() + 1;
        assert_eq!(index.string_char_pos(&s, 5).column, expected_col);
    }

    #[test]
    fn positions_far_into_long_lines_with_wide_characters_are_exact() {
        // Thousands of values on one line and on many, with multi-byte characters across
        // the character-count checkpoints: every position agrees with a naive count.
        for sep in [" ", "\n"] {
            let items: Vec<String> = (0..3000).map(|i| format!("\"é{i}😀\"")).collect();
            let src = format!("{{\"a\": [{}]}}", items.join(&format!(",{sep}")));
            let index = SpanIndex::new(&src);
            for i in [0, 1, 999, 2047, 2999] {
                let pos = index.value_pos(&p(&[Seg::Key("a".into()), Seg::Index(i)]));
                let offset = src.match_indices(&format!("\"é{i}😀\"")).next().unwrap().0;
                let before = &src[..offset];
                let line = before.matches('\n').count() + 1;
                let column = before[before.rfind('\n').map_or(0, |n| n + 1)..].chars().count() + 1;
                assert_eq!(pos, LineCol { line, column }, "item {i}, separator {sep:?}");
            }
        }
    }

    #[test]
    fn keys_written_twice_in_one_object_are_found_with_both_places() {
        let src = "{\"a\": 1,\n \"b\": {\"a\": 2, \"\\u0061\": 3},\n \"a\": 4, \"c\": [{\"a\": 5}, {\"a\": 6}]}";
        let index = SpanIndex::new(src);
        let repeated: Vec<_> = index.repeated_keys().map(|(p, again, first)| (p.to_string(), again, first)).collect();
        let at = |line, column| LineCol { line, column };
        assert_eq!(
            repeated,
            vec![("b.a".to_owned(), at(2, 16), at(2, 8)), ("a".to_owned(), at(3, 2), at(1, 2))],
            "a key escaped differently is the same key; objects in an array are each their own"
        );
        assert_eq!(index.value_pos(&p(&[Seg::Key("a".into())])), at(3, 7), "the value kept is the last");
    }

    #[test]
    fn garbage_never_panics() {
        for src in ["", "{", "[1,", "{\"a\"", "{\"a\":", "\"\\", "{\"a\": [[[[", "é{\"é\":\"é"] {
            let index = SpanIndex::new(src);
            let _ = index.value_pos(&p(&[Seg::Key("a".into())]));
            let _ = index.string_char_pos(&p(&[Seg::Key("a".into())]), 3);
        }
    }
}
