//! Saving a workflow into the file it came from, changing only what changed.
//!
//! A file is written by people (one check per line, say) and reviewed as diffs: re-serialising
//! the whole document turned a one-state fix into a 400-line diff. Here the new document is
//! laid over the old text: values that did not change keep their text byte for byte, a
//! changed value is rewritten in place, keys and array items are added or removed with the
//! separators and indentation their neighbours use, and only new text is printed — inline
//! where it fits on a line, as the bundled files write checks and actions. The result is
//! checked to parse back to exactly the new document; if it does not (or the old text is not
//! a native workflow), the plain native text is written instead.

use serde_json::{Map, Value};

use crate::Workflow;

/// The native JSON of `workflow`, laid out as `before` (the file's current text) where they agree.
pub fn to_native_json_preserving(before: &str, workflow: &Workflow) -> String {
    // A byte order mark the file starts with stays where it is.
    let body = crate::without_bom(before);
    let bom = &before[..before.len() - body.len()];
    format!("{bom}{}", preserve(body, workflow).unwrap_or_else(|| crate::to_native_json(workflow)))
}

/// `workflow` in the layout of `before`, or `None` where that is not possible (`before` is
/// not a native workflow, or the result would not read back as `workflow`).
fn preserve(before: &str, workflow: &Workflow) -> Option<String> {
    let raw: Value = serde_json::from_str(before).ok()?;
    // A CliGent file is converted, not edited: its layout says nothing about the native one.
    if raw.get("version").is_none() || !raw.get("states").is_some_and(Value::is_array) {
        return None;
    }
    // Both sides as the native writer puts them, so that what a file spells out and the
    // writer leaves implicit (a default, `4` for `4.0`) is not taken for a change.
    let old = native(&serde_json::from_value::<Workflow>(raw).ok()?)?;
    let new = native(workflow)?;
    let root = Parser { text: before, at: 0 }.value()?;
    let (start, end) = root.span;
    let mut out = String::with_capacity(before.len() + 256);
    out.push_str(&before[..start]);
    out.push_str(&Layout { text: before }.render(&root, &old, &new));
    out.push_str(&before[end..]);
    (serde_json::from_str::<Workflow>(&out).ok()? == *workflow).then_some(out)
}

fn native(workflow: &Workflow) -> Option<Value> {
    serde_json::from_str(&crate::to_native_json(workflow)).ok()
}

/// A value of the old text and where it is.
struct Node {
    span: (usize, usize),
    kind: Kind,
}

enum Kind {
    Scalar,
    /// Each entry: where its key starts, the key, and its value.
    Object(Vec<(usize, String, Node)>),
    Array(Vec<Node>),
}

/// Just enough of a JSON parser to find the spans of a text serde_json has already accepted.
struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn peek(&mut self) -> Option<u8> {
        while self.text.as_bytes().get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
        self.text.as_bytes().get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self) -> Option<Node> {
        let first = self.peek()?;
        let start = self.at;
        let kind = match first {
            b'{' => {
                self.at += 1;
                let mut entries = Vec::new();
                if self.peek()? == b'}' {
                    self.at += 1;
                } else {
                    loop {
                        self.peek()?;
                        let key_at = self.at;
                        let (s, e) = self.string()?;
                        let key: String = serde_json::from_str(&self.text[s..e]).ok()?;
                        self.expect(b':')?;
                        entries.push((key_at, key, self.value()?));
                        match self.peek()? {
                            b',' => self.at += 1,
                            b'}' => break self.at += 1,
                            _ => return None,
                        }
                    }
                }
                Kind::Object(entries)
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek()? == b']' {
                    self.at += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        match self.peek()? {
                            b',' => self.at += 1,
                            b']' => break self.at += 1,
                            _ => return None,
                        }
                    }
                }
                Kind::Array(items)
            }
            b'"' => {
                self.string()?;
                Kind::Scalar
            }
            _ => {
                let bytes = self.text.as_bytes();
                while bytes.get(self.at).is_some_and(|b| !b",}] \t\r\n".contains(b)) {
                    self.at += 1;
                }
                Kind::Scalar
            }
        };
        Some(Node { span: (start, self.at), kind })
    }

    /// A string's span, quotes included.
    fn string(&mut self) -> Option<(usize, usize)> {
        let start = self.at;
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some((start, self.at));
                }
                _ => self.at += 1,
            }
        }
    }
}

