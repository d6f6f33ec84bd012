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
