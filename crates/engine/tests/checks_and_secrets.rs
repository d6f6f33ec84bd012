//! What states are recognised from (URL, title, negated checks) and what a run's record may
//! show: secret parameters reach the driver but never an event.

mod common;

use common::*;
use serde_json::json;
use statewright_engine::matcher::Matcher;
use statewright_engine::scripted::ScriptedDriver;
use statewright_engine::{CheckResult, Event, Failure, RunStatus, Signals};
use statewright_workflow::params::MASK;
use statewright_workflow::{Action, Params, Target};

#[test]
fn url_and_title_checks_match_exactly_by_prefix_by_pattern_and_negated() {
    let check = |kind: &str, mode: &str, value: &str, negate: bool| json!([{ "type": kind, "match": mode, "value": value, "negate": negate }]);
    let wf = workflow(
        json!({}),
        vec![
            state("url exact", check("url", "exact", "https://shop.test/cart", false), json!([])),
            state("url prefix", check("url", "prefix", "https://shop.test/", false), json!([])),
            state("url pattern", check("url", "pattern", r"/items/\d+$", false), json!([])),
            state("not admin", check("url", "prefix", "https://shop.test/admin", true), json!([])),
            state("title exact", check("title", "exact", "Inbox", false), json!([])),
            state("title contains", check("title", "contains", "Inbox", false), json!([])),
            state("title pattern", check("title", "pattern", r"^\(\d+\) Inbox$", false), json!([])),
            state("no error", check("title", "contains", "Error", true), json!([])),
            unreachable_end(),
        ],
    );
    let params = statewright_workflow::Params::bind(&wf, &[]).unwrap();
    let matcher = Matcher::new(&wf, &params).expect("the patterns compile");
    let matching = |url: &str, title: &str| -> Vec<&str> {
        let signals = Signals {
            url: url.into(),
            title: title.into(),
            results: vec![false; matcher.probes().len()],
            errors: vec![],
        };
        matcher.matching(&signals).into_iter().map(|i| wf.states[i].name.as_str()).collect()
    };
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "https://shop.test/cart",
            "Inbox",
            &["url exact", "url prefix", "not admin", "title exact", "title contains", "no error"],
        ),
        // Exact means exact: a trailing slash or a prefix of the title is not enough.
        (
            "https://shop.test/cart/",
            "(3) Inbox",
            &["url prefix", "not admin", "title contains", "title pattern", "no error"],
        ),
        // Patterns are searched anywhere in the URL; `$` anchors at its end.
        (
            "https://shop.test/items/42",
            "Error: Inbox unavailable",
            &["url prefix", "url pattern", "not admin", "title contains"],
        ),
        ("https://shop.test/admin/items/42x", "Inbox - Error", &["url prefix", "title contains"]),
        // A prefix is a prefix of the whole URL, not of a query string; titles are case-sensitive.
        ("https://evil.test/?r=https://shop.test/cart", "inbox", &["not admin", "no error"]),
    ];
    for (url, title, expected) in cases {
        assert_eq!(&matching(url, title), expected, "states matching url {url:?} and title {title:?}");
    }
}

