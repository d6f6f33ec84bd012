//! The results tables written: the CSV one and the JSON one side by side, each row read
//! once, from a go's rows ([`Table`]).

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::RowResult;
use super::read::TableFile;
use crate::batch::held::write_pretty;
use crate::error::RunError;
use crate::rows::csv_field;

/// A row of a go's tables: a batch's, none until it starts, or the judge's, always there.
pub(crate) trait Slot {
    fn row(&self) -> Option<&RowResult>;
}

impl Slot for Option<RowResult> {
    fn row(&self) -> Option<&RowResult> {
        self.as_ref()
    }
}

impl Slot for RowResult {
    fn row(&self) -> Option<&RowResult> {
        Some(self)
    }
}

/// A go's tables, a row's result at each place that has one. A batch reads most of its rows
/// back from the JSON table last written rather than hold them (a million of them would be
/// hundreds of MB), and makes some as they are written (its rows not started, once it was
/// stopped, as `cancelled`).
pub(crate) trait Table {
    fn places(&self) -> usize;

    /// The row at `place`, if there is one there.
    fn row(&mut self, place: usize) -> Result<Option<Entry<'_>>, RunError>;

    /// The row at `place` begins `at` bytes into the JSON table being written.
    fn written(&mut self, place: usize, at: u64) {
        let _ = (place, at);
    }

    /// The JSON table is written: the rows written are read back from `table` from now on.
    fn rewritten(&mut self, table: TableFile) {
        let _ = table;
    }

    /// Whether the tables show rows never noted in the journal (a stopped batch's rows not
    /// started): then the go's end writes them.
    fn unnoted(&self) -> bool {
        false
    }
}

/// A row as the tables take it: its result as compact JSON (its journal line, and its
/// entry in the JSON table once reindented) and whole (its CSV line).
pub(crate) struct Entry<'a> {
    pub(crate) line: Cow<'a, [u8]>,
    pub(crate) result: Cow<'a, RowResult>,
}

impl<'a> Entry<'a> {
    pub(crate) fn of(result: Cow<'a, RowResult>) -> Entry<'a> {
        // A RowResult is strings, numbers and JSON values: nothing it holds fails to write.
        Entry { line: Cow::Owned(serde_json::to_vec(&result).unwrap_or_default()), result }
    }
}

impl<S: Slot> Table for [S] {
    fn places(&self) -> usize {
        self.len()
    }

    fn row(&mut self, place: usize) -> Result<Option<Entry<'_>>, RunError> {
        Ok(self.get(place).and_then(Slot::row).map(|r| Entry::of(Cow::Borrowed(r))))
    }
}

impl<S: Slot> Table for Vec<S> {
    fn places(&self) -> usize {
        self.len()
    }

    fn row(&mut self, place: usize) -> Result<Option<Entry<'_>>, RunError> {
        self.as_mut_slice().row(place)
    }
}

/// What a rewrite wrote: its bytes, and the CSV table's columns.
pub(crate) struct Written {
    pub(crate) bytes: u64,
    pub(crate) columns: Columns,
}

/// Both tables, each replaced through a rename so a reader never sees half of one. Written
/// side by side as the rows are read, each row read once: the CSV table's header, which
/// names the columns of every row, is `guess` (the columns of the tables before, and of
/// the rows noted since); only when the rows turn out to have others is the CSV table
/// written again, from the JSON one just written.
pub(crate) fn write_table<T: Table + ?Sized>(
    csv: &Path,
    json: &Path,
    table: &mut T,
    guess: &Columns,
) -> Result<Written, RunError> {
    let (csv_tmp, json_tmp) = (being_written(csv), being_written(json));
    let mut csv_out = create(&csv_tmp).map_err(|e| cannot_write(csv, e))?;
    let mut json_out = Counted { out: create(&json_tmp).map_err(|e| cannot_write(json, e))?, bytes: 0 };
    guess.header(&mut csv_out).map_err(|e| cannot_write(csv, e))?;
    let mut seen = Columns::default();
    // As serde_json's pretty printer writes the array of the results.
    json_out.write_all(b"[").map_err(|e| cannot_write(json, e))?;
    let mut first = true;
    for place in 0..table.places() {
        let Some(entry) = table.row(place)? else { continue };
        seen.add(&entry.result);
        let separator: &[u8] = if first { b"\n  " } else { b",\n  " };
        json_out.write_all(separator).map_err(|e| cannot_write(json, e))?;
        let at = json_out.bytes;
        write_pretty(&entry.line, 1, &mut json_out).map_err(|e| cannot_write(json, e))?;
        guess.write_line(&entry.result, &mut csv_out).map_err(|e| cannot_write(csv, e))?;
        drop(entry);
        first = false;
        table.written(place, at);
    }
    json_out.write_all(if first { b"]" } else { b"\n]" }).map_err(|e| cannot_write(json, e))?;
    let json_bytes = done(json_out.out).map_err(|e| cannot_write(json, e))?;
    table.rewritten(TableFile::new(File::open(&json_tmp).map_err(|e| cannot_write(json, e))?, json));
    let mut csv_bytes = done(csv_out).map_err(|e| cannot_write(csv, e))?;
    if seen != *guess {
        let mut again = create(&csv_tmp).map_err(|e| cannot_write(csv, e))?;
        seen.write_csv(table, csv, &mut again)?;
        csv_bytes = done(again).map_err(|e| cannot_write(csv, e))?;
    }
    // The CSV table first, as before the two were written side by side: a go killed between
    // the renames leaves the JSON table as it was, and the journal with every row since.
    std::fs::rename(&csv_tmp, csv).map_err(|e| cannot_write(csv, e))?;
    std::fs::rename(&json_tmp, json).map_err(|e| cannot_write(json, e))?;
    Ok(Written { bytes: csv_bytes + json_bytes, columns: seen })
}

