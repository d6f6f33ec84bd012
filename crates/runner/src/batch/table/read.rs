//! The JSON table read back a row at a time, each row with the byte it begins at: a go reads
//! an earlier go's table once, as it resumes, and the rows it takes from it (and from its own
//! tables once written) again from there as it rewrites the tables, rather than holding a
//! million rows' lines.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Take};
use std::path::{Path, PathBuf};

use super::RowResult;
use crate::error::RunError;

/// The rows of a JSON table one after the other, each with the byte it begins at.
pub(crate) struct Rows<R> {
    reader: R,
    /// Bytes read, and the line and column of the next one (as serde_json counts them).
    at: u64,
    line: usize,
    column: usize,
    state: State,
    text: Vec<u8>,
}

enum State {
    Start,
    Between,
    End,
}

impl<R: BufRead> Rows<R> {
    pub(crate) fn new(reader: R) -> Rows<R> {
        Rows { reader, at: 0, line: 1, column: 1, state: State::Start, text: Vec::new() }
    }

    /// The next row and the byte it begins at; none after the last. An error says what is
    /// wrong and where.
    pub(crate) fn next_row(&mut self) -> Result<Option<(u64, RowResult)>, String> {
        match self.state {
            State::End => return Ok(None),
            State::Start => {
                self.blank()?;
                if self.byte()? != Some(b'[') {
                    return Err(self.expected("`[`"));
                }
                self.take(1);
                self.blank()?;
                if self.byte()? == Some(b']') {
                    return self.end();
                }
            }
            State::Between => {
                self.blank()?;
                match self.byte()? {
                    Some(b',') => {
                        self.take(1);
                        self.blank()?;
                    }
                    Some(b']') => return self.end(),
                    _ => return Err(self.expected("`,` or `]`")),
                }
            }
        }
        self.state = State::Between;
        let (at, line, column) = (self.at, self.line, self.column);
        self.text.clear();
        let read = read_value(&mut self.reader, &mut self.text).map_err(|e| format!("{e} at line {line}"))?;
        self.at += read;
        let text = std::mem::take(&mut self.text);
        self.passed(&text);
        let row = serde_json::from_slice(&text).map_err(|e| placed(&e, line, column));
        self.text = text;
        Ok(Some((at, row?)))
    }

    /// The `]` at the end: nothing but blanks may follow it.
    fn end(&mut self) -> Result<Option<(u64, RowResult)>, String> {
        self.take(1);
        self.state = State::End;
        self.blank()?;
        match self.byte()? {
            None => Ok(None),
            Some(_) => Err(self.at_here("trailing characters")),
        }
    }

    fn blank(&mut self) -> Result<(), String> {
        loop {
            let available = self.reader.fill_buf().map_err(|e| e.to_string())?;
            let blanks = available.iter().take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')).count();
            if blanks == 0 {
                return Ok(());
            }
            self.take(blanks);
        }
    }

    fn byte(&mut self) -> Result<Option<u8>, String> {
        Ok(self.reader.fill_buf().map_err(|e| e.to_string())?.first().copied())
    }

    /// Past the next `count` bytes, which are in the reader's buffer.
    fn take(&mut self, count: usize) {
        let taken = self.reader.fill_buf().map(|b| b[..count].to_vec()).unwrap_or_default();
        self.passed(&taken);
        self.at += count as u64;
        self.reader.consume(count);
    }

    fn passed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                (self.line, self.column) = (self.line + 1, 1);
            } else {
                self.column += 1;
            }
        }
    }

    fn expected(&self, what: &str) -> String {
        self.at_here(&format!("expected {what}"))
    }

    fn at_here(&self, what: &str) -> String {
        format!("{what} at line {} column {}", self.line, self.column)
    }
}

impl Rows<BufReader<Take<File>>> {
    /// The file read, to read its rows again where they begin.
    pub(crate) fn into_table(self, path: &Path) -> TableFile {
        TableFile::new(self.reader.into_inner().into_inner(), path)
    }
}

/// `e`, an error in a row whose text began at `line` and `column`, placed in the file.
fn placed(e: &serde_json::Error, line: usize, column: usize) -> String {
    let said = e.to_string();
    if e.line() == 0 {
        return said;
    }
    let what = said.rsplit_once(" at line ").map_or(said.as_str(), |(what, _)| what);
    let column = if e.line() == 1 { column + e.column() - 1 } else { e.column() };
    format!("{what} at line {} column {column}", line + e.line() - 1)
}

/// A JSON table whose rows a go reads again, each by the byte it begins at.
pub(crate) struct TableFile {
    reader: BufReader<File>,
    /// Where the reader is; none after a failed seek.
    at: Option<u64>,
    text: Vec<u8>,
    path: PathBuf,
}

impl TableFile {
    pub(crate) fn new(file: File, path: &Path) -> TableFile {
        TableFile { reader: BufReader::with_capacity(1 << 16, file), at: None, text: Vec::new(), path: path.to_owned() }
    }

    /// The row that begins `at` bytes into the table.
    pub(crate) fn row_at(&mut self, at: u64) -> Result<RowResult, RunError> {
        let read = self.seek(at).and_then(|()| {
            self.text.clear();
            read_value(&mut self.reader, &mut self.text)
        });
        let read = read.inspect_err(|_| self.at = None).map_err(|e| self.unreadable(&e))?;
        self.at = Some(at + read);
        serde_json::from_slice(&self.text).map_err(|e| self.unreadable(&e))
    }