/// The widest a new value may be to be printed on one line.
const INLINE_WIDTH: usize = 110;

struct Layout<'a> {
    text: &'a str,
}

impl Layout<'_> {
    fn slice(&self, node: &Node) -> &str {
        &self.text[node.span.0..node.span.1]
    }

    /// The indentation of the line `at` is on.
    fn indent_at(&self, at: usize) -> usize {
        let line = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        self.text[line..].chars().take_while(|c| *c == ' ').count()
    }

    fn render(&self, node: &Node, old: &Value, new: &Value) -> String {
        if old == new {
            return self.slice(node).to_owned();
        }
        let indent = self.indent_at(node.span.0);
        match (&node.kind, old, new) {
            (Kind::Object(entries), Value::Object(o), Value::Object(n)) if !entries.is_empty() => {
                self.object(node, entries, o, n, indent)
            }
            (Kind::Array(items), Value::Array(o), Value::Array(n)) if !items.is_empty() => {
                self.array(node, items, o, n, indent)
            }
            _ => print(new, indent, !self.slice(node).contains('\n')),
        }
    }

    fn object(
        &self,
        node: &Node,
        entries: &[(usize, String, Node)],
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        indent: usize,
    ) -> String {
        // An entry the writer leaves out (a default spelled out in the file) means the same
        // whether it is there or not: it stays unless the new document sets that key.
        let kept = |key: &String| new.contains_key(key) || !old.contains_key(key);
        let written: Vec<&String> = entries.iter().map(|(_, k, _)| k).collect();
        let added = new.keys().any(|k| !written.contains(&k));
        let render = |key: &String, value: &Node| match (old.get(key), new.get(key)) {
            (Some(o), Some(n)) => self.render(value, o, n),
            (None, Some(n)) => print(n, self.indent_at(value.span.0), !self.slice(value).contains('\n')),
            _ => self.slice(value).to_owned(),
        };
        if !added && entries.iter().all(|(_, k, _)| kept(k)) {
            // Every separator stays as it was; only the values are rendered again.
            let mut out = String::new();
            let mut at = node.span.0;
            for (_, key, value) in entries {
                out.push_str(&self.text[at..value.span.0]);
                out.push_str(&render(key, value));
                at = value.span.1;
            }
            out.push_str(&self.text[at..node.span.1]);
            return out;
        }
        let inline = !self.slice(node).contains('\n');
        let mut parts: Vec<String> = entries
            .iter()
            .filter(|(_, key, _)| kept(key))
            .map(|(key_at, key, value)| format!("{}{}", &self.text[*key_at..value.span.0], render(key, value)))
            .collect();
        let inner = self.indent_at(entries[0].0);
        for (key, value) in new.iter().filter(|(k, _)| !written.contains(k)) {
            parts.push(format!("{}: {}", quote(key), print(value, inner, inline)));
        }
        let first = &entries[0];
        let last = &entries[entries.len() - 1];
        self.join(node, first.0, last.2.span.1, &parts, inline, indent)
    }

    fn array(&self, node: &Node, items: &[Node], old: &[Value], new: &[Value], indent: usize) -> String {
        if items.len() == new.len() {
            let mut out = String::new();
            let mut at = node.span.0;
            for ((item, o), n) in items.iter().zip(old).zip(new) {
                out.push_str(&self.text[at..item.span.0]);
                out.push_str(&self.render(item, o, n));
                at = item.span.1;
            }
            out.push_str(&self.text[at..node.span.1]);
            return out;
        }
        let inline = !self.slice(node).contains('\n');
        let inner = self.indent_at(items[0].span.0);
        let parts = align(old, new)
            .into_iter()
            .map(|pair| match pair {
                (Some(i), Some(j)) => self.render(&items[i], &old[i], &new[j]),
                (None, Some(j)) => print(&new[j], inner, inline),
                _ => unreachable!("align pairs every new item"),
            })
            .collect::<Vec<_>>();
        self.join(node, items[0].span.0, items[items.len() - 1].span.1, &parts, inline, indent)
    }

    /// `parts` between the old opening (up to `first`) and closing (from `last`), separated
    /// as the old items were.
    fn join(&self, node: &Node, first: usize, last: usize, parts: &[String], inline: bool, indent: usize) -> String {
        let (open, close) = (&self.text[node.span.0..first], &self.text[last..node.span.1]);
        if parts.is_empty() {
            let brackets = (&open[..1], &close[close.len() - 1..]);
            return format!("{}{}", brackets.0, brackets.1);
        }
        let separator =
            if inline { ", ".to_owned() } else { format!(",\n{}", " ".repeat(self.indent_at(first).max(indent + 2))) };
        format!("{open}{}{close}", parts.join(&separator))
    }
}

