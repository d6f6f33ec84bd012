//! Source positions for JSON values.
//!
//! serde reports *what* is wrong with a document as a path (`states[2].actions[0]`); users
//! need *where*. `SpanIndex` scans the (already syntax-checked) JSON text once and maps every
//! value's path to its byte offset, so any diagnostic with a path gets a line and column.

use std::borrow::Cow;
use std::cell::Cell;
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
///
/// The values form a tree of fixed-size nodes, each object's or array's children side by
/// side, so a path is found by walking it from the root: a map from every value's full path
/// (each a vector of owned keys) took about 25 times the file's size, where this takes a
/// node of 16 bytes per value.
#[derive(Debug, Default)]
pub struct SpanIndex<'a> {
    src: &'a str,
    /// The children of every object and array; `root` is the document's value.
    nodes: Vec<Node>,
    root: Option<Node>,
    /// The keys of each object with more than `KEYS_SEARCHED` of them (by its first child),
    /// each with its child's place: a thousand findings in a map of a thousand parameters
    /// would otherwise compare a million keys.
    keyed: HashMap<u32, HashMap<Cow<'a, str>, u32>>,
    /// Byte offsets where lines start, and the character count at every
    /// `CHECKPOINT` bytes: a position costs a binary search and a short scan, so a
    /// thousand diagnostics on a one-line megabyte file stay linear.
    line_starts: Vec<usize>,
    chars_at: Vec<usize>,
    /// Keys written a second time in the same object, with where each was first written:
    /// JSON parsers keep the last silently, so a repeated `checks` would lose the first.
    repeated: Vec<RepeatedKey>,
    /// Where the last position inside a string was found: the errors of one call string
    /// come in order along it, and each found from the string's start made an action of a
    /// hundred thousand arguments, one error each, take minutes.
    last_in_string: Cell<Option<InString>>,
}

/// A place inside the string that starts at byte `start`: the `decoded`-th character is at
/// byte `start + pos`.
#[derive(Debug, Clone, Copy)]
struct InString {
    start: usize,
    decoded: usize,
    pos: usize,
}

/// One value: where it starts, where its key starts (`NO_KEY` in an array or at the
/// root), and its children `nodes[children..children + len]` when it is an object or array.
/// Offsets are `u32`: input files are at most 64 MiB; the scan stops at 4 GiB.
#[derive(Debug, Clone, Copy)]
struct Node {
    start: u32,
    key: u32,
    children: u32,
    len: u32,
}

const NO_KEY: u32 = u32::MAX;

