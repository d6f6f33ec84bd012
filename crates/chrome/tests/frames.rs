//! Frames from other sites, against real headless Chromium: a consent manager's banner over
//! the page and a payment provider's card field, each served from another origin (the
//! fixture site as `localhost` instead of `127.0.0.1`), which the browser runs out of reach
//! of the page's script.

mod common;

use std::time::Duration;

use common::{Finished, drive, run, workflow};
use serde_json::{Value, json};
use statewright_chrome::ChromeDriver;
use statewright_demo::{Site, SiteServer};
use statewright_engine::{Driver, DriverError, Event, Probe};
use statewright_workflow::{Action, SelectorKind};

/// How long a read of the page may take to answer.
const CALL: Duration = Duration::from_secs(10);

/// Whether the page says it was scrolled (frames-below.html).
async fn scrolled(driver: &mut ChromeDriver) -> bool {
    // A scroll event is sent with the next frame.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let probe: Probe = serde_json::from_value(json!({"kind": "text", "value": "Scrolled", "mode": "equals"})).unwrap();
    driver.signals(&[probe], None, Duration::ZERO, CALL).await.expect("signals").results[0]
}

/// The elements of the first step's record whose text says `seen`.
fn recorded_elements<'a>(finished: &'a Finished, seen: &str) -> &'a Vec<Value> {
    let observed = finished.events.iter().find_map(|e| match e {
        Event::Observed { observation, .. } if observation.text.contains(seen) => Some(observation),
        _ => None,
    });
    let observed = observed.unwrap_or_else(|| panic!("no step saw {seen:?}"));
    observed.elements.as_array().expect("elements")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banner_and_a_card_field_in_frames_from_other_sites_are_seen_and_used() {
    let finished = run(workflow(
        "frames-checkout.html",
        json!([
            // Recognised by what the banner's frame says: it covers the whole page.
            {"name": "consent", "interrupt": true,
             "checks": [{"type": "text", "value": "We value your privacy"}],
             "actions": [{"type": "click", "target": {"role": "button", "name": "Accept all"}}]},
            {"name": "paid", "checks": [{"type": "text", "match": "contains", "value": "Paid with the card ending 4242, expiring in month 09, card saved"}],
             "terminal": {"outcome": "success", "message": "paid"}},
            {"name": "checkout",
             "checks": [{"type": "text", "value": "Checkout"}, {"type": "text", "value": "Card number"}],
             "actions": [
                {"type": "type", "target": {"role": "textbox", "name": "Card number"}, "text": "4242 4242 4242 4242"},
                {"type": "select_option", "target": {"role": "combobox", "name": "Expiry month"}, "value": "09"},
                {"type": "check", "target": {"role": "checkbox", "name": "Save this card"}},
                {"type": "extract", "target": {"css": "#number"}, "read": "value", "into": "card"},
                {"type": "click", "target": {"role": "button", "name": "Pay"}}
             ]}
        ]),
        json!({}),
    ))
    .await;
    // The month was chosen in the card's frame: the page was told it.
    finished.assert_succeeded();
    assert!(finished.states_entered().iter().any(|s| s == "consent"), "{:?}", finished.states_entered());
    // Each action says which frame it was done in, by its origin alone.
    let details = finished.details();
    let framed =
        |what: &str| details.iter().any(|d| d.contains(what) && d.contains("in the frame from http://localhost:"));
    assert!(framed("Accept all") && framed("Card number") && framed("Save this card") && framed("09"), "{details:?}");
    // The page's own *Pay*, once it could be pressed: not the look-alike in the card's frame.
    assert!(details.iter().any(|d| d.contains("button#pay") && !d.contains("frame")), "{details:?}");
    assert!(!details.iter().any(|d| d.contains("button#wallet")), "{details:?}");

    // What was read in the card's frame.
    let read = finished.events.iter().find_map(|e| match e {
        Event::ActionFinished { action: Action::Extract { .. }, value, detail, .. } => {
            Some((value.clone(), detail.clone()))
        }
        _ => None,
    });
    let (value, detail) = read.expect("the card number was read");
    assert_eq!(value, Some(json!("4242 4242 4242 4242")));
    assert!(detail.is_some_and(|d| d.contains("in the frame from http://localhost:")));

    // The record of the checkout shows the frames' text and elements (for the model and the
    // review panel), placed where they show in the page and numbered after its own.
    let elements = recorded_elements(&finished, "Card number");
    let card = elements.iter().find(|e| e["name"] == "Card number").expect("the card field is in the record");
    assert!(card["frame"].as_str().is_some_and(|f| f.starts_with("http://localhost:")), "{card}");
    // Below the page's heading and paragraph, where the frame is.
    assert!(card["rect"]["y"].as_f64().is_some_and(|y| y > 60.0), "{card}");
    let ids: Vec<&str> = elements.iter().filter_map(|e| e["id"].as_str()).collect();
    let unique: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "one id names one element: {ids:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_element_in_a_frame_from_another_site_has_alternatives_for_healing() {
    let (mut driver, _url, _held) = drive("frames-checkout.html").await;
    let probe = Probe::Element { by: SelectorKind::Css, selector: "#number".into() };
    let mut found = Vec::new();
    // The frames load after the page.
    for _ in 0..50 {
        found = driver.locate(std::slice::from_ref(&probe)).await.expect("the page answers");
        if found.first().is_some_and(|f| !f.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let alternatives = found.first().cloned().unwrap_or_default();
    assert!(alternatives.iter().any(|t| t.name.as_deref() == Some("Card number")), "{alternatives:?}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_in_a_covered_frame_is_said_to_be_covered_and_by_what() {
    let (mut driver, _url, _held) = drive("frames-covered.html").await;
    let accept: Action =
        serde_json::from_value(json!({"type": "click", "target": {"role": "button", "name": "Accept all"}})).unwrap();
    let failed = driver.perform(&accept, Duration::from_secs(3)).await;
    let Err(DriverError::NotActionable { reason, message }) = failed else { panic!("{failed:?}") };
    assert_eq!(reason, "obscured", "{message}");
    assert!(message.contains("in the frame from http://localhost:") && message.contains("by div#promo"), "{message}");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_for_an_element_in_a_frame_below_the_fold_leaves_the_page_where_it_is() {
    let (mut driver, _url, _held) = drive("frames-below.html").await;
    let act = |kind: &str| -> Action {
        serde_json::from_value(json!({"type": kind, "target": {"role": "button", "name": "Accept all"}})).unwrap()
    };
    driver.perform(&act("wait_for"), Duration::from_secs(5)).await.expect("the button is there");
    assert!(!scrolled(&mut driver).await, "waiting scrolled the page");
    // A click does scroll to it.
    driver.perform(&act("click"), Duration::from_secs(5)).await.expect("the button is clicked");
    assert!(scrolled(&mut driver).await, "the click did not scroll to the frame");
    driver.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_that_never_answers_does_not_hold_up_the_page() {
    let finished = run(workflow(
        "frames-busy.html",
        json!([
            {"name": "read", "checks": [{"type": "text", "value": "Read to the end"}],
             "terminal": {"outcome": "success", "message": "read"}},
            {"name": "article", "checks": [{"type": "text", "value": "Not read yet"}],
             "actions": [{"type": "click", "target": {"role": "button", "name": "Mark as read"}}]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    // Not a measure of speed: a frame waited out for as long as a page's own call may take
    // (10 s and more, every read) is a hang.
    assert!(finished.report.duration < Duration::from_secs(10), "{:?}", finished.report.duration);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_a_frame_takes_long_to_acknowledge_goes_on_while_the_page_answers() {
    // The banner's frame handles *Accept all* for 12 s: Chromium acknowledges the click only
    // then, after the 10 s an input may take. The page itself answers all along, so the click
    // counts as given and the state is verified (before, the run failed as if the browser had).
    let finished = run(workflow(
        "frames-slow-consent.html",
        json!([
            {"name": "accepted", "checks": [{"type": "text", "value": "Consent given"}],
             "terminal": {"outcome": "success", "message": "accepted"}},
            {"name": "banner", "checks": [{"type": "text", "value": "We value your privacy"}],
             "actions": [{"type": "click", "target": {"role": "button", "name": "Accept all"}}],
             "next": ["accepted"]}
        ]),
        json!({"verify_timeout": 10}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "banner", "accepted"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_inside_a_frame_from_another_site_is_seen_and_used() {
    let finished = run(workflow(
        "frames-nested.html",
        json!([
            {"name": "verified", "checks": [{"type": "text", "value": "Payment verified"}],
             "terminal": {"outcome": "success", "message": "verified"}},
            // Recognised by what the bank's frame, inside the provider's, says.
            {"name": "bank check", "checks": [{"type": "text", "value": "Enter the code your bank sent"}],
             "actions": [
                {"type": "type", "target": {"role": "textbox", "name": "Code"}, "text": "123456"},
                {"type": "click", "target": {"role": "button", "name": "Verify"}}
             ]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    let details = finished.details();
    assert!(
        details.iter().any(|d| d.contains("Verify") && d.contains("in the frame from http://127.0.0.1:")),
        "{details:?}"
    );

    // The record places the bank's field where it shows: inside the provider's frame, which
    // is below the page's heading and 40 px lower still, then 30 px into the provider's.
    let elements = recorded_elements(&finished, "Enter the code");
    let code = elements.iter().find(|e| e["name"] == "Code").expect("the code field is in the record");
    assert!(code["rect"]["x"].as_f64().is_some_and(|x| x > 50.0), "{code}");
    assert!(code["rect"]["y"].as_f64().is_some_and(|y| y > 150.0), "{code}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_from_another_origin_of_the_same_site_and_sandboxed_ones_are_seen_and_used() {
    let accounts = SiteServer::start(Site::Dir(common::fixtures()), 0).await.expect("serve the accounts origin");
    let port = accounts.url().rsplit(':').next().expect("a port").to_owned();
    let finished = run(workflow(
        &format!("frames-same-site.html?accounts={port}"),
        json!([
            {"name": "rated", "checks": [{"type": "text", "value": "Thanks for rating"}],
             "terminal": {"outcome": "success", "message": "signed in and rated"}},
            // The sandboxed widget is read and used as well.
            {"name": "signed in", "checks": [{"type": "text", "value": "Signed in"}, {"type": "text", "value": "Was this page useful?"}],
             "actions": [{"type": "click", "target": {"role": "button", "name": "Yes"}}]},
            {"name": "portal", "checks": [{"type": "text", "value": "Sign in to your account"}],
             "actions": [{"type": "click", "target": {"role": "button", "name": "Continue with your account"}}]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
}

/// What `probes` find, once the one at `index` holds (or after two seconds).
async fn once_held(driver: &mut ChromeDriver, probes: &[Probe], index: usize) -> Vec<bool> {
    for _ in 0..40 {
        let seen = driver.signals(probes, None, Duration::ZERO, CALL).await.expect("signals").results;
        if seen[index] {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    driver.signals(probes, None, Duration::ZERO, CALL).await.expect("signals").results
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_from_another_site_that_the_page_hides_shows_nothing_until_shown() {
    let (mut driver, _, _held) = drive("frames-hidden.html").await;
    let text = |value: &str| Probe::Text { value: value.into(), mode: statewright_workflow::TextMatch::Equals };
    let probes = [
        text("All frames loaded"),
        text("We value your privacy"),
        Probe::Element { by: SelectorKind::Css, selector: "button".into() },
        Probe::Element { by: SelectorKind::Css, selector: "h2".into() },
    ];
    assert!(once_held(&mut driver, &probes, 0).await[0], "the frames load");
    // Loaded, and read by their own documents, which cannot tell: the page shows none.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seen = driver.signals(&probes, None, Duration::ZERO, CALL).await.expect("signals").results;
    assert!(!seen[1] && !seen[3], "a hidden frame's text and elements do not hold: {seen:?}");
    assert!(seen[2], "the page's own button holds");
    let show: Action = serde_json::from_value(json!({"type": "click", "target": {"css": "#show"}})).unwrap();
    driver.perform(&show, Duration::from_secs(3)).await.expect("the button is clicked");
    let seen = once_held(&mut driver, &probes, 1).await;
    assert!(seen[1] && seen[3], "the banner shown is seen: {seen:?}");
    driver.close().await;
}
