//! A batch's data: one run per row, columns are parameters. CSV (a header line, RFC 4180
//! quoting), JSON Lines (one object per line) or a JSON array of objects. Malformed data
//! names the file, the line and what is wrong.

use std::path::Path;

use indexmap::IndexMap;

use crate::error::RunError;

/// One row: its line in the file (for messages) and its values by column.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub line: usize,
    pub values: IndexMap<String, String>,
}

/// What a JSON row's field that is not a plain value (a list, an object) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nested {
    /// An error: a workflow's parameters are text.
    Refused,
    /// Left out: a benchmark's task carries its grading (WebArena's `eval`) beside the task.
    Skipped,
}

pub fn read_rows(path: &Path, nested: Nested) -> Result<Vec<Row>, RunError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| RunError::invalid("data", format!("cannot read {}: {e}", path.display())))?;
    let bad = |line: usize, what: String| RunError::invalid("data", format!("{}:{line}: {what}", path.display()));
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let rows = match extension.as_str() {
        "jsonl" | "ndjson" => json_lines(&text, nested),
        "json" => json_array(&text, nested),
        _ => csv(&text),
    }
    .map_err(|(l, w)| bad(l, w))?;
    if rows.is_empty() {
        return Err(RunError::invalid("data", format!("{}: no rows", path.display())));
    }
    Ok(rows)
}

/// What went wrong, and on which line.
type Problem = (usize, String);
type Parsed = Result<Vec<Row>, Problem>;
/// A CSV record: the line it starts on, and its fields.
type Record = (usize, Vec<String>);

fn json_lines(text: &str, nested: Nested) -> Parsed {
    let mut rows = Vec::new();
    for (i, line) in statewright_workflow::without_bom(text).lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let line_no = i + 1;
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).map_err(|e| (line_no, format!("not a JSON object: {e}")))?;
        rows.push(Row { line: line_no, values: plain_values(object, nested).map_err(|w| (line_no, w))? });
    }
    Ok(rows)
}

/// A JSON array of objects, each row's line the one its object starts on.
fn json_array(text: &str, nested: Nested) -> Parsed {
    let text = statewright_workflow::without_bom(text);
    let items: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(|e| (e.line(), format!("not a JSON array of objects: {e}")))?;
    let spans = statewright_workflow::span::SpanIndex::new(text);
    let root = statewright_workflow::span::JsonPath::root();
    let mut rows = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let line = spans.value_pos(&root.index(i)).line;
        let serde_json::Value::Object(object) = item else {
            return Err((line, format!("item {} is not an object", i + 1)));
        };
        rows.push(Row { line, values: plain_values(object, nested).map_err(|w| (line, w))? });
    }
    Ok(rows)
}

/// An object's fields as text; a null is no value.
fn plain_values(
    object: serde_json::Map<String, serde_json::Value>,
    nested: Nested,
) -> Result<IndexMap<String, String>, String> {
    let mut values = IndexMap::new();
    for (key, value) in object {
        let text = match value {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Null => continue,
            _ if nested == Nested::Skipped => continue,
            _ => return Err(format!("`{key}` is not a plain value (text, number or true/false)")),
        };
        values.insert(key, text);
    }
    Ok(values)
}

fn csv(text: &str) -> Parsed {
    let records = records(statewright_workflow::without_bom(text))?;
    let mut records = records.into_iter().filter(|(_, fields)| !(fields.len() == 1 && fields[0].trim().is_empty()));
    let Some((_, header)) = records.next() else { return Ok(Vec::new()) };
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_owned()).collect();
    if let Some(empty) = header.iter().position(String::is_empty) {
        return Err((1, format!("column {} has no name in the header", empty + 1)));
    }
    records
        .map(|(line, fields)| {
            if fields.len() != header.len() {
                return Err((line, format!("{} values for {} columns", fields.len(), header.len())));
            }
            Ok(Row { line, values: header.iter().cloned().zip(fields).collect() })
        })
        .collect()
}

/// The records of a CSV text with the line each starts on: fields split on commas, `"…"`
/// quoting with `""` for a quote, newlines inside quotes kept.
fn records(text: &str) -> Result<Vec<Record>, Problem> {
    let mut out = Vec::new();
    let (mut fields, mut field) = (Vec::new(), String::new());
    let (mut line, mut start, mut quoted, mut was_quoted) = (1, 1, false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                line += usize::from(c == '\n');
                field.push(c);
            }
            (false, '"') if field.is_empty() && !was_quoted => (quoted, was_quoted) = (true, true),
            (false, '"') => return Err((line, "a quote inside an unquoted value (quote the whole value)".into())),
            (false, ',') => {
                fields.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                fields.push(std::mem::take(&mut field));
                out.push((start, std::mem::take(&mut fields)));
                was_quoted = false;
                line += 1;
                start = line;
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err((start, "a quoted value is not closed".into()));
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        out.push((start, fields));
    }
    Ok(out)
}

/// A CSV field, quoted when it needs to be.
pub fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quotes_commas_and_newlines() {
        let rows =
            csv("product,quantity,note\r\n\"Kettle, steel\",2,\"say \"\"hi\"\"\nthen go\"\n\nTeapot,1,\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].values["product"], "Kettle, steel");
        assert_eq!(rows[0].values["note"], "say \"hi\"\nthen go");
        assert_eq!((rows[1].line, rows[1].values["note"].as_str()), (5, ""));
    }

    #[test]
    fn malformed_csv_says_where() {
        assert_eq!(csv("a,b\n1,2,3\n").unwrap_err().0, 2);
        assert_eq!(csv("a,b\n1,\"2\n").unwrap_err(), (2, "a quoted value is not closed".into()));
        assert!(csv("a,,b\n1,2,3\n").unwrap_err().1.contains("column 2 has no name"));
        assert!(csv("a\nx\"y\n").unwrap_err().1.contains("quote inside"));
    }

    #[test]
    fn json_lines_take_plain_values() {
        let rows = json_lines(
            "{\"product\": \"Kettle\", \"quantity\": 2, \"gift\": true, \"x\": null}\n\n{\"product\": \"Teapot\"}\n",
            Nested::Refused,
        )
        .unwrap();
        assert_eq!(
            rows[0].values.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            ["product=Kettle", "quantity=2", "gift=true"]
        );
        assert_eq!(rows[1].line, 3);
        assert_eq!(json_lines("{\"a\": [1]}", Nested::Refused).unwrap_err().0, 1);
        assert_eq!(json_lines("{\"a\": [1], \"b\": 2}", Nested::Skipped).unwrap()[0].values.len(), 1);
        assert!(json_lines("not json", Nested::Refused).unwrap_err().1.contains("not a JSON object"));
    }

    #[test]
    fn a_json_array_gives_each_row_the_line_its_object_starts_on() {
        let text = "[\n  {\"intent\": \"a\", \"eval\": {\"x\": 1}},\n\n  {\"intent\": \"b\",\n   \"n\": 3}\n]";
        let rows = json_array(text, Nested::Skipped).unwrap();
        assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 4]);
        assert_eq!(rows[1].values["n"], "3");
        assert_eq!(json_array(text, Nested::Refused).unwrap_err().0, 2);
        assert_eq!(json_array("[{}, 3]", Nested::Skipped).unwrap_err().1, "item 2 is not an object");
        assert_eq!(json_array("[{},\n{]", Nested::Skipped).unwrap_err().0, 2);
    }
}