#[test]
fn an_exact_url_check_matches_the_url_as_the_browser_spells_it() {
    // `{{site}}` is `http://127.0.0.1:8931` and the browser shows the site's root as
    // `http://127.0.0.1:8931/`: the same URL, as are a host's capitals and its default port.
    let exact = |name: &str, value: &str| state(name, json!([{ "type": "url", "value": value }]), json!([]));
    let wf = workflow(
        json!({}),
        vec![
            exact("root", "http://127.0.0.1:8931"),
            exact("root query", "http://127.0.0.1:8931?q=1#top"),
            exact("capitals and port", "HTTPS://Shop.Test:443"),
            exact("other port", "https://shop.test:8443"),
            exact("path", "https://Shop.Test/Cart"),
            unreachable_end(),
        ],
    );
    let params = statewright_workflow::Params::bind(&wf, &[]).unwrap();
    let matcher = Matcher::new(&wf, &params).unwrap();
    let matching = |url: &str| -> Vec<&str> {
        let signals = Signals { url: url.into(), title: String::new(), results: vec![], errors: vec![] };
        matcher.matching(&signals).into_iter().map(|i| wf.states[i].name.as_str()).collect()
    };
    assert_eq!(matching("http://127.0.0.1:8931/"), ["root"]);
    assert_eq!(matching("http://127.0.0.1:8931/?q=1#top"), ["root query"]);
    assert_eq!(matching("https://shop.test/"), ["capitals and port"]);
    assert_eq!(matching("https://shop.test:8443/"), ["other port"]);
    // A path is the site's to spell: its capitals and a trailing slash still count.
    assert_eq!(matching("https://shop.test/Cart"), ["path"]);
    assert!(matching("https://shop.test/cart").is_empty());
    assert!(matching("https://shop.test/Cart/").is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_negated_element_check_holds_once_the_element_is_gone_and_entries_record_each_check() {
    let wf = workflow(
        json!({}),
        vec![
            success(
                "Ready",
                json!([url_starts(URL), not_el("#spinner"), { "type": "title", "match": "contains", "value": "Ready" }]),
            ),
            state("Loading", json!([el("#spinner")]), json!([])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#spinner"), title("Loading…")])
        .at(ms(800), [hide("#spinner"), title("Ready – App")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let timeline: Vec<(String, u64)> = ran.entries().into_iter().map(|e| (e.state, e.elapsed_ms)).collect();
    assert_eq!(timeline, [("Loading".into(), 0), ("Ready".into(), 800)], "Ready waits for the spinner to go");
    let checks = ran.events.iter().find_map(|e| match e {
        Event::StateEntered { state, checks, .. } if state == "Ready" => Some(checks.clone()),
        _ => None,
    });
    let passed = |check: &str| CheckResult { check: check.into(), passed: true };
    assert_eq!(
        checks,
        Some(vec![
            passed(r#"url starts with "https://app.test/""#),
            passed(r##"not element "#spinner""##),
            passed(r#"title contains "Ready""#),
        ]),
        "a state entry records each check, described for people, with its result"
    );
}

#[tokio::test(start_paused = true)]
async fn a_parameter_that_makes_a_pattern_invalid_fails_the_run_at_setup() {
    let wf = workflow_from(json!({
        "parameters": { "section": { "default": "items" } },
        "states": [success("Section", json!([{ "type": "url", "match": "pattern", "value": "/{{section}}/" }]))],
    }));
    let params = Params::bind(&wf, &[("section".into(), "(".into())]).unwrap();
    let mut driver = ScriptedDriver::new(URL);
    let ran = run_with(&wf, &params, &mut driver, Default::default()).await;
    assert!(
        matches!(ran.failure(), Failure::Setup { error } if error.contains("invalid pattern")),
        "an unbalanced `(` from a parameter is reported before anything runs, got {:?}",
        ran.failure()
    );
    assert!(ran.entries().is_empty(), "no state was entered");
}

const PASSWORD: &str = "hunter2-Secret";

fn secret_workflow() -> statewright_workflow::Workflow {
    workflow_from(json!({
        "parameters": {
            "user": { "default": "ann" },
            "password": { "default": PASSWORD, "secret": true },
        },
        "states": [
            state(
                "Login",
                json!([el("#user")]),
                json!([type_into("#user", "{{user}}"), type_into("#pass", "{{password}}"), click("#submit")]),
            ),
            success("Home", json!([el("#home")])),
        ],
    }))
}

/// Every event as the recorder would write it.
fn serialised(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| serde_json::to_string(e).expect("events serialise")).collect()
}

#[tokio::test(start_paused = true)]
async fn secret_parameters_reach_the_driver_but_never_an_event() {
    let wf = secret_workflow();
    let mut driver = ScriptedDriver::new(URL).with([show("#user"), show("#pass"), show("#submit")]).on(
        "click #submit",
        ms(0),
        [hide("#user"), show("#home")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);

    let typed: Vec<String> = driver
        .performed
        .lock()
        .unwrap()
        .iter()
        .filter_map(|a| match a {
            Action::Type { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(typed, ["ann", PASSWORD], "the driver types the real values");

    let password_field = Target { css: Some("#pass".into()), ..Target::default() };
    let masked = Action::Type { target: password_field, text: MASK.into(), clear: true };
    for event in &ran.events {
        if let Event::ActionStarted { index: 1, action, .. } | Event::ActionFinished { index: 1, action, .. } = event {
            assert_eq!(action, &masked, "events show the secret action with its text masked");
        }
    }
    let events = serialised(&ran.events);
    assert!(events.iter().any(|e| e.contains(r#""text":"ann""#)), "non-secret parameters are shown as typed");
    for event in &events {
        assert!(!event.contains(PASSWORD), "a serialised event leaks the secret: {event}");
    }
    assert!(!ran.report.message.contains(PASSWORD));
}

#[tokio::test(start_paused = true)]
async fn secrets_in_urls_and_checks_are_masked_in_state_entries_observations_and_failures() {
    let token = "tok-8c1f9e";
    let session = format!("https://app.test/s/{token}");
    let wf = workflow_from(json!({
        "config": { "no_states_timeout": 2 },
        "parameters": { "token": { "default": token, "secret": true } },
        "states": [
            state("Start", json!([url_is(URL)]), json!([{ "type": "navigate_to", "url": "https://app.test/s/{{token}}" }])),
            state("Session", json!([url_starts("https://app.test/s/{{token}}"), not_el("#done")]), json!([click("#next")])),
            success("Done", json!([url_is("https://app.test/s/{{token}}/done")])),
        ],
    }));
    // Session's click leads to a page no state describes, still under the secret URL.
    let mut driver = ScriptedDriver::new(URL).with([show("#next")]).on("click #next", ms(0), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.states(), ["Start", "Session"], "the session URL is recognised with the real token");
    assert!(matches!(ran.failure(), Failure::NoState { .. }), "then no state matches: {:?}", ran.failure());
    assert_eq!(log(&driver)[0], format!("navigate_to {session}"), "the driver navigates to the real URL");

    for event in serialised(&ran.events) {
        assert!(!event.contains(token), "a serialised event leaks the secret token: {event}");
    }
    assert!(!ran.report.message.contains(token), "the failure message leaks the token: {}", ran.report.message);
}

#[tokio::test(start_paused = true)]
async fn an_error_quoting_a_huge_value_is_cut_in_the_failure_after_its_secret_is_masked() {
    let token = "tok-8c1f9e";
    let huge = "x".repeat(100_000);
    let wf = workflow_from(json!({
        "parameters": { "q": { "default": huge }, "token": { "default": token, "secret": true } },
        "states": [
            state("Start", json!([url_is(URL)]), json!([{ "type": "navigate_to", "url": "https://app.test/{{token}}/{{q}}" }])),
            success("Done", json!([el("#done")])),
        ],
    }));
    let url = format!("https://app.test/{token}/{huge}");
    let mut driver = ScriptedDriver::new(URL).invalid(&format!("navigate_to {url}"));
    let ran = run_to_end(&wf, &mut driver).await;
    let error = match ran.failure() {
        Failure::Action { error, .. } | Failure::Driver { error } => error.clone(),
        other => panic!("the navigation's error fails the run: {other:?}"),
    };
    // The address is cut, not the words that say what went wrong; the cut cannot leave part
    // of the secret behind.
    assert!(error.starts_with("navigate_to https://app.test/"), "{error}");
    assert!(error.ends_with(" cannot be performed"), "{error}");
    assert!(error.contains("more characters)"), "{error}");
    assert!(error.chars().count() < 300, "{} characters", error.chars().count());
    assert!(ran.report.message.chars().count() < 600, "{} characters", ran.report.message.chars().count());
    // The action as bound keeps its values (the record of what was done); its error, the
    // escalation's outcomes and the run's end do not repeat them whole.
    for event in &ran.events {
        let whole = match event {
            Event::ActionStarted { .. } => false,
            Event::ActionFinished { error, .. } => error.as_ref().is_some_and(|e| e.contains(&huge)),
            event => serde_json::to_string(event).unwrap().contains(&huge),
        };
        assert!(!whole, "an event repeats the value whole: {}", &format!("{event:?}")[..200]);
    }
    for event in serialised(&ran.events) {
        assert!(!event.contains(token), "a serialised event leaks the secret token");
    }
}
