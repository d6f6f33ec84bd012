//! Checks held to a page a step recorded rather than a live one (`statewright synthesize`):
//! the run's matcher decides them from the record's address, title, text and snapshot, and
//! what the record cannot decide is said, with why, rather than passed or failed.

mod common;

use common::*;
use serde_json::{Value, json};
use statewright_engine::matcher::Matcher;
use statewright_engine::{OBSERVED_TEXT_CHARS, Observation};
use statewright_workflow::Params;

/// The login page of a shop as a step recorded it.
fn login_page() -> Observation {
    Observation {
        url: "https://shop.test/login.html".into(),
        title: "Sign in · Shop".into(),
        text: "Shop Cart Sign in Welcome back. Username Password Sign in".into(),
        elements: json!([
            {"id": "e1", "tag": "a", "role": "link", "name": "Cart", "text": "Cart", "selector": "a[href=\"cart.html\"]"},
            {"id": "e2", "tag": "input", "role": "textbox", "name": "Username", "text": "", "selector": "#username"},
            {"id": "e3", "tag": "button", "role": "button", "name": "Sign in", "text": "Sign in", "selector": "#sign-in"}
        ]),
        ..Observation::default()
    }
}

/// Each of `checks` (one state's) on `page`: `Ok(holds)`, or `Err(why it is undecided)`.
fn outcomes(checks: Value, page: &Observation) -> Vec<(String, Result<bool, String>)> {
    let reads = json!([{"type": "extract", "target": {"css": "#total"}, "into": "total"}]);
    let states = vec![state("Login page", checks, json!([])), state("Cart", json!([el("#total")]), reads)];
    let wf = workflow(json!({}), [states, vec![unreachable_end()]].concat());
    let params = Params::bind(&wf, &[]).unwrap();
    let matcher = Matcher::new(&wf, &params).unwrap();
    matcher.outcomes(0, &page.recorded_signals(matcher.probes()))
}

fn held(outcome: &(String, Result<bool, String>)) -> Option<bool> {
    outcome.1.as_ref().ok().copied()
}

#[test]
fn address_and_title_checks_are_decided_as_on_a_live_page() {
    let page = login_page();
    let checks = json!([
        url_starts("https://shop.test/login.html"),
        url_starts("https://shop.test/cart.html"),
        {"type": "url", "value": "https://SHOP.test:443/login.html"},
        {"type": "url", "match": "prefix", "value": "https://shop.test/cart", "negate": true},
        {"type": "title", "match": "contains", "value": "Sign in"},
        {"type": "title", "value": "Your cart"}
    ]);
    let decided: Vec<Option<bool>> = outcomes(checks, &page).iter().map(held).collect();
    assert_eq!(decided, [Some(true), Some(false), Some(true), Some(true), Some(true), Some(false)]);
}

#[test]
fn text_is_decided_from_the_whole_text_and_undecided_where_it_was_cut() {
    let page = login_page();
    let checks = json!([
        {"type": "text", "match": "contains", "value": "Welcome\n  back."},
        {"type": "text", "match": "contains", "value": "Your cart is empty"},
        {"type": "text", "value": "Sign in"},
        {"type": "text", "value": "Order confirmed"},
        {"type": "text", "value": "Order confirmed", "negate": true},
        {"type": "text", "value": "Welcome back."}
    ]);
    let all = outcomes(checks, &page);
    let decided: Vec<Option<bool>> = all.iter().map(held).collect();
    assert_eq!(decided, [Some(true), Some(false), Some(true), Some(false), Some(true), None], "{all:?}");
    assert!(all[5].1.as_ref().unwrap_err().contains("not whether one element's text is exactly it"), "{all:?}");

    // The driver keeps the first 20,000 characters: past them, absence is not known.
    let cut = Observation { text: "x".repeat(OBSERVED_TEXT_CHARS), ..login_page() };
    let all = outcomes(json!([{"type": "text", "match": "contains", "value": "Order confirmed"}]), &cut);
    assert!(all[0].1.as_ref().unwrap_err().contains("first 20000 characters"), "{all:?}");
    let blank = Observation { text: String::new(), ..login_page() };
    let all = outcomes(json!([text("Order confirmed")]), &blank);
    assert!(all[0].1.as_ref().unwrap_err().contains("kept no text"), "{all:?}");
}

#[test]
fn elements_are_found_by_their_snapshot_selector_and_the_rest_is_undecided() {
    let page = login_page();
    let checks = json!([
        el("#username"),
        not_el("#sign-in"),
        el("h1"),
        {"type": "element", "by": "xpath", "selector": "//h1"}
    ]);
    let all = outcomes(checks, &page);
    let decided: Vec<Option<bool>> = all.iter().map(held).collect();
    assert_eq!(decided, [Some(true), Some(false), None, None], "{all:?}");
    assert_eq!(all[2].0, "element \"h1\"");
    assert!(all[2].1.as_ref().unwrap_err().contains("only the page's interactive elements"), "{all:?}");
    assert!(all[3].1.as_ref().unwrap_err().contains("not XPath"), "{all:?}");
    // The matcher counts an undecided check as failing, as it does a probe a live page could
    // not evaluate: the state does not match.
    let wf = workflow(json!({}), vec![state("Login page", json!([el("h1")]), json!([])), unreachable_end()]);
    let params = Params::bind(&wf, &[]).unwrap();
    let matcher = Matcher::new(&wf, &params).unwrap();
    assert!(matcher.matching(&page.recorded_signals(matcher.probes())).is_empty());
}

#[test]
fn a_check_on_a_variable_not_set_is_undecided_not_failed() {
    let page = login_page();
    let all = outcomes(json!([text("{{total}}"), {"type": "variable", "name": "total", "value": "3"}]), &page);
    for outcome in &all {
        assert_eq!(outcome.1.as_ref().unwrap_err(), "`total` has no value", "{all:?}");
    }
}
