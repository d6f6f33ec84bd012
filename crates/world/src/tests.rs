//! `needs`, and splitting probes between page and desktop and merging the answers back.

use statewright_desktop::Rect;
use statewright_engine::driver::ProbeError;
use statewright_workflow::{SelectorKind, TextMatch};

use super::*;

fn workflow(states: serde_json::Value) -> Workflow {
    serde_json::from_value(json!({"version": 1, "name": "w", "states": states})).expect("a workflow")
}

fn state(checks: serde_json::Value, actions: serde_json::Value) -> serde_json::Value {
    json!({"name": "s", "checks": checks, "actions": actions, "terminal": {"outcome": "success"}})
}

#[test]
fn needs_follows_the_checks_and_actions() {
    let page = workflow(json!([state(json!([{"type": "url", "value": "about:blank"}]), json!([]))]));
    assert_eq!(needs(&page), Needs { browser: true, desktop: false });

    let desktop = workflow(json!([state(
        json!([{"type": "window_title", "value": "x"}]),
        json!([{"type": "type_text", "text": "hi"}, {"type": "wait", "seconds": 1}])
    )]));
    assert_eq!(needs(&desktop), Needs { browser: false, desktop: true });

    let desktop_action_only = workflow(json!([state(
        json!([{"type": "window_exists", "app_class": "XTerm"}]),
        json!([{"type": "launch", "program": "xterm"}])
    )]));
    assert_eq!(needs(&desktop_action_only), Needs { browser: false, desktop: true });

    let mixed = workflow(json!([state(
        json!([{"type": "text", "value": "hello"}]),
        json!([{"type": "key_combo", "keys": "Control+A"}])
    )]));
    assert_eq!(needs(&mixed), Needs { browser: true, desktop: true });

    let wait_only =
        workflow(json!([state(json!([{"type": "title", "value": "t"}]), json!([{"type": "wait", "seconds": 1}]))]));
    assert_eq!(needs(&wait_only), Needs { browser: true, desktop: false });
}

fn text(v: &str) -> Probe {
    Probe::Text { value: v.into(), mode: TextMatch::Contains }
}

fn window(check: WindowProbe, title: &str) -> Probe {
    Probe::Window { check, window: WindowSelector { title: Some(title.into()), ..Default::default() } }
}

#[test]
fn probes_split_by_side_and_merge_back_in_the_original_order() {
    let probes = vec![
        window(WindowProbe::Exists, "a"),
        text("one"),
        window(WindowProbe::Focused, "b"),
        Probe::Element { by: SelectorKind::Css, selector: "#x".into() },
        window(WindowProbe::FocusedTitle, "c"),
    ];
    let split = split(&probes);
    assert_eq!(split.page, vec![probes[1].clone(), probes[3].clone()]);
    assert_eq!(split.page_index, vec![1, 3]);
    assert_eq!(split.window.iter().map(|(i, _)| *i).collect::<Vec<_>>(), vec![0, 2, 4]);

    let page = Signals {
        url: "u".into(),
        title: "t".into(),
        results: vec![true, false],
        errors: vec![ProbeError { index: 1, message: "bad selector".into() }],
    };
    let merged = split.merge(page.clone(), &[Ok(false), Err("bad regex".into()), Ok(true)]);
    assert_eq!(merged.url, "u");
    assert_eq!(merged.title, "t");
    assert_eq!(merged.results, vec![false, true, false, false, true]);
    assert_eq!(
        merged.errors,
        vec![
            ProbeError { index: 2, message: "bad regex".into() },
            ProbeError { index: 3, message: "bad selector".into() },
        ]
    );
    // The page's share of merged signals is what the page reported.
    assert_eq!(split.page_part(&merged), page);
}

#[test]
fn page_only_probes_split_to_the_page_alone() {
    let probes = vec![text("a"), text("b")];
    let split = split(&probes);
    assert!(split.window.is_empty());
    assert_eq!(split.page_index, vec![0, 1]);
}

fn info(id: u32, title: &str, class: &str, focused: bool) -> WindowInfo {
    WindowInfo {
        id,
        title: title.into(),
        app_class: class.into(),
        instance: class.to_lowercase(),
        pid: None,
        geometry: Rect::default(),
        focused,
        visible: true,
    }
}

#[test]
fn window_probes_are_answered_from_the_window_list() {
    let windows = [info(1, "Statewright demo", "XTerm", false), info(2, "Inbox - Mail", "Thunderbird", true)];
    let sel = |title: Option<&str>, mode: TitleMatch, class: Option<&str>| WindowSelector {
        title: title.map(Into::into),
        mode,
        app_class: class.map(Into::into),
    };
    let probe = |check, window| Probe::Window { check, window };
    assert_eq!(
        evaluate(&probe(WindowProbe::Exists, sel(Some("Statewright demo"), TitleMatch::Exact, None)), &windows),
        Ok(true)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::Focused, sel(Some("Statewright demo"), TitleMatch::Exact, None)), &windows),
        Ok(false)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::FocusedTitle, sel(Some("Inbox"), TitleMatch::Contains, None)), &windows),
        Ok(true)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::FocusedTitle, sel(Some("^Inbox"), TitleMatch::Pattern, None)), &windows),
        Ok(true)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::FocusedClass, sel(None, TitleMatch::Exact, Some("thunderBIRD"))), &windows),
        Ok(true)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::Exists, sel(Some("demo"), TitleMatch::Contains, Some("xterm"))), &windows),
        Ok(true)
    );
    assert_eq!(
        evaluate(&probe(WindowProbe::Exists, sel(Some("demo"), TitleMatch::Contains, Some("Thunderbird"))), &windows),
        Ok(false)
    );
    assert!(evaluate(&probe(WindowProbe::Exists, sel(Some("("), TitleMatch::Pattern, None)), &windows).is_err());
}

#[test]
fn desktop_observations_record_the_focused_title_and_the_windows() {
    let windows = vec![info(1, "a", "A", false), info(2, "b", "B", true)];
    let observed = DesktopObservation {
        timestamp_ms: 1,
        screen: Rect::default(),
        focused: Some(windows[1].clone()),
        windows,
        screenshot: None,
    };
    let o = desktop_observation(observed);
    assert_eq!(o.title, "b");
    assert_eq!(o.elements.as_array().map(Vec::len), Some(2));
    assert!(o.text.contains("\"a\""));
}
