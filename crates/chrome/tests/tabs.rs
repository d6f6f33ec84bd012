//! The run's tabs and a tab's history against real headless Chromium: tabs the page opens
//! (followed, or not), `switch_tab`, looking back at the tab before, the tabs a model or a
//! person is shown, and `go_back`.

mod common;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::{Event, Failure, RunStatus};

fn done(checks: serde_json::Value) -> serde_json::Value {
    json!({"name": "done", "checks": checks, "terminal": {"outcome": "success", "message": "ok"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_follows_a_new_tab_and_returns_when_a_popup_closes_itself() {
    // A link opens the account in a new tab (noopener); there a button opens a sign-in popup,
    // which tells its opener and closes itself: the run acts in each page in turn.
    let finished = run(workflow(
        "tabs.html",
        json!([
            done(json!([
                {"type": "url", "match": "pattern", "value": "/tabs-account\\.html$"},
                {"type": "text", "value": "Signed in"}
            ])),
            json!({"name": "popup", "checks": [{"type": "url", "match": "pattern", "value": "/tabs-popup\\.html$"}],
                   "actions": [{"type": "click", "target": {"role": "button", "name": "Allow"}}]}),
            json!({"name": "account", "checks": [{"type": "text", "value": "Not signed in"}],
                   "actions": [{"type": "click", "target": {"text": "Sign in with a popup"}}]}),
            json!({"name": "shop", "checks": [{"type": "url", "match": "pattern", "value": "/tabs\\.html$"}],
                   "actions": [{"type": "click", "target": {"text": "Open your account"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "shop", "account", "popup", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tab_the_page_opens_on_its_own_does_not_divert_the_run() {
    let finished = run(workflow(
        "tabs-ad.html",
        json!([
            done(json!([
                {"type": "url", "match": "pattern", "value": "/tabs-ad\\.html$"},
                {"type": "text", "value": "Continued"}
            ])),
            json!({"name": "catalogue", "checks": [{"type": "text", "value": "Browsing"}],
                   // Slower than the page's own popup: the run must still be here.
                   "actions": [{"type": "wait", "seconds": 0.5}, {"type": "click", "target": {"text": "Continue"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "catalogue", "done"]);
}

/// The page the run's click went to opens an advertisement on its own timer a second after
/// it loads, while the click is recent: the run followed it, as if its click had opened it,
/// and went on in the advertisement. The page opened it with no user gesture (the click was
/// in the page before), and the run stays where it was; the advertisement is one of its tabs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tab_the_next_page_opens_on_its_timer_soon_after_the_runs_click_does_not_divert_the_run() {
    let finished = run(workflow(
        "tabs-welcome.html",
        json!([
            // The advertisement is there for `switch_tab`, as every tab the page opens is.
            done(json!([{"type": "url", "match": "pattern", "value": "/page2\\.html$"}])),
            json!({"name": "accepted", "checks": [
                       {"type": "url", "match": "pattern", "value": "/tabs-offer\\.html$"},
                       {"type": "text", "value": "Accepted"}],
                   "actions": [{"type": "switch_tab", "tab": {"title": "Second page"}}]}),
            json!({"name": "offer", "checks": [{"type": "text", "value": "Waiting for you"}],
                   // Slower than the page's own popup: the run must still be here.
                   "actions": [{"type": "wait", "seconds": 1.5}, {"type": "click", "target": {"text": "Accept"}}]}),
            json!({"name": "welcome", "checks": [{"type": "text", "value": "Welcome"}],
                   "actions": [{"type": "click", "target": {"text": "See your offer"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "welcome", "offer", "accepted", "done"]);
    assert!(!finished.events.iter().any(|e| matches!(e, Event::TabOpened { .. })), "no tab was followed");
}

/// A popup the run's click opens a second later (once a sign-in provider answered) has the
/// click's gesture still, and is followed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popup_opened_a_second_after_the_runs_click_is_followed() {
    let finished = run(workflow(
        "tabs-welcome.html",
        json!([
            done(json!([{"type": "url", "match": "pattern", "value": "/page2\\.html$"}])),
            json!({"name": "welcome", "checks": [{"type": "text", "value": "Welcome"}],
                   "actions": [{"type": "click", "target": {"text": "Sign in"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "welcome", "done"]);
}

/// A tab a `<select>`'s own handler opens when the run chooses in it: the run makes the
/// choice by script, so the page sees no gesture, yet the tab answers the run's input.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tab_opened_in_answer_to_the_runs_choice_is_followed() {
    let finished = run(workflow(
        "tabs-welcome.html",
        json!([
            done(json!([{"type": "url", "match": "pattern", "value": "/page2\\.html$"}])),
            json!({"name": "welcome", "checks": [{"type": "text", "value": "Welcome"}],
                   "actions": [{"type": "select_option", "target": {"css": "#terms"}, "label": "English"}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "welcome", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switch_tab_goes_back_by_title_with_what_the_other_tab_showed() {
    // The voucher code is shown in a tab of its own; the run reads it there and goes back
    // to the form by its title to type it in. The code's tab stays open behind.
    let finished = run(workflow(
        "tabs-voucher.html",
        json!([
            done(json!([{"type": "text", "value": "Redeemed VX-4711"}])),
            json!({"name": "code", "checks": [{"type": "url", "match": "pattern", "value": "/tabs-code\\.html$"}],
            "actions": [
                {"type": "extract", "target": {"css": "#code"}, "into": "code"},
                {"type": "switch_tab", "tab": {"title": "Voucher form", "match": "exact"}}
            ]}),
            json!({"name": "redeem", "checks": [{"type": "text", "value": "Not redeemed"},
                                         {"type": "variable", "name": "code", "match": "pattern", "value": "."}],
            "actions": [
                {"type": "type", "target": {"role": "textbox", "name": "Voucher code"}, "text": "{{code}}"},
                {"type": "click", "target": {"text": "Redeem"}}
            ]}),
            json!({"name": "form", "checks": [{"type": "text", "value": "Not redeemed"}],
                   "actions": [{"type": "click", "target": {"text": "Show my voucher code"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "form", "code", "redeem", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_advertisement_tab_opened_on_the_runs_click_is_closed_by_an_interrupt_state() {
    // The click that adds to the basket also opens an advertisement in a new tab, which the
    // run follows (it came from the run's own click). An interrupt state recognises it and
    // closes it, going back; the shop checks that it really closed.
    let finished = run(workflow(
        "tabs-popunder.html",
        json!([
            done(json!([{"type": "text", "value": "Checked out"}])),
            json!({"name": "advertisement", "interrupt": true,
                   "checks": [{"type": "url", "match": "pattern", "value": "/page2\\.html$"}],
                   "actions": [{"type": "switch_tab", "close": true}]}),
            json!({"name": "basket", "checks": [{"type": "text", "value": "One item"}],
                   "actions": [{"type": "click", "target": {"text": "Check out"}}]}),
            json!({"name": "shop", "checks": [{"type": "text", "value": "Empty"}],
                   "actions": [{"type": "click", "target": {"text": "Add to basket"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "shop", "advertisement", "basket", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switch_tab_to_a_tab_that_is_not_there_fails_naming_the_tabs_there_are() {
    let finished = run(workflow(
        "tabs.html",
        json!([
            done(json!([{"type": "text", "value": "Never"}])),
            json!({"name": "account", "checks": [{"type": "text", "value": "Not signed in"}],
                   "actions": [{"type": "switch_tab", "tab": {"title": "Nowhere"}}]}),
            json!({"name": "shop", "checks": [{"type": "url", "match": "pattern", "value": "/tabs\\.html$"}],
                   "actions": [{"type": "click", "target": {"text": "Open your account"}}]})
        ]),
        json!({"action_timeout": 1}),
    ))
    .await;
    assert_eq!(finished.report.status, RunStatus::Failed);
    match &finished.report.failure {
        Some(Failure::Action { error, .. }) => assert!(
            error.contains(r#"no tab of the run has title containing "Nowhere""#)
                && error.contains(r#""Tabs" at http"#),
            "the error says what was asked and which tabs there are: {error}"
        ),
        other => panic!("expected the switch to fail, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_tab_no_state_knows_sends_the_run_back_to_the_tab_before() {
    // The same advertisement, with no state for it: once no state has matched for
    // `no_states_timeout`, the run looks back at the tab it was on before, which is a state
    // it knows, and goes on there. The advertisement stays open.
    let mut flow = workflow(
        "tabs-popunder.html?lenient",
        json!([
            done(json!([{"type": "text", "value": "Checked out"}])),
            json!({"name": "basket", "checks": [{"type": "text", "value": "One item"}],
                   "actions": [{"type": "click", "target": {"text": "Check out"}}]}),
            json!({"name": "shop", "checks": [{"type": "text", "value": "Empty"}],
                   "actions": [{"type": "click", "target": {"text": "Add to basket"}}]})
        ]),
        json!({"no_states_timeout": 2}),
    );
    flow["config"]["escalation"] = json!(["reobserve"]);
    let finished = run(flow).await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "shop", "basket", "done"]);
    let looked_back = finished.events.iter().any(|e| {
        matches!(e, Event::Escalated { stage, outcome, resolved: true, .. }
        if stage == "reobserve" && outcome.contains("the tab the run was on before is state `basket`"))
    });
    assert!(
        looked_back,
        "the escalation says where the run went: {:#?}",
        finished.events.iter().filter(|e| matches!(e, Event::Escalated { .. })).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn looking_back_does_not_repeat_the_actions_that_opened_the_tab() {
    // The account's tab is no state; the shop behind it is still the state whose click opened
    // it. Entering the shop again would click again: the run stays on the new tab and fails
    // there (no one reviews), having entered the shop once.
    let mut flow = workflow(
        "tabs.html",
        json!([
            done(json!([{"type": "text", "value": "Never"}])),
            json!({"name": "shop", "checks": [{"type": "url", "match": "pattern", "value": "/tabs\\.html$"}],
                   "actions": [{"type": "click", "target": {"text": "Open your account"}}]})
        ]),
        json!({"no_states_timeout": 1}),
    );
    flow["config"]["escalation"] = json!(["reobserve"]);
    let finished = run(flow).await;
    assert_eq!(finished.states_entered(), ["open", "shop"]);
    match &finished.report.failure {
        Some(Failure::NoState { url, .. }) => {
            assert!(url.ends_with("/tabs-account.html"), "back on the new tab: {url}")
        }
        other => panic!("expected no state to match, got {other:?}"),
    }
    let said = finished.events.iter().any(|e| {
        matches!(e, Event::Escalated { stage, outcome, resolved: false, .. }
        if stage == "reobserve" && outcome.contains("still state `shop`, not entered again"))
    });
    assert!(said, "{:#?}", finished.events.iter().filter(|e| matches!(e, Event::Escalated { .. })).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_runs_other_tabs_are_listed_with_the_tab_before_marked_and_their_titles_kept_short() {
    use statewright_engine::Driver;

    let patience = std::time::Duration::from_secs(5);
    let (mut driver, url, _held) = common::drive("tabs-voucher.html?long-title").await;
    assert_eq!(driver.other_tabs().await, [], "one tab: no other");
    let link = serde_json::from_value(json!({"type": "click", "target": {"text": "Show my voucher code"}})).unwrap();
    driver.perform(&link, patience).await.expect("the link opens the code's tab");
    let listed = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            let tabs = driver.other_tabs().await;
            if !tabs.is_empty() {
                return tabs;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the run follows the new tab");
    driver.close().await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(listed[0].previous && listed[0].url == url, "{listed:?}");
    assert!(listed[0].title.starts_with("Voucher form xxx"), "{:?}", &listed[0].title[..20]);
    assert_eq!(listed[0].title.chars().count(), 300, "a page's title is kept short");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_back_returns_through_the_tabs_history_and_says_when_there_is_nothing_before() {
    use statewright_chrome::ChromeDriver;
    use statewright_engine::{Capture, Driver, DriverError};
    use statewright_workflow::Action;

    let patience = std::time::Duration::from_secs(5);
    let (mut driver, two, _held) = common::drive("page2.html").await;
    let link = serde_json::from_value(json!({"type": "click", "target": {"role": "link", "name": "Back"}})).unwrap();
    driver.perform(&link, patience).await.expect("the link to the playground");
    let url = async |driver: &mut ChromeDriver| driver.observe(Capture::WithoutScreenshot).await.expect("observed").url;
    // The click's navigation is the engine's to wait for, as it waits for the next state.
    let arrived = async {
        while !url(&mut driver).await.ends_with("/playground.html") {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), arrived).await.expect("the link leads on");
    let back = driver.perform(&Action::GoBack {}, patience).await.expect("there is a page before");
    let page = url(&mut driver).await;
    // Then the tab's first page, and nothing before it.
    let mut nothing = Ok(Default::default());
    for _ in 0..3 {
        nothing = driver.perform(&Action::GoBack {}, patience).await;
        if nothing.is_err() {
            break;
        }
    }
    driver.close().await;
    assert_eq!((back.detail.unwrap_or_default(), page), (two.clone(), two), "the link's page is left");
    match nothing {
        Err(DriverError::Invalid(message)) => assert!(message.contains("no page before"), "{message}"),
        other => panic!("expected no page before the first, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popup_opened_blank_is_followed_once_it_goes_to_its_page_not_taken_for_the_start() {
    // Every workflow's start state is `url = about:blank`: a popup followed while still blank
    // was taken for it, and sent to the start page, again and again.
    let finished = run(workflow(
        "tabs-blank.html",
        json!([
            done(json!([{"type": "url", "match": "pattern", "value": "/page2\\.html$"}])),
            json!({"name": "opener", "checks": [{"type": "url", "match": "pattern", "value": "/tabs-blank\\.html$"}],
                   "actions": [{"type": "click", "target": {"css": "#later"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "opener", "done"]);
    let details = finished.details();
    assert!(details.iter().any(|d| d.contains("opened a tab; the run went on in it")), "{details:?}");
    // The engine tells of it as an event of its own, right after the action, and the store
    // keeps it for the run's record.
    let told: Vec<&Event> = finished.events.iter().filter(|e| !matches!(e, Event::Observed { .. })).collect();
    let at = told.iter().position(|e| matches!(e, Event::TabOpened { .. })).expect("a tab_opened event");
    assert!(matches!(told[at - 1], Event::ActionFinished { state, index: 0, .. } if state == "opener"));
    let stored = stored(&finished.events).tabs_opened;
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!((stored[0].state.as_str(), stored[0].index), ("opener", 0));
    assert!(stored[0].url.starts_with("http://127.0.0.1:") && stored[0].url.ends_with("/page2.html"), "{stored:?}");
}

/// A run's events as a store records them (a real SQLite file), read back.
fn stored(events: &[Event]) -> statewright_store::RunDetail {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = statewright_store::Store::open(&statewright_store::Store::default_path(dir.path())).expect("a store");
    let new = statewright_store::NewRun {
        id: "r1",
        workflow_name: "test",
        workflow_json: "{}",
        parameters: &json!({}),
        browser: "chromium",
        workflow_path: None,
    };
    let mut run = store.start_run(&new).expect("the run starts");
    store.record_all(&mut run, events).expect("the events are recorded");
    store.run_detail("r1", false).expect("the run reads back")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blank_tab_that_goes_nowhere_is_not_followed() {
    let finished = run(workflow(
        "tabs-blank.html",
        json!([
            done(json!([{"type": "text", "value": "Opened a blank tab"}])),
            json!({"name": "opener", "checks": [{"type": "text", "value": "Nothing opened"}],
                   "actions": [{"type": "click", "target": {"css": "#never"}}]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "opener", "done"]);
}
