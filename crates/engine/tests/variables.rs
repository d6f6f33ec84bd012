//! Run variables on the scripted page: an `extract` sets one that the next action of the
//! same state and the checks of later states see; a pattern narrows what was read and a
//! text it never matches fails the action clearly; a reference to a variable not set yet
//! fails instead of being typed literally; a value that shows a secret is masked.

mod common;

use common::*;
use serde_json::{Value, json};
use statewright_engine::scripted::{Change, ScriptedDriver};
use statewright_engine::{Event, Failure, RunStatus};
use statewright_workflow::{Action, Params};

fn extract(selector: &str, into: &str, extra: Value) -> Value {
    let mut action = json!({ "type": "extract", "target": { "css": selector }, "into": into });
    action.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    action
}

fn variable(name: &str, mode: &str, value: &str) -> Value {
    json!({ "type": "variable", "name": name, "match": mode, "value": value })
}

fn typed(driver: &ScriptedDriver) -> Vec<String> {
    let performed = driver.performed.lock().unwrap();
    performed.iter().filter_map(|a| if let Action::Type { text, .. } = a { Some(text.clone()) } else { None }).collect()
}

fn content(selector: &str, text: &str) -> Change {
    Change::Content(selector.into(), text.into())
}

#[tokio::test(start_paused = true)]
async fn an_extracted_value_feeds_the_next_action_and_the_checks_of_later_states() {
    let wf = workflow(
        json!({}),
        vec![
            state(
                "Order",
                json!([el("#order")]),
                json!([
                    extract("#order", "order_id", json!({ "pattern": r"#(\d+)" })),
                    extract("#total", "total", json!({})),
                    type_into("#note", "order {{order_id}}"),
                    click("#go"),
                ]),
            ),
            // Recognised only once the total was read and is large enough.
            state("Big order", json!([el("#done"), variable("total", "greater_than", "100")]), json!([])),
            success(
                "Small order",
                json!([el("#done"), variable("total", "at_most", "100"), text("order {{order_id}}")]),
            ),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([content("#order", "Thanks! Order #412 is on its way"), content("#total", "$99.50"), show("#note")])
        .with([show("#go")])
        .on("click #go", ms(0), [hide("#order"), show("#done"), show_text("order 412")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.report.end_state.as_deref(), Some("Small order"));
    assert_eq!(typed(&driver), ["order 412"], "the type action after the extract saw the variable");
    assert_eq!(ran.report.outputs, [("order_id".into(), json!("412")), ("total".into(), json!("$99.50"))].into());
    let values: Vec<Option<Value>> = ran
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ActionFinished { value, .. } => Some(value.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(values[..2], [Some(json!("412")), Some(json!("$99.50"))], "each extract's event carries its value");
    let finished = ran.events.iter().find_map(|e| match e {
        Event::RunFinished { outputs, .. } => Some(outputs.clone()),
        _ => None,
    });
    assert_eq!(finished.unwrap(), ran.report.outputs);
}

#[tokio::test(start_paused = true)]
async fn a_pattern_that_never_matches_fails_the_action_after_the_action_timeout() {
    let wf = workflow(
        json!({ "action_timeout": 2 }),
        vec![
            state("Order", json!([el("#order")]), json!([extract("#order", "id", json!({ "pattern": r"#(\d+)" }))])),
            success("Done", json!([el("#done")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([content("#order", "Your order is being placed…")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Action { action, error, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    assert_eq!(action, "extract");
    assert!(
        error.contains(r"the pattern /#(\d+)/ does not match the text") && error.contains("being placed"),
        "{error}"
    );
    let tries = log(&driver).len();
    assert!((20..=60).contains(&tries), "re-read every 50 ms or so for 2 s, not in a hot loop: {tries}");
}

#[tokio::test(start_paused = true)]
async fn a_pattern_matched_late_is_read_once_the_page_fills_it_in() {
    let wf = workflow(
        json!({}),
        vec![
            state(
                "Order",
                json!([el("#order")]),
                json!([extract("#order", "id", json!({ "pattern": r"#(\d+)" })), click("#go")]),
            ),
            success("Done", json!([el("#done"), variable("id", "equals", "77")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([content("#order", "placing…"), show("#go")])
        .at(ms(600), [content("#order", "Order #77 placed")])
        .on("click #go", ms(0), [hide("#order"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.report.outputs["id"], json!("77"));
}

#[tokio::test(start_paused = true)]
async fn a_reference_to_a_variable_not_set_yet_fails_instead_of_typing_it() {
    let wf = workflow(
        json!({}),
        vec![
            state("Form", json!([el("#note")]), json!([type_into("#note", "id {{id}}")])),
            state("Later", json!([el("#never")]), json!([extract("#never", "id", json!({}))])),
            success("Done", json!([el("#done")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#note")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Action { action, error, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    assert_eq!(action, "type");
    assert!(error.contains("`{{id}}` has no value yet"), "{error}");
    assert!(typed(&driver).is_empty(), "nothing was typed");
}

#[tokio::test(start_paused = true)]
async fn a_variable_check_on_an_unset_variable_fails_even_negated() {
    let wf = workflow(
        json!({ "no_states_timeout": 1 }),
        vec![
            state(
                "Either",
                json!([el("#a"), { "type": "variable", "name": "x", "value": "1", "negate": true }]),
                json!([]),
            ),
            state("Reader", json!([el("#b")]), json!([extract("#b", "x", json!({}))])),
            success("Done", json!([el("#done")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#a")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::NoState { closest, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    let either = closest.iter().find(|d| d.state == "Either").unwrap();
    assert_eq!(either.failing, [r#"not variable x = "1" (`x` is not set yet)"#]);
}

#[tokio::test(start_paused = true)]
async fn a_value_that_shows_a_secret_is_masked_in_events_outputs_and_display() {
    let wf = workflow_from(json!({
        "parameters": { "password": { "secret": true, "default": "hunter2" } },
        "states": [
            state("Form", json!([el("#pw")]), json!([extract("#pw", "echo", json!({ "read": "value" })), type_into("#copy", "{{echo}}")])),
            success("Done", json!([el("#done")])),
        ],
    }));
    let mut driver = ScriptedDriver::new(URL).with([content("#pw", "hunter2"), show("#copy")]).on(
        "type #copy",
        ms(0),
        [hide("#pw"), show("#done")],
    );
    let params = Params::bind(&wf, &[]).unwrap();
    let ran = run_with(&wf, &params, &mut driver, Default::default()).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(typed(&driver), ["hunter2"], "the page still gets the real value");
    assert_eq!(ran.report.outputs["echo"], json!(statewright_workflow::params::MASK));
    let recorded = serde_json::to_string(&ran.events).unwrap();
    assert!(!recorded.contains("hunter2"), "no event shows the secret: {recorded}");
}
