//! A batch's data: one run per row, columns are parameters. CSV (a header line, RFC 4180
//! quoting), JSON Lines (one object per line) or a JSON array of objects. Malformed data
//! names the file, the line and what is wrong: nothing in the file is dropped or changed
//! on the way (a repeated column, text after a closing quote are errors, not guesses), since
//! each row may be a purchase.

use std::path::Path;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use statewright_workflow::diagnostic::shorten;

use crate::error::RunError;

/// One row: where it is in the file (for messages) and its values by column. Held compactly,
/// as a batch holds every row of its data: the names of its columns shared with the rows
/// that have the same ones (a CSV file's header, once for all its rows), its values one text.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The data file it was read from (one for all its rows).
    pub file: Arc<Path>,
    pub line: usize,
    /// The line that names its columns: the header's in CSV, its own in JSON.
    pub header_line: usize,
    columns: Arc<[String]>,
    /// The values one after the other, the `i`th ending at `ends[i]`.
    text: Box<str>,
    ends: Box<[u32]>,
}

impl Default for Row {
    fn default() -> Row {
        Row::new(0, 0, Arc::from([]), Vec::<String>::new())
    }
}

impl Row {
    /// Row at `line` with a value for each of `columns`.
    pub fn new(line: usize, header_line: usize, columns: Arc<[String]>, values: Vec<impl AsRef<str>>) -> Row {
        debug_assert_eq!(columns.len(), values.len());
        let mut text = String::with_capacity(values.iter().map(|v| v.as_ref().len()).sum());
        let mut ends = Vec::with_capacity(values.len());
        for value in &values {
            text.push_str(value.as_ref());
            // A row's text is part of a data file of at most 64 MiB.
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        let file = Arc::from(Path::new(""));
        Row { file, line, header_line, columns, text: text.into(), ends: ends.into() }
    }

    /// The row of `pairs`, columns of its own.
    pub fn of_pairs(line: usize, header_line: usize, pairs: Vec<(String, String)>) -> Row {
        let (columns, values): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
        Row::new(line, header_line, columns.into(), values)
    }

    /// Its columns, in the file's order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Its values by column, in the file's order.
    pub fn values(&self) -> impl Iterator<Item = (&str, &str)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let spans = starts.zip(self.ends.iter().copied());
        self.columns
            .iter()
            .zip(spans)
            .map(|(column, (start, end))| (column.as_str(), &self.text[start as usize..end as usize]))
    }

    /// The value of `column`, if the row has one.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.values().find(|(c, _)| *c == column).map(|(_, v)| v)
    }

    pub fn has(&self, column: &str) -> bool {
        self.columns.iter().any(|c| c == column)
    }
}

/// The columns of JSON rows, shared by the rows one after the other that have the same.
#[derive(Default)]
struct SharedColumns(Option<Arc<[String]>>);

impl SharedColumns {
    fn row(&mut self, line: usize, values: IndexMap<String, String>) -> Row {
        let (columns, values): (Vec<String>, Vec<String>) = values.into_iter().unzip();
        let columns = match &self.0 {
            Some(last) if **last == *columns => last.clone(),
            _ => self.0.insert(columns.into()).clone(),
        };
        Row::new(line, line, columns, values)
    }
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
    let bytes = statewright_workflow::read_input_bytes(path, "data file", statewright_workflow::MAX_INPUT_BYTES)
        .map_err(|e| RunError::invalid("data", format!("{}: {} ({})", path.display(), e.message, e.help)))?;
    let text = utf8(&bytes).map_err(|p| RunError::invalid("data", format!("{}:{p}", path.display())))?;
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let rows = match extension.as_str() {
        "jsonl" | "ndjson" => json_lines(text, nested),
        "json" => json_array(text, nested),
        _ => csv(text),
    }
    .map_err(|p| RunError::invalid("data", format!("{}:{p}", path.display())))?;
    if rows.is_empty() {
        return Err(RunError::invalid("data", format!("{}: no rows", path.display())));
    }
    let file: Arc<Path> = Arc::from(path);
    Ok(rows.into_iter().map(|row| Row { file: file.clone(), ..row }).collect())
}

/// What went wrong, and where: the line, and the character in it when that helps.
#[derive(Debug, PartialEq)]
struct Problem {
    line: usize,
    column: Option<usize>,
    what: String,
}

impl Problem {
    /// A problem at `line`; a value `what` quotes (a column's name, a key) is cut after 80
    /// characters, as every message's is: a name of megabytes is data gone wrong, not a
    /// name to print whole.
    fn at(line: usize, what: impl Into<String>) -> Problem {
        Problem { line, column: None, what: shorten(what.into()) }
    }

    fn column(self, column: usize) -> Problem {
        Problem { column: Some(column), ..self }
    }
}