/// The file a table at `path` is written to before its rename.
pub(crate) fn being_written(path: &Path) -> PathBuf {
    match path.extension() {
        Some(ext) if ext == "json" => path.with_extension("json.tmp~"),
        _ => path.with_extension("tmp~"),
    }
}

fn create(path: &Path) -> std::io::Result<BufWriter<File>> {
    File::create(path).map(|file| BufWriter::with_capacity(1 << 16, file))
}

/// `out` flushed; the bytes written.
fn done(out: BufWriter<File>) -> std::io::Result<u64> {
    out.into_inner().map_err(std::io::IntoInnerError::into_error)?.metadata().map(|m| m.len())
}

fn cannot_write(path: &Path, e: std::io::Error) -> RunError {
    RunError::environment("results", format!("cannot write {}: {e}", path.display()))
}

/// A writer that counts what it is given: where each row of the JSON table begins.
struct Counted<W> {
    out: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(buf)?;
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The CSV table's columns, from every row.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Columns {
    /// The data's columns, in the order they first appear.
    values: Vec<String>,
    /// Then what the runs read, each variable a column, in the order first read.
    outputs: Vec<String>,
    /// The endpoint column only for a batch over a pool of browsers, the model's only when
    /// some run asked one.
    endpoints: bool,
    models: bool,
    judged: bool,
}

impl Columns {
    pub(crate) fn of<'a>(rows: impl IntoIterator<Item = &'a RowResult>) -> Columns {
        let mut columns = Columns::default();
        rows.into_iter().for_each(|r| columns.add(r));
        columns
    }

    /// With the columns of `r` there are not yet, after the others.
    pub(crate) fn add(&mut self, r: &RowResult) {
        for key in r.values.keys() {
            if !self.values.contains(key) {
                self.values.push(key.clone());
            }
        }
        for key in r.outputs.keys() {
            if !self.outputs.contains(key) {
                self.outputs.push(key.clone());
            }
        }
        self.endpoints |= r.endpoint.is_some();
        self.models |= r.llm_calls > 0;
        self.judged |= r.judged.is_some();
    }

    /// The CSV table of `table`'s rows, once more.
    fn write_csv<T: Table + ?Sized>(&self, table: &mut T, csv: &Path, out: &mut impl Write) -> Result<(), RunError> {
        self.header(out).map_err(|e| cannot_write(csv, e))?;
        for place in 0..table.places() {
            if let Some(entry) = table.row(place)? {
                self.write_line(&entry.result, out).map_err(|e| cannot_write(csv, e))?;
            }
        }
        Ok(())
    }

    fn header(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut header = String::from("row,status,end_state,duration_ms,run_id,message");
        if self.endpoints {
            header.push_str(",endpoint");
        }
        if self.models {
            header.push_str(",llm_calls,llm_tokens,llm_cost");
        }
        if self.judged {
            header.push_str(",verdict,verdict_reason");
        }
        self.values.iter().chain(&self.outputs).for_each(|c| header.push_str(&format!(",{}", csv_field(c))));
        writeln!(out, "{header}")
    }

    /// A row's line.
    fn write_line(&self, r: &RowResult, out: &mut impl Write) -> std::io::Result<()> {
        let mut fixed = vec![
            r.row.to_string(),
            r.status.clone(),
            r.end_state.clone().unwrap_or_default(),
            r.duration_ms.to_string(),
            r.run_id.clone().unwrap_or_default(),
            r.message.clone(),
        ];
        if self.endpoints {
            fixed.push(r.endpoint.clone().unwrap_or_default());
        }
        if self.models {
            fixed.extend([r.llm_calls.to_string(), r.llm_tokens.to_string(), format!("{:.6}", r.llm_cost)]);
        }
        if self.judged {
            let judgement = r.judged.as_ref();
            fixed.extend(
                [judgement.map(|j| j.verdict.clone()), judgement.map(|j| j.reason.clone())]
                    .map(Option::unwrap_or_default),
            );
        }
        let values = self.values.iter().map(|c| r.values.get(c).cloned().unwrap_or_default());
        let read = self
            .outputs
            .iter()
            .map(|c| r.outputs.get(c).map(statewright_workflow::variables::as_text).unwrap_or_default());
        let fields: Vec<String> = fixed.into_iter().chain(values).chain(read).map(|f| csv_field(&f)).collect();
        writeln!(out, "{}", fields.join(","))
    }
}