/// Objects with at most this many keys are searched key by key.
const KEYS_SEARCHED: usize = 32;

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
        let end = bytes.len().min(u32::MAX as usize - 1);
        let mut scanner = Scanner {
            bytes: &bytes[..end],
            pos: 0,
            nodes: Vec::new(),
            siblings: Vec::new(),
            path: Vec::new(),
            repeated: Vec::new(),
            keyed: HashMap::new(),
        };
        let (root, _) = scanner.value(NO_KEY, 0);
        let Scanner { mut nodes, repeated, keyed, .. } = scanner;
        nodes.shrink_to_fit();
        Self { src, nodes, root: Some(root), keyed, line_starts, chars_at, repeated, last_in_string: Cell::new(None) }
    }

    /// The position of the value at `path`, falling back to its nearest indexed ancestor.
    pub fn value_pos(&self, path: &JsonPath) -> LineCol {
        let (node, _) = self.deepest(path);
        node.map_or(LineCol { line: 1, column: 1 }, |n| self.line_col(n.start as usize))
    }

    /// Every key written again in the same object: its path, where it is written again and
    /// where it was first, in the order they appear in the file.
    pub fn repeated_keys(&self) -> impl Iterator<Item = (&JsonPath, LineCol, LineCol)> + '_ {
        self.repeated.iter().map(|r| (&r.path, self.line_col(r.again), self.line_col(r.first)))
    }

    /// The position of the key that names the value at `path` (for unknown-field errors).
    pub fn key_pos(&self, path: &JsonPath) -> LineCol {
        match self.exact(path) {
            Some(node) if node.key != NO_KEY => self.line_col(node.key as usize),
            _ => self.value_pos(path),
        }
    }

    /// The position of the `char_index`-th decoded character inside the string at `path`,
    /// accounting for escapes, so errors inside selectors and call strings point exactly.
    pub fn string_char_pos(&self, path: &JsonPath, char_index: usize) -> LineCol {
        let Some(node) = self.exact(path) else {
            return self.value_pos(path);
        };
        let start = node.start as usize;
        let raw = &self.src.as_bytes()[start..];
        if raw.first() != Some(&b'"') {
            return self.line_col(start);
        }
        let (mut pos, mut decoded) = match self.last_in_string.get() {
            Some(last) if last.start == start && last.decoded <= char_index => (last.pos, last.decoded),
            _ => (1, 0),
        };
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
        self.last_in_string.set(Some(InString { start, decoded, pos }));
        self.line_col((start + pos).min(self.src.len()))
    }

    /// Whether the document has a value at exactly `path`.
    pub fn has(&self, path: &JsonPath) -> bool {
        self.exact(path).is_some()
    }

    /// The node at exactly `path`, if the document has it.
    fn exact(&self, path: &JsonPath) -> Option<Node> {
        match self.deepest(path) {
            (node, found) if found == path.0.len() => node,
            _ => None,
        }
    }

    /// The node of the longest prefix of `path` the document has, and that prefix's length.
    /// Of a key written twice the last is taken, as JSON readers take it.
    fn deepest(&self, path: &JsonPath) -> (Option<Node>, usize) {
        let Some(mut node) = self.root else { return (None, 0) };
        for (depth, seg) in path.0.iter().enumerate() {
            let children = self.children(node);
            let opener = self.src.as_bytes().get(node.start as usize);
            let child = match seg {
                Seg::Index(i) if opener == Some(&b'[') => children.get(*i),
                Seg::Key(k) if opener == Some(&b'{') => match self.keyed.get(&node.children) {
                    Some(keys) => keys.get(k.as_str()).and_then(|&i| children.get(i as usize)),
                    None => children.iter().rev().find(|c| self.key_is(c.key, k)),
                },
                _ => None,
            };
            match child {
                Some(child) => node = *child,
                None => return (Some(node), depth),
            }
        }
        (Some(node), path.0.len())
    }

    fn children(&self, node: Node) -> &[Node] {
        let from = node.children as usize;
        self.nodes.get(from..from + node.len as usize).unwrap_or_default()
    }

    /// Whether the key written at byte `at` (its opening quote) is `key` once decoded.
    fn key_is(&self, at: u32, key: &str) -> bool {
        let raw = self.src.as_bytes().get(at as usize..).unwrap_or_default();
        let Some(len) = string_len(raw) else { return false };
        let written = &raw[1..len - 1];
        if !written.contains(&b'\\') {
            return written == key.as_bytes();
        }
        decode(&raw[..len]).as_deref() == Some(key)
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

/// The length in bytes of the string literal `raw` starts with (quotes included).
fn string_len(raw: &[u8]) -> Option<usize> {
    if raw.first() != Some(&b'"') {
        return None;
    }
    let mut pos = 1;
    while pos < raw.len() {
        match raw[pos] {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            _ => pos += 1,
        }
    }
    None
}

/// A string literal's value: borrowed when it has no escapes, as nearly every key has.
fn decode(literal: &[u8]) -> Option<Cow<'_, str>> {
    let text = std::str::from_utf8(literal).ok()?;
    if !text.contains('\\') {
        return text.get(1..text.len() - 1).map(Cow::Borrowed);
    }
    serde_json::from_str::<String>(text).ok().map(Cow::Owned)
}

/// A forgiving scanner: it assumes serde_json already accepted the text and only records
/// offsets; on anything unexpected it stops instead of failing.
struct Scanner<'b> {
    bytes: &'b [u8],
    pos: usize,
    nodes: Vec<Node>,
    /// The children of the objects and arrays being read, innermost last: each container's
    /// are moved to `nodes` together when it ends, so siblings sit side by side.
    siblings: Vec<Node>,
    /// Where the value being read is: a key's offset or an array index per level, turned
    /// into a `JsonPath` only for a key written twice.
    path: Vec<Step>,
    repeated: Vec<RepeatedKey>,
    keyed: HashMap<u32, HashMap<Cow<'b, str>, u32>>,
}