/// Which old item each new item continues (`(Some(old), Some(new))`, edited in place when
/// they differ) or whether it is new (`(None, Some(new))`); old items left out are removed.
/// Equal items are matched first (a longest common subsequence); between two matches, the
/// items left over are paired in order, so an edited state stays an edit, not a rewrite.
fn align(old: &[Value], new: &[Value]) -> Vec<(Option<usize>, Option<usize>)> {
    let (n, m) = (old.len(), new.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut matches = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if old[i] == new[j] {
            matches.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    matches.push((n, m));
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (mi, mj) in matches {
        let (gap_old, gap_new) = (mi - i, mj - j);
        for k in 0..gap_new {
            out.push(((k < gap_old).then_some(i + k), Some(j + k)));
        }
        if mj < m {
            out.push((Some(mi), Some(mj)));
        }
        (i, j) = (mi + 1, mj + 1);
    }
    out
}

fn quote(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_default()
}

/// A new value at `indent`: on one line (`{ "a": 1 }`, as the bundled files write checks and
/// actions) where `inline` is asked for or it fits, otherwise one entry per line.
fn print(value: &Value, indent: usize, inline: bool) -> String {
    let one_line = print_inline(value);
    if inline || indent + one_line.len() <= INLINE_WIDTH || !matches!(value, Value::Object(_) | Value::Array(_)) {
        return one_line;
    }
    let pad = " ".repeat(indent + 2);
    let (open, close, parts): (char, char, Vec<String>) = match value {
        Value::Object(map) => {
            ('{', '}', map.iter().map(|(k, v)| format!("{}: {}", quote(k), print(v, indent + 2, false))).collect())
        }
        Value::Array(items) => ('[', ']', items.iter().map(|v| print(v, indent + 2, false)).collect()),
        _ => unreachable!("scalars are printed inline"),
    };
    format!("{open}\n{pad}{}\n{}{close}", parts.join(&format!(",\n{pad}")), " ".repeat(indent))
}

fn print_inline(value: &Value) -> String {
    match value {
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Object(map) => {
            let parts: Vec<String> = map.iter().map(|(k, v)| format!("{}: {}", quote(k), print_inline(v))).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(print_inline).collect::<Vec<_>>().join(", ")),
        scalar => serde_json::to_string(scalar).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load_str, to_native_json};
    use serde_json::json;

    const SHOP: &str = include_str!("../../../workflows/demo-shop.json");
    const ROUNDS: &str = include_str!("../../../workflows/demo-rounds.json");
    const XTERM: &str = include_str!("../../../workflows/desktop-xterm.json");

    fn load(text: &str) -> Workflow {
        load_str(text, "w.json", "w").expect("a bundled workflow loads").workflow
    }

    /// (lines removed, lines added) between two texts, by a longest common subsequence.
    fn changed_lines(a: &str, b: &str) -> (usize, usize) {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        (a.len() - lcs[0][0], b.len() - lcs[0][0])
    }

    /// The text reads back as exactly `wf`.
    fn reads_as(text: &str, wf: &Workflow) -> bool {
        serde_json::from_str::<Workflow>(text).unwrap() == *wf
    }

    #[test]
    fn an_unchanged_workflow_is_written_back_byte_for_byte() {
        for text in [SHOP, ROUNDS, XTERM] {
            assert_eq!(to_native_json_preserving(text, &load(text)), text);
        }
    }

    #[test]
    fn a_file_with_a_byte_order_mark_loads_and_keeps_it() {
        let text = format!("\u{feff}{SHOP}");
        let mut wf = load(&text);
        assert_eq!(to_native_json_preserving(&text, &wf), text);
        wf.states[0].name = "Start here".into();
        let after = to_native_json_preserving(&text, &wf);
        assert!(after.starts_with('\u{feff}'));
        assert_eq!(changed_lines(&text, &after).0, 1, "{after}");
        // Positions are counted as an editor shows them, without the mark.
        let broken = text.replacen("\"version\"", "\"version\" 1", 1);
        let diagnostics = load_str(&broken, "w.json", "w").unwrap_err();
        let plain = load_str(crate::without_bom(&broken), "w.json", "w").unwrap_err();
        assert_eq!((diagnostics.0[0].line, diagnostics.0[0].column), (plain.0[0].line, plain.0[0].column));
    }

    #[test]
    fn a_changed_selector_changes_one_line() {
        let mut wf = load(SHOP);
        let cart = wf.states.iter_mut().find(|s| s.name == "Cart").unwrap();
        cart.actions[1] =
            serde_json::from_value(json!({"type": "click", "target": {"css": "#place-order-now"}})).unwrap();
        let after = to_native_json_preserving(SHOP, &wf);
        assert_eq!(changed_lines(SHOP, &after), (1, 1), "{after}");
        assert!(after.contains(r##"{ "type": "click", "target": { "css": "#place-order-now" } }"##), "{after}");
        assert!(reads_as(&after, &wf));
    }

    #[test]
    fn a_state_added_or_removed_touches_only_its_own_lines() {
        let mut wf = load(SHOP);
        let mut extra = wf.states[3].clone();
        extra.name = "Cart, again".into();
        extra.checks.push(serde_json::from_value(json!({"type": "title", "value": "Cart"})).unwrap());
        wf.states.insert(4, extra);
        let added = to_native_json_preserving(SHOP, &wf);
        let (removed, inserted) = changed_lines(SHOP, &added);
        assert_eq!(removed, 0, "{added}");
        assert!((4..=20).contains(&inserted), "{inserted} lines for one state:\n{added}");
        assert!(reads_as(&added, &wf));

        let mut wf = load(SHOP);
        let gone = wf.states.remove(5);
        let after = to_native_json_preserving(SHOP, &wf);
        let (removed, inserted) = changed_lines(SHOP, &after);
        assert_eq!(inserted, 0, "{after}");
        assert!(removed >= 4 && !after.contains(&format!("\"name\": \"{}\"", gone.name)), "{after}");
        assert!(reads_as(&after, &wf));
    }

    #[test]
    fn keys_come_and_go_in_their_neighbours_layout() {
        let mut wf = load(SHOP);
        wf.description = String::new(); // dropped from the file
        wf.config.action_timeout = 12.0; // a knob that differs from its default appears
        wf.states[0].continuous = true;
        let after = to_native_json_preserving(SHOP, &wf);
        assert!(reads_as(&after, &wf));
        let (removed, inserted) = changed_lines(SHOP, &after);
        assert!(removed <= 4 && inserted <= 4, "({removed}, {inserted}):\n{after}");
        assert!(after.contains("\"continuous\": true"), "{after}");
    }

    #[test]
    fn whatever_changes_the_text_reads_back_as_the_new_workflow() {
        for text in [SHOP, ROUNDS, XTERM] {
            let base = load(text);
            let edits: [fn(&mut Workflow); 6] = [
                |w| w.states.reverse(),
                |w| w.states.truncate(1),
                |w| w.parameters.clear(),
                |w| w.states.iter_mut().for_each(|s| s.checks.clear()),
                |w| w.states.iter_mut().for_each(|s| s.next.push("Elsewhere \"quoted\" ✓".into())),
                |w| w.name = "renamed\n".into(),
            ];
            for edit in edits {
                let mut wf = base.clone();
                edit(&mut wf);
                let after = to_native_json_preserving(text, &wf);
                assert!(reads_as(&after, &wf), "{after}");
            }
        }
    }

    #[test]
    fn a_cligent_file_is_written_out_in_the_native_layout() {
        let cligent =
            r#"{"name": "c", "states": [{"name": "A", "description": "a page", "checks": ["url_contains('x')"]}]}"#;
        let wf = Workflow { name: "c".into(), ..load(SHOP) };
        assert_eq!(to_native_json_preserving(cligent, &wf), to_native_json(&wf));
    }
}
