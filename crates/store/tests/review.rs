//! The review queue and healing memory, as two processes share them: one store handle
//! for the waiting run, another for the person resolving the review.

use serde_json::json;
use statewright_engine::review::{PendingAction, Tried};
use statewright_engine::{EscalationRequest, Event, Failure, Resolution};
use statewright_store::{Error, NewRun, Store};
use statewright_workflow::{Action, Check, Target, TargetField as Field};

fn request() -> EscalationRequest {
    EscalationRequest {
        workflow: "demo".into(),
        step: 3,
        state: Some("Cart".into()),
        failure: Failure::Action { state: "Cart".into(), index: 1, action: "click".into(), error: "not found".into() },
        reason: "in state `Cart`, action 1 (click) failed: not found".into(),
        tried: vec![Tried {
            stage: "heal".into(),
            outcome: "none of 2 recorded alternatives found the element".into(),
        }],
        action: Some(PendingAction { state: "Cart".into(), index: 1, action: click("#place-order") }),
        observation: None,
        states: vec!["Cart".into(), "Done".into()],
        suggested_checks: Vec::new(),
        unresolved: vec![],
    }
}

fn click(css: &str) -> Action {
    serde_json::from_value(json!({"type": "click", "target": {"css": css}})).unwrap()
}

fn css(selector: &str) -> Target {
    Target { css: Some(selector.into()), ..Target::default() }
}

#[test]
fn a_review_is_opened_by_the_run_and_resolved_from_another_handle() {
    let dir = tempfile::tempdir().unwrap();
    let db = Store::default_path(dir.path());
    let run_side = Store::open(&db).unwrap();
    let mut run = run_side
        .start_run(&NewRun {
            id: "r1",
            workflow_name: "demo",
            workflow_json: "{}",
            parameters: &json!({}),
            browser: "test",
            workflow_path: Some("/tmp/demo.json"),
        })
        .unwrap();
    let id = run_side.open_review("r1", &request()).unwrap();
    assert_eq!(run_side.run("r1").unwrap().status, "needs_human_review");
    assert_eq!(run_side.review_resolution(id).unwrap(), None);

    let person = Store::open(&db).unwrap();
    let mut open = Vec::new();
    person.each_review(false, |item| open.push(item.unwrap())).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].summary.workflow_path.as_deref(), Some("/tmp/demo.json"));
    assert_eq!(open[0].request.action.as_ref().map(|a| a.index), Some(1));
    assert!(matches!(person.resolve_review(id + 1, &Resolution::Retry, None), Err(Error::UnknownReview(_))));
    person.resolve_review(id, &Resolution::Skip, None).unwrap();
    assert!(
        matches!(person.resolve_review(id, &Resolution::Retry, None), Err(Error::ReviewClosed { .. })),
        "a review is resolved once"
    );
    assert_eq!(run_side.review_resolution(id).unwrap(), Some(Resolution::Skip));
    assert_eq!(run_side.run("r1").unwrap().status, "running");
    assert!(person.review_summaries(false).unwrap().is_empty());
    assert_eq!(person.review_summaries(true).unwrap()[0].status, "resolved");

    // Healing memory: alternatives recorded per workflow, healed locators per run.
    let finished = Event::ActionFinished {
        step: 1,
        state: "Cart".into(),
        index: 1,
        action: click("#place-order"),
        elapsed_ms: 1,
        duration_ms: 1,
        attempts: 1,
        detail: None,
        error: None,
        alternatives: vec![css("[data-testid=\"place\"]"), css("#alt")],
        to_alternatives: Vec::new(),
        artifact: None,
        value: None,
    };
    run_side.record(&mut run, &finished).unwrap();
    // A drag keeps the alternatives of the element it let go on too.
    let dragged = Event::ActionFinished {
        step: 1,
        state: "Cart".into(),
        index: 2,
        action: serde_json::from_value(json!({"type": "drag", "target": {"css": "#card"}, "to": {"css": "#done"}}))
            .unwrap(),
        elapsed_ms: 2,
        duration_ms: 1,
        attempts: 1,
        detail: None,
        error: None,
        alternatives: vec![css("#card-alt")],
        to_alternatives: vec![css("#done-alt")],
        artifact: None,
        value: None,
    };
    run_side.record(&mut run, &dragged).unwrap();
    let memory = run_side.locators("demo").unwrap();
    let alternatives = |index, field, target: &str| memory.alternatives("Cart", index, field, &css(target)).to_vec();
    assert_eq!(alternatives(1, Field::Target, "#place-order"), [css("[data-testid=\"place\"]"), css("#alt")]);
    assert!(alternatives(1, Field::Target, "#other").is_empty(), "only for the target they were recorded for");
    assert_eq!(alternatives(2, Field::Target, "#card"), [css("#card-alt")]);
    assert_eq!(alternatives(2, Field::To, "#done"), [css("#done-alt")], "the drop zone's, kept apart");
    assert!(alternatives(2, Field::To, "#card").is_empty());
    let healed = |index, field, from: &str, to: &str| Event::Healed {
        step: 2,
        state: "Cart".into(),
        index,
        field,
        from: css(from),
        to: css(to),
    };
    run_side.record(&mut run, &healed(1, Field::Target, "#place-order", "#alt")).unwrap();
    assert_eq!(run_side.healed("r1").unwrap()[0].to, css("#alt"));
    // Both elements of one drag healed in one run are two proposed changes.
    run_side.record(&mut run, &healed(2, Field::To, "#done", "#done-alt")).unwrap();
    run_side.record(&mut run, &healed(2, Field::Target, "#card", "#card-alt")).unwrap();
    let mut fields =
        run_side.healed("r1").unwrap().iter().map(|h| (h.index, h.field.name(), h.to.css.clone())).collect::<Vec<_>>();
    fields.sort(); // healed in the same millisecond: their order is not the point here
    let css_of = |s: &str| Some(s.to_owned());
    assert_eq!(
        fields,
        [(1, "target", css_of("#alt")), (2, "target", css_of("#card-alt")), (2, "to", css_of("#done-alt"))]
    );
    // A past run shows its heals where they happened.
    let detail = person.run_detail("r1", false).unwrap();
    let step_and_target = |h: &statewright_store::Healed| (h.step, h.state.clone(), h.index, h.to.clone());
    assert_eq!(detail.healed.iter().map(step_and_target).next(), Some((Some(2), "Cart".into(), 1, css("#alt"))));
    let check = |selector: &str| Check::Element { by: Default::default(), selector: selector.into(), negate: false };
    let healed_check =
        Event::CheckHealed { step: 3, state: "Home".into(), index: 0, from: check("#a"), to: check("#b") };
    run_side.record(&mut run, &healed_check).unwrap();
    let detail = person.run_detail("r1", false).unwrap();
    assert_eq!(detail.healed_checks.len(), 1);
    assert_eq!((detail.healed_checks[0].step, detail.healed_checks[0].to.clone()), (Some(3), check("#b")));
    assert_eq!(detail.run.heals, 4, "the run's summary counts locators and checks");
}