/// An object's keys, each with where it was last written and the place of its (last) child.
type Keys<'b> = HashMap<Cow<'b, str>, (usize, u32)>;

#[derive(Clone, Copy)]
enum Step {
    Key(u32),
    Index(usize),
}

const MAX_DEPTH: usize = 256;

impl<'b> Scanner<'b> {
    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// Reads the value at `pos` (named by the key at `key`): its node, and whether reading
    /// may go on. A container cut short keeps the children read so far.
    fn value(&mut self, key: u32, depth: usize) -> (Node, bool) {
        self.skip_ws();
        let mut node = Node { start: self.pos as u32, key, children: 0, len: 0 };
        if depth > MAX_DEPTH {
            return (node, false);
        }
        let base = self.siblings.len();
        let mut keys = Keys::new();
        let ok = match self.bytes.get(self.pos) {
            Some(b'{') => self.object(depth, &mut keys).is_some(),
            Some(b'[') => self.array(depth).is_some(),
            Some(b'"') => match string_len(&self.bytes[self.pos..]) {
                Some(len) => {
                    self.pos += len;
                    true
                }
                None => false,
            },
            Some(_) => {
                while self.pos < self.bytes.len()
                    && !matches!(self.bytes[self.pos], b',' | b'}' | b']')
                    && !self.bytes[self.pos].is_ascii_whitespace()
                {
                    self.pos += 1;
                }
                true
            }
            None => false,
        };
        if self.siblings.len() > base {
            node.children = self.nodes.len() as u32;
            node.len = (self.siblings.len() - base) as u32;
            self.nodes.extend(self.siblings.drain(base..));
        }
        if keys.len() > KEYS_SEARCHED {
            self.keyed.insert(node.children, keys.into_iter().map(|(key, (_, child))| (key, child)).collect());
        }
        (node, ok)
    }

    /// Reads an object, filling `keys` with where each key was last written and its child.
    fn object(&mut self, depth: usize, keys: &mut Keys<'b>) -> Option<()> {
        self.pos += 1;
        let base = self.siblings.len();
        // Keys are compared within this object: a repeated key's children have the
        // same paths as the first one's, and are no repeats of their own.
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
                    let child = (self.siblings.len() - base) as u32;
                    if let Some((first, _)) = keys.insert(key, (key_start, child)) {
                        let path = self.json_path(Some(Step::Key(key_start as u32)));
                        self.repeated.push(RepeatedKey { path, first, again: key_start });
                    }
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b':') {
                        return None;
                    }
                    self.pos += 1;
                    self.path.push(Step::Key(key_start as u32));
                    let (child, ok) = self.value(key_start as u32, depth + 1);
                    self.path.pop();
                    self.siblings.push(child);
                    if !ok {
                        return None;
                    }
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<()> {
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
                    self.path.push(Step::Index(i));
                    let (child, ok) = self.value(NO_KEY, depth + 1);
                    self.path.pop();
                    self.siblings.push(child);
                    if !ok {
                        return None;
                    }
                    i += 1;
                }
            }
        }
    }

    /// The path of the value being read, then `last`.
    fn json_path(&self, last: Option<Step>) -> JsonPath {
        let segs = self.path.iter().chain(last.as_ref()).map(|step| match *step {
            Step::Key(at) => {
                let raw = &self.bytes[at as usize..];
                let key = string_len(raw).and_then(|len| decode(&raw[..len]));
                Seg::Key(key.map(Cow::into_owned).unwrap_or_default())
            }
            Step::Index(i) => Seg::Index(i),
        });
        JsonPath(segs.collect())
    }

    /// Reads a string literal starting at `"` and returns its decoded value.
    fn string(&mut self) -> Option<Cow<'b, str>> {
        let bytes = self.bytes;
        let len = string_len(&bytes[self.pos..])?;
        let literal = &bytes[self.pos..self.pos + len];
        self.pos += len;
        decode(literal)
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
