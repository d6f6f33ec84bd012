//! Healing through the real binary and real Chromium. Checks heal too: a run on the demo
//! site records the alternatives of the element its home-page check found; on a redesign
//! where that link is renamed (id and text), the next run with the same store heals the
//! check instead of waiting for a person, and `review save-healed` writes the healed check.
//! A target written from the screen ("SIGN IN" for a link whose text is "Sign in") heals by
//! being matched loosely, with no run before it to learn from. A drag's drop zone heals
//! with its own recorded locators, and with the card when both were renamed. A popup that
//! comes over the element healing found is handled as an interrupt, and the same
//! alternative is tried again.

mod common;

use common::*;
use serde_json::{Value, json};

const RENAMED: &str = "tests/fixtures/drift/renamed-sign-in.json";

fn workflow(dir: &std::path::Path) -> std::path::PathBuf {
    let workflow = json!({
        "version": 1,
        "name": "home-by-link",
        "parameters": { "site": { "default": "http://127.0.0.1:8931" } },
        "config": { "no_states_timeout": 4 },
        "states": [
            {
                "name": "Home page",
                "checks": [
                    { "type": "url", "match": "prefix", "value": "{{site}}/" },
                    { "type": "element", "selector": "a#hero-sign-in" }
                ],
                "terminal": { "outcome": "success", "message": "The home page is recognised." }
            },
            {
                "name": "Start",
                "checks": [{ "type": "url", "value": "about:blank" }],
                "actions": [{ "type": "navigate_to", "url": "{{site}}/" }]
            }
        ]
    });
    let path = dir.join("home.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    path
}

#[test]
fn a_renamed_element_check_heals_with_the_locators_recorded_when_it_last_matched() {
    let dir = tempfile::tempdir().unwrap();
    let path = workflow(dir.path());
    let wf = path.to_str().unwrap();
    let run_on_redesign = |runs: &std::path::Path| {
        statewright(&["run", wf, "--demo-site", "--drift", RENAMED, "--no-review", "--json"], runs)
    };

    // Without a run to learn from, the redesigned home page is not recognised.
    let fresh = run_on_redesign(&dir.path().join("fresh-runs"));
    assert_eq!(fresh.status.code(), Some(1), "{}", text(&fresh.stderr));
    let summary: Value = serde_json::from_slice(&fresh.stdout).unwrap();
    assert_eq!(summary["failure"]["kind"], "no_state", "{summary:#}");

    // A run on the site as it was records the link's other locators.
    let runs = dir.path().join("runs");
    let out = statewright(&["run", wf, "--demo-site"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("healed"), "{}", text(&out.stderr));

    // On the redesign the check heals with where the link leads, and the run succeeds.
    let out = run_on_redesign(&runs);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    assert!(
        progress.contains(r#"healed `Home page` check 2: element "a#hero-sign-in" → element "a[href=\"login.html\"]""#),
        "{progress}"
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["end_state"], "Home page", "{summary:#}");

    // The stored run keeps the heal at the step it happened in, for `runs show` and the app.
    let run_id = summary["run_id"].as_str().unwrap();
    let shown: Value = serde_json::from_slice(&statewright(&["runs", "show", run_id, "--json"], &runs).stdout).unwrap();
    assert_eq!(shown["run"]["heals"], 1, "{shown:#}");
    let heal = &shown["healed_checks"][0];
    // A check heals while the page after a step is recognised: it is that step's, as live.
    let home = shown["steps"].as_array().unwrap().iter().find(|s| s["state"] == "Home page").unwrap();
    assert_eq!(heal["step"].as_u64().unwrap() + 1, home["step"].as_u64().unwrap(), "{shown:#}");
    let listing = text(&statewright(&["runs", "show", run_id], &runs).stdout);
    assert!(
        listing.contains(r#"healed check 2: element "a#hero-sign-in" → element "a[href=\"login.html\"]""#),
        "{listing}"
    );

    // Saving writes the healed check, and changes nothing else.
    let before = std::fs::read_to_string(&path).unwrap();
    let saved = statewright(&["review", "save-healed", run_id], &runs);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    assert!(text(&saved.stderr).contains("`Home page` check 2"), "{}", text(&saved.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(b, a)| b != a).collect();
    assert_eq!(
        changed,
        [(r#"          "selector": "a#hero-sign-in""#, r#"          "selector": "a[href=\"login.html\"]""#)],
        "one line changes:\n{after}"
    );

    // The next run on the redesign needs no healing.
    let out = run_on_redesign(&runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("healed"), "{}", text(&out.stderr));
}

#[test]
fn a_target_written_from_the_screen_heals_by_matching_loosely_and_the_fix_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = json!({
        "version": 1,
        "name": "to-sign-in",
        "parameters": { "site": { "default": "http://127.0.0.1:8931" } },
        "config": { "action_timeout": 2 },
        "states": [
            {
                "name": "Signing in",
                "checks": [{ "type": "url", "match": "pattern", "value": "/login\\.html" }],
                "terminal": { "outcome": "success" }
            },
            {
                "name": "Home page",
                "checks": [{ "type": "element", "selector": "#hero-sign-in" }],
                "actions": [{ "type": "click", "target": { "text": "SIGN IN" } }],
                "next": ["Signing in"]
            },
            {
                "name": "Start",
                "checks": [{ "type": "url", "value": "about:blank" }],
                // A seed whose home page shows no consent popup over the link (half do).
                "actions": [{ "type": "navigate_to", "url": "{{site}}/?seed=2" }]
            }
        ]
    });
    let path = dir.path().join("sign-in.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    let runs = dir.path().join("runs");
    let out = statewright(&["run", path.to_str().unwrap(), "--demo-site", "--no-review", "--json"], &runs);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    let healed = r#"healed `Home page` action 1: {"text":"SIGN IN"} → {"text":"SIGN IN","exact":false}"#;
    assert!(progress.contains(healed), "{progress}");
    assert!(progress.contains(r#"→ a#hero-sign-in "Sign in""#), "the link: {progress}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["end_state"], "Signing in", "{summary:#}");

    // The link, not the sentence before it that says "Sign in to browse…", was clicked; the
    // fix saved makes the target loose, and the next run needs no healing.
    let saved = statewright(&["review", "save-healed", summary["run_id"].as_str().unwrap()], &runs);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(after["states"][1]["actions"][0]["target"], json!({"text": "SIGN IN", "exact": false}));
    let again = statewright(&["run", path.to_str().unwrap(), "--demo-site", "--no-review"], &runs);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(!text(&again.stderr).contains("healed"), "{}", text(&again.stderr));
}

/// A board whose drop zone a redesign (`?v=2`) renames, and another (`?v=3`) its card too.
const BOARD: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>Board</title>
<style>.column{display:inline-block;vertical-align:top;width:200px;min-height:120px;border:1px solid #999;margin:10px;padding:8px}.card{border:1px solid #333;padding:6px;background:#ffd}</style>
</head><body>
<div class="column" id="todo" data-testid="todo-column"><h2>To do</h2><div class="card" draggable="true" id="call">Call Ada</div></div>
<div class="column" id="done" data-testid="done-column"><h2>Done</h2></div>
<p id="status"></p>
<script>
  // A redesign (?v=2) renames the drop zone's id; its test id stays. Another (?v=3) also
  // renames the card.
  const v = new URLSearchParams(location.search).get('v');
  if (v === '2' || v === '3') document.getElementById('done').id = 'finished';
  if (v === '3') document.getElementById('call').textContent = 'Phone Ada';
  document.getElementById('call').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'call'));
  const done = document.querySelector('[data-testid="done-column"]');
  done.addEventListener('dragover', (e) => e.preventDefault());
  done.addEventListener('drop', (e) => {
    e.preventDefault();
    done.appendChild(document.getElementById(e.dataTransfer.getData('text/plain')));
    document.getElementById('status').textContent = 'Call Ada is done';
  });
</script>
</body></html>
"#;

#[test]
fn a_renamed_drop_zone_heals_with_the_locators_recorded_when_a_card_was_last_dropped_there() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("board.html"), BOARD).unwrap();
    let site = Site::dir(&pages);
    let workflow = json!({
        "version": 1,
        "name": "call-ada-done",
        "parameters": { "site": { "default": site.1 }, "v": { "default": "1" } },
        "config": { "action_timeout": 2 },
        "states": [
            { "name": "Done", "checks": [{ "type": "text", "value": "Call Ada is done" }], "terminal": { "outcome": "success" } },
            {
                "name": "Board",
                "checks": [{ "type": "element", "selector": "#call" }],
                "actions": [{ "type": "drag", "target": { "text": "Call Ada" }, "to": { "css": "#done" } }],
                "next": ["Done"]
            },
            {
                "name": "Start",
                "checks": [{ "type": "url", "value": "about:blank" }],
                "actions": [{ "type": "navigate_to", "url": "{{site}}/board.html?v={{v}}" }]
            }
        ]
    });
    let path = dir.path().join("board.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    let wf = path.to_str().unwrap();
    let runs = dir.path().join("runs");
    let on_redesign = || statewright(&["run", wf, "-p", "v=2", "--no-review", "--json"], &runs);

    // A run on the board as it was records the drop zone's other locators.
    let out = statewright(&["run", wf], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // Where the card was renamed too, both heal, each by its own recorded locators (in a copy
    // of the store, so that what this run records does not change what follows).
    let copy = dir.path().join("runs-copy");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(&runs).unwrap().flatten().filter(|e| e.path().is_file()) {
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    let out = statewright(&["run", wf, "-p", "v=3", "--no-review", "--json"], &copy);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    assert!(progress.contains(r##"healed `Board` action 1: {"text":"Call Ada"} → {"css":"#call"}"##), "{progress}");
    assert!(progress.contains(r##"healed `Board` action 1 to: {"css":"#done"} →"##), "{progress}");
    let run_id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    let before = std::fs::read_to_string(&path).unwrap();
    let saved = statewright(&["review", "save-healed", &run_id], &copy);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(b, a)| b != a).collect();
    assert_eq!(changed.len(), 2, "the card's locator and the drop zone's:\n{after}");
    assert_eq!(changed[0].1.trim(), r##""css": "#call""##, "{after}");
    std::fs::write(&path, before).unwrap();

    // On the redesign the drop zone heals by its test id, not by the card's locators.
    let out = on_redesign();
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    assert!(
        progress.contains(r##"healed `Board` action 1 to: {"css":"#done"} → {"css":"[data-testid=\"done-column\"]"}"##),
        "{progress}"
    );
    let run_id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    let shown: Value =
        serde_json::from_slice(&statewright(&["runs", "show", &run_id, "--json"], &runs).stdout).unwrap();
    assert_eq!(shown["healed"][0]["field"], "to", "{shown:#}");
    let listing = text(&statewright(&["runs", "show", &run_id], &runs).stdout);
    assert!(listing.contains(r##"healed action 1 to: {"css":"#done"} →"##), "{listing}");

    // Saving writes the drop zone's locator into `to`, and changes nothing else.
    let before = std::fs::read_to_string(&path).unwrap();
    let saved = statewright(&["review", "save-healed", &run_id], &runs);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    assert!(text(&saved.stderr).contains("`Board` action 1: drop target's locator healed"), "{}", text(&saved.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(b, a)| b != a).collect();
    assert_eq!(
        changed,
        [(r##"            "css": "#done""##, r#"            "css": "[data-testid=\"done-column\"]""#)],
        "one line changes:\n{after}"
    );

    // The next run on the redesign needs no healing.
    let out = on_redesign();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("healed"), "{}", text(&out.stderr));
}

/// A newsletter page whose offer covers everything the first time the page scrolls (as
/// "before you go" popups do); `?v=2` renames the button, keeping its test id.
const LETTER: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>Letter</title>
<style>.pad{height:2400px} #offer{position:fixed;inset:0;background:rgba(0,0,0,.6);display:none;align-items:center;justify-content:center} #offer.open{display:flex} #offer div{background:#fff;padding:20px}</style>
</head><body>
<h1>Our newsletter</h1><div class="pad"></div>
<button id="subscribe" data-testid="subscribe">Subscribe</button>
<p id="thanks" hidden>You are subscribed</p>
<div id="offer"><div><p>Before you go: 10% off</p><button id="no-thanks">No thanks</button></div></div>
<script>
if (new URLSearchParams(location.search).get('v') === '2') document.getElementById('subscribe').id = 'join';
const offer = document.getElementById('offer');
let shown = false;
addEventListener('scroll', () => { if (!shown) { shown = true; offer.classList.add('open'); } });
document.getElementById('no-thanks').onclick = () => offer.classList.remove('open');
document.querySelector('[data-testid=subscribe]').onclick = () => { document.getElementById('thanks').hidden = false; };
</script>
</body></html>"#;

#[test]
fn a_popup_that_covers_the_healed_element_is_handled_and_the_same_alternative_tried_again() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("letter.html"), LETTER).unwrap();
    let site = Site::dir(&pages);
    let workflow = json!({
        "version": 1,
        "name": "subscribe",
        "parameters": { "site": { "default": site.1 }, "v": { "default": "1" } },
        "config": { "action_timeout": 2 },
        "states": [
            { "name": "Subscribed", "checks": [{ "type": "text", "value": "You are subscribed" }], "terminal": { "outcome": "success" } },
            {
                "name": "Offer",
                "interrupt": true,
                "checks": [{ "type": "element", "selector": "#offer.open" }],
                "actions": [{ "type": "click", "target": { "css": "#no-thanks" } }]
            },
            {
                "name": "Letter",
                "checks": [{ "type": "text", "value": "Our newsletter" }],
                "actions": [{ "type": "click", "target": { "css": "#subscribe" } }],
                "next": ["Subscribed"]
            },
            {
                "name": "Start",
                "checks": [{ "type": "url", "value": "about:blank" }],
                "actions": [{ "type": "navigate_to", "url": "{{site}}/letter.html?v={{v}}" }]
            }
        ]
    });
    let path = dir.path().join("subscribe.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    let wf = path.to_str().unwrap();
    let runs = dir.path().join("runs");

    // As the page was: the click scrolls, the offer comes over the button, the run closes it
    // and clicks again; the button's other locators are recorded.
    let out = statewright(&["run", wf, "--no-review"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // Renamed: the only element scrolled to is healing's alternative, so the offer comes over
    // it there; healing goes through the offer and tries the same alternative again.
    let out = statewright(&["run", wf, "-p", "v=2", "--no-review", "--json"], &runs);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    assert!(
        progress
            .contains(r##"healed `Letter` action 1: {"css":"#subscribe"} → {"css":"[data-testid=\"subscribe\"]"}"##),
        "{progress}"
    );
    let run_id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    let shown: Value =
        serde_json::from_slice(&statewright(&["runs", "show", &run_id, "--json"], &runs).stdout).unwrap();
    let states: Vec<&str> = shown["steps"].as_array().unwrap().iter().filter_map(|s| s["state"].as_str()).collect();
    let offer = states.iter().position(|s| *s == "Offer").unwrap_or_else(|| panic!("the offer is a step: {states:?}"));
    assert_eq!(states.last(), Some(&"Subscribed"), "{states:?}");
    assert!(offer > states.iter().position(|s| *s == "Letter").unwrap(), "{states:?}");
}