    /// To `at`, within what the reader holds when it can: the rows are read in order.
    fn seek(&mut self, at: u64) -> std::io::Result<()> {
        match self.at {
            Some(here) if here == at => Ok(()),
            Some(here) => self.reader.seek_relative(at as i64 - here as i64),
            None => self.reader.seek(SeekFrom::Start(at)).map(drop),
        }
    }

    fn unreadable(&self, e: &dyn std::fmt::Display) -> RunError {
        RunError::environment("results", format!("{}: cannot read a row of it back ({e})", self.path.display()))
    }
}

/// Reads one JSON value's text from `reader` into `text`: an object or an array to its
/// closing bracket, a string to its closing quote, anything else to the `,`, `]`, `}` or
/// blank after it. Its length in bytes; what it is, serde_json says.
fn read_value(reader: &mut impl BufRead, text: &mut Vec<u8>) -> std::io::Result<u64> {
    let mut scan = Scan::default();
    let mut read = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            if scan.open() {
                let eof = std::io::ErrorKind::UnexpectedEof;
                return Err(std::io::Error::new(eof, "the table ends inside a row"));
            }
            return Ok(read);
        }
        let (taken, ended) = scan.over(available);
        text.extend_from_slice(&available[..taken]);
        reader.consume(taken);
        read += taken as u64;
        if ended {
            return Ok(read);
        }
    }
}

/// Where a scan of a value is.
#[derive(Default)]
struct Scan {
    started: bool,
    scalar: bool,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Scan {
    /// How much of `bytes` is the value's, and whether it ends there.
    fn over(&mut self, bytes: &[u8]) -> (usize, bool) {
        for (i, &byte) in bytes.iter().enumerate() {
            if !self.started {
                self.started = true;
                match byte {
                    b'{' | b'[' => self.depth = 1,
                    b'"' => self.in_string = true,
                    _ => self.scalar = true,
                }
                if !self.scalar {
                    continue;
                }
            }
            if self.scalar {
                if matches!(byte, b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t') {
                    return (i, true);
                }
            } else if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => {
                        self.in_string = false;
                        if self.depth == 0 {
                            return (i + 1, true);
                        }
                    }
                    _ => {}
                }
            } else {
                match byte {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            return (i + 1, true);
                        }
                    }
                    _ => {}
                }
            }
        }
        (bytes.len(), false)
    }

    /// Inside an object, an array or a string.
    fn open(&self) -> bool {
        self.started && !self.scalar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Result<Vec<(u64, usize)>, String> {
        let mut rows = Rows::new(text.as_bytes());
        let mut read = Vec::new();
        while let Some((at, row)) = rows.next_row()? {
            read.push((at, row.row));
        }
        Ok(read)
    }

    #[test]
    fn a_tables_rows_are_read_with_the_byte_each_begins_at_and_a_malformed_one_is_placed() {
        let row = |n: usize| {
            format!(
                r#"{{"row":{n},"values":{{"q":"a \"}}\" ]"}},"status":"failed","end_state":null,"duration_ms":0,"run_id":null,"message":""}}"#
            )
        };
        let text = format!("[\n  {},\n  {}\n]\n", row(1), row(2));
        let at = |n: usize| text.find(&row(n)).unwrap() as u64;
        assert_eq!(rows(&text).unwrap(), [(at(1), 1), (at(2), 2)]);
        assert_eq!(rows(" [ ] ").unwrap(), []);
        assert_eq!(rows("[]x").unwrap_err(), "trailing characters at line 1 column 3");
        assert_eq!(rows("{}").unwrap_err(), "expected `[` at line 1 column 1");
        assert_eq!(
            rows(&format!("[{} {}]", row(1), row(2))).unwrap_err(),
            format!("expected `,` or `]` at line 1 column {}", row(1).len() + 3)
        );
        // serde_json's complaint, at the line and column in the file, not in the row.
        let wrong = format!("[\n  {},\n  {}]", row(1), row(2).replace("\"failed\"", "7"));
        let said = rows(&wrong).unwrap_err();
        assert!(said.starts_with("invalid type: integer `7`, expected a string at line 3 column "), "{said}");
        assert_eq!(rows(&format!("[{}", &row(1)[..20])).unwrap_err(), "the table ends inside a row at line 1");
        assert!(rows("[1]").unwrap_err().starts_with("invalid type: integer `1`"));
    }

    #[test]
    fn a_row_is_read_again_from_the_byte_it_begins_at_in_any_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        let table: Vec<RowResult> =
            (1..=3).map(|n| RowResult::new(n, Default::default(), "succeeded", "x".repeat(n * 40_000))).collect();
        std::fs::write(&path, serde_json::to_string_pretty(&table).unwrap()).unwrap();
        let mut read = Rows::new(BufReader::new(File::open(&path).unwrap()));
        let mut places = Vec::new();
        while let Some((at, _)) = read.next_row().unwrap() {
            places.push(at);
        }
        let mut file = TableFile::new(File::open(&path).unwrap(), &path);
        for i in [0, 1, 2, 2, 0, 1] {
            assert_eq!(file.row_at(places[i]).unwrap(), table[i]);
        }
        let wrong = file.row_at(places[1] + 1).unwrap_err();
        assert!(wrong.message.contains("t.json: cannot read a row of it back"), "{}", wrong.message);
    }
}
