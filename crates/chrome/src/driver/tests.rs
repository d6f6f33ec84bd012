use super::*;

/// An engine older than `String.prototype.toWellFormed` (Chromium 111), as a person's own
/// browser attached over `--cdp-url` may be: `save_html` called it and failed there with a
/// TypeError. The library loaded in such an engine replaces a lone surrogate (half an
/// emoji) with U+FFFD by itself, and `save_html` reads the page through it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_html_keeps_a_page_with_half_an_emoji_in_an_engine_without_to_well_formed() {
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium starts");
    // The library is loaded again once it is missing: it then finds no `toWellFormed`, as it
    // would in the old engine.
    let old_engine = "document.body.textContent = 'Great news \\uD83D';
        delete String.prototype.toWellFormed;
        delete window.__statewright;
        typeof ''.toWellFormed";
    let gone = driver.page().evaluate(old_engine, CALL_BUDGET).await.expect("the page answers");
    assert_eq!(gone, json!("undefined"));
    let save = Action::SaveHtml { filename: "page.html".into() };
    let saved = driver.perform(&save, Duration::from_secs(5)).await;
    driver.close().await;
    let artifact = saved.expect("the page is saved").artifact.expect("a file");
    let html = std::str::from_utf8(&artifact.bytes).expect("UTF-8");
    assert!(html.contains("<body>Great news \u{FFFD}</body>"), "{html}");
}

#[test]
fn malformed_alternatives_are_dropped_and_the_rest_kept_in_order() {
    let page = vec![
        json!({"role": "button", "name": "Save"}),
        json!({"css": "#a", "text": "two kinds"}),
        json!({"name": "name without role"}),
        json!({"css": "#b", "unknown": 1}),
        json!({"css": "  "}),
        json!({"css": "[["}),
        json!({"text": "Save", "nth": -1}),
        json!("not an object"),
        json!({"css": "#save"}),
        json!({"text": "Save", "nth": 2}),
    ];
    let kept: Vec<Value> = alternatives(page).iter().map(|t| json!(t)).collect();
    assert_eq!(
        kept,
        [json!({"role": "button", "name": "Save"}), json!({"css": "#save"}), json!({"text": "Save", "nth": 2})]
    );
}

/// A page written in Shift_JIS, saved and opened again in the browser, shows its text: the
/// file is UTF-8 (as the library hands the page over), and it said Shift_JIS in its
/// `<meta charset>`, so it opened as mojibake.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_in_shift_jis_saved_with_save_html_opens_showing_its_text() {
    let folder = tempfile::tempdir().expect("a folder");
    let mut page =
        br#"<!doctype html><html><head><meta charset="Shift_JIS"><title>Shop</title></head><body><p id="p">"#.to_vec();
    // こんにちは、東京
    page.extend([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd, 0x81, 0x41, 0x93, 0x8c, 0x8b, 0x9e]);
    page.extend(b"</p></body></html>");
    let written = folder.path().join("written.html");
    std::fs::write(&written, page).expect("the page is written");
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium starts");
    let open = |path: &std::path::Path| Action::NavigateTo { url: format!("file://{}", path.display()) };
    driver.perform(&open(&written), Duration::from_secs(5)).await.expect("the page opens");
    let read = driver.page().evaluate("document.getElementById('p').textContent", CALL_BUDGET).await;
    assert_eq!(read.expect("the page answers"), json!("こんにちは、東京"), "the page itself reads right");
    let save = Action::SaveHtml { filename: "page.html".into() };
    let artifact = driver.perform(&save, Duration::from_secs(5)).await.expect("saved").artifact.expect("a file");
    let saved = folder.path().join("saved.html");
    std::fs::write(&saved, artifact.bytes.as_slice()).expect("the file is written");
    driver.perform(&open(&saved), Duration::from_secs(5)).await.expect("the saved page opens");
    let read = driver.page().evaluate("document.getElementById('p').textContent", CALL_BUDGET).await;
    driver.close().await;
    assert_eq!(read.expect("the page answers"), json!("こんにちは、東京"), "the saved page reads as the page did");
}