#[test]
fn a_review_of_a_run_whose_process_died_cannot_be_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let db = Store::default_path(dir.path());
    let store = Store::open(&db).unwrap();
    let run = store
        .start_run(&NewRun {
            id: "r2",
            workflow_name: "demo",
            workflow_json: "{}",
            parameters: &json!({}),
            browser: "test",
            workflow_path: None,
        })
        .unwrap();
    let id = store.open_review("r2", &request()).unwrap();
    drop(run); // the run's process is gone: its lock is released
    let err = store.resolve_review(id, &Resolution::Retry, None).unwrap_err();
    assert!(matches!(err, Error::RunNotWaiting { .. }), "{err}");
    // The next open marks the run interrupted and closes its review.
    let reopened = Store::open(&db).unwrap();
    assert_eq!(reopened.run("r2").unwrap().status, "interrupted");
    assert_eq!(reopened.review(id).unwrap().summary.status, "cancelled");
}

#[test]
fn review_ids_are_never_reused_after_a_prune() {
    let store = Store::open_in_memory().unwrap();
    let parameters = json!({});
    let new_run = |id: &'static str| NewRun {
        id,
        workflow_name: "demo",
        workflow_json: "{}",
        parameters: &parameters,
        browser: "test",
        workflow_path: None,
    };
    let first_run = store.start_run(&new_run("r1")).unwrap();
    let first = store.open_review("r1", &request()).unwrap();
    store.abort_run(first_run, "done with it").unwrap();
    let report = store.prune(statewright_store::PruneBy::Keep(0)).unwrap();
    assert_eq!(report.runs, 1, "the finished run and its review are gone");
    let _second_run = store.start_run(&new_run("r2")).unwrap();
    let second = store.open_review("r2", &request()).unwrap();
    assert!(second > first, "review {second} must not reuse the id of pruned review {first}");
}

#[test]
fn a_past_run_keeps_its_retries_where_they_happened() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&Store::default_path(dir.path())).unwrap();
    let new = NewRun {
        id: "r1",
        workflow_name: "demo",
        workflow_json: "{}",
        parameters: &json!({}),
        browser: "test",
        workflow_path: None,
    };
    let mut run = store.start_run(&new).unwrap();
    assert_eq!(store.run("r1").unwrap().retries, 0);
    for attempt in 1..=2 {
        let retry = Event::Retrying {
            step: 4,
            state: "Cart".into(),
            attempt,
            max: 2,
            reason: format!("still in `Cart` ({attempt})"),
        };
        store.record(&mut run, &retry).unwrap();
    }
    let detail = store.run_detail("r1", false).unwrap();
    let seen: Vec<_> =
        detail.retries.iter().map(|r| (r.step, r.state.as_str(), r.attempt, r.max, r.reason.as_str())).collect();
    assert_eq!(seen, [(4, "Cart", 1, 2, "still in `Cart` (1)"), (4, "Cart", 2, 2, "still in `Cart` (2)")]);
    assert_eq!(detail.run.retries, 2, "the run's summary counts them");
    assert_eq!(store.list_runs(&Default::default()).unwrap()[0].retries, 2);
}
