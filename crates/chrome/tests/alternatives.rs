//! Element actions report the acted-on element's alternative locators, most stable first,
//! and each of them, used as the target of the same action, acts on the same element: that
//! is what lets a later run heal an action whose own target finds nothing.

mod common;

use std::time::Duration;

use serde_json::{Value, json};
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::{Site, SiteServer};
use statewright_engine::{Driver, Outcome, Probe};
use statewright_workflow::{Action, Target};

const PATIENCE: Duration = Duration::from_secs(5);

/// A browser on the playground fixture page; closed by `close`.
struct Playground {
    driver: ChromeDriver,
    _server: SiteServer,
}

impl Playground {
    async fn open() -> Self {
        let server = SiteServer::start(Site::Dir(common::fixtures()), 0).await.expect("serve fixtures");
        let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
        let url = format!("{}/playground.html", server.url());
        driver.perform(&Action::NavigateTo { url }, PATIENCE).await.expect("the playground loads");
        Self { driver, _server: server }
    }

    async fn act(&mut self, action: Value) -> Outcome {
        let action: Action = serde_json::from_value(action.clone()).expect("a valid action");
        self.driver.perform(&action, PATIENCE).await.unwrap_or_else(|e| panic!("{action:?} fails: {e}"))
    }

    /// Is `text` the whole visible text of some element?
    async fn shows(&mut self, text: &str) -> bool {
        let probe: Probe = serde_json::from_value(json!({"kind": "text", "value": text, "mode": "equals"})).unwrap();
        let signals = self.driver.signals(&[probe], None, PATIENCE, PATIENCE).await.expect("signals");
        signals.results[0]
    }

    async fn close(self) {
        self.driver.close().await;
    }
}

fn targets(value: Value) -> Vec<Target> {
    serde_json::from_value(value).expect("targets")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_by_css_id_reports_alternatives_that_type_into_the_same_field() {
    let mut page = Playground::open().await;
    let outcome = page.act(json!({"type": "type", "target": {"css": "#name"}, "text": "Ada", "clear": true})).await;
    assert_eq!(
        outcome.alternatives,
        targets(json!([{"role": "textbox", "name": "Your name"}, {"css": "body > input"}])),
        "role + name (from the label) first, the position last; the original #name is left out"
    );
    for (i, alternative) in outcome.alternatives.iter().enumerate() {
        let text = format!("via alternative {i}");
        page.act(json!({"type": "type", "target": alternative, "text": text, "clear": true})).await;
        assert!(page.shows(&format!("Name is {text}")).await, "{alternative:?} types into #name");
    }
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicking_by_role_and_name_reports_alternatives_that_click_the_same_button() {
    let mut page = Playground::open().await;
    let outcome = page.act(json!({"type": "click", "target": {"role": "button", "name": "Close dialog"}})).await;
    assert!(page.shows("Dialog closed").await, "the click itself worked");
    assert_eq!(
        outcome.alternatives,
        targets(json!([
            {"css": "button[aria-label=\"Close dialog\"]"},
            {"text": "×"},
            {"css": "body > button:nth-of-type(8)"}
        ])),
        "the original role + name is left out; then aria-label, text, position"
    );
    for alternative in &outcome.alternatives {
        // Hovering another element resets the status, so each click must set it afresh.
        page.act(json!({"type": "hover", "target": {"css": "#hover"}})).await;
        assert!(page.shows("Hovered").await);
        page.act(json!({"type": "click", "target": alternative})).await;
        assert!(page.shows("Dialog closed").await, "{alternative:?} clicks the Close dialog button");
    }
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_element_action_reports_alternatives_and_others_report_none() {
    let mut page = Playground::open().await;
    let select = page.act(json!({"type": "select_option", "target": {"css": "#color"}, "value": "g"})).await;
    assert_eq!(select.detail.as_deref(), Some("g"), "select_option still reports the chosen value");
    assert_eq!(
        select.alternatives,
        targets(json!([{"css": "body > select"}])),
        "an unlabelled select has its position"
    );
    page.act(json!({"type": "select_option", "target": select.alternatives[0], "value": "b"})).await;
    assert!(page.shows("Color b").await, "the position selects in the same <select>");

    for action in [
        json!({"type": "hover", "target": {"css": "#hover"}}),
        json!({"type": "scroll_to", "target": {"css": "#far"}}),
        json!({"type": "wait_for", "target": {"text": "Far away"}}),
        json!({"type": "scroll", "direction": "down", "amount": 10, "target": {"css": "#list"}}),
    ] {
        let outcome = page.act(action.clone()).await;
        assert!(!outcome.alternatives.is_empty(), "{action} reports alternatives");
    }
    let keys = page.act(json!({"type": "press_key", "key": "Tab"})).await;
    assert!(keys.alternatives.is_empty(), "an action without a target has none");
    page.close().await;
}