/// `LINE: what` or `LINE:COLUMN: what`, to follow the file's name.
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.column {
            Some(column) => write!(f, "{}:{column}: {}", self.line, self.what),
            None => write!(f, "{}: {}", self.line, self.what),
        }
    }
}

/// The file's text, or where it stops being UTF-8, with what a spreadsheet's user does
/// about it.
fn utf8(bytes: &[u8]) -> Result<&str, Problem> {
    statewright_workflow::utf8_text(bytes).map_err(|e| {
        let problem =
            Problem::at(e.line, format!("{}: save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\")", e.what));
        match e.column {
            Some(column) => problem.column(column),
            None => problem,
        }
    })
}

type Parsed = Result<Vec<Row>, Problem>;

/// A text's lines, ended by `\n`, `\r\n` or a lone `\r` (old Mac files, some exports): a
/// file of `\r` alone is lines too, not one line.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let ending = if rest[end..].starts_with("\r\n") { 2 } else { usize::from(end < rest.len()) };
        rest = &rest[end + ending..];
        Some(line)
    })
}

fn json_lines(text: &str, nested: Nested) -> Parsed {
    let (mut rows, mut columns) = (Vec::new(), SharedColumns::default());
    for (i, line) in lines(statewright_workflow::without_bom(text)).enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let line_no = i + 1;
        let object: Fields = serde_json::from_str(line).map_err(|e| {
            Problem::at(line_no, format!("not a JSON object: {}", statewright_workflow::json_problem(line, &e)))
                .column(e.column())
        })?;
        rows.push(columns.row(line_no, plain_values(object, nested).map_err(|w| Problem::at(line_no, w))?));
    }
    Ok(rows)
}

/// A JSON array of objects, each row's line the one its object starts on.
fn json_array(text: &str, nested: Nested) -> Parsed {
    let text = statewright_workflow::without_bom(text);
    let items: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| {
        let problem = statewright_workflow::json_problem(text, &e);
        Problem::at(e.line(), format!("not a JSON array of objects: {problem}")).column(e.column())
    })?;
    let spans = statewright_workflow::span::SpanIndex::new(text);
    let root = statewright_workflow::span::JsonPath::root();
    let (mut rows, mut columns) = (Vec::new(), SharedColumns::default());
    for (i, item) in items.into_iter().enumerate() {
        let line = spans.value_pos(&root.index(i)).line;
        let Ok(object) = serde_json::from_str::<Fields>(item.get()) else {
            return Err(Problem::at(line, format!("item {} is not an object", i + 1)));
        };
        rows.push(columns.row(line, plain_values(object, nested).map_err(|w| Problem::at(line, w))?));
    }
    Ok(rows)
}

/// A JSON object's fields as the file writes them: in order, a repeated key kept (to be
/// refused: `serde_json`'s map would keep the last silently), each value's text untouched
/// (a number stays the digits written, where a parsed one would be rounded to a float).
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Fields<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Fields<'de>, M::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    fields.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(Object)
    }
}

/// An object's fields as text; a null is no value, a number the text the file gives it
/// (`1e2` stays `1e2`, an order number of 21 digits keeps them all).
fn plain_values(object: Fields, nested: Nested) -> Result<IndexMap<String, String>, String> {
    let mut values = IndexMap::new();
    // Each key looked up among those before it (a null's and a skipped one's included), not
    // compared with each of them: an object of a hundred thousand fields took minutes.
    let mut keys = std::collections::HashSet::with_capacity(object.0.len());
    for (key, value) in &object.0 {
        if !keys.insert(key.as_str()) {
            return Err(format!("`{key}` is given twice in the object"));
        }
        let raw = value.get();
        let text = match raw.as_bytes().first() {
            Some(b'"') => serde_json::from_str::<String>(raw)
                .map_err(|e| format!("`{key}`: {}", statewright_workflow::json_problem(raw, &e)))?,
            Some(b'n') => continue,
            Some(b'[' | b'{') if nested == Nested::Skipped => continue,
            Some(b'[' | b'{') => return Err(format!("`{key}` is not a plain value (text, number or true/false)")),
            // true, false or a number, as written.
            _ => raw.to_owned(),
        };
        values.insert(key.clone(), text);
    }
    Ok(values)
}

fn csv(text: &str) -> Parsed {
    let mut header: Option<(usize, Arc<[String]>)> = None;
    let mut rows = Vec::new();
    // Each record made a row as it is read: a file's records all read first would be every
    // value of it twice over, as a `String` each.
    records(statewright_workflow::without_bom(text), |line, fields| {
        match &header {
            None => header = Some((line, read_header(line, fields)?)),
            Some((header_line, columns)) => {
                if fields.len() != columns.len() {
                    return Err(Problem::at(line, format!("{} values for {} columns", fields.len(), columns.len())));
                }
                rows.push(Row::new(line, *header_line, columns.clone(), fields));
            }
        }
        Ok(())
    })?;
    Ok(rows)
}

