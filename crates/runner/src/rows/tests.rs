use super::*;

fn values(row: &Row) -> Vec<String> {
    row.values().map(|(k, v)| format!("{k}={v}")).collect()
}

#[test]
fn rows_hold_their_column_names_once_and_their_values_as_one_text() {
    // A million rows of a CSV file hold one copy of its header, not a million.
    let rows = csv("q,note\nA,x\nB,\n").unwrap();
    assert!(Arc::ptr_eq(&rows[0].columns, &rows[1].columns), "one header for every row");
    assert_eq!(values(&rows[1]), ["q=B", "note="]);
    assert_eq!((rows[1].get("note"), rows[1].get("nothing")), (Some(""), None));
    assert_eq!(rows[0].text.as_ref(), "Ax");
    // JSON rows one after the other with the same keys share them; a null is no value.
    let text = "{\"q\": \"a\", \"n\": 1}\n{\"q\": \"b\", \"n\": 2}\n{\"q\": \"c\"}\n{\"q\": \"d\", \"n\": null}\n";
    let rows = json_lines(text, Nested::Refused).unwrap();
    assert!(Arc::ptr_eq(&rows[0].columns, &rows[1].columns));
    assert!(Arc::ptr_eq(&rows[2].columns, &rows[3].columns));
    assert_eq!(
        (values(&rows[1]), values(&rows[3])),
        (vec!["q=b".to_owned(), "n=2".to_owned()], vec!["q=d".to_owned()])
    );
    // A row is a few words, with two allocations of its own whatever its columns.
    assert!(std::mem::size_of::<Row>() <= 80, "{}", std::mem::size_of::<Row>());
    // Read from a file, its rows share its name.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\nB\n").unwrap();
    let rows = read_rows(&data, Nested::Refused).unwrap();
    assert!(Arc::ptr_eq(&rows[0].file, &rows[1].file));
}

#[test]
fn csv_with_quotes_commas_and_newlines() {
    let rows = csv("product,quantity,note\r\n\"Kettle, steel\",2,\"say \"\"hi\"\"\nthen go\"\n\nTeapot,1,\n").unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get("product").unwrap(), "Kettle, steel");
    assert_eq!(rows[0].get("note").unwrap(), "say \"hi\"\nthen go");
    assert_eq!((rows[1].line, rows[1].get("note").unwrap()), (5, ""));
    assert_eq!(rows[1].header_line, 1);
}

#[test]
fn malformed_csv_says_where() {
    assert_eq!(csv("a,b\n1,2,3\n").unwrap_err().line, 2);
    assert_eq!(csv("a,b\n1,\"2\n").unwrap_err(), Problem::at(2, "a quoted value is not closed"));
    assert!(csv("a,,b\n1,2,3\n").unwrap_err().what.contains("column 2 has no name"));
    assert_eq!(
        csv("a\nx\"y\n").unwrap_err().to_string(),
        "2:2: a quote inside an unquoted value (quote the whole value)"
    );
}

#[test]
fn a_file_separated_by_semicolons_or_tabs_is_refused_saying_so() {
    // As a spreadsheet saves "CSV" where a comma is the decimal mark, or "Text".
    assert_eq!(
        csv("q;r\r\nA;B\r\n").unwrap_err().to_string(),
        "1: the header is one column, `q;r`: values separated by `;` are not read (save the file as CSV \
         with commas)"
    );
    assert!(csv("q\tr\nA\tB\n").unwrap_err().what.contains("values separated by tabs are not read"));
    assert_eq!(
        csv("sep=;\nq;r\nA;B\n").unwrap_err().to_string(),
        "1: `sep=;` is a spreadsheet's note of the separator, not a header: values are read separated by \
         commas (take the line out, and save the file as CSV with commas)"
    );
    assert!(csv("sep=,\nq,r\n").unwrap_err().what.ends_with("by commas (take the line out)"));
    // A value may hold a semicolon, and a one-column file is read as it is.
    assert_eq!(values(&csv("q\nA;B\n").unwrap()[0]), ["q=A;B"]);
}

#[test]
fn a_column_named_twice_is_refused_not_half_read() {
    let problem = csv("q,note,q\nA,x,B\n").unwrap_err();
    assert_eq!(problem.to_string(), "1: column `q` is named twice in the header (columns 1 and 3)");
}

#[test]
fn text_after_a_closing_quote_is_an_error_at_its_line_and_column() {
    let problem = csv("q,note\n\"abc\"def,x\n").unwrap_err();
    assert_eq!(problem.to_string(), "2:6: text after a closing quote (quote the whole value)");
    assert_eq!(csv("q,note\n\"abc\" ,x\n").unwrap_err().column, Some(6));
    // Quoted values end at a comma or the line's end, whatever the line ending.
    assert_eq!(values(&csv("q,note\r\n\"a\",\"b\"\r\n").unwrap()[0]), ["q=a", "note=b"]);
}

#[test]
fn a_quoted_empty_value_is_a_row_and_a_blank_line_none() {
    let rows = csv("q\nA\n\n\"\"\nB\n").unwrap();
    assert_eq!(rows.iter().map(|r| (r.line, r.get("q").unwrap())).collect::<Vec<_>>(), [(2, "A"), (4, ""), (5, "B")]);
    // Also as the file's last line, without a newline.
    assert_eq!(csv("q\nA\n\"\"").unwrap().len(), 2);
}

