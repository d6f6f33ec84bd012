//! A row's result as a go holds it from its start or end until the tables are next
//! rewritten (then it is read back from the JSON table): its compact JSON, the very line the
//! journal gets and, reindented, its entry in the JSON table. A [`RowResult`] with its
//! values, outputs and texts in maps and strings of their own is some 700 bytes; its line
//! is a few hundred.

use std::io::Write;

use super::RowResult;

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Held(Box<[u8]>);

impl Held {
    pub(crate) fn of(result: &RowResult) -> Held {
        // A RowResult is strings, numbers and JSON values: nothing it holds fails to write.
        Held(serde_json::to_vec(result).unwrap_or_default().into_boxed_slice())
    }

    /// The result whole again. What `of` wrote reads back, numbers exactly (serde_json's
    /// float_roundtrip); but a cost that is no number (NaN) is written as `null`, which does not.
    pub(crate) fn result(&self) -> serde_json::Result<RowResult> {
        serde_json::from_slice(&self.0)
    }

    /// Its line, without the journal's line end.
    pub(crate) fn line(&self) -> &[u8] {
        &self.0
    }
}

/// `compact` JSON (as serde_json writes it: no space outside strings) written as serde_json's
/// pretty printer writes the same value `depth` levels down: the tables' JSON is pretty, and
/// a row held as its line is written so without being made whole again.
pub(crate) fn write_pretty(compact: &[u8], depth: usize, out: &mut impl Write) -> std::io::Result<()> {
    let mut depth = depth;
    let (mut in_string, mut escaped) = (false, false);
    let mut start = 0;
    let mut i = 0;
    while i < compact.len() {
        let byte = compact[i];
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' | b'}' | b']' | b',' | b':' => {
                out.write_all(&compact[start..i])?;
                match byte {
                    // Empty: `{}` and `[]`, as the pretty printer writes them.
                    b'{' | b'[' if matches!(compact.get(i + 1), Some(b'}' | b']')) => {
                        out.write_all(&compact[i..i + 2])?;
                        i += 1;
                    }
                    b'{' | b'[' => {
                        out.write_all(&[byte])?;
                        depth += 1;
                        newline(&mut *out, depth)?;
                    }
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        newline(&mut *out, depth)?;
                        out.write_all(&[byte])?;
                    }
                    b',' => {
                        out.write_all(b",")?;
                        newline(&mut *out, depth)?;
                    }
                    _ => out.write_all(b": ")?,
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.write_all(&compact[start..])
}

fn newline(out: &mut impl Write, depth: usize) -> std::io::Result<()> {
    out.write_all(b"\n")?;
    (0..depth).try_for_each(|_| out.write_all(b"  "))
}

#[cfg(test)]
mod tests {
    use indexmap::IndexMap;
    use serde_json::json;

    use super::*;
    use crate::batch::table::{Columns, write_table};

    /// Rows with every field a table may have, texts with what JSON escapes or the
    /// reindenting looks for, and nested, empty and numeric outputs.
    fn mixed() -> Vec<RowResult> {
        let values = |q: &str| IndexMap::from([("q".to_owned(), q.to_owned()), ("pw".to_owned(), "••••••".to_owned())]);
        let outputs = IndexMap::from([
            ("order".to_owned(), json!({ "id": "NW-1", "lines": [1, 2.5, -0.1, 1e-7], "none": {}, "empty": [] })),
            ("total".to_owned(), json!(0.30000000000000004)),
            ("said".to_owned(), json!("a \"quoted\" {brace}, [list]: colon \\ back\nline\ttab é 日本")),
        ]);
        let judged =
            crate::judge::Judgement { verdict: "success".into(), reason: "it said \"done\"".into(), model: None };
        vec![
            RowResult {
                end_state: Some("Done".into()),
                duration_ms: 4200,
                run_id: Some("20261129-151933-41d0".into()),
                endpoint: Some("ws://user:•••@host:9222".into()),
                outputs,
                llm_calls: 3,
                llm_tokens: 12345,
                llm_cost: 0.1 + 0.2,
                judged: Some(Box::new(judged)),
                ..RowResult::new(1, values("x,\"y\":{z}"), "succeeded", "ok: {done}, [1]".into())
            },
            RowResult::new(2, values(""), "failed", String::new()),
            RowResult::new(3, IndexMap::new(), "cancelled", "the batch was stopped before this row ran".into()),
        ]
    }

    #[test]
    fn a_held_row_is_written_to_the_json_table_as_the_pretty_printer_writes_it() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("t.csv"), dir.path().join("t.json"));
        let mut rows = mixed();
        write_table(&csv, &json, &mut rows[..], &Columns::default()).unwrap();
        assert_eq!(std::fs::read_to_string(&json).unwrap(), serde_json::to_string_pretty(&rows).unwrap());
        write_table(&csv, &json, &mut Vec::<RowResult>::new(), &Columns::default()).unwrap();
        assert_eq!(std::fs::read_to_string(&json).unwrap(), "[]");
    }

    #[test]
    fn a_held_row_reads_back_as_it_was_its_numbers_exactly() {
        for row in mixed() {
            assert_eq!(Held::of(&row).result().unwrap(), row);
        }
        // Costs and outputs of every size: read back to the same bits, so the CSV table
        // shows what the run said.
        let mut bits: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let cost = f64::from_bits(bits >> 2);
            let row = RowResult { llm_cost: cost, ..RowResult::new(1, IndexMap::new(), "succeeded", String::new()) };
            assert_eq!(Held::of(&row).result().unwrap().llm_cost.to_bits(), cost.to_bits(), "{cost:e}");
        }
    }
}