/// A CSV header's column names, each one named once.
fn read_header(header_line: usize, header: Vec<String>) -> Result<Arc<[String]>, Problem> {
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_owned()).collect();
    separated_by_commas(header_line, &header)?;
    if let Some(empty) = header.iter().position(String::is_empty) {
        return Err(Problem::at(header_line, format!("column {} has no name in the header", empty + 1)));
    }
    // A second column of the same name would leave one of the two values unused. Each name
    // is looked up among those before it, not compared with each of them: a header of
    // 200,000 columns took minutes.
    let mut seen = std::collections::HashMap::with_capacity(header.len());
    for (i, name) in header.iter().enumerate() {
        if let Some(first) = seen.insert(name.as_str(), i) {
            let what = format!("column `{name}` is named twice in the header (columns {} and {})", first + 1, i + 1);
            return Err(Problem::at(header_line, what));
        }
    }
    Ok(header.into())
}

/// A header of one column that holds a `;` or a tab is a file separated by those (a
/// spreadsheet's "CSV" where the comma is the decimal mark, its "Text"), and Excel's
/// `sep=;` line is a note for spreadsheets: read as commas, each would be one column with
/// a name no parameter has, or a task without a goal, said of the wrong thing.
fn separated_by_commas(line: usize, header: &[String]) -> Result<(), Problem> {
    const SAVE: &str = "save the file as CSV with commas";
    let [first, rest @ ..] = header else { return Ok(()) };
    if let Some(separator) = first.strip_prefix("sep=").filter(|s| s.chars().count() <= 1) {
        let (separator, and) =
            if rest.is_empty() { (separator, format!(", and {SAVE}")) } else { (",", String::new()) };
        return Err(Problem::at(
            line,
            format!(
                "`sep={separator}` is a spreadsheet's note of the separator, not a header: values are read separated \
                 by commas (take the line out{and})"
            ),
        ));
    }
    match (rest.is_empty(), [(';', "`;`"), ('\t', "tabs")].into_iter().find(|(c, _)| first.contains(*c))) {
        (true, Some((_, separator))) => Err(Problem::at(
            line,
            format!("the header is one column, `{first}`: values separated by {separator} are not read ({SAVE})"),
        )),
        _ => Ok(()),
    }
}

/// The records of a CSV text with the line each starts on: fields split on commas, `"…"`
/// quoting with `""` for a quote, newlines inside quotes kept, lines ended by `\n`, `\r\n`
/// or a lone `\r`, each given to `record` as it is read. A blank line is no record; a line of
/// `""` is one, of one empty value.
fn records(text: &str, mut record: impl FnMut(usize, Vec<String>) -> Result<(), Problem>) -> Result<(), Problem> {
    let (mut fields, mut field) = (Vec::new(), String::new());
    // Where the reading is (line, and character in it) and the line the record began on.
    let (mut line, mut column, mut start) = (1, 0, 1);
    let (mut quoted, mut was_quoted) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        column += 1;
        let line_end = c == '\n' || (c == '\r' && chars.peek() != Some(&'\n'));
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                column += 1;
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if line_end {
                    (line, column) = (line + 1, 0);
                }
                field.push(c);
            }
            (false, ',') => {
                fields.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            (false, '\r') if !line_end => {}
            (false, _) if line_end => {
                let blank = fields.is_empty() && !was_quoted && field.trim().is_empty();
                fields.push(std::mem::take(&mut field));
                let fields = std::mem::take(&mut fields);
                if !blank {
                    record(start, fields)?;
                }
                was_quoted = false;
                (line, column) = (line + 1, 0);
                start = line;
            }
            // `"abc"def`: kept, the value would be neither what is quoted nor what is written.
            (false, _) if was_quoted => {
                return Err(Problem::at(line, "text after a closing quote (quote the whole value)").column(column));
            }
            (false, '"') if field.is_empty() => (quoted, was_quoted) = (true, true),
            (false, '"') => {
                return Err(
                    Problem::at(line, "a quote inside an unquoted value (quote the whole value)").column(column)
                );
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err(Problem::at(start, "a quoted value is not closed"));
    }
    if !fields.is_empty() || was_quoted || !field.trim().is_empty() {
        fields.push(field);
        record(start, fields)?;
    }
    Ok(())
}

/// A CSV field, quoted when it needs to be. A value a spreadsheet would take for a formula
/// (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a `'` before it, as OWASP
/// advises for CSV injection: the results hold text read from web pages, and a page must
/// not get to run a formula (`=HYPERLINK(…)`, `=cmd|…`) in the spreadsheet that opens them.
pub fn csv_field(value: &str) -> String {
    let value =
        if value.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{value}") } else { value.to_owned() };
    if value.contains([',', '"', '\n', '\r']) { format!("\"{}\"", value.replace('"', "\"\"")) } else { value }
}

#[cfg(test)]
mod tests;