#[test]
fn lines_ended_by_a_lone_carriage_return_are_lines() {
    let rows = csv("q,note\rA,B\r\"C\",\"two\rlines\"\rD,E\r").unwrap();
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 5]);
    assert_eq!(values(&rows[1]), ["q=C", "note=two\rlines"]);
    let rows = json_lines("{\"q\": \"a\"}\r\r{\"q\": \"b\"}\r", Nested::Refused).unwrap();
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 3]);
}

#[test]
fn json_lines_take_plain_values() {
    let rows = json_lines(
        "{\"product\": \"Kettle\", \"quantity\": 2, \"gift\": true, \"x\": null}\n\n{\"product\": \"Teapot\"}\n",
        Nested::Refused,
    )
    .unwrap();
    assert_eq!(values(&rows[0]), ["product=Kettle", "quantity=2", "gift=true"]);
    assert_eq!((rows[1].line, rows[1].header_line), (3, 3));
    assert_eq!(json_lines("{\"a\": [1]}", Nested::Refused).unwrap_err().line, 1);
    assert_eq!(json_lines("{\"a\": [1], \"b\": 2}", Nested::Skipped).unwrap()[0].columns().len(), 1);
    assert!(json_lines("not json", Nested::Refused).unwrap_err().what.contains("not a JSON object"));
    assert!(json_lines("[1]", Nested::Refused).unwrap_err().what.contains("not a JSON object"));
}

#[test]
fn a_json_number_is_the_text_written_not_a_rounded_float() {
    let rows = json_lines(
        "{\"order\": 123456789012345678901, \"n\": 1e2, \"price\": 1.0, \"minus\": -0.50, \"text\": \"a\\u00e9\\\"\"}",
        Nested::Refused,
    )
    .unwrap();
    assert_eq!(values(&rows[0]), ["order=123456789012345678901", "n=1e2", "price=1.0", "minus=-0.50", "text=aé\""]);
    let rows = json_array("[{\"order\": 123456789012345678901}]", Nested::Refused).unwrap();
    assert_eq!(rows[0].get("order").unwrap(), "123456789012345678901");
}

#[test]
fn a_key_given_twice_in_an_object_is_refused() {
    let problem =
        json_lines("{\"q\": \"a\"}\n{\"q\": \"a\", \"x\": null, \"q\": \"b\"}\n", Nested::Refused).unwrap_err();
    assert_eq!(problem.to_string(), "2: `q` is given twice in the object");
    // Even when one of the two is a value left out.
    assert!(json_lines("{\"eval\": {}, \"eval\": 1}", Nested::Skipped).is_err());
    assert_eq!(json_array("[{},\n {\"q\": 1, \"q\": 2}]", Nested::Refused).unwrap_err().line, 2);
}

#[test]
fn a_json_array_gives_each_row_the_line_its_object_starts_on() {
    let text = "[\n  {\"intent\": \"a\", \"eval\": {\"x\": 1}},\n\n  {\"intent\": \"b\",\n   \"n\": 3}\n]";
    let rows = json_array(text, Nested::Skipped).unwrap();
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 4]);
    assert_eq!(rows[1].get("n").unwrap(), "3");
    assert_eq!(json_array(text, Nested::Refused).unwrap_err().line, 2);
    assert_eq!(json_array("[{}, 3]", Nested::Skipped).unwrap_err().what, "item 2 is not an object");
    assert_eq!(json_array("[{},\n{]", Nested::Skipped).unwrap_err().line, 2);
}

#[test]
fn rows_read_from_a_file_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\n").unwrap();
    assert_eq!(*read_rows(&data, Nested::Refused).unwrap()[0].file, *data);
    std::fs::write(&data, "q,q\nA,B\n").unwrap();
    let message = read_rows(&data, Nested::Refused).unwrap_err().message;
    assert_eq!(message, format!("{}:1: column `q` is named twice in the header (columns 1 and 2)", data.display()));
}

#[test]
fn text_that_is_not_utf8_is_refused_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("orders.csv");
    let refused = |bytes: &[u8]| {
        std::fs::write(&data, bytes).unwrap();
        read_rows(&data, Nested::Refused).unwrap_err().message
    };
    // As a spreadsheet saves "CSV" in Windows-1252: `é` is the byte E9.
    assert_eq!(
        refused(b"q,r\r\nA,B\r\nCaf\xe9,B\r\n"),
        format!(
            "{}:3:4: not UTF-8 text (the byte E9): save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\")",
            data.display()
        )
    );
    // As it saves "Unicode text": UTF-16, a byte order mark first.
    let utf16: Vec<u8> =
        [0xFF, 0xFE].into_iter().chain("q\r\nA\r\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert_eq!(
        refused(&utf16),
        format!("{}:1: UTF-16 text, not UTF-8: save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\")", data.display())
    );
}

#[test]
fn a_value_a_spreadsheet_would_run_as_a_formula_is_written_as_text() {
    for (value, field) in [
        ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""),
        ("=1,2", "\"'=1,2\""),
        ("a=b", "a=b"),
        ("", ""),
    ] {
        assert_eq!(csv_field(value), field, "{value:?}");
    }
}
