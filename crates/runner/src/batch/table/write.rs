//! The results tables written: the CSV one and the JSON one, each as it is made, from a
//! go's rows ([`Table`]).

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use super::RowResult;
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

/// A go's tables, a row's result at each place that has one. A batch's makes some as they
/// are written (its rows not started, once it was stopped, as `cancelled`) rather than hold
/// them: a million of them would be a gigabyte.
pub(crate) trait Table {
    fn places(&self) -> usize;
    fn result(&self, place: usize) -> Option<Cow<'_, RowResult>>;

    /// The result at `place` as compact JSON: its journal line, and its entry in the JSON
    /// table once reindented. A batch holds its rows' results so
    /// ([`crate::batch::held::Held`]).
    fn line(&self, place: usize) -> Option<Cow<'_, [u8]>> {
        self.result(place).map(|r| Cow::Owned(serde_json::to_vec(&r).unwrap_or_default()))
    }
}

impl<S: Slot> Table for [S] {
    fn places(&self) -> usize {
        self.len()
    }

    fn result(&self, place: usize) -> Option<Cow<'_, RowResult>> {
        self.get(place).and_then(Slot::row).map(Cow::Borrowed)
    }
}

impl<S: Slot> Table for Vec<S> {
    fn places(&self) -> usize {
        self.len()
    }

    fn result(&self, place: usize) -> Option<Cow<'_, RowResult>> {
        self.as_slice().result(place)
    }
}

/// The results of `table` in its order.
fn results<T: Table + ?Sized>(table: &T) -> impl Iterator<Item = Cow<'_, RowResult>> {
    (0..table.places()).filter_map(|place| table.result(place))
}

/// Both tables, each replaced through a rename so a reader never sees half of one; the
/// bytes written. Written as they are made, not made whole first: the tables of a million
/// rows are hundreds of MB.
pub(crate) fn write_table<T: Table + ?Sized>(csv: &Path, json: &Path, table: &T) -> Result<u64, RunError> {
    let columns = Columns::of(table);
    let csv_bytes = replace(csv, |out| columns.write_csv(table, out))?;
    let json_bytes = replace(json, |out| {
        // As serde_json's pretty printer writes the array of the results.
        let mut first = true;
        out.write_all(b"[")?;
        for line in (0..table.places()).filter_map(|place| table.line(place)) {
            out.write_all(if first { b"\n  " } else { b",\n  " })?;
            write_pretty(&line, 1, out)?;
            first = false;
        }
        out.write_all(if first { b"]" } else { b"\n]" })
    })?;
    Ok(csv_bytes + json_bytes)
}

/// The file at `path` replaced by what `write` writes, through a rename; its bytes.
fn replace(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<u64, RunError> {
    let tmp = path.with_extension("tmp~");
    let written = std::fs::File::create(&tmp).and_then(|file| {
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        out.into_inner().map_err(std::io::IntoInnerError::into_error)?.metadata().map(|m| m.len())
    });
    written
        .and_then(|bytes| std::fs::rename(&tmp, path).map(|()| bytes))
        .map_err(|e| RunError::environment("results", format!("cannot write {}: {e}", path.display())))
}

/// The CSV table's columns, from every row.
struct Columns {
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
    fn of<T: Table + ?Sized>(table: &T) -> Columns {
        let mut columns =
            Columns { values: Vec::new(), outputs: Vec::new(), endpoints: false, models: false, judged: false };
        for r in results(table) {
            for key in r.values.keys() {
                if !columns.values.contains(key) {
                    columns.values.push(key.clone());
                }
            }
            for key in r.outputs.keys() {
                if !columns.outputs.contains(key) {
                    columns.outputs.push(key.clone());
                }
            }
            columns.endpoints |= r.endpoint.is_some();
            columns.models |= r.llm_calls > 0;
            columns.judged |= r.judged.is_some();
        }
        columns
    }

    fn write_csv<T: Table + ?Sized>(&self, table: &T, out: &mut impl Write) -> std::io::Result<()> {
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
        writeln!(out, "{header}")?;
        for r in results(table) {
            writeln!(out, "{}", self.line(&r))?;
        }
        Ok(())
    }

    /// A row's line, without its end.
    fn line(&self, r: &RowResult) -> String {
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
        fields.join(",")
    }
}
